"""Which split patterns have a native pre-tokenizer scanner.

The native pipeline cuts text with hand-written scanners (``codetok/_native/kernels/pretokenize.cpp``)
instead of a regex engine, one per well-known pattern. A scanner is only used for the exact
pattern strings listed here, each proven equal to the reference regex (the ``regex``
module as :mod:`codetok.unicode.hf_regex` compiles it, cutting like ``Split(..., "isolated")`` or
``ByteLevel``) by ``tests/engine/test_native_scanners.py``: every code point in context, real
text and code, and differential property tests. Any other pattern, even an equivalent
spelling, runs the reference regex.

The values are those of ``enum class Scanner`` in ``pretokenize.hpp``.
"""

from __future__ import annotations

from ..unicode.split_patterns import GPT2_PATTERN

__all__ = [
    "GPT2",
    "CL100K",
    "O200K",
    "LLAMA3",
    "R50K_SPLIT",
    "CL100K_SPLIT",
    "O200K_SPLIT",
    "LLAMA3_PATTERN",
    "SCANNERS",
    "scanner_for",
]

#: ``Scanner::Gpt2``: GPT-2 / r50k / p50k.
GPT2 = 0
#: ``Scanner::Cl100k``: cl100k as tiktoken writes it (with ``\\s++$``).
CL100K = 1
#: ``Scanner::O200k``: o200k (tiktoken's form and the HF-converted gpt-4o form are equal).
O200K = 2
#: ``Scanner::Llama3``: cl100k as HF-converted GPT-4 and Llama-3 ``tokenizer.json`` files
#: write it. It differs from tiktoken's cl100k at the end of the text only: without
#: ``\\s++$``, trailing whitespace holding a newline is cut after its last newline.
LLAMA3 = 3

# The Split patterns ``tokenizer_from_tiktoken`` builds: ``portable_pattern(pat_str)`` of
# codetok.formats.tiktoken_file (written out here because that module imports the tokenizer,
# which imports this one; the tests check that they are equal).
#: r50k / p50k (GPT-2's pattern in tiktoken's spelling).
R50K_SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
#: cl100k.
CL100K_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|(?>\p{N}{1,3})"""
    r"""| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
#: o200k; also the form HF-converted gpt-4o ``tokenizer.json`` files carry.
O200K_SPLIT = (
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
    r"""|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
    r"""|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
#: The cl100k pattern of HF-converted GPT-4 and of Llama-3 ``tokenizer.json`` files.
LLAMA3_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

#: Exact pattern string (``Split``'s ``pattern["Regex"]``, or ``GPT2_PATTERN`` for
#: ``ByteLevel(use_regex=True)``) -> scanner.
SCANNERS: dict[str, int] = {
    GPT2_PATTERN: GPT2,
    R50K_SPLIT: GPT2,
    CL100K_SPLIT: CL100K,
    O200K_SPLIT: O200K,
    LLAMA3_PATTERN: LLAMA3,
}


def scanner_for(pattern: str) -> int | None:
    """The native scanner that cuts exactly as ``pattern``, or ``None``.

    >>> scanner_for(GPT2_PATTERN)
    0
    >>> scanner_for(r"\\s+") is None
    True
    """
    return SCANNERS.get(pattern)
