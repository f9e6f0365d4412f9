"""Metaspace: ``▁`` back to spaces, the prepended one dropped by scheme."""

from __future__ import annotations

from typing import Any

from .base import Decoder


class Metaspace(Decoder):
    """Turn the visible space back into spaces; drop the prepended one."""

    type_name = "Metaspace"

    def __init__(
        self, replacement: str = "\u2581", prepend_scheme: str = "always", split: bool = True
    ) -> None:
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Metaspace:
        scheme = data.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if data.get("add_prefix_space", True) else "never"
        return cls(data.get("replacement", "\u2581"), scheme, data.get("split", True))

    def decode_chain(self, tokens: list[str]) -> list[str]:
        rep = self.replacement
        out = []
        for i, t in enumerate(tokens):
            if rep in t:
                if i == 0 and self.prepend_scheme != "never" and t.startswith(rep):
                    t = t[1:]
                t = t.replace(rep, " ")
            out.append(t)
        return out
