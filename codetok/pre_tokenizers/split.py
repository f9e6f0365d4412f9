"""Split (a pattern with a behaviour, grapheme clusters included) and CharDelimiterSplit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..components.base import pattern_from_any
from ..engine.scanners import scanner_for
from ..errors import ConfigurationError
from ..tokenizer.offsets import NormalizedString, Span
from .base import (
    _BEHAVIOR_JSON,
    PreTokenizer,
    _behavior,
    _char_matches,
    _cut,
    _RegexSplit,
    split_spans,
)

if TYPE_CHECKING:
    import regex

#: ``Split``'s pattern for extended grapheme clusters: run on codetok's pinned tables
#: (:class:`_Clusters`), as the native plans do.
GRAPHEME_REGEX = r"\X"


class CharDelimiterSplit(PreTokenizer):
    """Split on one delimiter character, which is dropped."""

    type_name = "CharDelimiterSplit"

    def __init__(self, delimiter: str) -> None:
        import regex

        if len(delimiter) != 1:
            raise ConfigurationError(f"delimiter must be one character, got {delimiter!r}")
        self.delimiter = delimiter
        self._re = regex.compile(regex.escape(delimiter))

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        t = ns.text
        return _cut(ns, split_spans(len(t), _char_matches(t, self._re), "removed"))


class _Match:
    __slots__ = ("_span",)

    def __init__(self, start: int, end: int) -> None:
        self._span = (start, end)

    def span(self) -> Span:
        return self._span


class _Clusters:
    """``\\X`` alone as a compiled pattern over codetok's pinned grapheme tables
    (codetok.reference.grapheme, the native plans' too): the ``regex`` module's ``\\X`` follows
    the installed release's Unicode version and rule revision."""

    groups = 0
    pattern = GRAPHEME_REGEX

    def findall(self, text: str) -> list[str]:
        from ..reference.grapheme import clusters

        return list(clusters(text))

    def finditer(self, text: str) -> list[_Match]:
        from ..reference.grapheme import cluster_ends

        starts = [0, *cluster_ends(text)]
        return [_Match(a, b) for a, b in zip(starts, starts[1:])]


_CLUSTERS = _Clusters()


class Split(_RegexSplit):
    """Split on a literal or regex ``pattern`` with a delimiter ``behavior``.

    Args:
        pattern: a literal string, or ``{"String": s}`` / ``{"Regex": r}``.
        behavior: what to do with matches (see the module docstring).
        invert: treat matches as the pieces and the rest as delimiters.
    """

    type_name = "Split"

    def __init__(self, pattern: Any, behavior: str = "isolated", invert: bool = False) -> None:
        self.pattern = pattern_from_any(pattern)
        self.behavior = _behavior(behavior)
        self.invert = invert
        self._behavior = self.behavior
        self._invert = invert

        text = self.pattern.get("Regex")
        if text is None or scanner_for(text) is None:
            self._regex  # noqa: B018 - compiles now: a bad pattern raises here
        # Else a native scanner's pattern, known to compile: compiled on first Python use
        # (the o200k pattern over its pinned classes takes ~60 ms), so loading a tokenizer
        # whose plan runs natively does not pay for it.

    @property
    def _regex(self) -> regex.Pattern[str]:
        # Recompiled when ``pattern`` was replaced in place, as the native plan is.
        compiled = self.__dict__.get("_compiled")
        if compiled is None or self.__dict__.get("_compiled_for") != self.pattern:
            if self.pattern.get("Regex") == GRAPHEME_REGEX:
                compiled = _CLUSTERS  # type: ignore[assignment]
            else:
                from ..unicode.hf_regex import compile_pattern

                compiled = compile_pattern(self.pattern)
            # Not changes of the component (they would invalidate compiled plans).
            object.__setattr__(self, "_compiled", compiled)
            object.__setattr__(self, "_compiled_for", dict(self.pattern))
        return compiled

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "Split",
            "pattern": dict(self.pattern),
            "behavior": _BEHAVIOR_JSON[self.behavior],
            "invert": self.invert,
        }
