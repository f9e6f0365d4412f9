"""Count pre-tokenized pieces in a corpus and turn the counts into a WordLevel vocabulary.

Every plain-text tokenizer in :mod:`codetok.text` is a :class:`~codetok.Tokenizer` whose
model is a :class:`~codetok.models.WordLevel`; what differs is the normalizer and the
pre-tokenizer. Building a vocabulary is therefore the same job for all of them: run the
tokenizer's own normalizer and pre-tokenizer over the corpus, count the pieces, keep the
frequent ones. This module does that job.

- The corpus is streamed: texts come from any iterable, files are read line by line
  (``pathlib.Path`` items, or the ``files=`` argument). Memory grows with the number of
  distinct pieces, never with the corpus size.
- The order is deterministic: special tokens first (in the order given), then the unknown
  token, then pieces by frequency (highest first), ties broken by the piece's code points.

It does not handle subword training (BPE, WordPiece, Unigram): see ``codetok.trainers``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import ConfigurationError, FormatError, NotFoundError, TrainingError
from ..models import WordLevel
from ..normalizers import Normalizer
from ..pre_tokenizers import PreTokenizer
from ..tokenizer.offsets import NormalizedString
from ..tokenizer.tokenizer import Tokenizer

__all__ = ["iter_corpus", "count_pieces", "vocab_from_counts", "build_vocab", "train", "finish"]

Corpus = Iterable["str | os.PathLike[str]"]


def iter_corpus(
    corpus: Corpus | None = None,
    *,
    files: Iterable[str | os.PathLike[str]] | None = None,
    encoding: str = "utf-8",
) -> Iterator[str]:
    """Stream the texts of a corpus: ``str`` items as they are, paths line by line.

    Args:
        corpus: an iterable whose ``str`` items are texts and whose ``os.PathLike`` items
            (``pathlib.Path``) are files to read.
        files: more files (plain ``str`` paths are accepted here).
        encoding: text encoding of the files.

    Returns:
        An iterator of texts (file lines keep their line ending).

    Raises:
        NotFoundError: a file does not exist.
        FormatError: a file cannot be decoded with ``encoding`` (names file and line).
        ConfigurationError: an item is neither a str nor a path.

    >>> list(iter_corpus(["a b", "c"]))
    ['a b', 'c']
    """
    if isinstance(corpus, (str, bytes)):
        raise ConfigurationError(
            "corpus must be an iterable of texts, not one str; wrap it in a list: corpus=[text]"
        )
    if corpus is not None:
        for item in corpus:
            if isinstance(item, str):
                yield item
            elif isinstance(item, os.PathLike):
                yield from _read_lines(item, encoding)
            else:
                raise ConfigurationError(
                    "corpus items must be str texts or pathlib.Path files, "
                    f"got {type(item).__name__}"
                )
    for path in files or ():
        yield from _read_lines(path, encoding)


def _read_lines(path: str | os.PathLike[str], encoding: str) -> Iterator[str]:
    p = os.fspath(path)
    try:
        f = open(p, "rb")
    except FileNotFoundError as e:
        raise NotFoundError(f"{p}: no such corpus file; pass existing paths in files=") from e
    except IsADirectoryError as e:
        raise NotFoundError(f"{p}: is a directory; pass the files inside it in files=") from e
    with f:
        # Bytes lines, decoded one at a time: memory stays at one line, and a decoding
        # error names its exact line.
        for lineno, raw in enumerate(f, 1):
            try:
                yield raw.decode(encoding)
            except UnicodeDecodeError as e:
                raise FormatError(
                    f"cannot decode byte {e.start} as {encoding} ({e.reason}); pass encoding= "
                    f"with the file's encoding",
                    path=p,
                    where=f"line {lineno}",
                ) from e


def count_pieces(
    pipeline: Tokenizer | PreTokenizer,
    corpus: Corpus | None = None,
    *,
    files: Iterable[str | os.PathLike[str]] | None = None,
    normalizer: Normalizer | None = None,
    encoding: str = "utf-8",
) -> Counter[str]:
    """Count the pieces a tokenizer's normalizer and pre-tokenizer cut from a corpus.

    Args:
        pipeline: a :class:`~codetok.Tokenizer` (its normalizer and pre-tokenizer are used)
            or a bare pre-tokenizer.
        corpus: see :func:`iter_corpus`.
        files: see :func:`iter_corpus`.
        encoding: see :func:`iter_corpus`.
        normalizer: with a bare pre-tokenizer, an optional normalizer to run first.

    Returns:
        A ``Counter`` from piece to frequency.

    >>> from codetok.pre_tokenizers import WhitespaceSplit
    >>> count_pieces(WhitespaceSplit(), ["a b a"])
    Counter({'a': 2, 'b': 1})
    """
    if isinstance(pipeline, Tokenizer):
        normalizer, pre = pipeline.normalizer, pipeline.pre_tokenizer
    elif isinstance(pipeline, PreTokenizer):
        pre = pipeline
    else:
        raise ConfigurationError(
            f"pipeline must be a codetok Tokenizer or PreTokenizer, got {type(pipeline).__name__}"
        )
    counts: Counter[str] = Counter()
    for text in iter_corpus(corpus, files=files, encoding=encoding):
        ns = NormalizedString(text)
        if normalizer is not None:
            normalizer.normalize(ns)
        if pre is None:
            if ns.text:
                counts[ns.text] += 1
            continue
        counts.update(p.text for p in pre.split(ns) if p.text)
    return counts


def vocab_from_counts(
    counts: Mapping[str, int],
    *,
    min_frequency: int = 1,
    max_size: int | None = None,
    special_tokens: Sequence[str] = (),
    unk_token: str | None = "[UNK]",
) -> dict[str, int]:
    """Turn piece counts into a token -> id vocabulary.

    Args:
        counts: piece -> frequency.
        min_frequency: keep pieces seen at least this often.
        max_size: the largest vocabulary (special and unknown tokens included), or ``None``.
        special_tokens: tokens placed first, in this order.
        unk_token: the unknown token, placed after the special tokens (``None``: none).

    Returns:
        The vocabulary; ids are dense from 0.

    Raises:
        ConfigurationError: ``min_frequency`` < 1, or ``max_size`` too small for the
            special and unknown tokens.

    >>> vocab_from_counts({"b": 2, "a": 2, "c": 1}, min_frequency=2, unk_token="<unk>")
    {'<unk>': 0, 'a': 1, 'b': 2}
    """
    if not isinstance(min_frequency, int) or min_frequency < 1:
        raise ConfigurationError(f"min_frequency must be an int >= 1, got {min_frequency!r}")
    reserved: list[str] = []
    for t in [*special_tokens, *([] if unk_token is None else [unk_token])]:
        if not isinstance(t, str) or not t:
            raise ConfigurationError(f"special and unknown tokens must be non-empty str, got {t!r}")
        if t not in reserved:
            reserved.append(t)
    if max_size is not None and (not isinstance(max_size, int) or max_size < len(reserved)):
        raise ConfigurationError(
            f"max_size must be an int >= {len(reserved)} (the special and unknown tokens "
            f"{reserved}), got {max_size!r}"
        )
    vocab = {t: i for i, t in enumerate(reserved)}
    ranked = sorted(
        ((t, c) for t, c in counts.items() if c >= min_frequency and t not in vocab),
        key=lambda tc: (-tc[1], tc[0]),
    )
    room = len(ranked) if max_size is None else max_size - len(vocab)
    for t, _c in ranked[:room]:
        vocab[t] = len(vocab)
    return vocab


def build_vocab(
    pipeline: Tokenizer | PreTokenizer,
    corpus: Corpus | None = None,
    *,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    special_tokens: Sequence[str] = (),
    unk_token: str | None = "[UNK]",
    encoding: str = "utf-8",
) -> dict[str, int]:
    """Count a corpus with ``pipeline`` and build a vocabulary (:func:`vocab_from_counts`).

    >>> from codetok.pre_tokenizers import WhitespaceSplit
    >>> build_vocab(WhitespaceSplit(), ["to be or not to be"], max_size=3)
    {'[UNK]': 0, 'be': 1, 'to': 2}
    """
    counts = count_pieces(pipeline, corpus, files=files, encoding=encoding)
    return vocab_from_counts(
        counts,
        min_frequency=min_frequency,
        max_size=max_size,
        special_tokens=special_tokens,
        unk_token=unk_token,
    )


def finish(
    tokenizer: Tokenizer,
    *,
    vocab: Mapping[str, int] | None,
    corpus: Corpus | None,
    unk_token: str | None,
    special_tokens: Sequence[str],
    **train_options: Any,
) -> Tokenizer:
    """Give a tokenizer skeleton its WordLevel vocabulary (the shared end of every factory).

    ``vocab`` is used as given (the unknown token is appended when missing); otherwise the
    vocabulary is built from ``corpus`` / ``files`` with ``train_options``; with neither, it
    holds only the special and unknown tokens. Special tokens are registered as special
    added tokens (never split, skipped by ``decode``).

    Raises:
        ConfigurationError: both ``vocab`` and a corpus were given.
    """
    has_corpus = corpus is not None or train_options.get("files") is not None
    if vocab is not None and has_corpus:
        raise ConfigurationError("pass either vocab= or corpus=/files=, not both")
    if vocab is None:
        vocab = build_vocab(
            tokenizer, corpus, special_tokens=special_tokens, unk_token=unk_token, **train_options
        )
    else:
        vocab = dict(vocab)
        if unk_token is not None and unk_token not in vocab:
            vocab[unk_token] = max(vocab.values(), default=-1) + 1
    tokenizer.model = WordLevel(dict(vocab), unk_token)
    if special_tokens:
        tokenizer.add_special_tokens(list(special_tokens))
    return tokenizer


def train(
    tokenizer: Tokenizer,
    corpus: Corpus | None = None,
    *,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    special_tokens: Sequence[str] = (),
    unk_token: str | None = "[UNK]",
    encoding: str = "utf-8",
) -> Tokenizer:
    """A new tokenizer with ``tokenizer``'s components and a vocabulary learned from a corpus.

    Works for every word-level tokenizer of :mod:`codetok.text` (whitespace, words,
    patterns, characters). The byte-level tokenizer has a fixed vocabulary and is refused.

    Args:
        tokenizer: the tokenizer whose normalizer, pre-tokenizer, post-processor and
            decoder are reused (it is not modified).
        corpus: see :func:`iter_corpus`.
        files: see :func:`iter_corpus`.
        encoding: see :func:`iter_corpus`.
        min_frequency: see :func:`vocab_from_counts`.
        max_size: see :func:`vocab_from_counts`.
        special_tokens: see :func:`vocab_from_counts`.
        unk_token: see :func:`vocab_from_counts`.

    Returns:
        The trained :class:`~codetok.Tokenizer`.

    Raises:
        TrainingError: the corpus produced no piece at all, or ``tokenizer`` is not
            word-level.

    >>> from codetok.text import whitespace_tokenizer
    >>> tok = train(whitespace_tokenizer(), ["a b a"], unk_token="<unk>")
    >>> tok.encode("a c").tokens
    ['a', '<unk>']
    """
    if not isinstance(tokenizer.model, WordLevel) or getattr(tokenizer, "fixed_vocabulary", False):
        raise TrainingError(
            f"train() learns WordLevel vocabularies; this tokenizer has a fixed "
            f"{type(tokenizer.model).__name__} vocabulary (use codetok.trainers for subwords)"
        )
    counts = count_pieces(tokenizer, corpus, files=files, encoding=encoding)
    if not counts:
        raise TrainingError("the corpus yielded no pieces; pass non-empty texts or files")
    vocab = vocab_from_counts(
        counts,
        min_frequency=min_frequency,
        max_size=max_size,
        special_tokens=special_tokens,
        unk_token=unk_token,
    )
    new = Tokenizer(
        WordLevel(),
        normalizer=tokenizer.normalizer,
        pre_tokenizer=tokenizer.pre_tokenizer,
        post_processor=tokenizer.post_processor,
        decoder=tokenizer.decoder,
    )
    return finish(new, vocab=vocab, corpus=None, unk_token=unk_token, special_tokens=special_tokens)
