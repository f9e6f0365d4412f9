r"""Whitespace (HF's ``\w+|[^\w\s]+``) and WhitespaceSplit (runs between whitespace)."""

from __future__ import annotations

import functools
import re

from ..tokenizer.offsets import NormalizedString, Span
from .base import (
    Anchor,
    PreTokenizer,
    _cut,
    _pattern,
    _span_pieces,
    _split_each,
    _split_many_on,
)

#: The pieces of a :func:`_class_table` translation: runs of word chars (``a``) and runs
#: of the chars that are neither word chars nor whitespace (``o``).
_PIECES_RE = re.compile("a+|o+")


class Whitespace(PreTokenizer):
    r"""Split into ``\w+`` and ``[^\w\s]+`` runs; whitespace is dropped.

    ``\w`` and ``\s`` are HF's (see :func:`_class_table`). Each char is first translated
    to the letter of its class (one C-level ``str.translate``); a simple regex then finds
    the pieces in the translated text, at the places of the pieces of the original.
    """

    type_name = "Whitespace"

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        if not text:
            return []
        return _cut(ns, _word_spans(text))

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces; identity-aligned ones are cut as whole strings."""
        return _split_each(self, texts, anchors, _cut_words)


def _cut_words(text: str, anchor: int, out_texts: list[str], out_anchors: list[Anchor]) -> None:
    _span_pieces(text, anchor, _word_spans(text), out_texts, out_anchors)


def _word_spans(text: str) -> list[Span]:
    """The spans of the ``\\w+`` and ``[^\\w\\s]+`` runs of ``text`` (whitespace dropped)."""
    return [m.span() for m in _PIECES_RE.finditer(text.translate(_class_table()))]


@functools.lru_cache(maxsize=1)
def _class_table() -> str:
    """A ``str.translate`` table (one char per code point) of the classes of HF's
    ``\\w+|[^\\w\\s]+``: ``a`` for ``\\w``, `` `` for ``\\s``, ``o`` for the rest.

    HF compiles the pattern with Rust's regex crate, whose ``\\w`` (UTS #18, joiners
    included) and ``\\s`` are those of its Unicode version, pinned in
    :mod:`codetok.unicode.generated.bert_tables` (the ``regex`` module's follow its own).
    A table look-up per char is much quicker than matching classes of that many ranges.
    """
    from ..unicode.generated import bert_tables as bu
    from ..unicode.hf_regex import class_table

    return class_table("o", [("a", bu.WORD), (" ", bu.WORD_SPACE)])


class WhitespaceSplit(PreTokenizer):
    """Split on whitespace only."""

    type_name = "WhitespaceSplit"

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        return _cut(ns, [m.span() for m in _pattern("_NON_WS_RUN_RE").finditer(ns.text)])

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        tiles, runs = _pattern("_WS_TILES_RE"), _pattern("_NON_WS_RUN_RE")
        return _split_many_on(tiles, runs, self, texts, anchors)
