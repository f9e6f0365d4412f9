"""Generate ``bert_tables.cpp`` (the per-code-point data of the BERT normalizer and
pre-tokenizer, API in ``bert_tables.hpp``) and its Python twin ``codetok/unicode/generated/bert_tables.py``.

Regenerate (from the repository root, in the development environment, with the dev extra
``tokenizers`` installed)::

    python tools/gen_bert_tables.py

and commit the two outputs; the build never runs this script.

Why the data is pinned to HF ``tokenizers`` itself: its BERT components read character
classes from Rust crates of different ages. ``BertNormalizer``'s clean_text and the
pre-tokenizers' punctuation come from an old general-category table (it keeps unassigned
code points, keeps U+0890 and U+13430 that later versions made format characters, and does
not know U+2E43 as punctuation); strip_accents uses an old NFD and non-spacing-mark table
(no decomposition of U+11938, 1549 marks); lowercase is Rust's own ``char::to_lowercase``
(newer than Python 3.11's ``str.lower`` on 55 code points). Python's ``unicodedata`` and the
``regex`` module differ from all of these, and change with their versions. So every table
is asked of HF code point by code point over 0..0x10FFFF (the surrogates excepted: Rust
strings cannot hold them, and they get no flags, like any plain character):

- ``kDrop``: ``BertNormalizer(clean_text=True, handle_chinese_chars=False,
  strip_accents=False, lowercase=False)`` maps the char to ``""``.
- ``kSpace``: ``BertPreTokenizer`` splits ``"a" + c + "b"`` into ``a``, ``b`` (Rust's
  ``char::is_whitespace``). The same normalizer maps exactly these to ``" "``, except
  U+000B, U+000C, U+0085, which are controls and so dropped first (kDrop wins).
- ``kPunct``: ``BertPreTokenizer`` cuts ``"a" + c + "b"`` into ``a``, ``c``, ``b``;
  ``pre_tokenizers.Punctuation()`` must agree on every code point.
- ``kMark``: an NFD-stable char that ``BertNormalizer(clean_text=False,
  handle_chinese_chars=False, strip_accents=True, lowercase=False)`` deletes. For a char
  that decomposes, that normalizer must give its NFD minus the kMark chars.
- ``kDecomposes`` / NFD: ``normalizers.NFD()`` of the char, where it is not the char itself.
  Hangul syllables decompose algorithmically (checked here), so the tables leave them out.
- ``kLowers`` / lowercase: ``normalizers.Lowercase()`` of the char, where it differs; the
  lowercase step of ``BertNormalizer`` must agree.
- ``kCombining`` / canonical combining classes: the values are Python's
  ``unicodedata.combining`` at generation time (its version is recorded in the outputs),
  checked against HF's canonical reordering: every NFD-stable char is put after U+0301
  (class 230) and before U+0334 (class 1) to find HF's non-starters, and each of those is
  ordered against one reference mark per class. Where HF's older table does not know a
  mark (98 code points with Python 3.11, e.g. U+0898, U+1AC1) the class is HF's: 0. Chars
  that decompose keep Python's class (they never reach the reordering).
- NFKD / ``decompose_compat``: ``normalizers.NFKD()`` of the char, where it is not its NFD
  (HF's compatibility data is older than Python's: it lacks U+32FF, U+A7F2, U+10781, ...).
- STRIP_ACCENTS / ``strip_accent``: the chars ``normalizers.StripAccents()`` deletes.
- WORD, WORD_SPACE / ``word_char``, ``word_space``: the ``\\w`` and ``\\s`` of
  ``pre_tokenizers.Whitespace()``, from how it splits ``"a" + c + "a"``.
- NUMERIC / ``numeric``: what ``pre_tokenizers.Digits(individual_digits=True)`` cuts off
  ``"a" + c + "a"`` (Rust's ``char::is_numeric``).
- COMPOSE / ``compose``: the canonical pairs that HF's ``normalizers.NFC()`` composes,
  found from Python's one-step decompositions (Hangul syllables compose by rule).
- ``kCjk``: HF's fixed CJK ideograph ranges (:data:`HF_CJK_RANGES`), which
  ``BertNormalizer(clean_text=False, handle_chinese_chars=True, ...)`` must turn into
  ``" c "`` and nothing else.

What is emitted:

- ``bert_tables.cpp``: ``flags`` from a two-stage table (an index of 256-code-point
  blocks, then the deduplicated blocks, read inline from ``bert_tables.hpp``); sorted
  arrays, searched by ``std::upper_bound``, for ``decompose``, ``lower`` and
  ``combining_class``.
- ``codetok/unicode/generated/bert_tables.py``: the flag classes as hex ranges, the NFD / lowercase /
  combining-class maps as dicts; data only. The reference reads the ranges with
  ``codetok.unicode.hf_regex.code_points`` / ``char_class`` / ``fast_class`` and decomposes Hangul
  by rule (``codetok.normalizers.unicode._hf_decomposition``).
"""

from __future__ import annotations

import sys
import textwrap
import time
import unicodedata
from pathlib import Path

import tokenizers
from tokenizers import normalizers, pre_tokenizers

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "codetok" / "_native" / "tables"
sys.path.insert(0, str(ROOT))

from codetok.unicode.hf_regex import ranges_of  # noqa: E402  (the same ranges the reference uses)

N_CP = 0x110000
SURROGATES = range(0xD800, 0xE000)
SHIFT = 8  # bert_tables.hpp reads blocks of 1 << 8 code points

# (flag name, bit) as bert_tables.hpp declares them
FLAGS = {
    "kDrop": 1,
    "kSpace": 2,
    "kPunct": 4,
    "kMark": 8,
    "kDecomposes": 16,
    "kLowers": 32,
    "kCombining": 64,
    "kCjk": 128,
}

#: HF's ``is_chinese_char`` (the BERT paper's CJK Unified Ideographs blocks).
HF_CJK_RANGES = [
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
]

MAX_DECOMPOSITION = 4  # bert_tables.hpp: kMaxDecomposition
MAX_LOWER = 3  # bert_tables.hpp: kMaxLower
MAX_COMPAT_DECOMPOSITION = 18  # bert_tables.hpp: kMaxCompatDecomposition

HANGUL_BASE, HANGUL_COUNT = 0xAC00, 11172
L_BASE, V_BASE, T_BASE, V_COUNT, T_COUNT = 0x1100, 0x1161, 0x11A7, 21, 28


def scalar_values() -> list[int]:
    """Every code point but the surrogates (what HF accepts)."""
    return [c for c in range(N_CP) if c not in SURROGATES]


def hangul_nfd(c: int) -> str:
    s = c - HANGUL_BASE
    lv, t = divmod(s, T_COUNT)
    out = chr(L_BASE + lv // V_COUNT) + chr(V_BASE + lv % V_COUNT)
    return out + chr(T_BASE + t) if t else out


def bert(clean: bool, chinese: bool, strip: bool, lower: bool) -> normalizers.Normalizer:
    return normalizers.BertNormalizer(
        clean_text=clean, handle_chinese_chars=chinese, strip_accents=strip, lowercase=lower
    )


def per_char(normalizer, cps: list[int]) -> dict[int, str]:
    """``normalizer`` of each code point alone, where it changes it."""
    out = {}
    for c in cps:
        ch = chr(c)
        got = normalizer.normalize_str(ch)
        if got != ch:
            out[c] = got
    return out


def probe_clean(cps: list[int]) -> tuple[set[int], set[int]]:
    """(dropped, made a space) by clean_text; nothing else may change."""
    changed = per_char(bert(True, False, False, False), cps)
    drop = {c for c, s in changed.items() if s == ""}
    space = {c for c, s in changed.items() if s == " "}
    assert set(changed) == drop | space, sorted(set(changed) - drop - space)[:20]
    return drop, space


def probe_split(cps: list[int]) -> tuple[set[int], set[int]]:
    """(whitespace, punctuation) as BertPreTokenizer cuts ``a c b``; Punctuation agrees."""
    bpt, punct_pt = pre_tokenizers.BertPreTokenizer(), pre_tokenizers.Punctuation()
    ws, punct = set(), set()
    for c in cps:
        ch = chr(c)
        text = "a" + ch + "b"
        pieces = bpt.pre_tokenize_str(text)
        isolated = [("a", (0, 1)), (ch, (1, 2)), ("b", (2, 3))]
        if pieces == isolated:
            punct.add(c)
        elif pieces == [("a", (0, 1)), ("b", (2, 3))]:
            ws.add(c)
        else:
            assert pieces == [(text, (0, 3))], (hex(c), pieces)
        assert (punct_pt.pre_tokenize_str(text) == isolated) == (c in punct), hex(c)
    return ws, punct


def probe_nfd(cps: list[int]) -> dict[int, str]:
    nfd = per_char(normalizers.NFD(), cps)
    assert max(map(len, nfd.values())) <= MAX_DECOMPOSITION
    for c in range(HANGUL_BASE, HANGUL_BASE + HANGUL_COUNT):
        assert nfd[c] == hangul_nfd(c), hex(c)
    # Full decompositions: every char of a decomposition is NFD-stable.
    assert not {ord(x) for d in nfd.values() for x in d} & set(nfd)
    return nfd


def probe_nfkd(cps: list[int], nfd: dict[int, str]) -> dict[int, str]:
    """HF's NFKD of each char whose compatibility decomposition is not its NFD."""
    nfkd = per_char(normalizers.NFKD(), cps)
    assert set(nfd) <= set(nfkd)  # what decomposes canonically decomposes here too
    out = {c: d for c, d in nfkd.items() if d != nfd.get(c)}
    # Full decompositions: every char of one is NFKD-stable.
    assert not {ord(x) for d in nfkd.values() for x in d} & set(nfkd)
    return out


def probe_strip_accents(cps: list[int]) -> set[int]:
    """The chars HF's ``normalizers.StripAccents()`` deletes (its combining-mark table,
    older than Python's and the ``regex`` module's)."""
    gone = per_char(normalizers.StripAccents(), cps)
    assert all(s == "" for s in gone.values())
    return set(gone)


def probe_whitespace_classes(cps: list[int]) -> tuple[set[int], set[int]]:
    """The ``\\w`` and ``\\s`` of HF's ``pre_tokenizers.Whitespace()`` (``\\w+|[^\\w\\s]+``,
    compiled by Rust's regex crate): ``"a" + c + "a"`` stays one piece for a word char and
    loses ``c`` for a space; any other char is a piece of its own."""
    ws = pre_tokenizers.Whitespace()
    word, space = set(), set()
    for c in cps:
        pieces = [p for p, _ in ws.pre_tokenize_str("a" + chr(c) + "a")]
        if pieces == ["a" + chr(c) + "a"]:
            word.add(c)
        elif pieces == ["a", "a"]:
            space.add(c)
        else:
            assert pieces == ["a", chr(c), "a"], (hex(c), pieces)
    return word, space


def probe_numeric(cps: list[int]) -> set[int]:
    """The chars HF's ``pre_tokenizers.Digits(individual_digits=True)`` isolates (Rust's
    ``char::is_numeric``: Nd, Nl and No of its Unicode version): ``"a" + c + "a"`` is cut
    in three for those and stays whole for any other char."""
    digits = pre_tokenizers.Digits(individual_digits=True)
    numeric = set()
    for c in cps:
        pieces = [p for p, _ in digits.pre_tokenize_str("a" + chr(c) + "a")]
        if pieces == ["a", chr(c), "a"]:
            numeric.add(c)
        else:
            assert pieces == ["a" + chr(c) + "a"], (hex(c), pieces)
    return numeric


def probe_compositions(cps: list[int], nfd: dict[int, str]) -> dict[tuple[int, int], int]:
    """The canonical pairs HF's NFC composes, ``(first, second) -> composite`` (Hangul
    syllables compose by rule and are left out): Python's one-step canonical
    decompositions of two chars that HF's NFC puts back together."""
    nfc = normalizers.NFC()
    candidates = []
    for c in cps:
        if c not in nfd or HANGUL_BASE <= c < HANGUL_BASE + HANGUL_COUNT:
            continue
        step = unicodedata.decomposition(chr(c)).split()
        if len(step) == 2 and not step[0].startswith("<"):
            candidates.append((int(step[0], 16), int(step[1], 16), c))
    text = " ".join(chr(a) + chr(b) for a, b, _ in candidates)
    got = nfc.normalize_str(text).split(" ")
    assert len(got) == len(candidates)
    return {(a, b): c for (a, b, c), g in zip(candidates, got) if g == chr(c)}


def probe_lower(cps: list[int]) -> dict[int, str]:
    low = per_char(normalizers.Lowercase(), cps)
    assert low == per_char(bert(False, False, False, True), cps)
    assert all(1 <= len(s) <= MAX_LOWER for s in low.values())
    return low


def probe_marks(cps: list[int], nfd: dict[int, str]) -> set[int]:
    """NFD-stable chars strip_accents deletes; decomposing chars lose exactly those."""
    strip = bert(False, False, True, False)
    changed = per_char(strip, cps)
    marks = {c for c, s in changed.items() if c not in nfd}
    assert all(changed[c] == "" for c in marks)
    for c, d in nfd.items():
        want = "".join(x for x in d if ord(x) not in marks)
        assert changed.get(c, chr(c)) == want, hex(c)
    return marks


def probe_cjk(cps: list[int]) -> set[int]:
    changed = per_char(bert(False, True, False, False), cps)
    assert all(s == f" {chr(c)} " for c, s in changed.items())
    want = {c for a, b in HF_CJK_RANGES for c in range(a, b + 1)}
    assert set(changed) == want, sorted(set(changed) ^ want)[:20]
    return want


def reordered(pairs: list[tuple[int, int]]) -> list[bool]:
    """For NFD-stable ``(p, q)``: does HF's NFD write ``a p q`` as ``a q p``? (one call)"""
    text = "".join("a" + chr(p) + chr(q) for p, q in pairs)
    out = normalizers.NFD().normalize_str(text)
    assert len(out) == len(text)
    res = []
    for i, (p, q) in enumerate(pairs):
        got = out[3 * i : 3 * i + 3]
        assert got in ("a" + chr(p) + chr(q), "a" + chr(q) + chr(p)), hex(p)
        res.append(got != "a" + chr(p) + chr(q))
    return res


def probe_combining(cps: list[int], nfd: dict[int, str]) -> dict[int, int]:
    """Canonical combining classes: Python's, where HF's reordering agrees; else HF's 0."""
    py = {c: k for c in cps if (k := unicodedata.combining(chr(c)))}
    # Python decomposes everything HF does (normalizers.py uses is_normalized as a
    # quick check, after checking this again for the Python it runs on).
    assert all(not unicodedata.is_normalized("NFD", chr(c)) for c in nfd)
    stable = [c for c in cps if c not in nfd]
    # A non-starter x: class(x) < 230 moves it before U+0301, class(x) > 1 behind U+0334.
    after = reordered([(0x301, x) for x in stable])
    before = reordered([(x, 0x334) for x in stable])
    hf_nonstarters = [x for x, a, b in zip(stable, after, before) if a or b]
    assert set(hf_nonstarters) <= set(py), sorted(set(hf_nonstarters) - set(py))[:20]
    # One reference mark per class HF knows (the lowest code point of that class).
    refs: dict[int, int] = {}
    for x in hf_nonstarters:
        refs.setdefault(py[x], x)
    ref_items = sorted(refs.items())
    for x in hf_nonstarters:  # references included: they check each other
        k = py[x]
        assert reordered([(r, x) for _, r in ref_items]) == [k < v for v, _ in ref_items]
        assert reordered([(x, r) for _, r in ref_items]) == [k > v for v, _ in ref_items]
    out = {c: k for c, k in py.items() if c in nfd}  # decomposing: Python's class
    out.update((x, py[x]) for x in hf_nonstarters)
    return dict(sorted(out.items()))


def compute_flags(sets: dict[str, set[int]]) -> bytearray:
    flags = bytearray(N_CP)
    for name, cps in sets.items():
        bit = FLAGS[name]
        for c in cps:
            flags[c] |= bit
    return flags


def two_level(flags: bytearray) -> tuple[list[int], list[bytes]]:
    size = 1 << SHIFT
    ids: dict[bytes, int] = {}
    index = [ids.setdefault(bytes(flags[b : b + size]), len(ids)) for b in range(0, N_CP, size)]
    assert len(ids) <= 256, len(ids)  # the index is uint8
    return index, list(ids)


def compact(cps) -> str:
    """Code points as space-separated hex ranges: ``"41-5A 61-7A AA"``."""
    return " ".join(f"{a:X}" if a == b else f"{a:X}-{b:X}" for a, b in ranges_of(cps))


def py_string(text: str) -> str:
    """A Python literal of ``text`` with every non-ASCII or non-printable char escaped."""
    out = []
    for ch in text:
        c = ord(ch)
        if 0x20 <= c < 0x7F and ch not in '"\\':
            out.append(ch)
        elif c < 0x100:
            out.append(f"\\x{c:02x}")
        elif c < 0x10000:
            out.append(f"\\u{c:04x}")
        else:
            out.append(f"\\U{c:08x}")
    return '"' + "".join(out) + '"'


def wrap_items(items: list[str], indent: str = "    ", width: int = 92) -> list[str]:
    return textwrap.wrap(" ".join(items), width, initial_indent=indent, subsequent_indent=indent)


def pack_items(items: list[str], indent: str = "    ", width: int = 92) -> list[str]:
    """Lines of whole ``items`` (their strings may hold spaces: never split inside one)."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(indent) + len(line) + 1 + len(item) > width:
            lines.append(indent + line)
            line = ""
        line = f"{line} {item}" if line else item
    if line:
        lines.append(indent + line)
    return lines


def py_ranges(name: str, cps, doc: str) -> list[str]:
    text = compact(cps)
    lines = [f"#: {doc}"]
    if len(text) <= 80:
        return lines + [f'{name} = "{text}"', ""]
    lines.append(f"{name} = (")
    lines += [f'    "{line.strip()} "' for line in textwrap.wrap(text, 84, break_on_hyphens=False)]
    lines[-1] = lines[-1][:-2] + '"'
    return lines + [")", ""]


def py_dict(name: str, doc: str, items: list[str], fill=wrap_items) -> list[str]:
    """The dict literal ``name`` after its ``#: doc`` comment, ``items`` several a line as
    ``fill`` (wrap_items or pack_items) puts them."""
    return [f"#: {doc}", f"{name} = {{", *fill(items), "}"]


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="ascii", newline="\n")
    print(f"wrote {path} ({len(text)} bytes)")


def write_python(
    sets: dict[str, set[int]], nfd, low, ccc, nfkd, compose, extra_ranges, provenance: str
) -> None:
    lines = [
        '"""GENERATED by tools/gen_bert_tables.py; do not edit.',
        "",
        "The character data of HF's BERT normalizer and pre-tokenizer and of its Unicode",
        "normalizers (NFC, NFD, NFKC, NFKD), asked of",
        *textwrap.wrap(provenance + ".", 92),
        "The Python twin of codetok/_native/tables/bert_tables.cpp; see the generator's docstring.",
        "Ranges are hex code points (``first-last``); surrogates are in none of them.",
        '"""',
        "",
        f'TOKENIZERS_VERSION = "{tokenizers.__version__}"',
        "#: The ``unicodedata`` the combining classes were read from (checked against HF).",
        f'UNIDATA_VERSION = "{unicodedata.unidata_version}"',
        "",
    ]
    docs = {
        "DROP": "clean_text deletes them (controls, format, private use, NUL, U+FFFD).",
        "SPACE": "Whitespace: the pre-tokenizer cuts there; clean_text makes them ' ' (not "
        "DROP ones).",
        "PUNCT": "The pre-tokenizer (and Punctuation) isolates each.",
        "MARK": "strip_accents deletes them after NFD (NFD-stable non-spacing marks).",
        "CJK": "handle_chinese_chars puts spaces around them.",
        "LOWERS": "Their lowercase is not themselves (LOWER keys).",
        "DECOMPOSES": "Their NFD is not themselves (NFD keys plus the Hangul syllables).",
        "COMBINES": "Canonical combining class > 0 (COMBINING keys).",
    }
    py_names = {
        "DROP": "kDrop",
        "SPACE": "kSpace",
        "PUNCT": "kPunct",
        "MARK": "kMark",
        "CJK": "kCjk",
        "LOWERS": "kLowers",
        "DECOMPOSES": "kDecomposes",
        "COMBINES": "kCombining",
    }
    for name, flag in py_names.items():
        lines += py_ranges(name, sets[flag], docs[name])
    for name, (cps_of_name, doc) in extra_ranges.items():
        lines += py_ranges(name, cps_of_name, doc)
    table = {c: d for c, d in nfd.items() if not HANGUL_BASE <= c < HANGUL_BASE + HANGUL_COUNT}
    maps = [
        py_dict(
            "NFD",
            "NFD of the chars that decompose, but the Hangul syllables (see decomposition).",
            [f"0x{c:X}: {py_string(d)}," for c, d in table.items()],
        ),
        py_dict(
            "LOWER",
            "Lowercase (Rust's char::to_lowercase) where it is not the char.",
            [f"0x{c:X}: {py_string(s)}," for c, s in low.items()],
        ),
        py_dict(
            "COMBINING",
            "Canonical combining classes > 0.",
            [f"0x{c:X}: {k}," for c, k in ccc.items()],
        ),
        py_dict(
            "NFKD",
            "NFKD of the chars whose compatibility decomposition is not their NFD.",
            [f"0x{c:X}: {py_string(d)}," for c, d in nfkd.items()],
            pack_items,
        ),
        py_dict(
            "COMPOSE",
            "NFC's canonical compositions, (first, second): composite; Hangul by rule.",
            [f"(0x{a:X}, 0x{b:X}): 0x{c:X}," for (a, b), c in sorted(compose.items())],
            pack_items,
        ),
    ]
    # The maps keep several entries a line: ruff format would give each its own.
    lines.append("# fmt: off")
    for k, block in enumerate(maps):
        if k:
            lines.append("")
        lines += block
    lines.append("# fmt: on")
    write(ROOT / "codetok" / "unicode" / "generated" / "bert_tables.py", "\n".join(lines) + "\n")


def c_array(ctype: str, name: str, values: list[int], per_line: int = 24) -> str:
    body = "\n".join(
        "    " + ",".join(str(v) for v in values[k : k + per_line]) + ","
        for k in range(0, len(values), per_line)
    )
    return f"const {ctype} {name}[{len(values)}] = {{\n{body}\n}};\n"


def c_map(prefix: str, table: dict[int, str], at_type: str) -> str:
    """Sorted keys, offsets into one pool (entry i is pool[at[i]:at[i + 1]])."""
    keys, at, pool = [], [0], []
    for c, s in sorted(table.items()):
        keys.append(c)
        pool.extend(map(ord, s))
        at.append(len(pool))
    return (
        c_array("uint32_t", f"k{prefix}Cp", keys)
        + c_array(at_type, f"k{prefix}At", at)
        + c_array("uint32_t", f"k{prefix}Pool", pool, 12)
    )


def write_cpp(
    index, blocks, nfd, low, ccc, nfkd, compose, strip, word, space, numeric, provenance: str
) -> None:
    strip_ranges = ranges_of(sorted(strip))
    numeric_ranges = ranges_of(sorted(numeric))
    word_ranges = ranges_of(sorted(word))
    space_ranges = ranges_of(sorted(space))
    table = {c: d for c, d in nfd.items() if not HANGUL_BASE <= c < HANGUL_BASE + HANGUL_COUNT}
    assert max(map(len, nfkd.values())) <= MAX_COMPAT_DECOMPOSITION
    pairs = sorted(((a << 21) | b, c) for (a, b), c in compose.items())
    flat = [b for blk in blocks for b in blk]
    head = "\n".join(
        "// " + line
        for line in [
            "GENERATED by tools/gen_bert_tables.py; do not edit.",
            *textwrap.wrap(f"The BERT character data of {provenance}.", 88),
        ]
    )
    cpp = f"""{head}

#include <algorithm>
#include <iterator>

#include "tables/bert_tables.hpp"

namespace codetok {{
namespace bert {{
namespace detail {{

{c_array("uint8_t", "kFlagIndex", index, 32)}
// {len(blocks)} distinct blocks of {1 << SHIFT} code points
{c_array("uint8_t", "kFlagBlocks", flat, 32)}
}}  // namespace detail

namespace {{

// NFD, but the Hangul syllables (algorithmic, below).
{c_map("Nfd", table, "uint16_t")}
{c_map("Lower", low, "uint16_t")}
{c_array("uint32_t", "kCombiningCp", list(ccc))}
{c_array("uint8_t", "kCombiningClass", list(ccc.values()))}
// NFKD where it is not the NFD.
{c_map("Nfkd", nfkd, "uint16_t")}
// Canonical compositions: ``first << 21 | second``, sorted, and the composite of each.
{c_array("uint64_t", "kComposePair", [k for k, _ in pairs], 6)}
{c_array("uint32_t", "kComposeTo", [c for _, c in pairs])}
// StripAccents' marks, and the Whitespace pre-tokenizer's \\w and \\s: ranges, sorted by
// their last code point.
{c_array("uint32_t", "kStripLast", [b for _, b in strip_ranges])}
{c_array("uint32_t", "kStripFirst", [a for a, _ in strip_ranges])}
{c_array("uint32_t", "kWordLast", [b for _, b in word_ranges])}
{c_array("uint32_t", "kWordFirst", [a for a, _ in word_ranges])}
{c_array("uint32_t", "kWordSpaceLast", [b for _, b in space_ranges])}
{c_array("uint32_t", "kWordSpaceFirst", [a for a, _ in space_ranges])}
// The Digits pre-tokenizer's digits (Rust's char::is_numeric).
{c_array("uint32_t", "kNumericLast", [b for _, b in numeric_ranges])}
{c_array("uint32_t", "kNumericFirst", [a for a, _ in numeric_ranges])}

// Whether ``c`` is in the ranges ``first[i]..last[i]`` (sorted by ``last``).
template <size_t N>
bool in_ranges(const uint32_t (&last)[N], const uint32_t (&first)[N], Cp c) {{
    const uint32_t* it = std::lower_bound(last, last + N, uint32_t{{c}});
    return it != last + N && first[it - last] <= c;
}}
constexpr Cp kHangulBase = 0xAC00, kHangulCount = 11172;

// The position of ``c`` in the sorted ``keys``, or -1.
template <class Key, size_t N>
ptrdiff_t find(const Key (&keys)[N], Key c) {{
    const Key* it = std::lower_bound(keys, keys + N, c);
    return it != keys + N && *it == c ? it - keys : -1;
}}

}}  // namespace

size_t decompose(Cp c, Cp* out) {{
    if (c - kHangulBase < kHangulCount) {{
        const Cp s = c - kHangulBase;
        out[0] = 0x1100 + s / (21 * 28);
        out[1] = 0x1161 + s % (21 * 28) / 28;
        if (s % 28 == 0) return 2;
        out[2] = 0x11A7 + s % 28;
        return 3;
    }}
    const ptrdiff_t i = find(kNfdCp, uint32_t{{c}});
    if (i < 0) {{
        out[0] = c;
        return 1;
    }}
    std::copy(kNfdPool + kNfdAt[i], kNfdPool + kNfdAt[i + 1], out);
    return kNfdAt[i + 1] - kNfdAt[i];
}}

size_t decompose_compat(Cp c, Cp* out) {{
    const ptrdiff_t i = c < 0xA0 ? -1 : find(kNfkdCp, uint32_t{{c}});
    if (i < 0) return decompose(c, out);
    std::copy(kNfkdPool + kNfkdAt[i], kNfkdPool + kNfkdAt[i + 1], out);
    return kNfkdAt[i + 1] - kNfkdAt[i];
}}

bool strip_accent(Cp c) {{ return in_ranges(kStripLast, kStripFirst, c); }}

bool word_char(Cp c) {{ return in_ranges(kWordLast, kWordFirst, c); }}

bool word_space(Cp c) {{ return in_ranges(kWordSpaceLast, kWordSpaceFirst, c); }}

bool numeric(Cp c) {{ return in_ranges(kNumericLast, kNumericFirst, c); }}

Cp compose(Cp a, Cp b) {{
    if (a - 0x1100 < 19 && b - 0x1161 < 21) return kHangulBase + ((a - 0x1100) * 21 + b - 0x1161) * 28;
    if (a - kHangulBase < kHangulCount && (a - kHangulBase) % 28 == 0 && b - 0x11A8 < 27)
        return a + (b - 0x11A7);
    const ptrdiff_t i = find(kComposePair, (uint64_t{{a}} << 21) | b);
    return i < 0 ? 0 : kComposeTo[i];
}}

size_t lower(Cp c, Cp* out) {{
    const ptrdiff_t i = find(kLowerCp, uint32_t{{c}});
    if (i < 0) {{
        out[0] = c;
        return 1;
    }}
    std::copy(kLowerPool + kLowerAt[i], kLowerPool + kLowerAt[i + 1], out);
    return kLowerAt[i + 1] - kLowerAt[i];
}}

uint8_t combining_class(Cp c) {{
    const ptrdiff_t i = find(kCombiningCp, uint32_t{{c}});
    return i < 0 ? 0 : kCombiningClass[i];
}}

}}  // namespace bert
}}  // namespace codetok
"""
    write(TABLES / "bert_tables.cpp", cpp)


def main() -> None:
    start = time.perf_counter()
    cps = scalar_values()
    drop, space_norm = probe_clean(cps)
    ws, punct = probe_split(cps)
    # clean_text maps to " " exactly the whitespace it does not drop first.
    assert space_norm == ws - drop - {0x20}, sorted(space_norm ^ (ws - drop - {0x20}))
    nfd = probe_nfd(cps)
    low = probe_lower(cps)
    marks = probe_marks(cps, nfd)
    cjk = probe_cjk(cps)
    ccc = probe_combining(cps, nfd)
    nfkd = probe_nfkd(cps, nfd)
    compose = probe_compositions(cps, nfd)
    strip = probe_strip_accents(cps)
    word, space = probe_whitespace_classes(cps)
    numeric = probe_numeric(cps)
    extra_ranges = {
        "STRIP_ACCENTS": (strip, "StripAccents deletes them (HF's combining marks)."),
        "WORD": (word, "\\w of the Whitespace pre-tokenizer (Rust regex's, not Oniguruma's)."),
        "WORD_SPACE": (space, "\\s of the Whitespace pre-tokenizer."),
        "NUMERIC": (numeric, "What the Digits pre-tokenizer splits off (Rust's is_numeric)."),
    }
    sets = {
        "kDrop": drop,
        "kSpace": ws,
        "kPunct": punct,
        "kMark": marks,
        "kDecomposes": set(nfd),
        "kLowers": set(low),
        "kCombining": set(ccc),
        "kCjk": cjk,
    }
    # Facts the normalizer relies on: ASCII whitespace and punctuation as BERT's paper
    # says; dropped chars and marks neither decompose nor lowercase.
    assert {c for c in ws if c < 0x80} == set(map(ord, "\t\n\x0b\x0c\r "))
    assert {c for c in punct if c < 0x80} == {c for c in range(0x21, 0x7F) if not chr(c).isalnum()}
    assert not (marks | drop) & (set(nfd) | set(low))
    flags = compute_flags(sets)
    index, blocks = two_level(flags)
    size = 1 << SHIFT
    for c in range(N_CP):
        assert blocks[index[c >> SHIFT]][c & (size - 1)] == flags[c]
    provenance = (
        f"HF tokenizers {tokenizers.__version__}, code point by code point; canonical "
        f"combining classes from Python's unicodedata {unicodedata.unidata_version} where "
        "HF's reordering agrees (0 where it does not know the mark)"
    )
    write_python(sets, nfd, low, ccc, nfkd, compose, extra_ranges, provenance)
    write_cpp(index, blocks, nfd, low, ccc, nfkd, compose, strip, word, space, numeric, provenance)
    print(
        f"{len(blocks)} blocks, {len(nfd)} decompositions, {len(low)} lowercase, "
        f"{len(ccc)} combining classes, {len(nfkd)} compatibility decompositions, "
        f"{len(compose)} compositions; {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
