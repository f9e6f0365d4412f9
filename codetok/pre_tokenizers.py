"""Pre-tokenizers: cut normalized text into the pieces a model sees.

A pre-tokenizer maps one :class:`~codetok.offsets.NormalizedString` to a list of them
(slices keep their alignment, so offsets stay exact). The set and the JSON schema are
those of HF ``tokenizers``: ByteLevel, Whitespace, WhitespaceSplit, BertPreTokenizer,
Metaspace, Punctuation, Digits, CharDelimiterSplit, Split, UnicodeScripts, Sequence.

``Split``-style behaviours decide what happens to the matched delimiters: ``removed``,
``isolated``, ``merged_with_previous``, ``merged_with_next`` or ``contiguous`` (runs of
consecutive matches become one piece). Empty pieces are always dropped.
"""

from __future__ import annotations

import codecs
import functools
import operator
from itertools import accumulate, compress
from typing import Any

import regex

from ._bytes import BYTE_TO_CHAR, LATIN1_TO_BYTECHAR, bytes_to_unicode
from ._regex import compile_onig, compile_pattern
from ._registry import registry
from ._serde import Component, build, build_items, pattern_from_any
from .errors import ConfigurationError
from .offsets import NormalizedString, Span

__all__ = [
    "PreTokenizer",
    "ByteLevel",
    "Whitespace",
    "WhitespaceSplit",
    "BertPreTokenizer",
    "Metaspace",
    "Punctuation",
    "Digits",
    "CharDelimiterSplit",
    "Split",
    "UnicodeScripts",
    "Sequence",
    "pre_tokenizer_from_dict",
    "GPT2_PATTERN",
    "split_spans",
]

#: Where a piece sits in the caller's text (see :meth:`PreTokenizer.split_many`).
Anchor = int | NormalizedString

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

BEHAVIORS = ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")
#: ``Split``'s pattern for extended grapheme clusters: run on codetok's pinned tables
#: (:class:`_Clusters`), as the native plans do.
GRAPHEME_REGEX = r"\X"
_BEHAVIOR_ALIASES = {
    "Removed": "removed",
    "Isolated": "isolated",
    "MergedWithPrevious": "merged_with_previous",
    "MergedWithNext": "merged_with_next",
    "Contiguous": "contiguous",
}
_BEHAVIOR_JSON = {v: k for k, v in _BEHAVIOR_ALIASES.items()}


def _behavior(value: str) -> str:
    b = _BEHAVIOR_ALIASES.get(value, value)
    if b not in BEHAVIORS:
        raise ConfigurationError(f"behavior must be one of {', '.join(BEHAVIORS)}; got {value!r}")
    return b


def segments(n: int, matches: list[Span]) -> list[tuple[int, int, bool]]:
    """Cover ``[0, n)`` with ``(start, end, is_match)`` segments around sorted matches."""
    out: list[tuple[int, int, bool]] = []
    pos = 0
    for s, e in matches:
        if s > pos:
            out.append((pos, s, False))
        out.append((s, e, True))
        pos = e
    if pos < n or not out:
        out.append((pos, n, False))
    return out


def split_spans(n: int, matches: list[Span], behavior: str, invert: bool = False) -> list[Span]:
    """Turn delimiter ``matches`` (sorted, non-overlapping) over ``[0, n)`` into pieces.

    With ``invert`` the matches are the pieces and the text between them the delimiters.

    >>> split_spans(7, [(3, 4)], "isolated")
    [(0, 3), (3, 4), (4, 7)]
    """
    segs = segments(n, matches)
    if invert:
        segs = [(s, e, not m) for s, e, m in segs]
    out: list[list[int]] = []
    if behavior == "removed":
        out = [[s, e] for s, e, m in segs if not m]
    elif behavior == "isolated":
        out = [[s, e] for s, e, _ in segs]
    elif behavior == "merged_with_previous":
        prev = False
        for s, e, m in segs:
            if m and not prev and out:
                out[-1][1] = e
            else:
                out.append([s, e])
            prev = m
    elif behavior == "merged_with_next":
        prev = False
        for s, e, m in reversed(segs):
            if m and not prev and out:
                out[-1][0] = s
            else:
                out.append([s, e])
            prev = m
        out.reverse()
    elif behavior == "contiguous":
        prev = False
        for s, e, m in segs:
            if m == prev and out:
                out[-1][1] = e
            else:
                out.append([s, e])
            prev = m
    else:  # pragma: no cover - guarded by _behavior
        raise ConfigurationError(f"unknown behavior {behavior!r}")
    return [(s, e) for s, e in out if e > s]


def _cut(ns: NormalizedString, spans: list[Span]) -> list[NormalizedString]:
    if len(spans) == 1 and spans[0] == (0, len(ns.text)):
        return [ns]
    if ns.align is None:
        # Identity alignment: build the slices directly (the hot path).
        text, base, new = ns.text, ns.base, NormalizedString
        return [new(text[s:e], base + s) for s, e in spans]
    return [ns.slice(s, e) for s, e in spans]


def _tiling(pattern: regex.Pattern[str], text: str) -> list[str] | None:
    """The matches of ``pattern`` when they tile ``text`` exactly (no gaps, none empty).

    Then the matches are the ``isolated`` pieces and their positions follow from their
    lengths, so one C-level ``findall`` does all the work. ``None`` otherwise.
    """
    if pattern.groups:
        return None
    pieces = pattern.findall(text)
    if sum(map(len, pieces)) != len(text) or "" in pieces:
        return None
    return pieces


def _starts(pieces: list[str], base: int) -> list[int]:
    """Original start of each piece of a tiling that starts at ``base``."""
    return list(accumulate(map(len, pieces[:-1]), initial=base))


def _span_pieces(
    text: str, base: int, spans: list[Span], out_texts: list[str], out_anchors: list[Anchor]
) -> None:
    """Append the pieces ``text[s:e]`` (identity alignment from ``base``) of ``spans``."""
    out_texts.extend([text[s:e] for s, e in spans])
    out_anchors.extend([base + s for s, _ in spans])


def _char_matches(text: str, pattern: regex.Pattern[str]) -> list[Span]:
    """Spans of the single characters ``pattern`` matches (one C-level pass)."""
    return [m.span() for m in pattern.finditer(text)]


# Unicode White_Space (Rust's char::is_whitespace), as a regex class body.
_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WS_RE = regex.compile(f"[{_WS}]")
_NON_WS_RUN_RE = regex.compile(f"[^{_WS}]+")
# Tilings for split_many: the pieces plus the whitespace runs between them.
_WS_TILES_RE = regex.compile(f"[{_WS}]+|[^{_WS}]+")
# The only characters str.isspace() accepts that are not White_Space.
_ISSPACE_ONLY_RE = regex.compile("[\x1c-\x1f]")


class _BertClasses:
    r"""BERT's whitespace and punctuation as HF has them (:mod:`codetok._bert_unicode`:
    its punctuation table is older than Unicode's), compiled on first use.

    Punctuation is tried as ``near`` first (ASCII symbols and ``\p{P}``: one table
    look-up), then as the exact class; a char outside ``near`` is never punctuation. The
    ``quick`` patterns take every ``near`` char for punctuation: exact on texts where
    ``loose`` (a ``near`` char that is not punctuation, such as U+2E43) finds nothing.
    """

    def __init__(self) -> None:
        from . import _bert_unicode as bu
        from ._regex import char_class, code_points, fast_class

        ws = char_class(bu.SPACE)[1:-1]
        near, exact = fast_class(bu.PUNCT, r"!-/:-@\[-`{-~\p{P}")
        if regex.search(f"[{near}]", "".join(map(chr, code_points(bu.SPACE)))):
            near = exact[1:-1]  # pragma: no cover - no regex puts a space in \p{P}
        punct = f"(?=[{near}]){exact}"
        self.punct = regex.compile(punct)
        self.loose = regex.compile(f"[{near}](?<!{exact})")
        word = f"(?:[^{ws}{near}]+|[{near}](?<!{exact}))+"
        self.pieces = regex.compile(f"{word}|{punct}")
        self.quick_pieces = regex.compile(f"[^{ws}{near}]+|[{near}]")
        # The pieces plus the whitespace runs between them (for split_many).
        self.tiles = regex.compile(f"[{ws}]+|{word}|{punct}")
        self.quick_tiles = regex.compile(f"[{ws}]+|[^{ws}{near}]+|[{near}]")

    def quick(self, texts: list[str]) -> bool:
        """Whether the ``quick`` patterns are exact on all of ``texts``."""
        search = self.loose.search
        return all(t.isascii() or search(t) is None for t in texts)


@functools.lru_cache(maxsize=1)
def _bert_classes() -> _BertClasses:
    return _BertClasses()


class PreTokenizer(Component):
    """Base class: :meth:`split` cuts one normalized piece into several."""

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        raise NotImplementedError

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces, as parallel lists ``(texts, anchors)``.

        An anchor places its piece in the caller's text: an ``int`` is the original
        position of the piece's first character under the identity alignment, otherwise
        it is the piece's :class:`~codetok.offsets.NormalizedString` (``.text`` equal to
        the piece). Pre-tokenizers on the hot path override this to cut whole strings with
        one regex pass and no per-piece objects; this default goes through :meth:`split`.
        """
        out_texts: list[str] = []
        out_anchors: list[Anchor] = []
        add_text, add_anchor = out_texts.append, out_anchors.append
        for text, anchor in zip(texts, anchors):
            ns = NormalizedString(text, anchor) if type(anchor) is int else anchor
            for p in self.split(ns):
                add_text(p.text)
                add_anchor(p.base if p.align is None else p)
        return out_texts, out_anchors

    def pre_tokenize_str(self, text: str) -> list[tuple[str, Span]]:
        """Pieces of ``text`` with their offsets (as HF's ``pre_tokenize_str``).

        >>> Whitespace().pre_tokenize_str("Hi there!")
        [('Hi', (0, 2)), ('there', (3, 8)), ('!', (8, 9))]
        """
        return [
            (p.text, p.original_span(0, len(p.text))) for p in self.split(NormalizedString(text))
        ]


class _RegexSplit(PreTokenizer):
    """Shared body of the pre-tokenizers that split on one compiled regex."""

    _regex: regex.Pattern[str]
    _behavior: str = "isolated"
    _invert: bool = False

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        if not text:
            return []
        matches = [m.span() for m in self._regex.finditer(text)]
        return _cut(ns, split_spans(len(text), matches, self._behavior, self._invert))

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces; identity-aligned ones are cut as whole strings."""
        out_texts: list[str] = []
        out_anchors: list[Anchor] = []
        isolated = self._behavior == "isolated" and not self._invert
        for text, anchor in zip(texts, anchors):
            if type(anchor) is not int:
                t, a = PreTokenizer.split_many(self, [text], [anchor])
                out_texts.extend(t)
                out_anchors.extend(a)
                continue
            if not text:
                continue
            pieces = _tiling(self._regex, text) if isolated else None
            if pieces is not None:
                out_texts.extend(pieces)
                out_anchors.extend(_starts(pieces, anchor))
                continue
            matches = [m.span() for m in self._regex.finditer(text)]
            spans = split_spans(len(text), matches, self._behavior, self._invert)
            _span_pieces(text, anchor, spans, out_texts, out_anchors)
        return out_texts, out_anchors


def _gpt2_re() -> regex.Pattern[str]:
    """ByteLevel's GPT-2 regex, compiled on first use (``compile_onig`` caches it): its
    Unicode classes load codetok._unicode_classes, which ``import codetok`` need not do."""
    return compile_onig(GPT2_PATTERN)


def __getattr__(name: str):
    if name == "_GPT2_RE":  # the compiled regex, for the tests
        return _gpt2_re()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ByteLevel(PreTokenizer):
    """GPT-2 pre-tokenization: optional prefix space, GPT-2 regex, bytes to the alphabet.

    Args:
        add_prefix_space: prepend a space to each piece that does not start with one.
        trim_offsets: used by the matching post-processor (kept here for the schema).
        use_regex: split with the GPT-2 regex (``False`` when an earlier Split did it).
    """

    type_name = "ByteLevel"

    def __init__(
        self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True
    ) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    @staticmethod
    def alphabet() -> list[str]:
        """The 256 characters of the byte-level alphabet."""
        return [LATIN1_TO_BYTECHAR[b] for b in range(256)]

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        if self.add_prefix_space and not ns.text.startswith(" "):
            ns.prepend(" ")
        if self.use_regex:
            text = ns.text
            pieces = _cut(ns, [m.span() for m in _gpt2_re().finditer(text)]) if text else []
        else:
            pieces = [ns] if ns.text else []
        for p in pieces:
            _to_bytes(p)
        return pieces

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces without per-piece objects where possible.

        An identity-aligned piece that needs no prefix space is cut with one ``findall``
        (the GPT-2 regex tiles any text) and, when ASCII, mapped to the byte alphabet with
        one ``translate`` of the whole string: each ASCII char is one byte, so the byte
        pieces keep the identity alignment. Non-ASCII sub-pieces take :func:`_to_bytes`.
        """
        out_texts: list[str] = []
        out_anchors: list[Anchor] = []
        for text, anchor in zip(texts, anchors):
            if not text:
                continue
            pieces: list[str] | None = [text]
            if type(anchor) is not int or (self.add_prefix_space and text[0] != " "):
                pieces = None
            elif self.use_regex:
                pieces = _tiling(_gpt2_re(), text)
            if pieces is None:
                t, a = PreTokenizer.split_many(self, [text], [anchor])
                out_texts.extend(t)
                out_anchors.extend(a)
                continue
            starts = _starts(pieces, anchor)
            if text.isascii():
                mapped = _bytechars(text.encode("ascii"))
                if len(pieces) == 1:
                    out_texts.append(mapped)
                else:
                    rel = [s - anchor for s in starts]
                    out_texts.extend(map(mapped.__getitem__, map(slice, rel, rel[1:] + [None])))
                out_anchors.extend(starts)
                continue
            try:
                nbytes = list(map(len, map(str.encode, pieces)))
            except UnicodeEncodeError:  # lone surrogates: piece by piece
                nbytes = None
            if nbytes is None:
                for p, start in zip(pieces, starts):
                    ns = NormalizedString(p, start)
                    _to_bytes(ns)
                    out_texts.append(ns.text)
                    out_anchors.append(ns.base if ns.align is None else ns)
                continue
            # One byte-alphabet string for the whole text, cut at the pieces' byte bounds.
            mapped = _bytechars(text.encode("utf-8"))
            bounds = list(accumulate(nbytes, initial=0))
            out_texts.extend(map(mapped.__getitem__, map(slice, bounds, bounds[1:])))
            # A piece with more bytes than chars is not identity-aligned: it gets its own
            # NormalizedString (the alignment of each byte to its char).
            anchored: list[Anchor] = list(starts)
            for i in compress(range(len(pieces)), map(operator.ne, nbytes, map(len, pieces))):
                ns = NormalizedString(pieces[i], starts[i])
                _to_bytes(ns)
                anchored[i] = ns
            out_anchors.extend(anchored)
        return out_texts, out_anchors


_BYTE_TABLE = "".join(BYTE_TO_CHAR)


def _bytechars(data: bytes) -> str:
    """Bytes to the byte-level alphabet, one char per byte (a C-level charmap decode)."""
    return codecs.charmap_decode(data, "strict", _BYTE_TABLE)[0]


def _to_bytes(ns: NormalizedString) -> None:
    text = ns.text
    if text.isascii():
        ns.map_chars(text.translate(LATIN1_TO_BYTECHAR))
        return
    chunks = []
    for i, c in enumerate(text):
        if c < "\x80":
            chunks.append((LATIN1_TO_BYTECHAR[ord(c)], i, i + 1))
        else:
            chunks.append((bytes_to_unicode(c.encode("utf-8", "surrogatepass")), i, i + 1))
    ns.transform(chunks)


class Whitespace(_RegexSplit):
    r"""Split into ``\w+`` and ``[^\w\s]+`` runs; whitespace is dropped."""

    type_name = "Whitespace"
    _behavior = "removed"
    _invert = True

    @property
    def _regex(self) -> regex.Pattern[str]:  # type: ignore[override]
        return _whitespace_re()


@functools.lru_cache(maxsize=1)
def _whitespace_re() -> regex.Pattern[str]:
    """``\\w+|[^\\w\\s]+`` with HF's classes: it compiles this one with Rust's regex crate,
    whose ``\\w`` (UTS #18, joiners included) and ``\\s`` are those of its Unicode version,
    pinned in :mod:`codetok._bert_unicode` (the ``regex`` module's follow its own)."""
    from . import _bert_unicode as bu
    from ._regex import fast_class

    near, exact = fast_class(bu.WORD, r"\w")
    word = f"(?:(?=[{near}]){exact})"
    near, exact = fast_class(bu.WORD_SPACE, r"\s")
    space = f"(?:(?=[{near}]){exact})"
    return regex.compile(f"{word}+|(?:(?!{word}|{space})[\\s\\S])+")


class WhitespaceSplit(PreTokenizer):
    """Split on whitespace only."""

    type_name = "WhitespaceSplit"

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        return _cut(ns, [m.span() for m in _NON_WS_RUN_RE.finditer(ns.text)])

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        return _split_many_on(_WS_TILES_RE, _NON_WS_RUN_RE, self, texts, anchors)


class BertPreTokenizer(PreTokenizer):
    """BERT: split on whitespace (dropped) and on each punctuation char (kept alone).

    Punctuation is HF's: every ASCII symbol plus its (older than current) Unicode ``P*``.
    """

    type_name = "BertPreTokenizer"

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        bc = _bert_classes()
        pieces = bc.quick_pieces if bc.quick([ns.text]) else bc.pieces
        return _cut(ns, [m.span() for m in pieces.finditer(ns.text)])

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        bc = _bert_classes()
        if bc.quick(texts):
            return _split_many_on(bc.quick_tiles, bc.quick_pieces, self, texts, anchors)
        return _split_many_on(bc.tiles, bc.pieces, self, texts, anchors)


def _split_many_on(
    tiles: regex.Pattern[str],
    pattern: regex.Pattern[str],
    pre: PreTokenizer,
    texts: list[str],
    anchors: list[Anchor],
) -> tuple[list[str], list[Anchor]]:
    """``split_many`` of a pre-tokenizer that keeps the matches of ``pattern``, drops whitespace.

    ``tiles`` is ``pattern`` plus whitespace runs: its matches tile any text, so a
    C-level ``findall`` and the running sum of lengths give every piece and position;
    the whitespace tiles are dropped with ``str.isspace``. That agrees with the
    ``White_Space`` class used here except on U+001C..U+001F, so texts holding those
    take a ``finditer`` pass.
    """
    out_texts: list[str] = []
    out_anchors: list[Anchor] = []
    for text, anchor in zip(texts, anchors):
        if type(anchor) is not int:
            t, a = PreTokenizer.split_many(pre, [text], [anchor])
            out_texts.extend(t)
            out_anchors.extend(a)
        elif _ISSPACE_ONLY_RE.search(text) is None:
            pieces = tiles.findall(text)
            starts = accumulate(map(len, pieces), initial=anchor)
            keep = list(map(operator.not_, map(str.isspace, pieces)))
            out_texts.extend(compress(pieces, keep))
            out_anchors.extend(compress(starts, keep))
        else:
            spans = [m.span() for m in pattern.finditer(text)]
            _span_pieces(text, anchor, spans, out_texts, out_anchors)
    return out_texts, out_anchors


_PREPEND_SCHEMES = ("always", "first", "never")


class Metaspace(PreTokenizer):
    """SentencePiece-style: spaces become ``replacement``, optionally prepended and split.

    Args:
        replacement: the visible space character (``"▁"``).
        prepend_scheme: ``"always"``, ``"first"`` (only the piece at the start of the
            text) or ``"never"``.
        split: cut before each replacement character.
    """

    type_name = "Metaspace"

    def __init__(
        self, replacement: str = "\u2581", prepend_scheme: str = "always", split: bool = True
    ) -> None:
        if len(replacement) != 1:
            raise ConfigurationError(f"replacement must be one character, got {replacement!r}")
        if prepend_scheme not in _PREPEND_SCHEMES:
            raise ConfigurationError(
                f"prepend_scheme must be one of {_PREPEND_SCHEMES}, got {prepend_scheme!r}"
            )
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split_ = split
        self._rep_re = regex.compile(regex.escape(replacement))

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "Metaspace",
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
            "split": self.split_,
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Metaspace:
        scheme = data.get("prepend_scheme")
        if scheme is None:  # legacy files: add_prefix_space
            scheme = "always" if data.get("add_prefix_space", True) else "never"
        return cls(data.get("replacement", "\u2581"), scheme, data.get("split", True))

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        rep = self.replacement
        text = ns.text
        if " " in text:
            ns.map_chars(text.replace(" ", rep))
        if ns.text and not ns.text.startswith(rep):
            if self.prepend_scheme == "always" or (
                self.prepend_scheme == "first" and ns.original_span(0, 0)[0] == 0
            ):
                ns.prepend(rep)
        if not ns.text:
            return []
        if not self.split_:
            return [ns]
        t = ns.text
        return _cut(ns, split_spans(len(t), _char_matches(t, self._rep_re), "merged_with_next"))


class Punctuation(PreTokenizer):
    """Split on punctuation characters with the given behaviour (default isolated)."""

    type_name = "Punctuation"

    def __init__(self, behavior: str = "isolated") -> None:
        self.behavior = _behavior(behavior)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Punctuation", "behavior": _BEHAVIOR_JSON[self.behavior]}

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        t = ns.text
        punct = _bert_classes().punct
        return _cut(ns, split_spans(len(t), _char_matches(t, punct), self.behavior))


class Digits(PreTokenizer):
    """Split digits from the rest, each digit alone when ``individual_digits``."""

    type_name = "Digits"

    def __init__(self, individual_digits: bool = False) -> None:
        self.individual_digits = individual_digits

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        t = ns.text
        behavior = "isolated" if self.individual_digits else "contiguous"
        return _cut(ns, split_spans(len(t), _char_matches(t, _numeric_re()), behavior))


@functools.lru_cache(maxsize=1)
def _numeric_re() -> regex.Pattern[str]:
    """One digit as HF's ``Digits`` sees it: Rust's ``char::is_numeric`` of its Unicode
    version, pinned in :mod:`codetok._bert_unicode` (``\\p{N}`` follows ``regex``'s)."""
    from . import _bert_unicode as bu
    from ._regex import fast_class

    near, exact = fast_class(bu.NUMERIC, r"\p{N}")
    return regex.compile(f"(?=[{near}]){exact}")


class CharDelimiterSplit(PreTokenizer):
    """Split on one delimiter character, which is dropped."""

    type_name = "CharDelimiterSplit"

    def __init__(self, delimiter: str) -> None:
        if len(delimiter) != 1:
            raise ConfigurationError(f"delimiter must be one character, got {delimiter!r}")
        self.delimiter = delimiter
        self._re = regex.compile(regex.escape(delimiter))

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        t = ns.text
        return _cut(ns, split_spans(len(t), _char_matches(t, self._re), "removed"))


class _Match:
    __slots__ = ("_span",)

    def __init__(self, start: int, end: int) -> None:
        self._span = (start, end)

    def span(self) -> Span:
        return self._span


class _Clusters:
    """``\\X`` alone as a compiled pattern over codetok's pinned grapheme tables
    (codetok._grapheme, the native plans' too): the ``regex`` module's ``\\X`` follows
    the installed release's Unicode version and rule revision."""

    groups = 0
    pattern = GRAPHEME_REGEX

    def findall(self, text: str) -> list[str]:
        from ._grapheme import clusters

        return list(clusters(text))

    def finditer(self, text: str) -> list[_Match]:
        from ._grapheme import cluster_ends

        starts = [0, *cluster_ends(text)]
        return [_Match(a, b) for a, b in zip(starts, starts[1:])]


_CLUSTERS = _Clusters()


class Split(_RegexSplit):
    """Split on a literal or regex ``pattern`` with a delimiter ``behavior``.

    Args:
        pattern: a literal string, or ``{"String": s}`` / ``{"Regex": r}``.
        behavior: what to do with matches (see the module docstring).
        invert: treat matches as the pieces and the rest as delimiters.
    """

    type_name = "Split"

    def __init__(self, pattern: Any, behavior: str = "isolated", invert: bool = False) -> None:
        self.pattern = pattern_from_any(pattern)
        self.behavior = _behavior(behavior)
        self.invert = invert
        self._behavior = self.behavior
        self._invert = invert
        from ._scanners import scanner_for  # (_scanners imports this module)

        text = self.pattern.get("Regex")
        if text is None or scanner_for(text) is None:
            self._regex  # noqa: B018 - compiles now: a bad pattern raises here
        # Else a native scanner's pattern, known to compile: compiled on first Python use
        # (the o200k pattern over its pinned classes takes ~60 ms), so loading a tokenizer
        # whose plan runs natively does not pay for it.

    @property
    def _regex(self) -> regex.Pattern[str]:
        # Recompiled when ``pattern`` was replaced in place, as the native plan is.
        compiled = self.__dict__.get("_compiled")
        if compiled is None or self.__dict__.get("_compiled_for") != self.pattern:
            if self.pattern.get("Regex") == GRAPHEME_REGEX:
                compiled = _CLUSTERS  # type: ignore[assignment]
            else:
                compiled = compile_pattern(self.pattern)
            # Not changes of the component (they would invalidate compiled plans).
            object.__setattr__(self, "_compiled", compiled)
            object.__setattr__(self, "_compiled_for", dict(self.pattern))
        return compiled

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "Split",
            "pattern": dict(self.pattern),
            "behavior": _BEHAVIOR_JSON[self.behavior],
            "invert": self.invert,
        }


class UnicodeScripts(PreTokenizer):
    """Split where the Unicode script changes (HF's ``UnicodeScripts``).

    As HF: a space belongs to no script and never starts a piece (leading spaces are
    dropped, a text of spaces gives no piece); Hiragana, Katakana and U+30FC count as Han;
    Common and Inherited are scripts of their own. Scripts come from the ``regex``
    module's Unicode tables, which may be newer than HF's for recently added characters.
    """

    type_name = "UnicodeScripts"

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        starts: list[int] = []
        last = None
        for i, c in enumerate(text):
            script = _fixed_script(c)
            if script is not None:
                if script != last:  # also at the first non-space char (last is None)
                    starts.append(i)
                last = script
        starts.append(len(text))
        spans = [(a, b) for a, b in zip(starts, starts[1:]) if b > a]
        return _cut(ns, spans)


_SCRIPT_CACHE: dict[str, int] = {}
_SCRIPT_TABLE: list[tuple[regex.Pattern[str], frozenset[int]]] = []


def _script_table() -> tuple[regex.Pattern[str], frozenset[int]]:
    """One regex with a named group per script (``s<id>``), and the ids of Han and kana."""
    if not _SCRIPT_TABLE:
        try:
            from regex import _regex_core

            values = _regex_core.PROPERTIES["SCRIPT"][1]
        except (ImportError, AttributeError, KeyError):  # pragma: no cover - regex internals
            values = {}
        names: dict[int, str] = {}
        for name, value in values.items():
            if value and len(name) > len(names.get(value, "")):
                names[value] = name
        alts = [rf"(?P<s{v}>\p{{Script={n}}})" for v, n in sorted(names.items())]
        han = frozenset(values[k] for k in ("HAN", "HIRAGANA", "KATAKANA") if k in values)
        _SCRIPT_TABLE.append((regex.compile("|".join(alts) or r"(?!)"), han))
    return _SCRIPT_TABLE[0]


def _fixed_script(c: str) -> int | None:
    """HF's script id of a char: ``None`` for a space; kana and U+30FC count as Han (-1)."""
    if c == " ":
        return None
    script = _SCRIPT_CACHE.get(c)
    if script is None:
        table, han = _script_table()
        m = table.match(c)
        script = int(m.lastgroup[1:]) if m is not None and m.lastgroup else 0
        if script in han or c == "\u30fc":
            script = -1
        _SCRIPT_CACHE[c] = script
    return script


class Sequence(PreTokenizer):
    """Apply pre-tokenizers one after the other to every piece."""

    type_name = "Sequence"
    tracked_lists = ("pretokenizers",)

    def __init__(self, pretokenizers: list[PreTokenizer]) -> None:
        self.pretokenizers = list(pretokenizers)

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        pieces = [ns]
        for pt in self.pretokenizers:
            nxt: list[NormalizedString] = []
            for p in pieces:
                nxt.extend(pt.split(p))
            pieces = nxt
        return pieces

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        for pt in self.pretokenizers:
            texts, anchors = pt.split_many(texts, anchors)
        return texts, anchors

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Sequence", "pretokenizers": [p.to_dict() for p in self.pretokenizers]}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Sequence:
        return cls(
            build_items(
                pre_tokenizer_from_dict,
                data["pretokenizers"],
                "pretokenizers",
                path=path,
                where=where,
            )
        )

    def __getitem__(self, i: int) -> PreTokenizer:
        return self.pretokenizers[i]

    def __len__(self) -> int:
        return len(self.pretokenizers)

    def __repr__(self) -> str:
        # The parts' own reprs: a part with a large model (codetok.Morphemes) keeps its
        # repr short, where its to_dict() holds the whole model.
        return f"Sequence({list(self.pretokenizers)!r})"


#: ``type`` -> class; the ``codetok.*`` pre-tokenizers of :mod:`codetok.text` are provided
#: on first lookup (see :mod:`codetok._registry`).
REGISTRY = registry("pre_tokenizer")
REGISTRY.register(
    ByteLevel,
    Whitespace,
    WhitespaceSplit,
    BertPreTokenizer,
    Metaspace,
    Punctuation,
    Digits,
    CharDelimiterSplit,
    Split,
    UnicodeScripts,
    Sequence,
)


def pre_tokenizer_from_dict(
    data: Any, *, path: str | None = None, where: str = "pre_tokenizer"
) -> PreTokenizer | None:
    """Build a pre-tokenizer from its HF ``tokenizer.json`` object.

    codetok's own pre-tokenizers (``"codetok.Words"``, ...) register themselves when
    :mod:`codetok.text` is imported; the registry imports it on first need.
    """
    return build(REGISTRY, data, path=path, where=where)
