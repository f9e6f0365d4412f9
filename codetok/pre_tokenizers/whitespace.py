r"""Whitespace (HF's ``\w+|[^\w\s]+``) and WhitespaceSplit (runs between whitespace)."""

from __future__ import annotations

import functools

import regex

from ..tokenizer.offsets import NormalizedString
from .base import (
    _NON_WS_RUN_RE,
    _WS_TILES_RE,
    Anchor,
    PreTokenizer,
    _cut,
    _RegexSplit,
    _split_many_on,
)


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
    pinned in :mod:`codetok.unicode.generated.bert_tables` (the ``regex`` module's follow its own)."""
    from ..unicode.generated import bert_tables as bu
    from ..unicode.hf_regex import fast_class

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
