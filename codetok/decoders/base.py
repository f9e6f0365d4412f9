"""The decoder base class, the UTF-8 and clean-up helpers decoders share, and the registry
behind :func:`decoder_from_dict`."""

from __future__ import annotations

from typing import Any

from ..components.base import Component, build
from ..components.registry import registry


def decode_utf8(data: bytes) -> str:
    """UTF-8 decode that keeps encoded surrogates and replaces invalid bytes."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def cleanup_tokenization(text: str) -> str:
    """Remove the spaces BERT-style joining leaves before punctuation and clitics."""
    return (
        text.replace(" .", ".")
        .replace(" ?", "?")
        .replace(" !", "!")
        .replace(" ,", ",")
        .replace(" ' ", "'")
        .replace(" n't", "n't")
        .replace(" 'm", "'m")
        .replace(" do not", " don't")
        .replace(" 's", "'s")
        .replace(" 've", "'ve")
        .replace(" 're", "'re")
    )


class Decoder(Component):
    """Base class: :meth:`decode_chain` maps token strings to strings."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        """Decode token strings to text.

        >>> from codetok.decoders import WordPiece
        >>> WordPiece().decode(["play", "##ing", "now"])
        'playing now'
        """
        return "".join(self.decode_chain(list(tokens)))


REGISTRY = registry("decoder")


def decoder_from_dict(
    data: Any, *, path: str | None = None, where: str = "decoder"
) -> Decoder | None:
    """Build a decoder from its HF ``tokenizer.json`` object."""
    return build(REGISTRY, data, path=path, where=where)
