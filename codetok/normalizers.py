"""Normalizers: the first pipeline step, text in, text out, alignment kept.

Each normalizer edits a :class:`~codetok.offsets.NormalizedString` in place and keeps the
per-character alignment to the caller's text (see :mod:`codetok.offsets`). The set and the
JSON schema are those of HF ``tokenizers``: NFC/NFD/NFKC/NFKD, Lowercase, Strip,
StripAccents, Replace, Prepend, BertNormalizer, ByteLevel and Sequence. SentencePiece's
compiled charsmap (``Precompiled``) lives with the SentencePiece format code
(:mod:`codetok.formats.precompiled`); :func:`normalizer_from_dict` finds it through
:mod:`codetok._registry`, which imports that module on first need.

``BertNormalizer``, ``Lowercase``, ``StripAccents``, ``NFC``, ``NFD``, ``NFKC`` and ``NFKD``
read their character data from :mod:`codetok._bert_unicode`, pinned to what HF ``tokenizers`` does (its
Unicode tables are neither Python's ``unicodedata`` nor the ``regex`` module's, and these
change with their versions); ``unicodedata`` only answers "already normalized" quickly,
where it is checked to agree.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

import regex

from ._bytes import bytes_to_unicode
from ._regex import compile_pattern
from ._registry import registry
from ._serde import Component, build, build_items, pattern_from_any
from .offsets import NormalizedString

__all__ = [
    "Normalizer",
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "Strip",
    "StripAccents",
    "Replace",
    "Prepend",
    "BertNormalizer",
    "ByteLevel",
    "Sequence",
    "normalizer_from_dict",
    "RUST_WHITESPACE",
]

# Unicode White_Space, the set Rust's char::is_whitespace uses (Python's isspace differs).
RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class Normalizer(Component):
    """Base class: :meth:`normalize` edits a NormalizedString in place."""

    def normalize(self, ns: NormalizedString) -> None:
        raise NotImplementedError

    def normalize_str(self, text: str) -> str:
        """Normalize a plain string (no alignment returned).

        >>> Lowercase().normalize_str("HeLLo")
        'hello'
        """
        ns = NormalizedString(text)
        self.normalize(ns)
        return ns.text


def _apply_changes(ns: NormalizedString, pairs: list[list]) -> None:
    """Rewrite ``ns`` as the ``[char, change]`` pairs of its text (HF's alignment: a char
    with change 0 takes the next source char, +1 is inserted after the previous one, -n
    also consumes the n source chars after it)."""
    chunks: list[tuple[str, int, int]] = []
    pos = 0
    for c, chg in pairs:
        if chg > 0:
            chunks.append((c, pos, pos))
        else:
            chunks.append((c, pos, pos + 1))
            pos += 1 - chg
    ns.transform(chunks)


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
    """HF's character data (:mod:`codetok._bert_unicode`), compiled on first use."""

    def __init__(self) -> None:
        from . import _bert_unicode as bu
        from ._regex import char_class, code_points, fast_class

        near, exact = fast_class(bu.DROP, r"\p{Cc}\p{Cf}\p{Co}\uFFFD")
        self.drop = regex.compile(f"(?=[{near}]){exact}")
        drop = set(code_points(bu.DROP))
        # clean_text: whitespace it does not drop becomes " " one for one.
        self.to_space = {c: " " for c in code_points(bu.SPACE) if c not in drop and c != 32}
        self.cjk = regex.compile(char_class(bu.CJK))
        near, exact = fast_class(bu.MARK, r"\p{M}")
        self.mark = regex.compile(f"(?=[{near}]){exact}")
        self.decomposition = {
            chr(c): _hf_decomposition(c, bu.NFD) for c in code_points(bu.DECOMPOSES)
        }
        self.combining = {chr(c): k for c, k in bu.COMBINING.items()}
        # NFKD: the compatibility decompositions, over the canonical ones.
        self.compat = dict(self.decomposition)
        self.compat.update((chr(c), d) for c, d in bu.NFKD.items())
        self.compose = {(chr(a), chr(b)): chr(c) for (a, b), c in bu.COMPOSE.items()}
        near, exact = fast_class(bu.STRIP_ACCENTS, r"\p{M}")
        self.strip_accents = regex.compile(f"(?=[{near}]){exact}")
        # Non-starter runs (where canonical ordering may move chars).
        near, exact = fast_class(bu.COMBINES, r"\p{M}")
        self.runs = regex.compile(f"(?:(?=[{near}]){exact}){{2,}}")
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
    char into its starter, adding ``change - 1`` to the starter's change."""
    text = ns.text
    if text.isascii():
        return
    data = _pinned()
    if data.quick_check[form] and unicodedata.is_normalized(form, text):
        return
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
    _apply_changes(ns, seq)


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


class Lowercase(Normalizer):
    """Lowercase every character."""

    type_name = "Lowercase"

    def normalize(self, ns: NormalizedString) -> None:
        _lower_chars(ns)


def _is_rust_ws(c: str) -> bool:
    return c in RUST_WHITESPACE


class Strip(Normalizer):
    """Remove leading and/or trailing whitespace."""

    type_name = "Strip"

    def __init__(self, strip_left: bool = True, strip_right: bool = True) -> None:
        self.strip_left = strip_left
        self.strip_right = strip_right

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        start, end = 0, len(text)
        if self.strip_left:
            while start < end and _is_rust_ws(text[start]):
                start += 1
        if self.strip_right:
            while end > start and _is_rust_ws(text[end - 1]):
                end -= 1
        if (start, end) != (0, len(text)):
            sub = ns.slice(start, end)
            ns.text, ns.base, ns.align = sub.text, sub.base, sub.align


def _drop_matches(ns: NormalizedString, pattern: regex.Pattern[str]) -> None:
    """Delete every character matched by a one-character ``pattern``."""
    ns.delete([m.start() for m in pattern.finditer(ns.text)])


class StripAccents(Normalizer):
    """Remove combining marks (categories Mn, Mc, Me, by HF's pinned table); usually after
    NFD."""

    type_name = "StripAccents"

    def normalize(self, ns: NormalizedString) -> None:
        if ns.text.isascii():
            return
        # HF's StripAccents drops every mark (Mn, Mc, Me) of its table; BertNormalizer only Mn.
        _drop_matches(ns, _pinned().strip_accents)


class Replace(Normalizer):
    """Replace every match of ``pattern`` (literal or regex) by ``content``.

    Args:
        pattern: a literal string, or ``{"String": s}`` / ``{"Regex": r}`` as in HF JSON.
        content: the replacement text.
    """

    type_name = "Replace"

    def __init__(self, pattern: Any, content: str) -> None:
        self.pattern = pattern_from_any(pattern)
        self.content = content
        self._re = compile_pattern(self.pattern)

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        chunks: list[tuple[str, int, int]] = []
        pos = 0
        found = False
        for m in self._re.finditer(text):
            s, e = m.span()
            if s == e:
                continue
            found = True
            chunks.extend((c, i, i + 1) for i, c in enumerate(text[pos:s], pos))
            # HF removes the match, then inserts the content after its last character, so
            # the content aligns to that character alone.
            chunks.append((self.content, e - 1, e))
            pos = e
        if not found:
            return
        chunks.extend((c, i, i + 1) for i, c in enumerate(text[pos:], pos))
        ns.transform(chunks)


class Prepend(Normalizer):
    """Prepend ``prepend`` to any non-empty text."""

    type_name = "Prepend"

    def __init__(self, prepend: str) -> None:
        self.prepend = prepend

    def normalize(self, ns: NormalizedString) -> None:
        ns.prepend(self.prepend)


class BertNormalizer(Normalizer):
    """BERT's normalizer: clean control chars, space out CJK, strip accents, lowercase.

    Args:
        clean_text: drop control characters and map whitespace to a plain space.
        handle_chinese_chars: put spaces around CJK ideographs.
        strip_accents: drop accents; ``None`` means "same as ``lowercase``".
        lowercase: lowercase the text.
    """

    type_name = "BertNormalizer"

    def __init__(
        self,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool | None = None,
        lowercase: bool = True,
    ) -> None:
        self.clean_text = clean_text
        self.handle_chinese_chars = handle_chinese_chars
        self.strip_accents = strip_accents
        self.lowercase = lowercase

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        ascii_only = text.isascii()
        if self.clean_text:
            self._clean(ns)
        if self.handle_chinese_chars and not ascii_only:
            _space_cjk(ns)
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        if strip and not ns.text.isascii():
            _pinned_form(ns, "NFD")
            _drop_matches(ns, _pinned().mark)
        if self.lowercase:
            _lower_chars(ns)

    @staticmethod
    def _clean(ns: NormalizedString) -> None:
        # Controls (but tab/newline/CR), format and private-use chars, NUL and U+FFFD are
        # deleted, then whitespace becomes a plain space one for one.
        data = _pinned()
        _drop_matches(ns, data.drop)
        ns.map_chars(ns.text.translate(data.to_space))


def _space_cjk(ns: NormalizedString) -> None:
    """Put a space on each side of every CJK ideograph (aligned to the ideograph)."""
    text = ns.text
    hits = {m.start() for m in _pinned().cjk.finditer(text)}
    if hits:
        ns.transform([(f" {c} " if i in hits else c, i, i + 1) for i, c in enumerate(text)])


class ByteLevel(Normalizer):
    """Map text to the GPT-2 byte alphabet (one char per UTF-8 byte)."""

    type_name = "ByteLevel"

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        if text.isascii():
            ns.map_chars(bytes_to_unicode(text.encode("ascii")))
            return
        chunks = []
        for i, c in enumerate(text):
            chunks.append((bytes_to_unicode(c.encode("utf-8", "surrogatepass")), i, i + 1))
        ns.transform(chunks)


class Sequence(Normalizer):
    """Apply normalizers one after the other."""

    type_name = "Sequence"
    tracked_lists = ("normalizers",)

    def __init__(self, normalizers: list[Normalizer]) -> None:
        self.normalizers = list(normalizers)

    def normalize(self, ns: NormalizedString) -> None:
        for n in self.normalizers:
            n.normalize(ns)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Sequence", "normalizers": [n.to_dict() for n in self.normalizers]}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Sequence:
        return cls(
            build_items(
                normalizer_from_dict, data["normalizers"], "normalizers", path=path, where=where
            )
        )

    def __getitem__(self, i: int) -> Normalizer:
        return self.normalizers[i]

    def __len__(self) -> int:
        return len(self.normalizers)


#: ``type`` -> class; ``Precompiled`` is provided on first lookup (see :mod:`codetok._registry`).
REGISTRY = registry("normalizer")
REGISTRY.register(
    NFC,
    NFD,
    NFKC,
    NFKD,
    Lowercase,
    Strip,
    StripAccents,
    Replace,
    Prepend,
    BertNormalizer,
    ByteLevel,
    Sequence,
)


def normalizer_from_dict(
    data: Any, *, path: str | None = None, where: str = "normalizer"
) -> Normalizer | None:
    """Build a normalizer from its HF ``tokenizer.json`` object (``None`` stays ``None``)."""
    return build(REGISTRY, data, path=path, where=where)
