"""Generate ``unicode_tables.cpp`` / ``unicode_tables.hpp`` (the character classes of the
pre-tokenizer scanners, ``pretokenize.cpp``) and ``codetok/unicode/generated/classes.py`` (the same
Unicode version's property classes for the Python reference regexes, ``codetok.unicode.hf_regex``).

Regenerate (from the repository root, in the development environment, with the dev extras
``tiktoken`` and ``tokenizers`` installed)::

    python tools/gen_unicode_tables.py

and commit the three outputs; the build never runs this script.

Why the classes are pinned to the reference libraries' Unicode version: codetok must cut
text exactly as tiktoken and HF ``tokenizers`` do, and a regex class such as ``\\p{L}``
holds whatever the engine's Unicode database says. tiktoken (``fancy-regex`` over the
``regex-syntax`` crate's tables) and HF ``tokenizers`` (Oniguruma) agree on every code point
and both carry Unicode 16.0 (:data:`PINNED_UNICODE`); the Python ``regex`` module carries its
own, newer, database (Unicode 18.0 in ``regex`` 2026.11.15), which knows ~17,500 more letters,
numbers and marks and moves U+0295 from Ll to Lo. So every class is asked of the references
themselves, code point by code point over 0..0x10FFFF:

- **tiktoken** is the source: a ``tiktoken.Encoding`` whose pattern is just the class and
  whose ranks are the 256 single bytes drops the text the pattern does not match, so
  encoding every code point and decoding the ids gives exactly the members.
- **HF tokenizers** must agree on every code point (``Split(Regex(cls), "removed",
  invert=True)`` keeps exactly the members); the script stops if it does not.
- **Lone surrogates**, which neither Rust nor Oniguruma accepts, come from ``regex``:
  they are in no class but ``\\S``.
- ``\\s`` and the ``(?i:...)`` contraction letters are taken from ``regex`` as before; the
  script checks that tiktoken and HF agree on them.

Each engine's Unicode version is found by asking which Unicode version's newly assigned
characters it knows (``\\p{Cn}``, probes up to 18.0); the references' must be
:data:`PINNED_UNICODE`. The versions of tiktoken, tokenizers and regex are recorded in the
generated files. When a reference library moves to another Unicode version, change
:data:`PINNED_UNICODE` and rerun; ``tests/unicode/test_unicode_parity.py`` fails until then.

What is emitted:

- ``uprops(cp)``: one byte of flags per code point (``kL`` = ``\\p{L}``, ``kN`` =
  ``\\p{N}``, ``kWS`` = ``\\s``, ``kUpperish`` = ``[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]``,
  ``kLowerish`` = ``[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]``, ``kM`` = ``\\p{M}``), from a
  two-stage table: an index of deduplicated blocks, then the blocks. Bit 6 is set in every
  entry so the blocks are printable and can be stored as one string literal.
- ``contraction_letter(cp)``: which of the letters of ``'s 't 're 've 'm 'll 'd`` the
  code point matches under ``(?i:...)`` (``regex`` folds case simply: U+017F LATIN SMALL
  LETTER LONG S matches ``s``), or 0.
- ``codetok/unicode/generated/classes.py``: the members of ``\\p{L}``, ``\\p{N}``, ``\\p{M}``,
  ``\\p{Lu}``, ``\\p{Ll}``, ``\\p{Lt}``, ``\\p{Lm}``, ``\\p{Lo}`` as compact ranges, and the
  code points where the installed ``regex`` classifies any of them differently
  (``codetok.unicode.hf_regex`` rewrites those properties with them).

The script also asserts the facts about the classes that the scanners rely on (for
example that ``\\s`` holds no letter, digit or mark, and that ``\\r`` and ``\\n`` are in
``\\s``), so a future Unicode version that broke one would stop here, not miscompile.
"""

from __future__ import annotations

import functools
import sys
import textwrap
from pathlib import Path

import regex
import tiktoken
import tokenizers

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "codetok" / "_native" / "tables"
sys.path.insert(0, str(ROOT))

from codetok.unicode.hf_regex import ranges_of  # noqa: E402  (the same ranges the reference uses)

N_CP = 0x110000
SURROGATES = range(0xD800, 0xE000)

#: The Unicode version of tiktoken's and HF tokenizers' character classes.
PINNED_UNICODE = "16.0"

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

#: General categories written to codetok/unicode/generated/classes.py (what the patterns use).
PY_CLASSES = ["L", "N", "M", "Lu", "Ll", "Lt", "Lm", "Lo"]

# Characters first assigned in a Unicode version: the newest one an engine knows is its
# Unicode version.
UNICODE_PROBES = [
    ("13.0", [0x10E80, 0x1FAD0]),  # Yezidi, a food emoji
    ("14.0", [0x1E290, 0x10F70]),  # Toto, Old Uyghur
    ("15.0", [0x11F00, 0x1E4D0]),  # Kawi, Nag Mundari
    ("15.1", [0x2EBF0, 0x2EE5D]),  # CJK Unified Ideographs Extension I
    ("16.0", [0x10D40, 0x1C89]),  # Garay, CYRILLIC CAPITAL LETTER TJE
    ("17.0", [0x10940, 0x1E6C0]),  # Sidetic, Tai Yo
    ("18.0", [0x3D000, 0x18E00]),  # Small Seal, Jurchen
]

BYTE_RANKS = {bytes([b]): b for b in range(256)}


@functools.lru_cache(maxsize=1)
def all_code_points() -> str:
    return "".join(map(chr, range(N_CP)))


@functools.lru_cache(maxsize=1)
def scalar_values() -> str:
    """Every code point but the surrogates (what tiktoken and HF accept)."""
    return "".join(chr(c) for c in range(N_CP) if c not in SURROGATES)


def regex_members(cls: str, text: str | None = None) -> set[int]:
    """The code points a one-character class matches in ``regex`` itself (its own Unicode
    database: this is what ``compile_onig`` gave before it pinned the classes)."""
    out: set[int] = set()
    for m in regex.compile(cls + "+").finditer(all_code_points() if text is None else text):
        out.update(range(*m.span()))
    if text is not None:  # spans index text, not code points
        return {ord(text[i]) for i in out}
    return out


def tiktoken_members(cls: str, text: str) -> set[int]:
    enc = tiktoken.Encoding("class", pat_str=cls, mergeable_ranks=BYTE_RANKS, special_tokens={})
    return set(map(ord, bytes(enc.encode_ordinary(text)).decode("utf-8")))


def hf_members(cls: str, text: str) -> set[int]:
    split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(cls), "removed", invert=True)
    return {ord(ch) for piece, _ in split.pre_tokenize_str(text) for ch in piece}


@functools.cache
def members(cls: str) -> frozenset[int]:
    """The code points a class holds as the references see it: tiktoken's members, checked
    against HF's, and the lone surrogates ``regex`` puts in it."""
    tk = tiktoken_members(cls, scalar_values())
    hf = hf_members(cls, scalar_values())
    assert tk == hf, f"{cls}: tiktoken and HF differ at {sorted(tk ^ hf)[:20]}"
    sur = "".join(map(chr, SURROGATES))
    return frozenset(tk | regex_members(cls, sur))


def unicode_version(unassigned) -> str:
    """The newest Unicode version whose probe characters ``unassigned`` does not report."""
    found = "unknown (older than 13.0)"
    for version, cps in UNICODE_PROBES:
        if not unassigned("".join(map(chr, cps))):
            found = version
    return found


def unicode_versions() -> dict[str, str]:
    cn = r"\p{Cn}"
    return {
        "tiktoken": unicode_version(lambda t: tiktoken_members(cn, t)),
        "tokenizers": unicode_version(lambda t: hf_members(cn, t)),
        "regex": unicode_version(lambda t: {c for c in map(ord, t) if regex.match(cn, chr(c))}),
    }


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
        # regex (the reference pipeline) folds alike.
        assert cps == regex_members(f"(?i:{letter})"), letter
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


def compact(cps) -> str:
    """Code points as space-separated hex ranges: ``"41-5A 61-7A AA"``."""
    return " ".join(f"{a:X}" if a == b else f"{a:X}-{b:X}" for a, b in ranges_of(cps))


def write_python_classes(classes: dict[str, frozenset[int]], provenance: str) -> None:
    """codetok/unicode/generated/classes.py: the pinned classes, and where ``regex`` differs."""
    delta: set[int] = set()
    for name, cps in classes.items():
        delta |= set(cps) ^ regex_members(rf"\p{{{name}}}")
    lines = [
        '"""GENERATED by tools/gen_unicode_tables.py; do not edit.',
        "",
        f"The general-category classes of the reference libraries (Unicode {PINNED_UNICODE}):",
        *textwrap.wrap(provenance + ".", 92),
        "``codetok.unicode.hf_regex.pin_properties`` compiles ``\\\\p{..}`` of these classes to them.",
        '"""',
        "",
        f'UNICODE_VERSION = "{PINNED_UNICODE}"',
        "",
        "#: The ``regex`` version :data:`REGEX_DELTA` was computed for.",
        f'REGEX_VERSION = "{regex.__version__}"',
        "",
        "#: Class -> its members, as hex ranges (``first-last``) and code points.",
        "RANGES = {",
    ]
    for name, cps in classes.items():
        text = compact(cps)
        if len(text) <= 84:
            lines.append(f'    "{name}": "{text}",')
            continue
        lines.append(f'    "{name}": (')
        while text:
            cut = text.rfind(" ", 0, 84) if len(text) > 84 else len(text)
            lines.append(f'        "{text[:cut]}{" " if cut < len(text) else ""}"')
            text = text[cut + 1 :]
        lines.append("    ),")
    lines += [
        "}",
        "",
        "#: The code points where ``regex`` :data:`REGEX_VERSION` puts any of these classes'",
        f"#: members elsewhere than Unicode {PINNED_UNICODE} does ({len(delta)} code points).",
        "REGEX_DELTA = (",
    ]
    text = compact(delta)
    while text:
        cut = text.rfind(" ", 0, 84) if len(text) > 84 else len(text)
        lines.append(f'    "{text[:cut]}{" " if cut < len(text) else ""}"')
        text = text[cut + 1 :]
    lines.append(")")
    write(ROOT / "codetok" / "unicode" / "generated" / "classes.py", "\n".join(lines) + "\n")


def check_python_pinned(classes: dict[str, frozenset[int]], flags: bytearray) -> None:
    """After writing unicode/generated/classes.py: compile_onig gives exactly the pinned classes."""
    import importlib

    import codetok.unicode.generated.classes
    import codetok.unicode.hf_regex

    importlib.reload(codetok.unicode.generated.classes)
    importlib.reload(codetok.unicode.hf_regex)
    for name, cps in classes.items():
        for cls in (rf"\p{{{name}}}", rf"[\p{{{name}}}]", rf"\P{{{name}}}", rf"[^\P{{{name}}}]"):
            got = set()
            for m in codetok.unicode.hf_regex.compile_onig(cls + "+").finditer(all_code_points()):
                got.update(range(*m.span()))
            want = set(cps) if "P" not in cls else set(range(N_CP)) - set(cps)
            if cls.startswith("[^"):
                want = set(cps)
            assert got == want, (cls, sorted(got ^ want)[:20])
    for _, bit, cls in FLAGS:
        got = set()
        for m in codetok.unicode.hf_regex.compile_onig(cls + "+").finditer(all_code_points()):
            got.update(range(*m.span()))
        assert got == {c for c in range(N_CP) if flags[c] & bit}, cls


def main() -> None:
    versions = unicode_versions()
    assert versions["tiktoken"] == versions["tokenizers"] == PINNED_UNICODE, versions
    flags = compute_flags()
    check_assumptions(flags)
    # \s is regex's (the references agree off the surrogates).
    assert members(r"\s") == regex_members(r"\s")
    letters = contraction_letters()
    shift, index, blocks = best_tables(flags)
    # The tables give back exactly the flags.
    for c in range(N_CP):
        assert blocks[index[c >> shift]][c & ((1 << shift) - 1)] == flags[c]

    provenance = (
        f"tiktoken {tiktoken.__version__} (fancy-regex / regex-syntax) and HF tokenizers "
        f"{tokenizers.__version__} (Oniguruma) agree on every code point; lone surrogates "
        f"from regex {regex.__version__} (Unicode {versions['regex']})"
    )
    head = (
        "// GENERATED by tools/gen_unicode_tables.py; do not edit.\n"
        f"// Unicode {PINNED_UNICODE}: the classes of tiktoken {tiktoken.__version__} and HF "
        f"tokenizers {tokenizers.__version__},\n"
        "// which agree on every code point; lone surrogates (which neither accepts) and \\s "
        f"from\n// the Python `regex` module {regex.__version__} "
        f"(its own Unicode database: {versions['regex']}).\n"
    )
    classes = {name: members(rf"\p{{{name}}}") for name in PY_CLASSES}
    assert classes["L"] == frozenset().union(*(classes[k] for k in ("Lu", "Ll", "Lt", "Lm", "Lo")))
    write_python_classes(classes, provenance)
    check_python_pinned(classes, flags)

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
// Character classes of the pre-tokenizer scanners, exactly as tiktoken, HF tokenizers and
// the reference regexes (codetok.unicode.hf_regex.compile_onig, pinned to the same Unicode version)
// see them. See gen_unicode_tables.py.
#pragma once

#include <cstddef>
#include <cstdint>

namespace codetok {{

constexpr const char* kTablesUnicodeVersion = "{PINNED_UNICODE}";
constexpr const char* kTablesTiktokenVersion = "{tiktoken.__version__}";
constexpr const char* kTablesTokenizersVersion = "{tokenizers.__version__}";
constexpr const char* kTablesRegexVersion = "{regex.__version__}";  // lone surrogates, \\s

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
// in the reference engines, or 0.
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
#include "tables/unicode_tables.hpp"

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
    write(TABLES / "unicode_tables.hpp", hpp)
    write(TABLES / "unicode_tables.cpp", cpp)


if __name__ == "__main__":
    main()
