"""Train the G2P model from a pronunciation dictionary, and the held-out split it is scored on.

Training has two steps: align (EM over letter/phoneme segmentations, :mod:`.alignment`)
and count (a Kneser-Ney n-gram over the graphones of the best segmentations,
:mod:`.ngram`). ``corpora/build_g2p_model.py`` runs :func:`train_g2p` on CMUdict to make
the shipped model; ``benchmarks/phonemes_eval.py`` scores it on the words
:func:`is_held_out` keeps out of training.

The split is a pure function of the word (a SHA-256 hash), so it does not depend on the
dictionary version or order, and every pronunciation of a word is on the same side.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...errors import TrainingError
from .alignment import Graphone, train_alignment, viterbi_alignments
from .g2p import G2P
from .ngram import train_ngram

__all__ = ["HELD_OUT_PERCENT", "TRAINABLE", "is_held_out", "training_entries", "train_g2p"]

#: The share of CMUdict words held out of training, in percent.
HELD_OUT_PERCENT = 5

#: Words the G2P model learns from: lowercase letters with apostrophes.
TRAINABLE = re.compile(r"[a-z']+")


def is_held_out(word: str) -> bool:
    """Whether ``word`` is in the evaluation split (about :data:`HELD_OUT_PERCENT` %).

    >>> is_held_out("cat"), is_held_out("water")
    (False, True)
    """
    digest = hashlib.sha256(word.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100 < HELD_OUT_PERCENT


def training_entries(
    lexicon: Mapping[str, Sequence[Sequence[str]]], *, hold_out: bool = True
) -> list[tuple[str, tuple[str, ...]]]:
    """``(word, phonemes)`` pairs to train on: every pronunciation of every trainable word.

    Args:
        lexicon: word -> pronunciations (as :func:`~codetok.text.phonemes.lexicon.cmudict_lexicon`).
        hold_out: leave out the words :func:`is_held_out` selects.

    >>> training_entries({"cat": [["K", "AE1", "T"]], "a.m.": [["EY2", "EH1", "M"]]})
    [('cat', ('K', 'AE1', 'T'))]
    """
    return [
        (w, tuple(p))
        for w, prons in sorted(lexicon.items())
        if TRAINABLE.fullmatch(w) and not (hold_out and is_held_out(w))
        for p in prons
    ]


def train_g2p(
    entries: Iterable[tuple[str, Sequence[str]]],
    *,
    order: int = 6,
    min_count: int = 1,
    iterations: int = 10,
    beam: int = 24,
    info: Mapping[str, Any] | None = None,
    log: bool = False,
) -> G2P:
    """Train a joint-sequence G2P model on ``(word, phonemes)`` pairs.

    Args:
        entries: the pronunciations to learn from (lowercase words).
        order: the n-gram order over graphones.
        min_count: n-grams of order 3 and up seen fewer times are pruned (1: none is).
        iterations: EM iterations of the alignment.
        beam: the decoder's beam (histories kept per letter position).
        info: facts to store with the model (the source dictionary, its version, ...).
        log: print progress.

    Returns:
        The trained :class:`~codetok.text.phonemes.g2p.G2P`.

    Raises:
        TrainingError: no entry, or no entry can be aligned.

    >>> words = {"cat": "K AE1 T", "bat": "B AE1 T", "tab": "T AE1 B", "cab": "K AE1 B",
    ...          "at": "AE1 T", "tack": "T AE1 K", "back": "B AE1 K"}
    >>> g2p = train_g2p([(w, p.split()) for w, p in words.items()], order=3, iterations=5)
    >>> g2p.predict("cack")
    ['K', 'AE1', 'K']
    """
    pairs = [(w, tuple(p)) for w, p in entries]
    if not pairs:
        raise TrainingError("no (word, phonemes) entries to train the G2P model on")
    theta = train_alignment(pairs, iterations=iterations, log=log)
    paths = viterbi_alignments(pairs, theta)
    unit_ids: dict[Graphone, int] = {}
    sequences = []
    for path in paths:
        if path is not None:
            sequences.append([unit_ids.setdefault(g, len(unit_ids)) for g in path])
    if not sequences:
        raise TrainingError("no entry could be aligned; check the phoneme strings")
    if log:
        skipped = len(paths) - len(sequences)
        print(f"{len(sequences)} entries aligned ({skipped} skipped), {len(unit_ids)} graphones")
    ngram = train_ngram(sequences, len(unit_ids), order=order, min_count=min_count)
    if log:
        print(f"n-gram model: {len(ngram.keys)} n-grams, {len(ngram.node_bow)} histories")
    graphones = list(unit_ids)
    scores = {g: theta[g] for g in graphones}
    details = {
        "entries": len(pairs),
        "aligned": len(sequences),
        "graphones": len(graphones),
        "order": order,
        "min_count": min_count,
        "em_iterations": iterations,
        **(info or {}),
    }
    return G2P(graphones, ngram, {g: math.log(s) for g, s in scores.items()}, details, beam=beam)
