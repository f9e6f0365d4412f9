"""ByteLevel: every UTF-8 byte of the text as its GPT-2 alphabet character."""

from __future__ import annotations

from ..tokenizer.offsets import NormalizedString
from ..unicode.byte_alphabet import bytes_to_unicode
from .base import Normalizer


class ByteLevel(Normalizer):
    """Map text to the GPT-2 byte alphabet (one char per UTF-8 byte)."""

    type_name = "ByteLevel"

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        if text.isascii():
            ns.map_chars(bytes_to_unicode(text.encode("ascii")))
            return
        chunks = []
        for i, c in enumerate(text):
            chunks.append((bytes_to_unicode(c.encode("utf-8", "surrogatepass")), i, i + 1))
        ns.transform(chunks)
