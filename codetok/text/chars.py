"""The character tokenizer: one token per Unicode code point, or per grapheme cluster.

Built from the pipeline: an NFC normalizer (by default), HF's ``Split`` pre-tokenizer with
a regex that isolates every code point (``[\\s\\S]``) or every extended grapheme cluster
(``\\X``: emoji ZWJ sequences, flags, a letter with its combining marks, Hangul syllables
stay together), a WordLevel model and a ``Fuse`` decoder. Everything is HF schema, so the
``tokenizer.json`` needs no codetok extension.

Decoding concatenates tokens, so ``decode(encode(s)) == NFC(s)`` (``== s`` with
``normalizer=None``) whenever every character or cluster of ``s`` is in the vocabulary;
characters outside it become the unknown token. Offsets index the caller's text, also when
NFC changed it (a composed character spans its decomposed source).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from ..decoders import Fuse
from ..errors import ConfigurationError
from ..models import WordLevel
from ..normalizers import NFC, Normalizer
from ..pre_tokenizers import Split
from ..tokenizer.tokenizer import Tokenizer
from .vocab import Corpus, finish

__all__ = ["char_tokenizer", "CODE_POINT_PATTERN", "GRAPHEME_PATTERN"]

CODE_POINT_PATTERN = r"[\s\S]"
GRAPHEME_PATTERN = r"\X"


def char_tokenizer(
    vocab: Mapping[str, int] | None = None,
    *,
    graphemes: bool = False,
    corpus: Corpus | None = None,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    unk_token: str | None = "[UNK]",
    special_tokens: Sequence[str] = (),
    normalizer: Normalizer | Literal["nfc"] | None = "nfc",
) -> Tokenizer:
    """A tokenizer with one token per code point (or per grapheme cluster).

    Args:
        vocab: token -> id; when ``None`` the vocabulary is learned from ``corpus`` /
            ``files`` (or holds only the special and unknown tokens).
        graphemes: keep extended grapheme clusters together (``"👍🏽"`` is one token).
        corpus: texts (``str``) and/or files (``pathlib.Path``) to learn the vocabulary from.
        files: more files to learn from, read line by line.
        min_frequency: keep characters seen at least this often.
        max_size: the largest vocabulary, special and unknown tokens included.
        unk_token: stands for characters outside the vocabulary (added when missing).
        special_tokens: never split, placed first in a learned vocabulary.
        normalizer: ``"nfc"`` (default), ``None`` to keep code points as given, or any
            codetok normalizer.

    Returns:
        A :class:`~codetok.Tokenizer`.

    Raises:
        ConfigurationError: ``normalizer`` is neither ``"nfc"``, ``None`` nor a
            Normalizer; both ``vocab`` and a corpus; bad sizes.

    >>> tok = char_tokenizer(corpus=["cafe\\u0301 👍🏽"], graphemes=True)
    >>> tok.encode("café 👍🏽").tokens
    ['c', 'a', 'f', 'é', ' ', '👍🏽']
    >>> tok.decode(tok.encode("café").ids)
    'café'
    """
    if isinstance(normalizer, str):
        if normalizer.lower() != "nfc":
            raise ConfigurationError(
                f"normalizer must be 'nfc', None or a codetok Normalizer; got {normalizer!r}"
            )
        normalizer = NFC()
    pattern = GRAPHEME_PATTERN if graphemes else CODE_POINT_PATTERN
    tok = Tokenizer(
        WordLevel(),
        normalizer=normalizer,
        pre_tokenizer=Split({"Regex": pattern}, "isolated"),
        decoder=Fuse(),
    )
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
