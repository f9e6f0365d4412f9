"""Replace (a literal or a pattern) and Prepend."""

from __future__ import annotations

from typing import Any

from ..components.base import pattern_from_any
from ..tokenizer.offsets import NormalizedString
from .base import Normalizer


class Replace(Normalizer):
    """Replace every match of ``pattern`` (literal or regex) by ``content``.

    Args:
        pattern: a literal string, or ``{"String": s}`` / ``{"Regex": r}`` as in HF JSON.
        content: the replacement text.
    """

    type_name = "Replace"

    def __init__(self, pattern: Any, content: str) -> None:
        from ..unicode.hf_regex import compile_pattern

        self.pattern = pattern_from_any(pattern)
        self.content = content
        self._re = compile_pattern(self.pattern)

    def normalize(self, ns: NormalizedString) -> None:
        text = ns.text
        chunks: list[tuple[str, int, int]] = []
        pos = 0
        found = False
        for m in self._re.finditer(text):
            s, e = m.span()
            if s == e:
                continue
            found = True
            chunks.extend((c, i, i + 1) for i, c in enumerate(text[pos:s], pos))
            # HF removes the match, then inserts the content after its last character, so
            # the content aligns to that character alone.
            chunks.append((self.content, e - 1, e))
            pos = e
        if not found:
            return
        chunks.extend((c, i, i + 1) for i, c in enumerate(text[pos:], pos))
        ns.transform(chunks)


class Prepend(Normalizer):
    """Prepend ``prepend`` to any non-empty text."""

    type_name = "Prepend"

    def __init__(self, prepend: str) -> None:
        self.prepend = prepend

    def normalize(self, ns: NormalizedString) -> None:
        ns.prepend(self.prepend)
