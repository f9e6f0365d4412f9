"""Reversible identifier splitting: camelCase, snake_case, acronyms, digits, sigils.

:func:`split_identifier` cuts an identifier into word parts and keeps what stands between
them, so ``SplitIdentifier.join()`` always gives back the identifier exactly. The rules, in
order:

1. Leading and trailing runs of ``_`` ``$`` ``@`` are the prefix and suffix (``__init__``,
   ``$el``, ``@class``); runs of them inside the name are joins (``get_user``, ``Outer$Inner``).
2. Inside a run of letters and digits, a case change starts a part (``getUser``), and the last
   capital of an acronym starts the next word (``parseHTTPResponse`` -> parse HTTP Response).
   An acronym keeps a plural ``s`` (``getIDs`` -> get IDs). A few mixed-case terms stay whole
   (``IPv4``, ``IPv6``, ``NaN``, ``OAuth``, ``iOS``, ``macOS``).
3. Digits join the letters before them when those are a known stem that takes numbers
   (``utf8``, ``base64``, ``sha256``, ``Float64``, ``html5``) or short (at most 3 letters
   and 3 digits, not a word like "to": ``md5``, ``x86``, ``arg1``); otherwise they are their
   own part (``XMLHttpRequest2`` -> XML Http Request 2, ``ticksTo1970``). A lone ``2``/``4``
   between two words is its own part (``hue2rgb`` -> hue 2 rgb). Numeronyms stay whole
   (``i18n``, ``k8s``, ``a11y``), and ordinals/dimensions keep their suffix (``2nd``,
   ``3d``, ``3D``, ``4f``).
4. Optionally, a :class:`~codetok.code.routing.segmenter.WordSegmenter` splits same-case
   runs into words learned from a corpus (``getusername`` -> get user name), counted with
   :func:`learn_word_counts`.

Not handled: natural-language text, or splitting anything that is not a single identifier.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import regex

from .cache import BoundedCache
from .segmenter import WordSegmenter

__all__ = [
    "SplitIdentifier",
    "IdentifierSplitter",
    "split_identifier",
    "learn_word_counts",
    "DIGIT_STEMS",
]

#: Letter stems that keep the digits after them (lowercased comparison).
DIGIT_STEMS = frozenset(
    """
    utf ucs base sha md crc int uint float double long short byte dword qword char
    ipv http https html xhtml win latin iso rfc vec mat ver oauth adler blake ripemd
    bits bit dim cp utc gmt log ascii koi ecma es python py
    """.split()
)
#: Short words that never take the digits after them (``to1970``, ``is2``).
_FUNCTION_WORDS = frozenset("to of in on at by or is as and for the from into".split())
_SUFFIXES = frozenset({"st", "nd", "rd", "th", "d", "D", "f"})
_PROTECTED = ("IPv4", "IPv6", "NaN", "OAuth", "iOS", "macOS")

_SEP = regex.compile(r"[_$@]+")
#: Identifiers whose split a splitter keeps, per generation (:class:`BoundedCache`).
CACHE_SIZE = 16_384
_TOKEN = regex.compile(
    r"""
      (?P<prot>PROTECTED)(?![\p{Ll}])
    | (?P<plural>[\p{Lu}\p{Lt}]{2,}s)(?![\p{Ll}\p{Lo}])
    | (?P<acro>[\p{Lu}\p{Lt}]+)(?=[\p{Lu}\p{Lt}][\p{Ll}\p{Lo}\p{Lm}])
    | (?P<word>[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}][\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}]*)
    | (?P<upper>[\p{Lu}\p{Lt}][\p{Lu}\p{Lt}\p{Mn}\p{Mc}]*)
    | (?P<digit>\p{Nd}+)
    | (?P<other>.)
    """.replace("PROTECTED", "|".join(_PROTECTED)),
    regex.VERBOSE | regex.DOTALL,
)


@dataclass(frozen=True)
class SplitIdentifier:
    """An identifier cut into parts; ``join()`` gives back the identifier exactly.

    Attributes:
        identifier: the input.
        prefix: leading ``_``/``$``/``@`` characters ("" if none).
        parts: the word parts, in order.
        joins: what stands between consecutive parts ("" for a case or digit boundary,
            ``"_"``, ``"__"``, ``"$"``...); one fewer than ``parts``.
        suffix: trailing ``_``/``$``/``@`` characters.
    """

    identifier: str
    prefix: str
    parts: tuple[str, ...]
    joins: tuple[str, ...]
    suffix: str

    def join(self) -> str:
        """Rebuild the identifier from prefix, parts, joins and suffix.

        >>> split_identifier("__get_HTTPStatus2__").join()
        '__get_HTTPStatus2__'
        """
        out = [self.prefix]
        for i, part in enumerate(self.parts):
            if i:
                out.append(self.joins[i - 1])
            out.append(part)
        out.append(self.suffix)
        return "".join(out)

    def pieces(self) -> list[str]:
        """Return prefix, parts, non-empty joins and suffix in order (no empty strings).

        >>> split_identifier("_max_value").pieces()
        ['_', 'max', '_', 'value']
        """
        out = [self.prefix] if self.prefix else []
        for i, part in enumerate(self.parts):
            if i and self.joins[i - 1]:
                out.append(self.joins[i - 1])
            out.append(part)
        if self.suffix:
            out.append(self.suffix)
        return out

    def __iter__(self) -> Iterator[str]:
        return iter(self.parts)

    def __len__(self) -> int:
        return len(self.parts)


def _tokens(segment: str) -> list[tuple[str, str]]:
    """Case/digit tokens of a separator-free segment: (group name, text)."""
    return [(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(segment)]


def _apply_digit_rules(toks: list[tuple[str, str]]) -> list[str]:
    """Merge digit tokens with their neighbours following the module rules."""
    out: list[tuple[str, str]] = []
    i = 0
    n = len(toks)
    while i < n:
        kind, text = toks[i]
        # numeronym: one letter, digits, one or two lowercase letters (i18n, l10n, k8s, a11y)
        if (
            kind in ("word", "upper")
            and len(text) == 1
            and i + 2 < n
            and toks[i + 1][0] == "digit"
            and toks[i + 2][0] == "word"
            and len(toks[i + 2][1]) <= 2
            and toks[i + 2][1].islower()
            and (not out or not out[-1][1][-1:].islower())
        ):
            out.append(("word", text + toks[i + 1][1] + toks[i + 2][1]))
            i += 3
            continue
        if kind == "digit":
            # ordinal or dimension suffix (2nd, 3d, 3D)
            if i + 1 < n and toks[i + 1][1] in _SUFFIXES and toks[i + 1][0] in ("word", "upper"):
                after = toks[i + 2][0] if i + 2 < n else ""
                if after != "word" or toks[i + 1][1] != "D":
                    out.append(("dim", text + toks[i + 1][1]))
                    i += 2
                    continue
            if out and out[-1][0] in ("word", "upper", "acro", "plural", "prot"):
                prev = out[-1][1]
                letters = prev.lower()
                stem = letters in DIGIT_STEMS or out[-1][0] == "prot"
                nxt = toks[i + 1] if i + 1 < n else ("", "")
                # "2"/"4" read as "to"/"for" between words: hue2rgb, dict4key
                as_word = (
                    text in ("2", "4")
                    and not stem
                    and len(letters) >= 2
                    and nxt[0] == "word"
                    and nxt[1].islower()
                    and len(nxt[1]) >= 2
                )
                short = len(letters) <= 3 and len(text) <= 3 and letters not in _FUNCTION_WORDS
                if (stem or short) and not as_word:
                    out[-1] = ("num", prev + text)
                    i += 1
                    continue
        out.append((kind, text))
        i += 1
    return [t for _, t in out]


class IdentifierSplitter:
    """Split identifiers by rules, optionally refining same-case runs statistically.

    Args:
        segmenter: a :class:`~codetok.code.routing.segmenter.WordSegmenter` used on parts whose
            letters are all one case (``getusername``); None keeps such parts whole.
        min_segment_length: parts shorter than this are never segmented statistically.

    >>> IdentifierSplitter().split("parseHTTPResponse").parts
    ('parse', 'HTTP', 'Response')
    """

    def __init__(
        self, *, segmenter: WordSegmenter | None = None, min_segment_length: int = 5
    ) -> None:
        self.segmenter = segmenter
        self.min_segment_length = min_segment_length
        self._cache: BoundedCache[str, SplitIdentifier] = BoundedCache(CACHE_SIZE)

    def split(self, name: str, /) -> SplitIdentifier:
        """Split one identifier.

        Args:
            name: the identifier (any string works; splitting is always reversible).

        Returns:
            A :class:`SplitIdentifier` whose ``join()`` equals ``name``.

        >>> IdentifierSplitter().split("XMLHttpRequest2").parts
        ('XML', 'Http', 'Request', '2')
        """
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        result = self._split(name)
        self._cache.put(name, result)
        return result

    def _split(self, name: str) -> SplitIdentifier:
        if not name:
            return SplitIdentifier(name, "", (), (), "")
        seps = list(_SEP.finditer(name))
        if len(seps) == 1 and seps[0].span() == (0, len(name)):
            # only sigils/underscores: one part ("_", "$", "__")
            return SplitIdentifier(name, "", (name,), (), "")
        prefix = suffix = ""
        start, end = 0, len(name)
        if seps and seps[0].start() == 0:
            prefix = seps[0].group()
            start = seps[0].end()
            seps = seps[1:]
        if seps and seps[-1].end() == len(name):
            suffix = seps[-1].group()
            end = seps[-1].start()
            seps = seps[:-1]
        parts: list[str] = []
        joins: list[str] = []
        pos = start
        pending_join = None
        for sep in [*seps, None]:
            seg_end = end if sep is None else sep.start()
            words = self._split_segment(name[pos:seg_end])
            for j, w in enumerate(words):
                if parts:
                    joins.append(pending_join if j == 0 and pending_join is not None else "")
                parts.append(w)
            if sep is not None:
                pending_join = sep.group()
                pos = sep.end()
        return SplitIdentifier(name, prefix, tuple(parts), tuple(joins), suffix)

    def _split_segment(self, segment: str) -> list[str]:
        words = _apply_digit_rules(_tokens(segment))
        seg = self.segmenter
        if seg is None:
            return words
        out: list[str] = []
        for w in words:
            if len(w) >= self.min_segment_length and w.isalpha():
                body = w[1:] if w[:1].isupper() and w[1:].islower() else w
                if body.islower() or (w.isupper() and len(w) >= self.min_segment_length + 2):
                    pieces = seg.segment(w.lower())
                    if len(pieces) > 1:
                        k = 0
                        for p in pieces:  # restore the original letters (case)
                            out.append(w[k : k + len(p)])
                            k += len(p)
                        continue
            out.append(w)
        return out


_RULES = IdentifierSplitter()
_STATISTICAL: IdentifierSplitter | None = None


def split_identifier(name: str, /, *, statistical: bool = False) -> SplitIdentifier:
    """Split an identifier into word parts, reversibly.

    Args:
        name: the identifier, for example ``"parseHTTPResponse"`` or ``"__init__"``.
        statistical: also split same-case runs (``getusername``) with the default word
            frequencies shipped with codetok (learned from identifiers of real code).

    Returns:
        A :class:`SplitIdentifier`; ``.parts`` are the words and ``.join()`` gives ``name``.

    >>> split_identifier("parseHTTPResponse").parts
    ('parse', 'HTTP', 'Response')
    >>> s = split_identifier("__init__")
    >>> (s.prefix, s.parts, s.suffix)
    ('__', ('init',), '__')
    >>> split_identifier("getusername", statistical=True).parts
    ('get', 'user', 'name')
    """
    global _STATISTICAL
    if not statistical:
        return _RULES.split(name)
    if _STATISTICAL is None:
        _STATISTICAL = IdentifierSplitter(segmenter=WordSegmenter.default())
    return _STATISTICAL.split(name)


def learn_word_counts(identifiers: Iterable[str], *, min_parts: int = 2) -> Counter[str]:
    """Count the lowercased alphabetic parts of identifiers that have explicit boundaries.

    Identifiers with fewer than ``min_parts`` parts are skipped: a lone lowercase name such
    as ``isinstance`` says nothing about where its words end.

    Args:
        identifiers: identifier occurrences (repeat an identifier to weight it).
        min_parts: minimum number of rule-split parts an identifier needs to count.

    Returns:
        A Counter of words.

    >>> learn_word_counts(["get_user", "userName", "x"])["user"]
    2
    >>> counts = learn_word_counts(["get_user", "user_name", "getName"])
    >>> WordSegmenter(counts).segment("getusername")
    ['get', 'user', 'name']
    """
    counts: Counter[str] = Counter()
    for ident in identifiers:
        parts = split_identifier(ident).parts
        if len(parts) < min_parts:
            continue
        for p in parts:
            if p.isalpha():
                counts[p.lower()] += 1
    return counts
