"""The two-part code length (MDL cost) of a morph lexicon and a corpus segmented with it.

Morfessor Baseline (Creutz & Lagus 2002; Virpioja et al. 2013, "Morfessor 2.0") chooses the
segmentation of a word list that makes the whole description shortest. :class:`MorphCost`
keeps that length up to date while morph counts change one at a time, so a trainer can try
a split, read the total, and undo it. All lengths are in nats.

With ``K`` morph types, morph ``m`` used ``c(m)`` times (``N`` tokens in all) and ``W`` word
tokens (each word ends with a boundary symbol, used ``W`` times):

- **corpus**: every morph token and boundary coded with its maximum-likelihood probability,
  ``-sum_m c(m) log(c(m) / (N + W)) - W log(W / (N + W))``; multiplied by the corpus
  weight ``alpha`` (more than 1 favours fewer, longer morphs, less than 1 more splitting);
- **lexicon strings**: the letters of every morph type, plus one end-of-morph symbol each,
  coded with the letter frequencies of the lexicon itself;
- **counts**: the number of ways to give ``N`` tokens to ``K`` types with at least one each,
  ``log C(N - 1, K - 1)`` (the uniform prior over count vectors);
- **order**: ``-log K!``, because the order in which the lexicon lists its morphs carries no
  information.

What this module leaves out: how splits are searched (:mod:`codetok.text.morphemes.training`) and
how new words are segmented (:mod:`codetok.text.morphemes.model`).
"""

from __future__ import annotations

from math import lgamma, log

__all__ = ["MorphCost", "xlogx"]


def xlogx(x: float) -> float:
    """``x * log(x)``, with ``0 log 0 = 0``.

    >>> xlogx(0), round(xlogx(2), 4)
    (0, 1.3863)
    """
    return x * log(x) if x > 0 else 0


class MorphCost:
    """Morph counts and the running sums their code length needs (module docstring).

    Args:
        corpus_weight: ``alpha``, the weight of the corpus part (positive).
        word_tokens: ``W``, the number of word tokens (the sum of the word counts).

    >>> cost = MorphCost(1.0, word_tokens=2)
    >>> cost.add("walk", 2)
    >>> one = cost.total()
    >>> cost.add("walk", -2); cost.add("wal", 2); cost.add("k", 2)
    >>> cost.total() > one    # two morphs per word and a longer lexicon: worse
    True
    """

    __slots__ = (
        "alpha",
        "words",
        "counts",
        "tokens",
        "clogc",
        "letters",
        "letter_tokens",
        "llogl",
    )

    def __init__(self, corpus_weight: float, word_tokens: int) -> None:
        self.alpha = float(corpus_weight)
        self.words = word_tokens
        #: morph -> token count (types with a positive count only)
        self.counts: dict[str, int] = {}
        self.tokens = 0  # N
        self.clogc = 0.0  # sum of c log c over morph types
        #: letter -> occurrences in the lexicon's morph types
        self.letters: dict[str, int] = {}
        self.letter_tokens = 0  # L
        self.llogl = 0.0  # sum of l log l over letters

    def add(self, morph: str, delta: int) -> None:
        """Change the token count of ``morph`` by ``delta`` (a type appears at 0 -> positive
        and leaves at positive -> 0)."""
        counts = self.counts
        old = counts.get(morph, 0)
        new = old + delta
        self.tokens += delta
        self.clogc += (new * log(new) if new > 0 else 0) - (old * log(old) if old > 0 else 0)
        if new > 0:
            counts[morph] = new
            if old == 0:
                self._letters(morph, 1)
        else:
            if new < 0:
                raise ValueError(f"morph {morph!r} count would become {new}")
            del counts[morph]
            if old > 0:
                self._letters(morph, -1)

    def _letters(self, morph: str, sign: int) -> None:
        letters = self.letters
        llogl = self.llogl
        for ch in morph:
            old = letters.get(ch, 0)
            new = old + sign
            llogl += (new * log(new) if new > 0 else 0) - (old * log(old) if old > 0 else 0)
            if new:
                letters[ch] = new
            else:
                del letters[ch]
        self.llogl = llogl
        self.letter_tokens += sign * len(morph)

    def corpus_cost(self) -> float:
        """The corpus part, before the corpus weight."""
        total = self.tokens + self.words
        return xlogx(total) - self.clogc - xlogx(self.words)

    def lexicon_cost(self) -> float:
        """Letters and end symbols of the morph types, count prior and order term."""
        k = len(self.counts)
        if k == 0:
            return 0.0
        symbols = self.letter_tokens + k
        strings = xlogx(symbols) - self.llogl - xlogx(k)
        counts = lgamma(self.tokens) - lgamma(k) - lgamma(self.tokens - k + 1)
        return strings + counts - lgamma(k + 1)

    def total(self) -> float:
        """The whole code length: ``alpha * corpus + lexicon``."""
        return self.alpha * self.corpus_cost() + self.lexicon_cost()
