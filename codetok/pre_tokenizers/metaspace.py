"""Metaspace: spaces as ``▁``, a prepended one by scheme, split or not."""

from __future__ import annotations

from typing import Any

from ..errors import ConfigurationError
from ..tokenizer.offsets import NormalizedString
from .base import PreTokenizer, _char_matches, _cut, split_spans

_PREPEND_SCHEMES = ("always", "first", "never")


class Metaspace(PreTokenizer):
    """SentencePiece-style: spaces become ``replacement``, optionally prepended and split.

    Args:
        replacement: the visible space character (``"▁"``).
        prepend_scheme: ``"always"``, ``"first"`` (only the piece at the start of the
            text) or ``"never"``.
        split: cut before each replacement character.
    """

    type_name = "Metaspace"

    def __init__(
        self, replacement: str = "\u2581", prepend_scheme: str = "always", split: bool = True
    ) -> None:
        import regex

        if len(replacement) != 1:
            raise ConfigurationError(f"replacement must be one character, got {replacement!r}")
        if prepend_scheme not in _PREPEND_SCHEMES:
            raise ConfigurationError(
                f"prepend_scheme must be one of {_PREPEND_SCHEMES}, got {prepend_scheme!r}"
            )
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split_ = split
        self._rep_re = regex.compile(regex.escape(replacement))

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "Metaspace",
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
            "split": self.split_,
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Metaspace:
        scheme = data.get("prepend_scheme")
        if scheme is None:  # legacy files: add_prefix_space
            scheme = "always" if data.get("add_prefix_space", True) else "never"
        return cls(data.get("replacement", "\u2581"), scheme, data.get("split", True))

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        rep = self.replacement
        text = ns.text
        if " " in text:
            ns.map_chars(text.replace(" ", rep))
        if ns.text and not ns.text.startswith(rep):
            if self.prepend_scheme == "always" or (
                self.prepend_scheme == "first" and ns.original_span(0, 0)[0] == 0
            ):
                ns.prepend(rep)
        if not ns.text:
            return []
        if not self.split_:
            return [ns]
        t = ns.text
        return _cut(ns, split_spans(len(t), _char_matches(t, self._rep_re), "merged_with_next"))
