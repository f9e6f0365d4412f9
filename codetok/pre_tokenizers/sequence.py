"""Sequence: pre-tokenizers applied in order."""

from __future__ import annotations

from typing import Any

from ..components.base import build_items
from ..tokenizer.offsets import NormalizedString
from .base import Anchor, PreTokenizer, pre_tokenizer_from_dict


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
