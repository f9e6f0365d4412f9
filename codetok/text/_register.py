"""Make codetok-only pre-tokenizers loadable from ``tokenizer.json``.

HF ``tokenizers`` has no component for rule-based words or ordered patterns, so their
``type`` names carry a ``codetok.`` prefix (``{"type": "codetok.Words", ...}``), which HF
rejects clearly instead of misreading. Importing :mod:`codetok.text` adds them to the
pre-tokenizer registry (:mod:`codetok.components.registry`) that :meth:`codetok.Tokenizer.from_dict`
dispatches on; the registry imports :mod:`codetok.text` when a ``codetok.*`` type is
looked up first.
"""

from __future__ import annotations

from ..components.registry import registry
from ..pre_tokenizers import PreTokenizer

P = type[PreTokenizer]


def register(cls: P) -> P:
    """Class decorator: add ``cls`` to the pre-tokenizer registry under ``cls.type_name``."""
    if not cls.type_name.startswith("codetok."):
        raise ValueError(
            f"codetok-only component names start with 'codetok.', got {cls.type_name!r}"
        )
    registry("pre_tokenizer").register(cls)
    return cls
