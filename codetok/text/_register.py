"""Make codetok-only pre-tokenizers loadable from ``tokenizer.json``.

HF ``tokenizers`` has no component for rule-based words or ordered patterns, so their
``type`` names carry a ``codetok.`` prefix (``{"type": "codetok.Words", ...}``), which HF
rejects clearly instead of misreading. Importing :mod:`codetok.text` adds them to the
pre-tokenizer registry that :meth:`codetok.Tokenizer.from_dict` dispatches on.
"""

from __future__ import annotations

from ..pre_tokenizers import REGISTRY, PreTokenizer

P = type[PreTokenizer]


def register(cls: P) -> P:
    """Class decorator: add ``cls`` to the pre-tokenizer registry under ``cls.type_name``."""
    if not cls.type_name.startswith("codetok."):
        raise ValueError(
            f"codetok-only component names start with 'codetok.', got {cls.type_name!r}"
        )
    REGISTRY.setdefault(cls.type_name, cls)
    return cls
