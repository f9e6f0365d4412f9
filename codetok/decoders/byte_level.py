"""ByteLevel: GPT-2 alphabet characters back to bytes, then text."""

from __future__ import annotations

from ..unicode.byte_alphabet import CHAR_TO_BYTE
from .base import Decoder, decode_utf8


class ByteLevel(Decoder):
    """Byte-level alphabet back to bytes, then UTF-8 (invalid sequences become U+FFFD)."""

    type_name = "ByteLevel"

    def __init__(
        self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True
    ) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = bytearray()
        get = CHAR_TO_BYTE.get
        for t in tokens:
            chunk = bytearray()
            for c in t:
                b = get(c)
                if b is None:
                    chunk = bytearray(t.encode("utf-8", "surrogatepass"))
                    break
                chunk.append(b)
            out += chunk
        return [decode_utf8(bytes(out))]
