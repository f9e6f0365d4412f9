"""Decoders: token strings back to text.

Each decoder maps a list of token strings to a list of strings (``decode_chain``), so they
compose in a :class:`Sequence`; ``decode`` joins the final list. Set and schema follow HF
``tokenizers``: ByteLevel, WordPiece, Metaspace, BPEDecoder, ByteFallback, Fuse, Strip,
Replace, CTC, Sequence.

One module per family member or close group: :mod:`.base` (the base class, the shared
helpers, the registry and :func:`decoder_from_dict`), :mod:`.byte_level`, :mod:`.wordpiece`,
:mod:`.metaspace`, :mod:`.bpe`, :mod:`.byte_fallback`, :mod:`.text_edits` (Fuse, Strip,
Replace), :mod:`.ctc` and :mod:`.sequence`.
"""

from __future__ import annotations

from .base import REGISTRY, Decoder, cleanup_tokenization, decode_utf8, decoder_from_dict
from .bpe import BPEDecoder
from .byte_fallback import ByteFallback
from .byte_level import ByteLevel
from .ctc import CTC
from .metaspace import Metaspace
from .sequence import Sequence
from .text_edits import Fuse, Replace, Strip
from .wordpiece import WordPiece

__all__ = [
    "Decoder",
    "ByteLevel",
    "WordPiece",
    "Metaspace",
    "BPEDecoder",
    "ByteFallback",
    "Fuse",
    "Strip",
    "Replace",
    "CTC",
    "Sequence",
    "decoder_from_dict",
    "cleanup_tokenization",
    "decode_utf8",
]

REGISTRY.register(
    ByteLevel,
    WordPiece,
    Metaspace,
    BPEDecoder,
    ByteFallback,
    Fuse,
    Strip,
    Replace,
    CTC,
    Sequence,
)
