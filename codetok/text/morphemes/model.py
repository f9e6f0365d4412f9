"""A trained morph lexicon and Viterbi segmentation of any word with it.

:class:`MorphemeModel` holds what training (:mod:`codetok.text.morphemes.training`) leaves: each
morph with its count, the number of word tokens it was trained on and the corpus weight.
That is enough to segment any word, seen or new: the segmentation is the sequence of morphs
with the least corpus cost (Viterbi over cut points), where

- a morph of the lexicon costs ``alpha * log(T / c(m))`` (``T``: morph and word tokens);
- any other string of up to :data:`MAX_NEW` letters costs what adding it to the model would
  cost with one token: ``alpha * log(T)`` plus its letters and end symbol coded with the
  lexicon's letter frequencies (a letter the lexicon lacks codes as one seen once).

So a word made of known morphs splits into them, an unknown stem keeps its letters together
and still sheds a known affix (``blorfing`` -> ``blorf ing``) when that is cheaper. The cost
of a word is linear in its length (new strings are bounded; the cheapest start of one comes
from a sliding-window minimum, the morphs that end at a position from a trie of reversed
morphs), and segmentations are cached per word.

The model saves as a JSON object (:meth:`MorphemeModel.to_dict`), which is how
``tokenizer.json`` stores it inside a ``codetok.Morphemes`` pre-tokenizer.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from math import log
from typing import Any

from ...errors import ConfigurationError, FormatError, TrainingError
from .training import train_lexicon
from .training_words import MAX_WORD, check_word, count_words

__all__ = ["MorphemeModel", "DAMPENINGS", "MAX_NEW", "MAX_WORD", "check_word", "dampen"]

#: How training counts are dampened: kept (``"none"``), ``1 + floor(ln count)`` (``"log"``),
#: or all set to 1, word types only (``"ones"``).
DAMPENINGS = ("none", "log", "ones")
#: The longest string a segmentation may take that is not in the lexicon.
MAX_NEW = 32
_CACHE = 1 << 16


def _check_weight(corpus_weight: Any) -> None:
    if (
        isinstance(corpus_weight, bool)
        or not isinstance(corpus_weight, (int, float))
        or not 0 < corpus_weight < float("inf")
    ):
        raise ConfigurationError(f"corpus_weight must be a positive number, got {corpus_weight!r}")


def dampen(count: int, dampening: str) -> int:
    """``count`` flattened as ``dampening`` (:data:`DAMPENINGS`) says.

    >>> dampen(1000, "none"), dampen(1000, "log"), dampen(1000, "ones")
    (1000, 7, 1)
    """
    if dampening == "ones":
        return 1
    if dampening == "log":
        return 1 + int(log(count))
    return count


class MorphemeModel:
    """A morph lexicon with counts, and the segmentation it gives (module docstring).

    Build one with :meth:`train`, or from saved data with :meth:`from_dict` / :meth:`load`.

    Args:
        morphs: morph -> count (positive ints).
        word_tokens: the number of word tokens the counts come from (at least 1).
        corpus_weight: the weight of the corpus cost it was trained with (positive).

    Raises:
        ConfigurationError: an empty lexicon, a count that is not a positive int, or a bad
            ``word_tokens`` / ``corpus_weight``.

    >>> model = MorphemeModel({"walk": 3, "talk": 3, "ed": 4, "s": 2}, word_tokens=6)
    >>> model.segment("talked"), model.segment("blorfs")
    (['talk', 'ed'], ['blorf', 's'])
    """

    def __init__(
        self, morphs: Mapping[str, int], *, word_tokens: int, corpus_weight: float = 1.0
    ) -> None:
        if not isinstance(morphs, Mapping) or not morphs:
            raise ConfigurationError("morphs must be a non-empty mapping of morph -> count")
        for m, c in morphs.items():
            if not isinstance(m, str) or not m:
                raise ConfigurationError(f"morphs: every morph must be a non-empty str, got {m!r}")
            if isinstance(c, bool) or not isinstance(c, int) or c < 1:
                raise ConfigurationError(f"morphs[{m!r}] must be a positive int, got {c!r}")
        if isinstance(word_tokens, bool) or not isinstance(word_tokens, int) or word_tokens < 1:
            raise ConfigurationError(f"word_tokens must be a positive int, got {word_tokens!r}")
        _check_weight(corpus_weight)
        self.morphs = dict(morphs)
        self.word_tokens = word_tokens
        self.corpus_weight = float(corpus_weight)
        alpha = self.corpus_weight
        total = sum(self.morphs.values()) + word_tokens
        self._new = alpha * log(total)
        self._cost = {m: alpha * (log(total) - log(c)) for m, c in self.morphs.items()}
        # morphs spelled backwards as nested dicts; "" holds a whole morph's cost
        self._trie: dict[str, Any] = {}
        for m, cost in self._cost.items():
            node = self._trie
            for ch in reversed(m):
                node = node.setdefault(ch, {})
            node[""] = cost
        letters: dict[str, int] = {}
        for m in self.morphs:
            for ch in m:
                letters[ch] = letters.get(ch, 0) + 1
        symbols = sum(letters.values()) + len(self.morphs)
        self._end = log(symbols / len(self.morphs))
        self._letter = {ch: log(symbols / n) for ch, n in letters.items()}
        self._unseen = log(symbols)
        self._cache: dict[str, tuple[str, ...]] = {}

    # ----------------------------------------------------------------- training
    @classmethod
    def train(
        cls,
        words: Mapping[str, int] | Iterable[str] | None = None,
        *,
        corpus: Iterable[Any] | None = None,
        files: Iterable[str | os.PathLike[str]] | None = None,
        lowercase: bool = True,
        min_count: int = 1,
        dampening: str = "none",
        corpus_weight: float = 1.0,
        max_epochs: int = 10,
        tolerance: float = 0.005,
        seed: int = 0,
        progress: Callable[[int, float], None] | None = None,
    ) -> MorphemeModel:
        """Learn a morph lexicon from a word list, or from the words of texts.

        Args:
            words: word -> count, or words (each counted once per occurrence). Words must
                be letters only (:func:`~codetok.text.morphemes.training_words.check_word`).
            corpus: texts (``str``) and/or files (``pathlib.Path``); their runs of letters
                are the words (lowercased when ``lowercase``), counted.
            files: more text files, read line by line.
            lowercase: lowercase the words taken from ``corpus`` / ``files`` (a ``words``
                list is taken as it is).
            min_count: train on words seen at least this often.
            dampening: ``"none"``, ``"log"`` or ``"ones"`` (:data:`DAMPENINGS`): how word
                counts are flattened before training. Raw counts keep frequent words whole;
                ``"ones"`` (word types) split most and scored best against an English gold
                (README, benchmarks/morpheme_eval.py).
            corpus_weight: above 1, fewer and longer morphs; below 1, more splitting.
            max_epochs: see :func:`codetok.text.morphemes.training.train_lexicon`.
            tolerance: see :func:`codetok.text.morphemes.training.train_lexicon`.
            seed: see :func:`codetok.text.morphemes.training.train_lexicon`.
            progress: called as ``progress(epoch, cost)`` after each epoch.

        Returns:
            The trained :class:`MorphemeModel`.

        Raises:
            TrainingError: no words (or none at ``min_count``), a word that is not letters,
                a count that is not a positive int.
            ConfigurationError: both or neither of ``words`` and ``corpus``/``files``, or a
                bad option.

        >>> model = MorphemeModel.train({"walk": 3, "walks": 2, "walked": 2, "talk": 3,
        ...                              "talks": 2, "talked": 2}, corpus_weight=0.5)
        >>> model.segment("walked"), model.segment("talking")
        (['walk', 'ed'], ['talk', 'ing'])
        """
        counts = count_words(words, corpus=corpus, files=files, lowercase=lowercase)
        if dampening not in DAMPENINGS:
            raise ConfigurationError(
                f"dampening must be one of {', '.join(map(repr, DAMPENINGS))}; got {dampening!r}"
            )
        for name, value, low in (("min_count", min_count, 1), ("max_epochs", max_epochs, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigurationError(f"{name} must be an int >= {low}, got {value!r}")
        _check_weight(corpus_weight)
        if not isinstance(tolerance, (int, float)) or not tolerance >= 0:
            raise ConfigurationError(f"tolerance must be a number >= 0, got {tolerance!r}")
        kept = {w: dampen(c, dampening) for w, c in counts.items() if c >= min_count}
        if not kept:
            raise TrainingError(
                f"no word is seen at least min_count={min_count} times "
                f"({len(counts)} distinct words); lower min_count"
            )
        lexicon, _ = train_lexicon(
            kept,
            corpus_weight=corpus_weight,
            max_epochs=max_epochs,
            tolerance=tolerance,
            seed=seed,
            progress=progress,
        )
        return cls(lexicon, word_tokens=sum(kept.values()), corpus_weight=corpus_weight)

    # ------------------------------------------------------------- segmenting
    def segment(self, word: str) -> list[str]:
        """The morphs of ``word`` (any str; ``[]`` for ``""``), joined they give ``word``.

        >>> MorphemeModel({"un": 2, "do": 3, "able": 2}, word_tokens=3).segment("undoable")
        ['un', 'do', 'able']
        """
        found = self._cache.get(word)
        if found is None:
            found = tuple(self._viterbi(word))
            if len(self._cache) >= _CACHE:
                self._cache.clear()
            self._cache[word] = found
        return list(found)

    def _viterbi(self, word: str) -> list[str]:
        n = len(word)
        if n == 0:
            return []
        letter, unseen = self._letter, self._unseen
        # prefix sums of letter costs: a new string word[i:j] costs new + ltr[j] - ltr[i]
        ltr = [0.0] * (n + 1)
        for i, ch in enumerate(word):
            ltr[i + 1] = ltr[i] + letter.get(ch, unseen)
        new_cost = self._new + self._end
        trie = self._trie
        best = [0.0] * (n + 1)
        back = [0] * (n + 1)
        # Starts i of a new string ending at j, as a queue whose values best[i] - ltr[i]
        # increase: its head is the cheapest start within MAX_NEW letters. A morph of the
        # lexicon never costs more as itself than as a new string, so letting the queue
        # price known morphs too changes nothing.
        window: deque[int] = deque()
        for j in range(1, n + 1):
            i = j - 1
            v = best[i] - ltr[i]
            while window and best[window[-1]] - ltr[window[-1]] >= v:
                window.pop()
            window.append(i)
            if window[0] < j - MAX_NEW:
                window.popleft()
            h = window[0]
            bj, bi = best[h] - ltr[h] + new_cost + ltr[j], h
            node = trie
            while i >= 0:  # morphs of the lexicon that end at j, walked backwards
                node = node.get(word[i])
                if node is None:
                    break
                c = node.get("")
                if c is not None and best[i] + c < bj:
                    bj, bi = best[i] + c, i
                i -= 1
            best[j], back[j] = bj, bi
        out = []
        j = n
        while j > 0:
            i = back[j]
            out.append(word[i:j])
            j = i
        out.reverse()
        return out

    # ---------------------------------------------------------- serialization
    def to_dict(self) -> dict[str, Any]:
        """The model as JSON-ready data: ``corpus_weight``, ``word_tokens`` and ``morphs``
        (morph -> count, most frequent first)."""
        ordered = sorted(self.morphs.items(), key=lambda mc: (-mc[1], mc[0]))
        return {
            "corpus_weight": self.corpus_weight,
            "word_tokens": self.word_tokens,
            "morphs": dict(ordered),
        }

    @classmethod
    def from_dict(
        cls, data: Any, *, path: str | None = None, where: str = "model"
    ) -> MorphemeModel:
        """Rebuild a model from :meth:`to_dict` data.

        Raises:
            FormatError: missing or malformed fields (naming ``path`` and ``where``).
        """
        if not isinstance(data, dict):
            raise FormatError(
                f"a morpheme model is a JSON object, got {type(data).__name__}",
                path=path,
                where=where,
            )
        missing = [k for k in ("morphs", "word_tokens") if k not in data]
        if missing:
            raise FormatError(
                f"a morpheme model needs {' and '.join(missing)}", path=path, where=where
            )
        try:
            return cls(
                data["morphs"],
                word_tokens=data["word_tokens"],
                corpus_weight=data.get("corpus_weight", 1.0),
            )
        except ConfigurationError as e:
            raise FormatError(str(e), path=path, where=where) from e

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` as a JSON file."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, ensure_ascii=False, indent=1)
            f.write("\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MorphemeModel:
        """Read a model written by :meth:`save`.

        Raises:
            NotFoundError: no such file.
            FormatError: not JSON, or not a morpheme model.
        """
        from ...formats.files import parse_json, read_text_file

        p, text = read_text_file(path, "morpheme model")
        return cls.from_dict(parse_json(text, path=p), path=p)

    def __len__(self) -> int:
        return len(self.morphs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MorphemeModel) and other.to_dict() == self.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"MorphemeModel({len(self.morphs)} morphs, word_tokens={self.word_tokens}, "
            f"corpus_weight={self.corpus_weight})"
        )
