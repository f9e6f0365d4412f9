"""ByteLevel: trims the offsets of byte-level tokens to the characters they cover."""

from __future__ import annotations

from ..tokenizer.encoding import Encoding
from .base import PostProcessor


def trim_byte_level_offsets(enc: Encoding, add_prefix_space: bool) -> None:
    """Drop leading/trailing spaces (``Ġ``) from byte-level token offsets."""
    space = "\u0120"
    offsets = enc.offsets
    for i, tok in enumerate(enc.tokens):
        if not tok or (
            tok[0] != space and tok[-1] != space and not tok[0].isspace() and not tok[-1].isspace()
        ):
            continue
        lead = 0
        for c in tok:
            if c == space or c.isspace():
                lead += 1
            else:
                break
        trail = 0
        for c in reversed(tok):
            if c == space or c.isspace():
                trail += 1
            else:
                break
        s, e = offsets[i]
        if lead:
            if (i == 0 or s == 0) and add_prefix_space and lead == 1:
                lead = 0
            s = min(s + lead, e)
        if trail and e >= trail:
            e = max(e - trail, s)
        offsets[i] = (s, e)


def _trim_all(encodings: list[Encoding], add_prefix_space: bool) -> None:
    for e in encodings:
        trim_byte_level_offsets(e, add_prefix_space)
        for o in e.overflowing:
            trim_byte_level_offsets(o, add_prefix_space)


class ByteLevel(PostProcessor):
    """Trims byte-level offsets (leading/trailing spaces); adds no tokens."""

    type_name = "ByteLevel"

    def __init__(
        self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True
    ) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def added_tokens(self, is_pair: bool) -> int:
        return 0

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        if self.trim_offsets:
            _trim_all(encodings, self.add_prefix_space)
        return encodings
