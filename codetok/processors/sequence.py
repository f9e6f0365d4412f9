"""Sequence: post-processors applied in order."""

from __future__ import annotations

from typing import Any

from ..components.base import build_items
from ..tokenizer.encoding import Encoding
from .base import PostProcessor, post_processor_from_dict


class Sequence(PostProcessor):
    """Run post-processors in order (each on the output of the previous)."""

    type_name = "Sequence"
    tracked_lists = ("processors",)

    def __init__(self, processors: list[PostProcessor]) -> None:
        self.processors = list(processors)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Sequence", "processors": [p.to_dict() for p in self.processors]}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Sequence:
        return cls(
            build_items(
                post_processor_from_dict, data["processors"], "processors", path=path, where=where
            )
        )

    def added_tokens(self, is_pair: bool) -> int:
        return sum(p.added_tokens(is_pair) for p in self.processors)

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        for p in self.processors:
            encodings = p.process_encodings(encodings, add_special_tokens)
        return encodings
