"""Batch recursive training of a Morfessor-Baseline-style morph lexicon.

The training data is a list of word types with counts. Every string the training has met
is a *node*: a word, or a part of one. A node is either a morph (a leaf, counted in the
lexicon) or split in two at one position, its two halves being nodes again; a node's count
is the number of word tokens whose analysis passes through it, and a morph's count in the
lexicon is the count of its leaf node. Every word starts as one morph.

One epoch visits the word types in a random order (seeded). For each word it takes the
word's count out of the model, then tries the word whole and at every cut point, each time
adding the count back to the two halves as they stand and reading the total code length
(:class:`~codetok.text.morphemes.cost.MorphCost`). The cheapest choice is kept, and on equal
cost a split beats no split and a later cut an earlier one (different trees often have
the same morphs, hence the same cost; like Morfessor 2.0, this keeps the last such cut,
which measured about half a point of boundary F1 better on English than the first); when
it is a split, both halves are optimized the same way in turn, with the counts they now
have from every word that uses them. Epochs stop once one lowers the cost by less than ``tolerance``
nats per word type, or after ``max_epochs``.

This is the batch recursive algorithm of Creutz & Lagus (2002, 2005) as Morfessor 2.0
describes it; written for codetok from that description. Not here: segmenting new words
(:mod:`codetok.text.morphemes.model`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .cost import MorphCost

__all__ = ["train_lexicon"]


class _Trainer:
    """Nodes, their counts and splits, over a :class:`MorphCost`."""

    def __init__(self, words: dict[str, int], corpus_weight: float) -> None:
        self.cost = MorphCost(corpus_weight, word_tokens=sum(words.values()))
        #: string -> [count, split] (split 0: a morph)
        self.nodes: dict[str, list[int]] = {}
        for w, c in words.items():
            self.modify(w, c)

    def modify(self, node: str, delta: int) -> None:
        """Add ``delta`` to ``node``'s count and to every node below it."""
        entry = self.nodes.get(node)
        if entry is None:
            entry = self.nodes[node] = [0, 0]
        entry[0] += delta
        cut = entry[1]
        if cut:
            self.modify(node[:cut], delta)
            self.modify(node[cut:], delta)
        else:
            self.cost.add(node, delta)
        if entry[0] == 0:
            del self.nodes[node]

    def optimize(self, node: str) -> None:
        """Re-choose the analysis of ``node`` with its whole count, recursively."""
        entry = self.nodes.get(node)
        if entry is None:
            return
        count = entry[0]
        self.modify(node, -count)
        cost = self.cost
        cost.add(node, count)
        best, best_cut = cost.total(), 0
        cost.add(node, -count)
        modify = self.modify
        for cut in range(1, len(node)):
            left, right = node[:cut], node[cut:]
            modify(left, count)
            modify(right, count)
            here = cost.total()
            modify(left, -count)
            modify(right, -count)
            if here <= best:  # ties: see the module docstring
                best, best_cut = here, cut
        self.nodes[node] = [count, best_cut]
        if not best_cut:
            cost.add(node, count)
            return
        left, right = node[:best_cut], node[best_cut:]
        modify(left, count)
        modify(right, count)
        self.optimize(left)
        self.optimize(right)

    def segment(self, word: str) -> list[str]:
        """The morphs of a node's current analysis."""
        cut = self.nodes[word][1]
        if not cut:
            return [word]
        return self.segment(word[:cut]) + self.segment(word[cut:])


def train_lexicon(
    words: dict[str, int],
    *,
    corpus_weight: float = 1.0,
    max_epochs: int = 10,
    tolerance: float = 0.005,
    seed: int = 0,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Train on word types with counts (checked by the caller) and return the result.

    Args:
        words: word -> count (positive ints), at least one word.
        corpus_weight: the weight of the corpus cost (module docstring of ``morph_cost``).
        max_epochs: at most this many passes over the words.
        tolerance: stop when an epoch lowers the cost by less than this, per word type.
        seed: the order of the words in each epoch.
        progress: called as ``progress(epoch, cost)`` after each epoch.

    Returns:
        ``(morph counts, segmentation of each training word)``.

    >>> lexicon, seg = train_lexicon({"walk": 3, "walks": 2, "walked": 2, "talk": 3,
    ...                               "talks": 2, "talked": 2}, corpus_weight=0.5)
    >>> seg["walked"], seg["talks"]
    (['walk', 'ed'], ['talk', 's'])
    """
    trainer = _Trainer(words, corpus_weight)
    rng = random.Random(seed)
    order = sorted(words)
    previous = trainer.cost.total()
    for epoch in range(1, max_epochs + 1):
        rng.shuffle(order)
        for word in order:
            trainer.optimize(word)
        now = trainer.cost.total()
        if progress is not None:
            progress(epoch, now)
        if previous - now < tolerance * len(words):
            break
        previous = now
    return dict(trainer.cost.counts), {w: trainer.segment(w) for w in words}
