"""Punctuation and Digits: split off punctuation characters, or digits."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ..tokenizer.offsets import NormalizedString
from .base import _BEHAVIOR_JSON, PreTokenizer, _behavior, _char_matches, _cut, split_spans
from .bert import _bert_classes

if TYPE_CHECKING:
    import regex


class Punctuation(PreTokenizer):
    """Split on punctuation characters with the given behaviour (default isolated)."""

    type_name = "Punctuation"

    def __init__(self, behavior: str = "isolated") -> None:
        self.behavior = _behavior(behavior)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Punctuation", "behavior": _BEHAVIOR_JSON[self.behavior]}

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        t = ns.text
        punct = _bert_classes().punct
        return _cut(ns, split_spans(len(t), _char_matches(t, punct), self.behavior))


class Digits(PreTokenizer):
    """Split digits from the rest, each digit alone when ``individual_digits``."""

    type_name = "Digits"

    def __init__(self, individual_digits: bool = False) -> None:
        self.individual_digits = individual_digits

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        t = ns.text
        behavior = "isolated" if self.individual_digits else "contiguous"
        return _cut(ns, split_spans(len(t), _char_matches(t, _numeric_re()), behavior))


@functools.lru_cache(maxsize=1)
def _numeric_re() -> regex.Pattern[str]:
    """One digit as HF's ``Digits`` sees it: Rust's ``char::is_numeric`` of its Unicode
    version, pinned in :mod:`codetok.unicode.generated.bert_tables` (``\\p{N}`` follows ``regex``'s)."""
    import regex

    from ..unicode.generated import bert_tables as bu
    from ..unicode.hf_regex import fast_class

    near, exact = fast_class(bu.NUMERIC, r"\p{N}")
    return regex.compile(f"(?=[{near}]){exact}")
