"""The training words of a morpheme model: from a word list, a word-list file, or texts.

- a mapping ``word -> count``, or an iterable of words (each occurrence counts once);
- a word-list file (:func:`read_word_list`): one word per line, alone or with its count
  before or after it, separated by whitespace (``walk``, ``12 walk``, ``walk\\t12``); blank
  lines and lines starting with ``#`` are skipped;
- texts (``corpus=`` strings or ``pathlib.Path`` files, ``files=``): every maximal run of
  letters (Unicode categories L and M) is a word, lowercased unless told otherwise. This is
  exactly what the :class:`~codetok.text.morphemes.pre_tokenizer.Morphemes` pre-tokenizer segments.
  Runs of combining marks alone and runs longer than ``MAX_WORD`` are skipped.

Words must be letters only (:func:`check_word`); errors name the
word, and for files the line.
"""

from __future__ import annotations

import os
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import regex

from ...errors import ConfigurationError, TrainingError

__all__ = ["LETTERS", "MAX_WORD", "check_word", "count_words", "read_word_list"]

#: The longest training word, in characters (training is quadratic in a word's length).
MAX_WORD = 256


def check_word(word: Any, where: str) -> str:
    """``word`` if it is a trainable word, else a :class:`TrainingError` naming ``where``.

    A word is a str of letters (Unicode categories L and M, any case), at least one letter
    long and at most :data:`MAX_WORD` characters.
    """
    if not isinstance(word, str):
        raise TrainingError(f"{where}: a word must be a str, got {type(word).__name__}")
    if not word:
        raise TrainingError(f"{where}: empty word; every word needs at least one letter")
    if len(word) > MAX_WORD:
        raise TrainingError(
            f"{where}: {word[:20]!r}... has {len(word)} characters; words longer than "
            f"{MAX_WORD} are not trained on (drop them)"
        )
    for i, ch in enumerate(word):
        if not (ch.isalpha() or _is_mark(ch)):
            what = "has no letters" if not any(c.isalpha() for c in word) else "is not all letters"
            raise TrainingError(
                f"{where}: {word!r} {what} ({ch!r} at {i}); morphemes are learned from words "
                f"of letters only: split such entries at the other characters or drop them, "
                f"or train on texts, whose runs of letters are the words"
            )
    if not any(c.isalpha() for c in word):
        raise TrainingError(f"{where}: {word!r} has no letters, only combining marks")
    return word


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


#: A maximal run of letters: what a morpheme model learns from and segments.
LETTERS = regex.compile(r"[\p{L}\p{M}]+")


def read_word_list(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> dict[str, int]:
    """Word -> count from a word-list file (module docstring); repeated words add up.

    Raises:
        NotFoundError: no such file.
        FormatError: the file cannot be decoded.
        TrainingError: a line with more than two fields, a count that is not a positive
            int, or a word that is not letters (the message names the line).

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "words.txt"
    >>> _ = p.write_text("# counts\\n12 walk\\ntalk 3\\nwalked\\n", encoding="utf-8")
    >>> read_word_list(p)
    {'walk': 12, 'talk': 3, 'walked': 1}
    """
    from ..vocab import iter_corpus

    p = os.fspath(path)
    counts: Counter[str] = Counter()
    for lineno, line in enumerate(iter_corpus(files=[p], encoding=encoding), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        where = f"{p}: line {lineno}"
        if len(fields) > 2:
            raise TrainingError(
                f"{where}: expected 'word' or 'count word', got {len(fields)} fields: "
                f"{line.strip()!r:.80}"
            )
        count = 1
        if len(fields) == 2:
            a, b = fields
            word, number = (b, a) if a.isdigit() else (a, b)
            if not number.isdigit() or int(number) < 1:
                raise TrainingError(
                    f"{where}: the count must be a positive int, got {number!r} in "
                    f"{line.strip()!r:.80}"
                )
            count = int(number)
        else:
            word = fields[0]
        counts[check_word(word, where)] += count
    return dict(counts)


def count_words(
    words: Mapping[str, int] | Iterable[str] | None = None,
    *,
    corpus: Iterable[Any] | None = None,
    files: Iterable[str | os.PathLike[str]] | None = None,
    lowercase: bool = True,
) -> dict[str, int]:
    """Word -> count from ``words`` or from the letter runs of ``corpus`` / ``files``.

    Raises:
        ConfigurationError: both or neither kind of input, or ``words`` given as one str.
        TrainingError: no words at all, a word that is not letters, a bad count.

    >>> count_words(corpus=["Walking, walked; WALK-ing 42"])
    {'walking': 1, 'walked': 1, 'walk': 1, 'ing': 1}
    """
    from_texts = corpus is not None or files is not None
    if (words is None) == (not from_texts):
        raise ConfigurationError(
            "pass either words= (a word list or word -> count) or corpus=/files= (texts)"
            + (", not both" if from_texts else "")
        )
    counts: Counter[str] = Counter()
    if words is not None:
        if isinstance(words, (str, bytes)):
            raise ConfigurationError(
                "words must be a list of words or a word -> count mapping, not one str; "
                "use [word], or read_word_list(path) for a file"
            )
        if isinstance(words, Mapping):
            for w, c in words.items():
                check_word(w, "words")
                if isinstance(c, bool) or not isinstance(c, int) or c < 1:
                    raise TrainingError(
                        f"words[{w!r}]: the count must be a positive int, got {c!r}"
                    )
                counts[w] += c
        else:
            for i, w in enumerate(words):
                counts[check_word(w, f"words[{i}]")] += 1
    else:
        from ..vocab import iter_corpus

        find = LETTERS.findall
        for text in iter_corpus(corpus, files=files):
            counts.update(find(text.lower() if lowercase else text))
        for w in [w for w in counts if len(w) > MAX_WORD or not any(map(str.isalpha, w))]:
            del counts[w]  # runs of marks alone, and runs too long to train on
    if not counts:
        raise TrainingError(
            "no words to train on: the word list is empty"
            if words is not None
            else "no words to train on: the texts hold no letters"
        )
    return dict(counts)
