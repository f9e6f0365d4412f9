"""Post-processors: add special tokens and assemble single or pair encodings.

TemplateProcessing (``"[CLS] $A [SEP] $B:1 [SEP]:1"``), BertProcessing,
RobertaProcessing, ByteLevel (offset trimming) and Sequence, with HF's JSON schema and
HF's exact handling of overflowing parts, type ids and sequence ranges.

One module per family member: :mod:`.base` (the base class, the default processing, the
registry and :func:`post_processor_from_dict`), :mod:`.bert`, :mod:`.roberta`,
:mod:`.byte_level`, :mod:`.template` and :mod:`.sequence`.
"""

from __future__ import annotations

from .base import REGISTRY, PostProcessor, default_process, post_processor_from_dict
from .bert import BertProcessing
from .byte_level import ByteLevel
from .roberta import RobertaProcessing
from .sequence import Sequence
from .template import TemplateProcessing

__all__ = [
    "PostProcessor",
    "TemplateProcessing",
    "BertProcessing",
    "RobertaProcessing",
    "ByteLevel",
    "Sequence",
    "post_processor_from_dict",
    "default_process",
]

REGISTRY.register(TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence)
