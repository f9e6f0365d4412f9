"""The pre-tokenizer base class, ``Split``-style behaviours, the helpers that cut a
NormalizedString into pieces, and the registry behind :func:`pre_tokenizer_from_dict`."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from itertools import accumulate, compress
from typing import TYPE_CHECKING, Any

from ..components.base import Component, build
from ..components.registry import registry
from ..errors import ConfigurationError
from ..tokenizer.offsets import NormalizedString, Span

if TYPE_CHECKING:
    import regex

#: Where a piece sits in the caller's text (see :meth:`PreTokenizer.split_many`).
Anchor = int | NormalizedString


BEHAVIORS = ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")


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


#: This module's patterns, by name, compiled on first use (:func:`_pattern`; also read as
#: module attributes): ``regex`` loads when a text is first split, not with ``codetok``.
_PATTERNS = {
    "_WS_RE": f"[{_WS}]",
    "_NON_WS_RUN_RE": f"[^{_WS}]+",
    # Tilings for split_many: the pieces plus the whitespace runs between them.
    "_WS_TILES_RE": f"[{_WS}]+|[^{_WS}]+",
    # The only characters str.isspace() accepts that are not White_Space.
    "_ISSPACE_ONLY_RE": "[\x1c-\x1f]",
}


@functools.cache
def _pattern(name: str) -> regex.Pattern[str]:
    """The compiled pattern ``name`` of :data:`_PATTERNS`."""
    import regex

    return regex.compile(_PATTERNS[name])


def __getattr__(name: str) -> Any:
    if name in _PATTERNS:
        return _pattern(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class PreTokenizer(Component):
    """Base class: :meth:`split` cuts one normalized piece into several."""

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        raise NotImplementedError

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces, as parallel lists ``(texts, anchors)``.

        An anchor places its piece in the caller's text: an ``int`` is the original
        position of the piece's first character under the identity alignment, otherwise
        it is the piece's :class:`~codetok.tokenizer.offsets.NormalizedString` (``.text`` equal to
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

        >>> from codetok.pre_tokenizers import Whitespace
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
        isolated = self._behavior == "isolated" and not self._invert

        def cut(text: str, anchor: int, out_texts: list[str], out_anchors: list[Anchor]) -> None:
            pieces = _tiling(self._regex, text) if isolated else None
            if pieces is not None:
                out_texts.extend(pieces)
                out_anchors.extend(_starts(pieces, anchor))
                return
            matches = [m.span() for m in self._regex.finditer(text)]
            spans = split_spans(len(text), matches, self._behavior, self._invert)
            _span_pieces(text, anchor, spans, out_texts, out_anchors)

        return _split_each(self, texts, anchors, cut)


def _split_each(
    pre: PreTokenizer,
    texts: list[str],
    anchors: list[Anchor],
    cut: Callable[[str, int, list[str], list[Anchor]], None],
) -> tuple[list[str], list[Anchor]]:
    """``split_many`` of ``pre`` that cuts each identity-aligned, non-empty piece as a whole
    string with ``cut(text, anchor, out_texts, out_anchors)`` (appending its pieces and their
    start positions); the other pieces go through :meth:`PreTokenizer.split`."""
    out_texts: list[str] = []
    out_anchors: list[Anchor] = []
    for text, anchor in zip(texts, anchors):
        if type(anchor) is not int:
            t, a = PreTokenizer.split_many(pre, [text], [anchor])
            out_texts.extend(t)
            out_anchors.extend(a)
        elif text:
            cut(text, anchor, out_texts, out_anchors)
    return out_texts, out_anchors


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
    isspace_only = _pattern("_ISSPACE_ONLY_RE").search

    def cut(text: str, anchor: int, out_texts: list[str], out_anchors: list[Anchor]) -> None:
        if isspace_only(text) is None:
            pieces = tiles.findall(text)
            starts = accumulate(map(len, pieces), initial=anchor)
            keep = list(map(operator.not_, map(str.isspace, pieces)))
            out_texts.extend(compress(pieces, keep))
            out_anchors.extend(compress(starts, keep))
        else:
            spans = [m.span() for m in pattern.finditer(text)]
            _span_pieces(text, anchor, spans, out_texts, out_anchors)

    return _split_each(pre, texts, anchors, cut)


#: ``type`` -> class; the ``codetok.*`` pre-tokenizers of :mod:`codetok.text` are provided
#: on first lookup (see :mod:`codetok.components.registry`).
REGISTRY = registry("pre_tokenizer")


def pre_tokenizer_from_dict(
    data: Any, *, path: str | None = None, where: str = "pre_tokenizer"
) -> PreTokenizer | None:
    """Build a pre-tokenizer from its HF ``tokenizer.json`` object.

    codetok's own pre-tokenizers (``"codetok.Words"``, ...) register themselves when
    :mod:`codetok.text` is imported; the registry imports it on first need.
    """
    return build(REGISTRY, data, path=path, where=where)
