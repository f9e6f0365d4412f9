"""Generate ``unicode_tables.cpp`` / ``unicode_tables.hpp``: the character classes of the
pre-tokenizer scanners (``pretokenize.cpp``).

Regenerate (from the repository root, in the development environment)::

    python codetok/_native/gen_unicode_tables.py

and commit both outputs; the build never runs this script.

Why the tables are pinned to the ``regex`` module: the reference pipeline splits text with
patterns compiled by ``codetok._regex.compile_onig`` (the ``regex`` module), so a native
scanner equals the reference only if it classifies every code point exactly as *that*
engine does. Every property is therefore asked of ``regex`` itself, code point by code
point over 0..0x10FFFF (lone surrogates included), through ``compile_onig`` and with the
same flags as the reference patterns. ``regex`` carries its own Unicode database, which
is usually newer than the interpreter's ``unicodedata`` (``unicodedata.unidata_version``
says nothing about it) and does not report its version; this script finds it by asking
which Unicode version's newly assigned characters ``regex`` knows, and records it with the
``regex`` version in the generated header. When ``regex`` is upgraded, rerun the script:
the differential tests (``tests/test_native_scanners.py``) fail until the tables match.

What is emitted:

- ``uprops(cp)``: one byte of flags per code point (``kL`` = ``\\p{L}``, ``kN`` =
  ``\\p{N}``, ``kWS`` = ``\\s``, ``kUpperish`` = ``[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]``,
  ``kLowerish`` = ``[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]``, ``kM`` = ``\\p{M}``), from a
  two-stage table: an index of deduplicated blocks, then the blocks. Bit 6 is set in every
  entry so the blocks are printable and can be stored as one string literal.
- ``contraction_letter(cp)``: which of the letters of ``'s 't 're 've 'm 'll 'd`` the
  code point matches under ``(?i:...)`` (``regex`` folds case simply: U+017F LATIN SMALL
  LETTER LONG S matches ``s``), or 0.

The script also asserts the facts about the classes that the scanners rely on (for
example that ``\\s`` holds no letter, digit or mark, and that ``\\r`` and ``\\n`` are in
``\\s``), so a future Unicode version that broke one would stop here, not miscompile.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import regex

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from codetok._regex import compile_onig  # noqa: E402

N_CP = 0x110000

# (flag name, bit, class as written in the reference patterns)
FLAGS = [
    ("kL", 1, r"\p{L}"),
    ("kN", 2, r"\p{N}"),
    ("kWS", 4, r"\s"),
    ("kUpperish", 8, r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
    ("kLowerish", 16, r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
    ("kM", 32, r"\p{M}"),
]
ALWAYS = 64  # set in every entry: the blocks stay printable (0x40..0x7f)

CONTRACTION_LETTERS = "sdmtlvre"

# Characters first assigned in a Unicode version: the newest one ``regex`` knows is its
# Unicode version.
UNICODE_PROBES = [
    ("13.0", [0x10E80, 0x1FAD0]),  # Yezidi, a food emoji
    ("14.0", [0x1E290, 0x10F70]),  # Toto, Old Uyghur
    ("15.0", [0x11F00, 0x1E4D0]),  # Kawi, Nag Mundari
    ("15.1", [0x2EBF0, 0x2EE5D]),  # CJK Unified Ideographs Extension I
    ("16.0", [0x10D40, 0x1C89]),  # Garay, CYRILLIC CAPITAL LETTER TJE
    ("17.0", [0x10940, 0x1E6C0]),  # Sidetic, Tai Yo
]


@functools.lru_cache(maxsize=1)
def all_code_points() -> str:
    return "".join(map(chr, range(N_CP)))


def members(cls: str) -> list[int]:
    """The code points a one-character class matches, as compiled for the reference."""
    out: list[int] = []
    for m in compile_onig(cls + "+").finditer(all_code_points()):
        out.extend(range(*m.span()))
    return out


def unicode_version() -> str:
    assigned = regex.compile(r"\p{Assigned}")
    found = "unknown (older than 13.0)"
    for version, cps in UNICODE_PROBES:
        if all(assigned.match(chr(c)) for c in cps):
            found = version
    return found


def compute_flags() -> bytearray:
    flags = bytearray([ALWAYS]) * N_CP
    for _, bit, cls in FLAGS:
        for c in members(cls):
            flags[c] |= bit
    return flags


def check_assumptions(flags: bytearray) -> None:
    """Facts about the classes that pretokenize.cpp relies on."""
    bit = {name: b for name, b, _ in FLAGS}
    L, N, WS, UP, LO, M = (bit[k] for k in ("kL", "kN", "kWS", "kUpperish", "kLowerish", "kM"))
    lu_lt = set(members(r"[\p{Lu}\p{Lt}]"))
    ll = set(members(r"\p{Ll}"))
    lm_lo = set(members(r"[\p{Lm}\p{Lo}]"))
    not_ws = set(members(r"\S"))
    for c in range(N_CP):
        f = flags[c]
        # The three top-level classes are disjoint; marks are none of them.
        assert bin(f & (L | N | WS)).count("1") <= 1, hex(c)
        assert not (f & M and f & (L | N | WS)), hex(c)
        # Upperish / lowerish are letters and marks, split by case as the patterns say.
        assert bool(f & (UP | LO)) == bool(f & (L | M)), hex(c)
        assert bool(f & UP and not f & LO) == (c in lu_lt), hex(c)
        assert bool(f & LO and not f & UP) == (c in ll), hex(c)
        assert bool(f & UP and f & LO) == (c in lm_lo or bool(f & M)), hex(c)
        # \S is exactly the complement of \s.
        assert (c in not_ws) != bool(f & WS), hex(c)
    for ch in "\r\n\t ":
        assert flags[ord(ch)] & WS, repr(ch)
    for ch in "'/!":
        assert not flags[ord(ch)] & (L | N | WS | M), repr(ch)
    for ch in "sdmtlvreSDMTLVRE":
        assert flags[ord(ch)] & L, ch
    # The blocks are stored as a string literal: never a backslash, quote or '?'.
    assert all(0x40 <= f < 0x7F and f != 0x5C for f in set(flags))


def contraction_letters() -> dict[int, str]:
    out: dict[int, str] = {}
    for letter in CONTRACTION_LETTERS:
        cps = members(f"(?i:{letter})")
        # cl100k writes [sdmt] as a class: the same code points must match.
        assert cps == members(f"(?i:[{letter}])"), letter
        for c in cps:
            assert c not in out, hex(c)
            out[c] = letter
    return out


def best_tables(flags: bytearray) -> tuple[int, list[int], list[bytes]]:
    """The block size (as a shift) with the smallest index + blocks."""
    best = None
    for shift in (7, 8):
        size = 1 << shift
        ids: dict[bytes, int] = {}
        index = [ids.setdefault(bytes(flags[b : b + size]), len(ids)) for b in range(0, N_CP, size)]
        if len(ids) > 256:
            continue
        cost = len(index) + len(ids) * size
        if best is None or cost < best[0]:
            best = (cost, shift, index, list(ids))
    assert best is not None
    _, shift, index, blocks = best
    assert index[0] == 0  # ASCII lives in block 0 (the scanners' fast path relies on it)
    return shift, index, blocks


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="ascii", newline="\n")
    print(f"wrote {path} ({len(text)} bytes)")


def main() -> None:
    flags = compute_flags()
    check_assumptions(flags)
    letters = contraction_letters()
    shift, index, blocks = best_tables(flags)
    # The tables give back exactly the flags.
    for c in range(N_CP):
        assert blocks[index[c >> shift]][c & ((1 << shift) - 1)] == flags[c]

    uver = unicode_version()
    head = (
        "// GENERATED by codetok/_native/gen_unicode_tables.py; do not edit.\n"
        f"// Source: the Python `regex` module {regex.__version__} "
        f"(its Unicode database: {uver}).\n"
    )

    flag_lines = "\n".join(
        f"constexpr uint8_t {name} = {bit};  // {cls}" for name, bit, cls in FLAGS
    )
    cases: dict[str, list[int]] = {}
    for c, letter in sorted(letters.items()):
        cases.setdefault(letter, []).append(c)
    switch = "\n".join(
        "        " + " ".join(f"case 0x{c:X}:" for c in cps) + f"\n            return '{letter}';"
        for letter, cps in cases.items()
    )
    hpp = f"""{head}//
// Character classes of the pre-tokenizer scanners, exactly as the reference regexes
// (compiled by codetok._regex.compile_onig) see them. See gen_unicode_tables.py.
#pragma once

#include <cstddef>
#include <cstdint>

namespace codetok {{

constexpr const char* kTablesRegexVersion = "{regex.__version__}";
constexpr const char* kTablesUnicodeVersion = "{uver}";

// Flag bits of uprops().
{flag_lines}
constexpr uint8_t kAlwaysSet = {ALWAYS};  // set in every entry (keeps the table printable)

namespace unicode_detail {{
constexpr unsigned kShift = {shift};
constexpr uint32_t kMask = (1u << kShift) - 1;
extern const uint8_t kIndex[{len(index)}];     // block number of each {1 << shift} code points
extern const char kBlocks[{len(blocks) * (1 << shift) + 1}];  // the blocks (a string literal)
}}  // namespace unicode_detail

// The flags of one code point (lone surrogates included; above U+10FFFF: none).
inline uint8_t uprops(uint32_t cp) {{
    using namespace unicode_detail;
    if (cp > 0x10FFFF) return kAlwaysSet;
    const size_t block = kIndex[cp >> kShift];
    return static_cast<uint8_t>(kBlocks[(block << kShift) | (cp & kMask)]);
}}

// Flags of an ASCII code point (cp < 0x80): ASCII is block 0.
inline uint8_t uprops_ascii(uint32_t cp) {{
    return static_cast<uint8_t>(unicode_detail::kBlocks[cp]);
}}

// The letter of the contractions 's 't 're 've 'm 'll 'd that `cp` matches under (?i:...)
// in the reference engine, or 0.
inline char contraction_letter(uint32_t cp) {{
    switch (cp) {{
{switch}
        default:
            return 0;
    }}
}}

}}  // namespace codetok
"""

    index_lines = []
    for k in range(0, len(index), 32):
        index_lines.append("    " + ",".join(str(v) for v in index[k : k + 32]) + ",")
    block_lines = []
    for b, blk in enumerate(blocks):
        text = blk.decode("ascii")
        half = len(text) // 2
        block_lines.append(f'    /* {b} */ "{text[:half]}"\n           "{text[half:]}"')
    cpp = f"""{head}
#include "unicode_tables.hpp"

namespace codetok {{
namespace unicode_detail {{

const uint8_t kIndex[{len(index)}] = {{
{chr(10).join(index_lines)}
}};

const char kBlocks[{len(blocks) * (1 << shift) + 1}] =
{chr(10).join(block_lines)};

}}  // namespace unicode_detail
}}  // namespace codetok
"""
    write(HERE / "unicode_tables.hpp", hpp)
    write(HERE / "unicode_tables.cpp", cpp)


if __name__ == "__main__":
    main()
