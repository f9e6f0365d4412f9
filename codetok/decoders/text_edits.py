"""Fuse, Strip and Replace: decoders that edit the token strings themselves."""

from __future__ import annotations

from typing import Any

from ..components.base import pattern_from_any
from .base import Decoder


class Fuse(Decoder):
    """Join all tokens into one string."""

    type_name = "Fuse"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name}


class Strip(Decoder):
    """Strip up to ``start`` / ``stop`` occurrences of ``content`` from each token's ends."""

    type_name = "Strip"

    def __init__(self, content: str = " ", start: int = 0, stop: int = 0) -> None:
        self.content = content
        self.start = start
        self.stop = stop

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        c = self.content
        for t in tokens:
            a = 0
            while a < self.start and t.startswith(c, a * len(c)):
                a += 1
            t2 = t[a * len(c) :]
            b = 0
            while b < self.stop and t2.endswith(c * (b + 1)) and len(t2) >= (b + 1) * len(c):
                b += 1
            out.append(t2[: len(t2) - b * len(c)] if b else t2)
        return out


class Replace(Decoder):
    """Replace a literal or regex pattern in each token."""

    type_name = "Replace"

    def __init__(self, pattern: Any, content: str) -> None:
        from ..unicode.hf_regex import compile_pattern

        self.pattern = pattern_from_any(pattern)
        self.content = content
        self._re = compile_pattern(self.pattern)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        content = self.content
        return [self._re.sub(lambda _m: content, t) for t in tokens]
