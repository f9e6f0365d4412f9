"""Pure-Python WordPiece likelihood training loop: merge the pair that most raises likelihood.

The score of a pair is ``freq(ab) / (freq(a) * freq(b))``: how much more often ``a`` and
``b`` occur together than two independent tokens would (the criterion of Schuster & Nakajima
and of the BERT WordPiece description). Frequencies are of the current segmentation and are
updated incrementally after each merge, like the pair counts; the corpus is never recounted.

The queue is lazy: an entry is checked against the current score when it is popped and
pushed back when it changed. Because a merge lowers ``freq(a)`` and ``freq(b)``, which
*raises* the score of every other pair containing ``a`` or ``b``, those pairs get fresh
entries after each merge, so the popped entry is always the true best. Ties go to the pair
with the smallest ``(left_id, right_id)``.

Not handled here: the alphabet and the ``##`` variants (``codetok.trainers.wordpiece``).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

Pair = tuple[int, int]
#: One learned merge: ``(left_id, right_id, new_id, score, count)``.
LikelihoodRecord = tuple[int, int, int, float, int]


def train_likelihood(
    words: list[list[int]],
    counts: list[int],
    id_to_word: list[str],
    word_to_id: dict[str, int],
    *,
    vocab_size: int,
    min_frequency: int = 0,
    prefix: str | None = None,
    on_merge: Callable[[int], None] | None = None,
) -> list[LikelihoodRecord]:
    """Merge the best-scoring pair until the vocabulary holds ``vocab_size`` tokens.

    Args:
        words: each word as a list of symbol ids; merged in place.
        counts: how often each word occurs.
        id_to_word, word_to_id: the token tables; new tokens are appended.
        vocab_size: stop when the vocabulary reaches this size.
        min_frequency: pairs occurring fewer times than this are never merged.
        prefix: the continuing-subword prefix, stripped from the right token of a merge.
        on_merge: called with the number of merges done after each one.

    Returns:
        The merges in order as ``(left_id, right_id, new_id, score, count)``.

    >>> i2w = ["u", "n", "h", "g"]
    >>> w2i = {t: i for i, t in enumerate(i2w)}
    >>> recs = train_likelihood([[0, 1], [2, 0, 3]], [4, 1], i2w, w2i, vocab_size=5)
    >>> i2w[recs[0][2]], round(recs[0][3], 3)
    ('un', 0.2)
    """
    pairs = _Pairs(words, counts, len(id_to_word))
    pair_counts, freq, score = pairs.counts, pairs.freq, pairs.score
    heap = [(-score(p), p[0], p[1]) for p, c in pair_counts.items() if c > 0]
    heapq.heapify(heap)
    cut = len(prefix) if prefix else 0
    records: list[LikelihoodRecord] = []
    floor = max(1, min_frequency)
    while len(word_to_id) < vocab_size and heap:
        neg, a, b = heapq.heappop(heap)
        p = (a, b)
        cur = pair_counts.get(p, 0)
        if cur < floor:
            continue
        s = score(p)
        if s != -neg:
            heapq.heappush(heap, (-s, a, b))
            continue
        part_b = id_to_word[b]
        if cut and part_b.startswith(prefix):  # type: ignore[arg-type]
            part_b = part_b[cut:]
        new_token = id_to_word[a] + part_b
        new_id = word_to_id.get(new_token)
        if new_id is None:
            new_id = len(id_to_word)
            id_to_word.append(new_token)
            word_to_id[new_token] = new_id
            freq.append(0)
        records.append((a, b, new_id, s, cur))
        touched = pairs.merge(words, counts, a, b, new_id)
        for q in touched:
            if pair_counts.get(q, 0) >= floor and freq[q[0]] > 0 and freq[q[1]] > 0:
                heapq.heappush(heap, (-score(q), q[0], q[1]))
        if on_merge is not None:
            on_merge(len(records))
    return records


class _Pairs:
    """What the likelihood score reads (pair counts, token frequencies) and where each
    pair occurs, kept current as merges rewrite the words."""

    def __init__(self, words: list[list[int]], counts: list[int], n_tokens: int) -> None:
        self.freq = [0] * n_tokens
        self.counts: dict[Pair, int] = {}
        self.where: dict[Pair, set[int]] = {}
        self.pairs_with: dict[int, set[Pair]] = {}
        pair_counts, pc_get, freq = self.counts, self.counts.get, self.freq
        for i, w in enumerate(words):
            c = counts[i]
            for t in w:
                freq[t] += c
            for p in zip(w, w[1:]):
                pair_counts[p] = pc_get(p, 0) + c
                self.note(p, i)

    def note(self, p: Pair, i: int) -> None:
        """Record that pair ``p`` occurs in word ``i``."""
        s = self.where.get(p)
        if s is None:
            self.where[p] = {i}
            self.pairs_with.setdefault(p[0], set()).add(p)
            self.pairs_with.setdefault(p[1], set()).add(p)
        else:
            s.add(i)

    def score(self, p: Pair) -> float:
        """WordPiece's likelihood score: the pair's count over its tokens' frequencies."""
        return self.counts[p] / (self.freq[p[0]] * self.freq[p[1]])

    def merge(self, words: list[list[int]], counts: list[int], a: int, b: int, new_id: int) -> set[Pair]:  # fmt: skip
        """Replace ``(a, b)`` by ``new_id`` in every word holding it; returns the pairs whose
        score changed (new neighbours, and every pair with ``a`` or ``b``, whose frequency
        went down), which need fresh queue entries."""
        pair_counts, pc_get, freq, note = self.counts, self.counts.get, self.freq, self.note
        p = (a, b)
        touched: set[Pair] = set()
        for i in self.where.pop(p, ()):
            w = words[i]
            n = len(w)
            c = counts[i]
            j = 0
            out: list[int] | None = None
            while j < n:
                if w[j] == a and j + 1 < n and w[j + 1] == b:
                    if out is None:
                        out = w[:j]
                    if out:
                        prev = out[-1]
                        pair_counts[(prev, a)] -= c
                        q = (prev, new_id)
                        pair_counts[q] = pc_get(q, 0) + c
                        note(q, i)
                        touched.add(q)
                    if j + 2 < n:
                        nxt = w[j + 2]
                        pair_counts[(b, nxt)] -= c
                        q = (new_id, nxt)
                        pair_counts[q] = pc_get(q, 0) + c
                        note(q, i)
                        touched.add(q)
                    pair_counts[p] -= c
                    freq[a] -= c
                    freq[b] -= c
                    freq[new_id] += c
                    out.append(new_id)
                    j += 2
                else:
                    if out is not None:
                        out.append(w[j])
                    j += 1
            if out is not None:
                words[i] = out
        # Scores of pairs with a or b went up (their freq went down): fresh entries.
        for t in (a, b):
            pw = self.pairs_with.get(t)
            if pw:
                pw.difference_update([q for q in pw if pair_counts.get(q, 0) <= 0])
                touched.update(pw)
        return touched
