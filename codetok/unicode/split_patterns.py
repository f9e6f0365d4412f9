"""Well-known split patterns that more than one layer names.

The GPT-2 pattern is ByteLevel's own regex (:mod:`codetok.pre_tokenizers.byte_level`) and
also the pattern a native scanner answers for (:mod:`codetok.engine.scanners`); both read it
here, so neither has to import the other.
"""

from __future__ import annotations

__all__ = ["GPT2_PATTERN"]

#: GPT-2's pre-tokenization regex, as HF's ByteLevel and tiktoken's r50k/p50k write it.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
