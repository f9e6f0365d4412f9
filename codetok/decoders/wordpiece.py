"""WordPiece: joins ``##`` continuations, with BERT's clean-up."""

from __future__ import annotations

from .base import Decoder, cleanup_tokenization


class WordPiece(Decoder):
    """Join WordPiece tokens: drop the prefix on continuations, space elsewhere."""

    type_name = "WordPiece"

    def __init__(self, prefix: str = "##", cleanup: bool = True) -> None:
        self.prefix = prefix
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            if i:
                t = t.replace(self.prefix, "", 1) if t.startswith(self.prefix) else " " + t
            if self.cleanup:
                t = cleanup_tokenization(t)
            out.append(t)
        return out
