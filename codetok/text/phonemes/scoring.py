"""How a pronunciation is scored against the dictionary's: the phoneme error of G2P output.

The phoneme error rate (PER) of a word is the edit distance (substitutions, insertions,
deletions) from the predicted phonemes to the closest of the word's pronunciations, over
that pronunciation's length; a word is wrong (WER) when the distance is not 0. Ties go to
the shorter pronunciation. ``benchmarks/phonemes_eval.py`` and the tests score with this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["closest_errors", "edit_distance"]


def edit_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance between two symbol sequences.

    >>> edit_distance(["K", "AE1", "T"], ["K", "AA1", "T", "S"])
    2
    """
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def closest_errors(got: Sequence[str], refs: Iterable[Sequence[str]]) -> tuple[int, int]:
    """``(errors, length)``: the edit distance from ``got`` to the closest of ``refs``
    (the shorter on a tie) and that reference's length.

    >>> closest_errors(["T", "AH0"], [["T", "UW1"], ["T", "AH0"]])
    (0, 2)
    """
    return min((edit_distance(got, r), len(r)) for r in refs)
