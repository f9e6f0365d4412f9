"""BertPreTokenizer: whitespace and punctuation splits on BERT's pinned character classes."""

from __future__ import annotations

import functools

from ..tokenizer.offsets import NormalizedString
from .base import Anchor, PreTokenizer, _cut, _split_many_on


class _BertClasses:
    r"""BERT's whitespace and punctuation as HF has them (:mod:`codetok.unicode.generated.bert_tables`:
    its punctuation table is older than Unicode's), compiled on first use.

    Punctuation is tried as ``near`` first (ASCII symbols and ``\p{P}``: one table
    look-up), then as the exact class; a char outside ``near`` is never punctuation. The
    ``quick`` patterns take every ``near`` char for punctuation: exact on texts where
    ``loose`` (a ``near`` char that is not punctuation, such as U+2E43) finds nothing.
    """

    def __init__(self) -> None:
        import regex

        from ..unicode.generated import bert_tables as bu
        from ..unicode.hf_regex import char_class, code_points, fast_class

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
