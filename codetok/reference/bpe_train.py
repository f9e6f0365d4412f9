"""Pure-Python BPE training loop: pair counts, a lazy priority queue and incremental merges.

This is the flat kernel a native version replaces (DESIGN.md, "Engine boundary"). It takes
words as lists of symbol ids with their counts, the id <-> token tables and the options, and
returns the merges; options checking, the alphabet and the model live in
:mod:`codetok.trainers.bpe`.

The loop follows HF ``tokenizers``' ``BpeTrainer`` step by step, so both learn the same
merges:

- the queue is ordered by count (highest first), then by the pair of ids (lowest first);
- an entry whose count went stale is pushed back with the current count, and each entry
  carries the set of words where its pair was seen when it was pushed;
- a merge only updates the neighbouring pairs (``(prev, a)`` and ``(b, next)`` lose, the
  pairs with the new token gain); the corpus is never recounted;
- a new pair is only counted when the symbol lengths (in initial chars) add up to less than
  ``max_token_length`` (HF's rule, so a merged token is at most ``max_token_length - 1``
  chars long unless it comes from two initial chars);
- merging two tokens whose concatenation is already a token reuses that token's id.

Not handled here: word counting, the alphabet, special tokens, progress display.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

Pair = tuple[int, int]
#: One learned merge: ``(left_id, right_id, new_id, count)``.
MergeRecord = tuple[int, int, int, int]


def count_pairs(
    words: list[list[int]], counts: list[int]
) -> tuple[dict[Pair, int], dict[Pair, set[int]]]:
    """Count adjacent pairs over all words, weighted by word count, and where they occur."""
    pair_counts: dict[Pair, int] = {}
    where: dict[Pair, set[int]] = {}
    get = pair_counts.get
    for i, w in enumerate(words):
        if len(w) < 2:
            continue
        c = counts[i]
        for p in zip(w, w[1:]):
            pair_counts[p] = get(p, 0) + c
            s = where.get(p)
            if s is None:
                where[p] = {i}
            else:
                s.add(i)
    return pair_counts, where


def train_merges(
    words: list[list[int]],
    counts: list[int],
    id_to_word: list[str],
    word_to_id: dict[str, int],
    *,
    vocab_size: int,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    prefix: str | None = None,
    on_merge: Callable[[int], None] | None = None,
) -> list[MergeRecord]:
    """Learn merges until ``word_to_id`` holds ``vocab_size`` tokens or no pair qualifies.

    Args:
        words: each word as a list of symbol ids; merged in place.
        counts: how often each word occurs.
        id_to_word, word_to_id: the token tables; new tokens are appended.
        vocab_size: stop when the vocabulary reaches this size.
        min_frequency: stop when the best pair occurs fewer times than this.
        max_token_length: HF's length rule for new pairs (see the module docstring).
        prefix: the continuing-subword prefix, stripped from the right token of a merge.
        on_merge: called with the number of merges done after each one (progress).

    Returns:
        The merges in order, as ``(left_id, right_id, new_id, count)``. As in HF, a pair can
        be merged twice when it had two queue entries (the second merge reuses the token).

    >>> words = [[0, 1, 2], [0, 1]]
    >>> i2w = ["l", "o", "w"]
    >>> w2i = {t: i for i, t in enumerate(i2w)}
    >>> train_merges(words, [5, 2], i2w, w2i, vocab_size=5)
    [(0, 1, 3, 7), (3, 2, 4, 5)]
    >>> i2w
    ['l', 'o', 'w', 'lo', 'low']
    """
    max_len = max_token_length if max_token_length is not None else 1 << 62
    # Length (in initial symbols) of each token; a token string always has the same length.
    tok_len = [1] * len(id_to_word)
    pair_counts, where = count_pairs(words, counts)
    seq = 0
    heap: list[tuple[int, int, int, int, set[int]]] = []
    for p, pos in where.items():
        c = pair_counts[p]
        if c > 0:
            heap.append((-c, p[0], p[1], seq, pos))
            seq += 1
    heapq.heapify(heap)
    where = {}
    cut = len(prefix) if prefix else 0
    merges: list[MergeRecord] = []
    heappush = heapq.heappush
    heappop = heapq.heappop
    while len(word_to_id) < vocab_size and heap:
        neg, a, b, _, pos = heappop(heap)
        cur = pair_counts[(a, b)]
        if -neg != cur:
            heappush(heap, (-cur, a, b, seq, pos))
            seq += 1
            continue
        if cur < 1 or min_frequency > cur:
            break
        part_b = id_to_word[b]
        if cut and part_b.startswith(prefix):  # type: ignore[arg-type]
            part_b = part_b[cut:]
        new_token = id_to_word[a] + part_b
        new_id = word_to_id.get(new_token)
        if new_id is None:
            new_id = len(id_to_word)
            id_to_word.append(new_token)
            word_to_id[new_token] = new_id
            tok_len.append(tok_len[a] + tok_len[b])
        merges.append((a, b, new_id, cur))
        changed = _apply_merge(words, counts, pos, (a, b, new_id), tok_len, max_len, pair_counts)
        for p, s in changed.items():
            c = pair_counts[p]
            if c > 0:
                heappush(heap, (-c, p[0], p[1], seq, s))
                seq += 1
        if on_merge is not None:
            on_merge(len(merges))
    return merges


def _apply_merge(
    words: list[list[int]],
    counts: list[int],
    pos: set[int],
    merge: tuple[int, int, int],
    tok_len: list[int],
    max_len: int,
    pair_counts: dict[Pair, int],
) -> dict[Pair, set[int]]:
    """Replace pair ``(a, b)`` by ``new_id`` in the words at ``pos`` and update the pair
    counts around each replacement; returns the pairs that gained, with their words (the
    new queue entries)."""
    a, b, new_id = merge
    new_len = tok_len[new_id]
    pc_get = pair_counts.get
    changed: dict[Pair, set[int]] = {}
    for i in pos:
        w = words[i]
        n = len(w)
        if n < 2:
            continue
        c = counts[i]
        j = 0
        out: list[int] | None = None
        while j < n:
            if w[j] == a and j + 1 < n and w[j + 1] == b:
                if out is None:
                    out = w[:j]
                if out:
                    prev = out[-1]
                    p = (prev, a)
                    # May go negative under max_token_length, exactly as in HF.
                    pair_counts[p] = pc_get(p, 0) - c
                    if tok_len[prev] + new_len < max_len:
                        p = (prev, new_id)
                        pair_counts[p] = pc_get(p, 0) + c
                        s = changed.get(p)
                        if s is None:
                            changed[p] = {i}
                        else:
                            s.add(i)
                if j + 2 < n:
                    nxt = w[j + 2]
                    p = (b, nxt)
                    pair_counts[p] = pc_get(p, 0) - c
                    if tok_len[nxt] + new_len < max_len:
                        p = (new_id, nxt)
                        pair_counts[p] = pc_get(p, 0) + c
                        s = changed.get(p)
                        if s is None:
                            changed[p] = {i}
                        else:
                            s.add(i)
                out.append(new_id)
                j += 2
            else:
                if out is not None:
                    out.append(w[j])
                j += 1
        if out is not None:
            words[i] = out
    return changed
