"""Lowercase, with HF's lowercase mapping."""

from __future__ import annotations

from ..tokenizer.offsets import NormalizedString
from .base import Normalizer
from .unicode import _lower_chars


class Lowercase(Normalizer):
    """Lowercase every character."""

    type_name = "Lowercase"

    def normalize(self, ns: NormalizedString) -> None:
        _lower_chars(ns)
