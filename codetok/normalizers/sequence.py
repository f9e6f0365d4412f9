"""Sequence: normalizers applied in order."""

from __future__ import annotations

from typing import Any

from ..components.base import build_items
from ..tokenizer.offsets import NormalizedString
from .base import Normalizer, normalizer_from_dict


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
