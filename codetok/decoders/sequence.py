"""Sequence: decoders applied in order."""

from __future__ import annotations

from typing import Any

from ..components.base import build_items
from .base import Decoder, decoder_from_dict


class Sequence(Decoder):
    """Chain decoders."""

    type_name = "Sequence"

    def __init__(self, decoders: list[Decoder]) -> None:
        self.decoders = list(decoders)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Sequence:
        return cls(
            build_items(decoder_from_dict, data["decoders"], "decoders", path=path, where=where)
        )
