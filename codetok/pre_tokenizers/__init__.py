"""Pre-tokenizers: cut normalized text into the pieces a model sees.

A pre-tokenizer maps one :class:`~codetok.tokenizer.offsets.NormalizedString` to a list of them
(slices keep their alignment, so offsets stay exact). The set and the JSON schema are
those of HF ``tokenizers``: ByteLevel, Whitespace, WhitespaceSplit, BertPreTokenizer,
Metaspace, Punctuation, Digits, CharDelimiterSplit, Split, UnicodeScripts, Sequence.

``Split``-style behaviours decide what happens to the matched delimiters: ``removed``,
``isolated``, ``merged_with_previous``, ``merged_with_next`` or ``contiguous`` (runs of
consecutive matches become one piece). Empty pieces are always dropped.

One module per family member or close group: :mod:`.base` (the base class, the behaviours,
the cutting helpers, the registry and :func:`pre_tokenizer_from_dict`), :mod:`.byte_level`,
:mod:`.whitespace`, :mod:`.bert`, :mod:`.metaspace`, :mod:`.punctuation` (with Digits),
:mod:`.split` (with CharDelimiterSplit), :mod:`.unicode_scripts` and :mod:`.sequence`.
"""

from __future__ import annotations

from .base import BEHAVIORS, REGISTRY, PreTokenizer, pre_tokenizer_from_dict, split_spans
from .base import Anchor as Anchor  # where a piece sits (PreTokenizer.split_many)
from .bert import BertPreTokenizer
from .byte_level import GPT2_PATTERN, ByteLevel
from .metaspace import Metaspace
from .punctuation import Digits, Punctuation
from .sequence import Sequence
from .split import GRAPHEME_REGEX, CharDelimiterSplit, Split
from .unicode_scripts import UnicodeScripts
from .whitespace import Whitespace, WhitespaceSplit

__all__ = [
    "PreTokenizer",
    "ByteLevel",
    "Whitespace",
    "WhitespaceSplit",
    "BertPreTokenizer",
    "Metaspace",
    "Punctuation",
    "Digits",
    "CharDelimiterSplit",
    "Split",
    "UnicodeScripts",
    "Sequence",
    "pre_tokenizer_from_dict",
    "GPT2_PATTERN",
    "split_spans",
    "BEHAVIORS",
    "GRAPHEME_REGEX",
]

REGISTRY.register(
    ByteLevel,
    Whitespace,
    WhitespaceSplit,
    BertPreTokenizer,
    Metaspace,
    Punctuation,
    Digits,
    CharDelimiterSplit,
    Split,
    UnicodeScripts,
    Sequence,
)
