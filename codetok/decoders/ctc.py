"""CTC: collapses repeated tokens and drops the pad token, as speech models emit them."""

from __future__ import annotations

from .base import Decoder, cleanup_tokenization


class CTC(Decoder):
    """CTC output: collapse repeats, drop the pad token, word delimiter to space."""

    type_name = "CTC"

    def __init__(
        self, pad_token: str = "<pad>", word_delimiter_token: str = "|", cleanup: bool = True
    ) -> None:
        self.pad_token = pad_token
        self.word_delimiter_token = word_delimiter_token
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        prev = None
        for t in tokens:
            if t == prev:
                continue
            prev = t
            if t == self.pad_token:
                continue
            t = t.replace(self.word_delimiter_token, " ")
            if self.cleanup:
                t = cleanup_tokenization(t)
            out.append(t)
        return out
