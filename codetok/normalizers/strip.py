"""Strip (whitespace at either end) and StripAccents (combining marks)."""

from __future__ import annotations

from ..tokenizer.offsets import NormalizedString
from .base import Normalizer, _is_rust_ws
from .unicode import _drop_matches, _pinned


class Strip(Normalizer):
    """Remove leading and/or trailing whitespace."""

    type_name = "Strip"

    def __init__(self, strip_left: bool = True, strip_right: bool = True) -> None:
        self.strip_left = strip_left
        self.strip_right = strip_right

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        start, end = 0, len(text)
        if self.strip_left:
            while start < end and _is_rust_ws(text[start]):
                start += 1
        if self.strip_right:
            while end > start and _is_rust_ws(text[end - 1]):
                end -= 1
        if (start, end) != (0, len(text)):
            sub = ns.slice(start, end)
            ns.text, ns.base, ns.align = sub.text, sub.base, sub.align


class StripAccents(Normalizer):
    """Remove combining marks (categories Mn, Mc, Me, by HF's pinned table); usually after
    NFD."""

    type_name = "StripAccents"

    def normalize(self, ns: NormalizedString) -> None:
        if ns.text.isascii():
            return
        # HF's StripAccents drops every mark (Mn, Mc, Me) of its table; BertNormalizer only Mn.
        _drop_matches(ns, _pinned().strip_accents)
