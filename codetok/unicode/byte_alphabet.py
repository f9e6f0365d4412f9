"""The GPT-2 byte <-> unicode alphabet used by byte-level BPE.

Each byte 0-255 maps to one printable code point: printable Latin-1 bytes map to
themselves, the other 68 bytes to U+0100 onwards, in byte order. This is the published
mapping from GPT-2 that HF ``ByteLevel`` and tiktoken-derived vocabularies share.
"""

from __future__ import annotations


def _build() -> list[str]:
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("\xa1"), ord("\xac") + 1))
        + list(range(ord("\xae"), ord("\xff") + 1))
    )
    table = [""] * 256
    extra = 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


BYTE_TO_CHAR: list[str] = _build()
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
# str.translate table from a latin-1 decoded byte string to the byte-level alphabet.
LATIN1_TO_BYTECHAR: dict[int, str] = {b: c for b, c in enumerate(BYTE_TO_CHAR)}


def bytes_to_unicode(data: bytes) -> str:
    """Map raw bytes to the byte-level alphabet (one char per byte)."""
    return data.decode("latin-1").translate(LATIN1_TO_BYTECHAR)


def unicode_to_bytes(text: str) -> bytes:
    """Inverse of :func:`bytes_to_unicode`; chars outside the alphabet are UTF-8 encoded."""
    out = bytearray()
    get = CHAR_TO_BYTE.get
    for ch in text:
        b = get(ch)
        if b is None:
            out += ch.encode("utf-8", "surrogatepass")
        else:
            out.append(b)
    return bytes(out)
