"""Normalizers: the first pipeline step, text in, text out, alignment kept.

Each normalizer edits a :class:`~codetok.tokenizer.offsets.NormalizedString` in place and keeps the
per-character alignment to the caller's text (see :mod:`codetok.tokenizer.offsets`). The set and the
JSON schema are those of HF ``tokenizers``: NFC/NFD/NFKC/NFKD, Lowercase, Strip,
StripAccents, Replace, Prepend, BertNormalizer, ByteLevel and Sequence. SentencePiece's
compiled charsmap (``Precompiled``) lives with the SentencePiece format code
(:mod:`codetok.formats.precompiled`); :func:`normalizer_from_dict` finds it through
:mod:`codetok.components.registry`, which imports that module on first need.

``BertNormalizer``, ``Lowercase``, ``StripAccents``, ``NFC``, ``NFD``, ``NFKC`` and ``NFKD``
read their character data from :mod:`codetok.unicode.generated.bert_tables`, pinned to what HF ``tokenizers`` does (its
Unicode tables are neither Python's ``unicodedata`` nor the ``regex`` module's, and these
change with their versions); ``unicodedata`` only answers "already normalized" quickly,
where it is checked to agree.

One module per family member or close group: :mod:`.base` (the base class, the registry
and :func:`normalizer_from_dict`), :mod:`.unicode` (NFC, NFD, NFKC, NFKD and HF's pinned
character data), :mod:`.case`, :mod:`.strip`, :mod:`.replace`, :mod:`.bert`,
:mod:`.byte_level` and :mod:`.sequence`.
"""

from __future__ import annotations

from .base import REGISTRY, RUST_WHITESPACE, Normalizer, normalizer_from_dict
from .bert import BertNormalizer
from .byte_level import ByteLevel
from .case import Lowercase
from .replace import Prepend, Replace
from .sequence import Sequence
from .strip import Strip, StripAccents
from .unicode import NFC, NFD, NFKC, NFKD

__all__ = [
    "Normalizer",
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "Strip",
    "StripAccents",
    "Replace",
    "Prepend",
    "BertNormalizer",
    "ByteLevel",
    "Sequence",
    "normalizer_from_dict",
    "RUST_WHITESPACE",
]

REGISTRY.register(
    NFC,
    NFD,
    NFKC,
    NFKD,
    Lowercase,
    Strip,
    StripAccents,
    Replace,
    Prepend,
    BertNormalizer,
    ByteLevel,
    Sequence,
)
