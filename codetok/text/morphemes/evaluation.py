"""Boundary precision, recall and F1 of a morph segmentation against a gold segmentation.

A word's boundaries are the positions between two of its morphs (``walk ing`` has one, at
4). Counts are summed over all words before dividing (micro-averaged): precision is the
share of predicted boundaries that are in the gold, recall the share of gold boundaries
that were predicted, F1 their harmonic mean. A word the gold leaves whole contributes only
to precision. This is the boundary measure of the Morpho Challenge, without its per-word
averaging and alternatives.

:func:`read_gold` reads the ``word<TAB>morph morph ...`` files that
``corpora/build_morph_gold.py`` writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import ConfigurationError, FormatError

__all__ = ["BoundaryScores", "boundaries", "boundary_scores", "read_gold"]


def boundaries(morphs: Sequence[str]) -> set[int]:
    """Positions between consecutive morphs.

    >>> sorted(boundaries(["un", "happi", "ness"]))
    [2, 7]
    """
    out = set()
    pos = 0
    for m in morphs[:-1]:
        pos += len(m)
        out.add(pos)
    return out


@dataclass(frozen=True)
class BoundaryScores:
    """Micro-averaged boundary scores over ``words`` words (module docstring)."""

    words: int
    correct: int
    predicted: int
    gold: int

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def boundary_scores(
    predicted: Mapping[str, Sequence[str]], gold: Mapping[str, Sequence[str]]
) -> BoundaryScores:
    """Score ``predicted`` (word -> morphs) on the words of ``gold`` (word -> morphs).

    Raises:
        ConfigurationError: a gold word has no prediction, or a prediction does not join
            back to its word.

    >>> s = boundary_scores({"walked": ["walk", "ed"], "undo": ["u", "ndo"]},
    ...                     {"walked": ["walk", "ed"], "undo": ["un", "do"]})
    >>> s.precision, s.recall, s.f1
    (0.5, 0.5, 0.5)
    """
    correct = n_pred = n_gold = 0
    for word, ref in gold.items():
        pred = predicted.get(word)
        if pred is None:
            raise ConfigurationError(f"no predicted segmentation of the gold word {word!r}")
        if "".join(pred) != word:
            raise ConfigurationError(f"the prediction {list(pred)} does not spell {word!r}")
        p, g = boundaries(pred), boundaries(ref)
        correct += len(p & g)
        n_pred += len(p)
        n_gold += len(g)
    return BoundaryScores(len(gold), correct, n_pred, n_gold)


def read_gold(path: str | os.PathLike[str]) -> dict[str, list[str]]:
    """Word -> gold morphs from a ``word<TAB>morph morph ...`` file (``#`` lines skipped).

    Raises:
        NotFoundError: no such file.
        FormatError: a line without a tab, or morphs that do not spell the word.
    """
    from ..vocab import iter_corpus

    p = os.fspath(path)
    out: dict[str, list[str]] = {}
    for lineno, line in enumerate(iter_corpus(files=[p]), 1):
        line = line.rstrip("\r\n")
        if not line or line.startswith("#"):
            continue
        word, tab, seg = line.partition("\t")
        morphs = seg.split()
        if not tab or "".join(morphs) != word:
            raise FormatError(
                f"expected 'word<TAB>morph morph ...' with morphs spelling the word, got "
                f"{line!r:.80}",
                path=p,
                where=f"line {lineno}",
            )
        out[word] = morphs
    return out
