"""ByteFallback: ``<0xNN>`` tokens back to the bytes they stand for."""

from __future__ import annotations

from typing import Any

from .base import Decoder


def _byte_token(t: str) -> int | None:
    if len(t) == 6 and t.startswith("<0x") and t.endswith(">"):
        try:
            return int(t[3:5], 16)
        except ValueError:
            return None
    return None


class ByteFallback(Decoder):
    """``<0xNN>`` tokens back to bytes; invalid UTF-8 gives one U+FFFD per byte token."""

    type_name = "ByteFallback"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()

        def flush() -> None:
            if pending:
                try:
                    out.append(bytes(pending).decode("utf-8"))
                except UnicodeDecodeError:
                    out.extend(["\ufffd"] * len(pending))
                pending.clear()

        for t in tokens:
            b = _byte_token(t)
            if b is None:
                flush()
                out.append(t)
            else:
                pending.append(b)
        flush()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name}
