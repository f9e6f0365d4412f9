"""Unicode normalization forms (NFC, NFD, NFKC, NFKD) on HF's pinned tables, and the
character data the BERT normalizer, Lowercase and StripAccents share.

HF ``tokenizers``' Unicode tables are neither Python's ``unicodedata`` nor the ``regex``
module's; codetok reads them from :mod:`codetok.unicode.generated.bert_tables`.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from ..tokenizer.offsets import NormalizedString
from .base import Normalizer, _change_chunks


class NFC(Normalizer):
    """Unicode canonical composition, with HF's tables (see :func:`_pinned_form`)."""

    type_name = "NFC"

    def normalize(self, ns: NormalizedString) -> None:
        _pinned_form(ns, "NFC")


class NFD(Normalizer):
    """Unicode canonical decomposition, with HF's tables (see :func:`_pinned_form`)."""

    type_name = "NFD"

    def normalize(self, ns: NormalizedString) -> None:
        _pinned_form(ns, "NFD")


class NFKC(Normalizer):
    """Unicode compatibility composition, with HF's tables (see :func:`_pinned_form`)."""

    type_name = "NFKC"

    def normalize(self, ns: NormalizedString) -> None:
        _pinned_form(ns, "NFKC")


class NFKD(Normalizer):
    """Unicode compatibility decomposition, with HF's tables (see :func:`_pinned_form`)."""

    type_name = "NFKD"

    def normalize(self, ns: NormalizedString) -> None:
        _pinned_form(ns, "NFKD")


_HANGUL_BASE, _HANGUL_COUNT = 0xAC00, 11172


def _hf_decomposition(c: int, nfd: dict[int, str]) -> str:
    """HF's NFD of code point ``c``: Hangul syllables by rule, the others from ``nfd``."""
    s = c - _HANGUL_BASE
    if 0 <= s < _HANGUL_COUNT:
        lv, t = divmod(s, 28)
        out = chr(0x1100 + lv // 21) + chr(0x1161 + lv % 21)
        return out + chr(0x11A7 + t) if t else out
    return nfd.get(c, chr(c))


class _Pinned:
    """HF's character data (:mod:`codetok.unicode.generated.bert_tables`), compiled on first use.

    Large classes are ``str.translate`` tables (:func:`~codetok.unicode.hf_regex.class_table`)
    that label every char (``x``: a member of ``drop``, ``mark`` or ``strip_accents``;
    ``u``: a char of ``unstable[form]``): one look-up per char, where a regex class of
    that many ranges tries them one by one.
    """

    def __init__(self) -> None:
        import regex

        from ..unicode.generated import bert_tables as bu
        from ..unicode.hf_regex import char_class, class_table, code_points, fast_class

        self.drop = class_table("-", [("x", bu.DROP)])
        drop = set(code_points(bu.DROP))
        # clean_text: whitespace it does not drop becomes " " one for one.
        to_space = [c for c in code_points(bu.SPACE) if c not in drop and c != 32]
        self.to_space = re.compile("[" + "".join(re.escape(chr(c)) for c in to_space) + "]")
        self.cjk = regex.compile(char_class(bu.CJK))
        self.mark = class_table("-", [("x", bu.MARK)])
        self.decomposition = {
            chr(c): _hf_decomposition(c, bu.NFD) for c in code_points(bu.DECOMPOSES)
        }
        self.combining = {chr(c): k for c, k in bu.COMBINING.items()}
        # NFKD: the compatibility decompositions, over the canonical ones.
        self.compat = dict(self.decomposition)
        self.compat.update((chr(c), d) for c, d in bu.NFKD.items())
        self.compose = {(chr(a), chr(b)): chr(c) for (a, b), c in bu.COMPOSE.items()}
        self.strip_accents = class_table("-", [("x", bu.STRIP_ACCENTS)])
        # Non-starter runs (where canonical ordering may move chars).
        near, exact = fast_class(bu.COMBINES, r"\p{M}")
        self.runs = regex.compile(f"(?:(?=[{near}]){exact}){{2,}}")
        # Per form, the chars a form may change or join to their neighbours ("u"): those
        # it decomposes, the non-starters (reordered), and for NFC / NFKC the second chars
        # of the compositions (Hangul vowels and trailing consonants among them).
        moved = [*code_points(bu.COMBINES), *bu.COMBINING]
        seconds = [b for _, b in bu.COMPOSE] + [*range(0x1161, 0x1176), *range(0x11A8, 0x11C3)]
        canonical = [ord(c) for c in self.decomposition]
        compat = [ord(c) for c in self.compat]
        self.unstable = {
            "NFD": class_table("s", [("u", canonical), ("u", moved)]),
            "NFKD": class_table("s", [("u", compat), ("u", moved)]),
            "NFC": class_table("s", [("u", canonical), ("u", moved), ("u", seconds)]),
            "NFKC": class_table("s", [("u", compat), ("u", moved), ("u", seconds)]),
        }
        self.lower = bu.LOWER  # code point -> str: a str.translate table
        near, exact = fast_class(bu.LOWERS, r"\p{Lu}\p{Lt}")
        self.lowers = regex.compile(f"(?=[{near}]){exact}")
        # unicodedata.is_normalized("NFD", text) proves HF's NFD leaves text alone when
        # Python decomposes every char HF does and gives HF's non-starters HF's classes
        # (then Python's canonical order is HF's too). True for Python >= 3.10; checked.
        nfd = all(not unicodedata.is_normalized("NFD", chr(c)) for c in bu.NFD) and all(
            unicodedata.combining(chr(c)) == k for c, k in bu.COMBINING.items()
        )
        # The same for NFKD, and for the compositions: Python composes every pair HF
        # does (its data is a newer superset of HF's), so what Python leaves alone HF
        # leaves alone too.
        nfkd = nfd and all(not unicodedata.is_normalized("NFKD", chr(c)) for c in bu.NFKD)
        nfc = nfd and all(
            unicodedata.normalize("NFC", chr(a) + chr(b)) == chr(c)
            for (a, b), c in bu.COMPOSE.items()
        )
        #: Form -> whether ``unicodedata.is_normalized`` may answer "unchanged" for HF.
        self.quick_check = {"NFD": nfd, "NFKD": nfkd, "NFC": nfc, "NFKC": nfc and nfkd}


@functools.lru_cache(maxsize=1)
def _pinned() -> _Pinned:
    return _Pinned()


def _pinned_form(ns: NormalizedString, form: str) -> None:
    """HF's NFC, NFD, NFKC or NFKD: its decompositions, canonical ordering by its
    combining classes, then (NFC, NFKC) its compositions, with HF's alignment model:
    decomposition gives each source char change 0 to its first output char and +1 to
    the rest, reordering moves the changes with their chars, and composition folds a
    char into its starter, adding ``change - 1`` to the starter's change.

    Only the regions :data:`_UNSTABLE_RUN` finds in the form's ``unstable`` table are
    rewritten: a char outside them is a starter that the form neither decomposes nor
    joins to what precedes it, so the form leaves it alone, and no reordering or
    composition reaches across it (the char before a region is in it, as the starter
    its chars may join)."""
    text = ns.text
    if text.isascii():
        return
    data = _pinned()
    if data.quick_check[form] and unicodedata.is_normalized(form, text):
        return
    regions = _UNSTABLE_RUN.finditer(text.translate(data.unstable[form]))
    ns.edit(
        [
            (s, e, _change_chunks(_form_pairs(text[s:e], form, data), s))
            for s, e in (m.span() for m in regions)
        ]
    )


#: A run of chars a form may change, with the char before it (see :func:`_pinned_form`).
_UNSTABLE_RUN = re.compile("s?u+")


def _form_pairs(text: str, form: str, data: _Pinned) -> list[list]:
    """The ``[char, change]`` pairs of the form of ``text`` (see :func:`_pinned_form`)."""
    decomposition = (data.compat if form in ("NFKC", "NFKD") else data.decomposition).get
    seq: list[list] = []
    add = seq.append
    for c in text:
        d = decomposition(c)
        if d is None:
            add([c, 0])
        else:
            add([d[0], 0])
            for extra in d[1:]:
                add([extra, 1])
    combining = data.combining.get
    for m in data.runs.finditer("".join([p[0] for p in seq])):
        s, e = m.span()
        seq[s:e] = sorted(seq[s:e], key=lambda p: combining(p[0], 0))
    if form in ("NFC", "NFKC"):
        seq = _composed(seq, data)
    return seq


def _composed(seq: list[list], data: _Pinned) -> list[list]:
    """Canonical composition of the ordered ``[char, change]`` pairs ``seq``: a char joins
    the last starter when no char between them blocks it (class 0, or not lower)."""
    combining = data.combining.get
    pairs = data.compose.get
    out: list[list] = []
    starter = -1
    for c, chg in seq:
        cc = combining(c, 0)
        if starter >= 0:
            last_cc = combining(out[-1][0], 0) if len(out) - 1 > starter else None
            if last_cc is None or last_cc < cc:
                first = out[starter][0]
                comp = _hangul_composition(first, c) or pairs((first, c))
                if comp is not None:
                    out[starter][0] = comp
                    out[starter][1] += chg - 1
                    continue
        if cc == 0:
            starter = len(out)
        out.append([c, chg])
    return out


def _hangul_composition(a: str, b: str) -> str | None:
    """The Hangul syllable that ``a`` + ``b`` compose to (L + V, or LV + T), else None."""
    x, y = ord(a), ord(b)
    if 0x1100 <= x < 0x1113 and 0x1161 <= y < 0x1176:
        return chr(_HANGUL_BASE + ((x - 0x1100) * 21 + y - 0x1161) * 28)
    s = x - _HANGUL_BASE
    if 0 <= s < _HANGUL_COUNT and s % 28 == 0 and 0x11A7 < y < 0x11C3:
        return chr(x + y - 0x11A7)
    return None


def _lower_chars(ns: NormalizedString) -> None:
    """Per-character lowercase as Rust's ``char::to_lowercase`` (HF's; no final-sigma
    context), from the pinned table."""
    text = ns.text
    if text.isascii():
        ns.text = text.lower()
        return
    data = _pinned()
    if data.lowers.search(text) is None:
        return
    table = data.lower
    low = text.translate(table)
    if len(low) == len(text):  # every char mapped to exactly one
        ns.text = low
    else:
        ns.transform([(table.get(ord(c), c), i, i + 1) for i, c in enumerate(text)])


def _drop_matches(ns: NormalizedString, table: str) -> None:
    """Delete every char that the class ``table`` (of :class:`_Pinned`) marks ``x``."""
    ns.delete_spans([m.span() for m in _MARKED_RUN.finditer(ns.text.translate(table))])


_MARKED_RUN = re.compile("x+")
