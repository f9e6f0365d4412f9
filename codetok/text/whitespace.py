"""The whitespace tokenizer: every run of non-whitespace characters is one token.

Built from the pipeline: an optional normalizer, HF's ``WhitespaceSplit`` pre-tokenizer
(Unicode White_Space, the set HF ``tokenizers`` uses) and a WordLevel model. Its
``tokenizer.json`` is plain HF schema, so HF ``tokenizers`` loads it too. Decoding joins
tokens with one space; the exact original spacing is available through the offsets.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

from ..models import WordLevel
from ..normalizers import Normalizer
from ..pre_tokenizers import WhitespaceSplit
from ..tokenizer.tokenizer import Tokenizer
from .vocab import Corpus, finish

__all__ = ["whitespace_tokenizer"]


def whitespace_tokenizer(
    vocab: Mapping[str, int] | None = None,
    *,
    corpus: Corpus | None = None,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    unk_token: str | None = "[UNK]",
    special_tokens: Sequence[str] = (),
    normalizer: Normalizer | None = None,
) -> Tokenizer:
    """A tokenizer that splits on whitespace and looks each piece up whole.

    Args:
        vocab: token -> id; when ``None`` the vocabulary is learned from ``corpus`` /
            ``files`` (or holds only the special and unknown tokens).
        corpus: texts (``str``) and/or files (``pathlib.Path``) to learn the vocabulary from.
        files: more files to learn from, read line by line.
        min_frequency: keep pieces seen at least this often.
        max_size: the largest vocabulary, special and unknown tokens included.
        unk_token: stands for pieces outside the vocabulary (added when missing).
        special_tokens: never split, placed first in a learned vocabulary.
        normalizer: optional, e.g. ``codetok.normalizers.Lowercase()``.

    Returns:
        A :class:`~codetok.Tokenizer`.

    Raises:
        ConfigurationError: both ``vocab`` and a corpus, or bad sizes.

    >>> tok = whitespace_tokenizer(corpus=["the cat sat on the mat"], max_size=3)
    >>> tok.encode("the cat  ran").tokens
    ['the', 'cat', '[UNK]']
    >>> tok.encode("the cat  ran").offsets
    [(0, 3), (4, 7), (9, 12)]
    """
    tok = Tokenizer(WordLevel(), normalizer=normalizer, pre_tokenizer=WhitespaceSplit())
    return finish(
        tok,
        vocab=vocab,
        corpus=corpus,
        files=files,
        min_frequency=min_frequency,
        max_size=max_size,
        unk_token=unk_token,
        special_tokens=special_tokens,
    )
