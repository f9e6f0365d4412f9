"""The native pre-tokenizer scanners (``_core.scan``) against the reference regexes.

Every pattern string of :data:`codetok.engine.scanners.SCANNERS` is compared with the regex the
Python pipeline compiles for it (``codetok.unicode.hf_regex``), cut as ``Split(pattern, "isolated")``
cuts (and, for the GPT-2 pattern, as ``ByteLevel(use_regex=True)`` does):

- every code point 0..0x10FFFF (lone surrogates included), each between separators that
  exercise the transitions of the patterns (after a space, a letter, a digit, an
  apostrophe, a newline, a mark ...); every Latin-1 one also between Latin-1 separators;
- all short strings over a small alphabet of the interesting classes;
- real text and code: standard-library sources, ``pydoc_data.topics``, multilingual text,
  and case-swapped / CRLF / no-break-space mutations of them;
- hypothesis strings mixing scripts, marks, digits, contractions, kinds of whitespace,
  emoji sequences and lone surrogates;
- runs of 10**6 chars (a smoke test of linear time: correct output, no timing assertion).

``_core.scan`` reads a str in its own storage: 1 byte a char (Latin-1 text), 2 (the BMP,
lone surrogates as plain units) or 4. Every text is also scanned in each wider storage
than its own, forced by a one-char prefix the patterns always cut off as a piece of its
own (see :func:`widening_prefix`), and must cut alike there.
"""

from __future__ import annotations

import functools
import itertools
import operator
import sys
import sysconfig
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.engine.scanners import (
    CL100K,
    CL100K_SPLIT,
    GPT2,
    LLAMA3,
    LLAMA3_PATTERN,
    O200K,
    O200K_SPLIT,
    R50K_SPLIT,
    SCANNERS,
    scanner_for,
)
from codetok.formats.tiktoken_file import (
    CL100K_PATTERN,
    O200K_PATTERN,
    R50K_PATTERN,
    portable_pattern,
)
from codetok.pre_tokenizers import GPT2_PATTERN, Split, split_spans
from codetok.pre_tokenizers.byte_level import _GPT2_RE
from codetok.unicode.hf_regex import compile_pattern

core = pytest.importorskip("codetok._core")
if not hasattr(core, "scan"):
    pytest.skip("codetok._core has no scan (bind_pretokenize not bound)", allow_module_level=True)

NAMES = {
    GPT2_PATTERN: "gpt2",
    R50K_SPLIT: "r50k",
    CL100K_SPLIT: "cl100k",
    O200K_SPLIT: "o200k",
    LLAMA3_PATTERN: "llama3",
}
CASES = list(SCANNERS.items())
IDS = [NAMES.get(p, f"pattern{i}") for i, p in enumerate(SCANNERS)]

#: The form HF-converted gpt-4o tokenizer.json files carry.
HF_O200K = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+"
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def reference_cut(pattern: str, text: str) -> tuple[list[int], bool]:
    """:func:`reference_ends`, and whether the regex's matches tile ``text`` (then the ends
    are the ends of its matches)."""
    rx = compile_pattern({"Regex": pattern})
    pieces = rx.findall(text)
    ends = list(accumulate(map(len, pieces)))
    if (ends[-1] if ends else 0) == len(text) and "" not in pieces:  # a tiling: one findall
        return ends, True
    matches = [m.span() for m in rx.finditer(text)]
    return [e for _, e in split_spans(len(text), matches, "isolated")] if text else [], False


def reference_ends(pattern: str, text: str) -> list[int]:
    """Piece ends of ``Split({"Regex": pattern}, "isolated")``, as _RegexSplit computes them."""
    return reference_cut(pattern, text)[0]


def byte_level_ends(text: str) -> list[int]:
    """Piece ends of ``ByteLevel(use_regex=True)`` (its matches, gaps dropped)."""
    return [m.end() for m in _GPT2_RE.finditer(text)]


def describe(text: str, want: list[int], got: list[int]) -> str:
    k = next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    pos = min(want[k] if k < len(want) else len(text), got[k] if k < len(got) else len(text))
    lo, hi = max(0, pos - 12), pos + 12
    cps = " ".join(f"{ord(c):04X}" for c in text[lo:hi])
    return (
        f"first difference at piece {k}, char {pos}: reference ends {want[k : k + 3]}, "
        f"native {got[k : k + 3]}; text[{lo}:{hi}] = {text[lo:hi]!r} ({cps})"
    )


# ---- storage kinds -------------------------------------------------------------------------

#: Per storage width: a digit and a letter of that width (Python keeps a str in the
#: narrowest of 1, 2 or 4 bytes a char that holds its largest code point).
WIDE_DIGIT = {2: "\u0660", 4: "\U0001d7ce"}  # ARABIC-INDIC ZERO, MATHEMATICAL BOLD ZERO
WIDE_LETTER = {2: "\u0100", 4: "\U00010000"}  # A WITH MACRON (Lu), LINEAR B A (Lo)
_NUMBER = regex.compile(r"\p{N}")
_ASTRAL = regex.compile("[\U00010000-\U0010ffff]")


def storage_width(text: str) -> int:
    """Bytes a char of ``text`` takes in CPython's storage (PEP 393).

    1 when every char is below U+0100, else 4 when one is beyond the BMP, else 2; asked
    of ``str`` methods and a search, as ``max(text)`` makes a str of every char.
    """
    if text.isascii():
        return 1
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return 4 if _ASTRAL.search(text) else 2
    return 1


def widening_prefix(text: str, width: int) -> str:
    """A char of storage ``width`` that every pattern cuts off ``prefix + text`` on its own.

    A digit, unless ``text`` starts with a number (\\p{N}), then a letter: no alternative
    of the patterns can run on from it (\\p{N}+ and \\p{N}{1,3} stop at a non-number; a
    letter or letter run stops at a number, which no contraction starts; neither is the
    optional [^\\r\\n\\p{L}\\p{N}] prefix of a word), and no pattern looks behind, so the
    rest is cut as ``text`` alone is. test_widening_prefix_is_a_piece checks this.
    """
    return WIDE_LETTER[width] if _NUMBER.match(text) else WIDE_DIGIT[width]


def check_wider_storage(scanner: int, text: str, ends: list[int]) -> None:
    """The scanner cuts ``text`` into ``ends`` in each storage wider than its own too."""
    for width in (2, 4):
        if width > storage_width(text):
            wide = widening_prefix(text, width) + text
            want = [1, *map((1).__add__, ends)]
            got = core.scan(scanner, wide)
            assert got == want, f"{width}-byte storage: " + describe(wide, want, got)


def scan_every_kind(scanner: int, text: str) -> list[int]:
    """``core.scan(scanner, text)``, checked to cut ``text`` alike in each wider storage."""
    ends = core.scan(scanner, text)
    check_wider_storage(scanner, text, ends)
    return ends


def check(pattern: str, scanner: int, text: str) -> None:
    want, tiled = reference_cut(pattern, text)
    got = core.scan(scanner, text)
    assert got == want, f"{storage_width(text)}-byte storage: " + describe(text, want, got)
    check_wider_storage(scanner, text, want)
    if pattern == GPT2_PATTERN:
        # ByteLevel's regex is the very one compiled for the Split (compile_onig caches it):
        # when its matches tile the text, their ends are ``want``, found by the one findall.
        shared = tiled and _GPT2_RE is compile_pattern({"Regex": pattern})
        ends = want if shared else byte_level_ends(text)
        assert ends == want, "ByteLevel's GPT-2 regex does not tile the text"


# ---- the pattern table ------------------------------------------------------------------


def test_pattern_strings_are_the_pipelines():
    """The listed strings are exactly what the tokenizers put in their Split / ByteLevel."""
    assert portable_pattern(R50K_PATTERN) == R50K_SPLIT
    assert portable_pattern(CL100K_PATTERN) == CL100K_SPLIT
    assert portable_pattern(O200K_PATTERN) == O200K_SPLIT
    assert HF_O200K == O200K_SPLIT  # one string, one scanner
    for pattern in SCANNERS:
        assert Split({"Regex": pattern}, "isolated").pattern["Regex"] == pattern
    assert scanner_for(GPT2_PATTERN) == scanner_for(R50K_SPLIT) == GPT2
    assert scanner_for(CL100K_SPLIT) == CL100K
    assert scanner_for(O200K_SPLIT) == O200K
    assert scanner_for(LLAMA3_PATTERN) == LLAMA3
    # The raw tiktoken cl100k string reads \p{N}{1,3}+ as Oniguruma does (any number of
    # digits) once compiled for a Split: a different pattern, with no scanner.
    assert scanner_for(CL100K_PATTERN) is None


def test_cl100k_and_llama3_differ_at_trailing_whitespace():
    """tiktoken's \\s++$ keeps trailing whitespace whole; the HF form cuts after a newline."""
    text = "a \n "
    assert reference_ends(CL100K_SPLIT, text) == scan_every_kind(CL100K, text) == [1, 4]
    assert reference_ends(LLAMA3_PATTERN, text) == scan_every_kind(LLAMA3, text) == [1, 3, 4]
    same = "a \n b\n"
    want = reference_ends(CL100K_SPLIT, same)
    assert scan_every_kind(CL100K, same) == scan_every_kind(LLAMA3, same) == want


def test_scan_arguments():
    for scanner in SCANNERS.values():
        assert scan_every_kind(scanner, "") == []
    assert scan_every_kind(O200K, "Hello world") == [5, 11]
    assert scan_every_kind(GPT2, "Caf\xe9 \xbd\xa0l'\xc9t\xe9") == [4, 6, 7, 8, 9, 12]
    with pytest.raises(ValueError, match="scanner"):
        core.scan(99, "x")
    with pytest.raises(ValueError, match="scanner"):
        core.scan(-1, "x")
    with pytest.raises(TypeError):
        core.scan(GPT2, b"bytes")


def test_storage_widths():
    """The texts scan_every_kind makes really are stored 1, 2 and 4 bytes a char."""
    text = "plain ASCII, then Latin-1: \xaa\xb5\xba\xb2\xb9\xbc\xd7\xf7\xdf\xff\xa0"
    assert storage_width(text) == 1
    for width in (2, 4):
        wide = widening_prefix(text, width) + text
        assert storage_width(wide) == width
        per_char = sys.getsizeof(wide + wide[0]) - sys.getsizeof(wide)
        assert per_char == width
    assert storage_width("\ud800") == 2
    assert storage_width("\U0010ffff") == 4


# Chars of every class the patterns tell apart, in each storage width; digits and letters
# of each width among them.
PREFIX_ALPHABET = [
    "a", "S", "'", " ", "\n", "\r", "1", "!", "\xa0", "\xb2", "\xaa", "\u0301", "\u01c5",
    "\u017f", "\ud800", *WIDE_DIGIT.values(), *WIDE_LETTER.values(), "\U0001f600",
]  # fmt: skip


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
def test_widening_prefix_is_a_piece(pattern, scanner):
    """The reference cuts widening_prefix(text) + text as [prefix] + the pieces of text."""
    for size in range(4):
        for chars in itertools.product(PREFIX_ALPHABET, repeat=size):
            text = "".join(chars)
            want = reference_ends(pattern, text)
            for width in (2, 4):
                wide = widening_prefix(text, width) + text
                assert reference_ends(pattern, wide) == [1, *(e + 1 for e in want)], repr(wide)


# ---- every code point ---------------------------------------------------------------------

CHUNK = 4096
# Each code point sits between two of these (rotating), so every class meets the
# transitions of the patterns: after a space (prefixes), a letter / digit (runs), an
# apostrophe (contractions), newlines, marks, no-break space, '/', or nothing.
SEPARATORS = [
    "a", " ", "1", "'s", "\n", "A", "!", "", " a", "'", "\u0301", "  ", "\r\n", "/", "\xa0", "1 ",
    "'T", "a'", "\u3000", "B",
]  # fmt: skip


def _chunk_text(base: int, shift: int) -> str:
    """The code points from ``base`` on, each after ``SEPARATORS[(j + shift) % k]``."""
    cps = range(base, min(base + CHUNK, 0x110000))
    separators = itertools.islice(itertools.cycle(SEPARATORS), shift, None)
    return "".join(map(operator.add, separators, map(chr, cps))) + "a"


@pytest.fixture(scope="module")
def chunk_texts() -> Callable[[int], list[tuple[int, str]]]:
    """``(base, _chunk_text(base, shift))`` of every chunk, made once per shift for all the
    patterns."""
    return functools.cache(
        lambda shift: [(base, _chunk_text(base, shift)) for base in range(0, 0x110000, CHUNK)]
    )


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
@pytest.mark.parametrize("shift", [0, 7])
def test_every_code_point(pattern, scanner, shift, chunk_texts):
    for base, text in chunk_texts(shift):
        want = reference_ends(pattern, text)
        got = core.scan(scanner, text)
        assert got == want, f"chunk U+{base:04X}: " + describe(text, want, got)
        check_wider_storage(scanner, text, want)


# The separators above that Latin-1 holds, and a few more Latin-1 classes (NEL is \s,
# ª º letters, ² ¹ ¼ numbers, × ÷ ¿ « others, ß ÿ lower case).
LATIN1_SEPARATORS = [sep for sep in SEPARATORS if storage_width(sep) == 1] + [
    "\x85", "\xaa", "\xb2", "\xd7", "\xdf", "\xff", "\xa0 ", " \xbc", "\xab", "\t",
]  # fmt: skip


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
def test_every_latin1_code_point(pattern, scanner):
    """Each of U+0000..U+00FF after each Latin-1 separator, in 1-byte storage."""
    k = len(LATIN1_SEPARATORS)
    for shift in range(k):
        text = "".join(LATIN1_SEPARATORS[(c + shift) % k] + chr(c) for c in range(256)) + "a"
        assert storage_width(text) == 1
        check(pattern, scanner, text)


@pytest.fixture(scope="module")
def contraction_texts() -> tuple[str, str, str]:
    """The texts of test_every_code_point_in_a_contraction, made once for all the patterns."""
    latin1 = "".join(f"'{chr(c)}e'l{chr(c)}" for c in range(0x100))
    bmp = "".join(f"'{chr(c)}e'l{chr(c)}" for c in range(0x10000))
    astral = "".join(f"'{chr(c)}" for c in range(0x10000, 0x110000))
    return latin1, bmp, astral


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
def test_every_code_point_in_a_contraction(pattern, scanner, contraction_texts):
    """Which code points (?i:'s|'t|'re|'ve|'m|'ll|'d) takes (U+017F LONG S is an 's').

    Every BMP code point stands as the first letter ("'Xe") and as the second one
    ("'lX"); astral ones, which no case folding maps to ASCII, as the first.
    """
    for text in contraction_texts:
        check(pattern, scanner, text)


# A few members of each class the patterns tell apart.
SMALL_ALPHABET = ["a", "S", "\u017f", "'", " ", "\n", "\r", "1", "!", "\u0301", "\u01c5", "\xa0"]


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
def test_all_short_strings(pattern, scanner):
    for size in range(1, 5):
        for chars in itertools.product(SMALL_ALPHABET, repeat=size):
            check(pattern, scanner, "".join(chars))


# ---- real text ----------------------------------------------------------------------------

MULTILINGUAL = [
    "I'm sure they'll say it's fine, but we've been told you'd DON'T WON'T I'M SHE'LL.",
    "O'Neil's o'clock rock'n'roll 'quoted' ''double'' 'S 'T 'Re 'VE 'M 'Ll 'D '\u017f \u212a'K",
    "Größenwahn und Straße, Übermaß ÄÖÜ äöü ß ẞ",
    "Ça va? Élève, déjà vu, naïve café — « guillemets »",
    "Ελληνικά κείμενα: Αθήνα, ΑΘΗΝΑ, ᾈ ᾼ (titlecase)",
    "Русский текст: Москва, МОСКВА, ёЁ",
    "עברית: שלום עולם, العربية: مرحبا بالعالم ١٢٣٤٥",
    "हिन्दी में लिखा गया पाठ, मात्राएँ और अनुस्वार ंः",
    "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
    "中文字符与日本語のテキスト、カタカナとひらがな。한국어 텍스트입니다.",
    "emoji 👩\u200d👩\u200d👧\u200d👦 flags 🇫🇷🇯🇵 skin 👍🏽 keycap 1\ufe0f\u20e3 e\u0301 a\u0308\u0301",
    "digits 1234567 ٠١٢٣٤٥٦٧ ０１２３ ²³¹ ½ Ⅻ ⅷ 𝟙𝟚𝟛 १२३",
    "spaces:\t\ttabs \u00a0nbsp\u3000ideographic\u2028line\u2029para\u0085nel \x0b\x0c end",
    "trailing spaces   \n\n   \r\n \t ",
    "code: if (x != y) { return a/b; } // comment\r\n\tpath/to/file.py\r\n\r\n",
    "modifier ʰʲʷ ꜰ ᵃᵇᶜ ǅǈǋ ªº",
    "lone \ud800 surrogates \udfff\ud800x \udc00'S",
    "\x00\x01\x1c\x1d\x1e\x1f control \x7f\x80\x9f",
    # Latin-1 only (1-byte storage): letters, numbers, symbols, NBSP, NEL, soft hyphen
    "L'\xc9T\xc9 \xe0 l'\xe9cole: \xc7A'S fa\xe7ade na\xefve \xdcBERMA\xdf \xff\xdf\xe6\xf8\xe5 \xde\xf0",
    "\xaa \xba \xb5m 1\xb2+2\xb3=\xb9 \xbc\xbd\xbe 3\xd74\xf72 \xb1\xb0\xb7\xac\xa6 \xa7\xb6\xa9\xae",
    "\xbfQu\xe9? \xa1S\xed! \xabguillemets\xbb 10\xa0000\xa0\x80 \xa3\xa5\xa2\xa4 so\xadft\xad\xad",
    "nel\x85line\x85\x85 nbsp\xa0\xa0 \xa0'S \xa0\xaa\xa0\xb2 \x85'd \x1c\x1d\x1e\x1f\x0b\x0c\x85",
    # lone surrogates stay lone (2-byte storage: never read as pairs)
    "\ud83d\ude00 pair? \udbff\udfff'S \ud800\u0301 1\udc00 \ud800\ud800 '\udfffx \udc00",
]


def _stdlib_text(limit: int = 400_000) -> str:
    root = Path(sysconfig.get_paths()["stdlib"])
    parts: list[str] = []
    size = 0
    for path in sorted(root.glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        parts.append(text)
        size += len(text)
        if size >= limit:
            break
    return "".join(parts)


def _real_texts() -> list[str]:
    from pydoc_data.topics import topics

    base = [_stdlib_text(), "\n\n".join(topics[k] for k in sorted(topics)), *MULTILINGUAL]
    joined = "\n".join(MULTILINGUAL)
    mutations = [
        joined.swapcase(),
        joined.replace("\n", "\r\n"),
        joined.replace(" ", "\xa0"),
        joined.replace(" ", "  "),
        base[0][:100_000].swapcase(),
        base[0][:100_000].replace("\n", "\r\n"),
        base[0][:100_000].replace("    ", "\t"),
    ]
    return base + mutations


@pytest.fixture(scope="module")
def real_texts() -> list[str]:
    return _real_texts()


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
def test_real_text(pattern, scanner, real_texts):
    for text in real_texts:
        check(pattern, scanner, text)
        check(pattern, scanner, text.rstrip())  # the end of the text matters (\s++$)


def test_scan_as_array_is_the_list(real_texts):
    """``as_array=True`` gives the same ends, as a uint32 array, in every storage width."""
    import numpy as np

    for text in [*real_texts, "", "\U0001f600 x", "\u0660 y"]:
        for _, scanner in CASES:
            got = core.scan(scanner, text, as_array=True)
            assert got.dtype == np.uint32 and got.ndim == 1
            assert got.tolist() == core.scan(scanner, text)


# ---- hypothesis ---------------------------------------------------------------------------

ATOMS = [
    # letters of several scripts and cases (Lu, Ll, Lt, Lm, Lo)
    "a", "b", "z", "Z", "Q", "é", "É", "ß", "\u01c5", "\u02b0", "ª", "日", "ж", "Ж", "Ω",
    "ω", "क", "ا", "ア",
    # contraction letters in both cases, and their case-folding relatives
    "s", "S", "t", "T", "r", "R", "e", "E", "v", "V", "m", "M", "l", "L", "d", "D", "k",
    "K", "\u017f", "\u212a", "'", "'", "’", "'s", "'S", "'ll", "'LL", "'Re", "'vE",
    # combining marks (Mn, Mc, Me)
    "\u0301", "\u0308", "\u093f", "\u20dd", "\u0345",
    # digits, ASCII and not, and other numbers
    "0", "7", "٣", "１", "²", "Ⅻ", "𝟙", "১",
    # whitespace, and things that look like it
    " ", "  ", "\t", "\r", "\n", "\r\n", "\xa0", "\u3000", "\u2028", "\u2029", "\x0b",
    "\x0c", "\x85", "\u1680", "\u200b", "\x1c", "\ufeff",
    # emoji and ZWJ sequences
    "😀", "👩\u200d👩\u200d👧", "\U0001f1eb\U0001f1f7", "\ufe0f", "🏽", "\u200d",
    # lone surrogates, private use, controls
    "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "\x00",
    # punctuation and symbols
    "/", "//", "!", ".", ",", "-", "_", "(", ")", '"', "#", "$", "+", "€", "—", "…",
]  # fmt: skip

#: The atoms that Latin-1 holds, and more Latin-1 chars: texts of these are stored 1 byte a
#: char.
LATIN1_ATOMS = [a for a in ATOMS if storage_width(a) == 1] + [
    "\xb5", "\xba", "\xb9", "\xbc", "\xbe", "\xd7", "\xf7", "\xff", "\xc0", "\xde", "\xf0",
    "\xab", "\xbf", "\xad", "\xa7", "'\xdf", "'\xd3", "\x9f",
]  # fmt: skip

texts = st.one_of(
    st.lists(st.sampled_from(ATOMS), max_size=40).map("".join),
    st.lists(st.sampled_from(LATIN1_ATOMS), max_size=40).map("".join),
    st.text(max_size=30),
    st.text(st.characters(max_codepoint=0xFF), max_size=30),
)


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
@settings(max_examples=500, deadline=None)
@given(text=texts)
def test_hypothesis(pattern, scanner, text):
    check(pattern, scanner, text)


# ---- linear time --------------------------------------------------------------------------

BIG = 10**6
LONG_RUNS = [
    " " * BIG,
    " " * BIG + "x",
    "\n" + " " * BIG + "x",
    " \n" * (BIG // 2),
    "a" * BIG,
    "A" * BIG,
    "A" * BIG + "a",
    "Aª" * (BIG // 2) + "A",
    "\u0301" * BIG,
    "1" * BIG,
    "!" * BIG,
    "'" * BIG,
    "a " * (BIG // 2),
    "'s" * (BIG // 2),
]


@pytest.mark.parametrize(("pattern", "scanner"), CASES, ids=IDS)
def test_long_runs(pattern, scanner):
    for text in LONG_RUNS:
        want = reference_ends(pattern, text)
        assert core.scan(scanner, text) == want, repr(text[:20])
        check_wider_storage(scanner, text, want)
