"""BPEDecoder: word-suffix BPE tokens back to words."""

from __future__ import annotations

from .base import Decoder


class BPEDecoder(Decoder):
    """Replace the end-of-word suffix by a space (none after the last token)."""

    type_name = "BPEDecoder"

    def __init__(self, suffix: str = "</w>") -> None:
        self.suffix = suffix

    def decode_chain(self, tokens: list[str]) -> list[str]:
        n = len(tokens)
        return [t.replace(self.suffix, "" if i == n - 1 else " ") for i, t in enumerate(tokens)]
