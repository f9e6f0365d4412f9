"""Pure-Python Unigram training: EM steps, pruning losses and the loop that runs them.

Flat functions over plain data (DESIGN.md, "Engine boundary"): words and their counts,
pieces as ``{piece: index}`` with a parallel list of scores (log probabilities). The rules
of the options, required chars and finalization live in :mod:`codetok.trainers.unigram`; the
seed vocabulary comes from :mod:`codetok.reference.unigram_seeds`.

The algorithm is SentencePiece's unigram trainer:

- a *lattice* of a word holds every vocabulary piece found in it (a char no piece covers
  becomes an unknown node scored ``unk_score``);
- the E step runs forward-backward on each lattice and adds ``count * marginal`` to each
  piece's expected count; the M step turns counts into scores with the digamma function
  (a Bayesian, Dirichlet-smoothed EM) and drops pieces expected fewer than 0.5 times;
- pruning scores each piece by how much the corpus likelihood drops when the piece is
  removed and its Viterbi occurrences are re-segmented by its best alternative, and keeps
  the ``shrinking_factor`` share that would cost the most.

This is the oracle of the native loop (codetok/_native/train/unigram_train.cpp), which gives the
same pieces and bit-identical scores: every float sum here is an explicit loop in a fixed
order (``sum()`` of floats is compensated from Python 3.12 on), and the native E step adds
its threads' contributions in this word order.

Not handled here: required chars, the seed vocabulary, finalization.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from codetok.reference.unigram_seeds import seed_pieces

#: One lattice node: ``(start, end, piece_index)``; index ``-1`` is an unknown char.
Node = tuple[int, int, int]


def digamma(x: float) -> float:
    """The digamma function (derivative of log-gamma), by recurrence and asymptotic series.

    >>> round(digamma(1.0), 6)
    -0.577216
    """
    result = 0.0
    while x < 7.0:
        result -= 1.0 / x
        x += 1.0
    x -= 0.5
    inv = 1.0 / x
    inv2 = inv * inv
    inv4 = inv2 * inv2
    return (
        result
        + math.log(x)
        + inv2 / 24.0
        - 7.0 / 960.0 * inv4
        + 31.0 / 8064.0 * inv4 * inv2
        - 127.0 / 30720.0 * inv4 * inv4
    )


def prefix_set(pieces: Iterable[str]) -> set[str]:
    """All non-empty prefixes of the pieces (lets the lattice stop extending early)."""
    out: set[str] = set()
    for p in pieces:
        for k in range(1, len(p) + 1):
            out.add(p[:k])
    return out


def lattice(
    word: str, index: dict[str, int], prefixes: set[str], max_len: int, with_unk: bool = True
) -> list[list[Node]]:
    """Nodes of ``word`` grouped by start position: every piece of ``index`` found in it.

    >>> lattice("ab", {"a": 0, "b": 1, "ab": 2}, {"a", "b", "ab"}, 16)
    [[(0, 1, 0), (0, 2, 2)], [(1, 2, 1)]]
    """
    n = len(word)
    starts: list[list[Node]] = []
    for i in range(n):
        nodes: list[Node] = []
        stop = min(n, i + max_len)
        j = i + 1
        while j <= stop:
            s = word[i:j]
            if s not in prefixes:
                break
            pid = index.get(s)
            if pid is not None:
                nodes.append((i, j, pid))
            j += 1
        if with_unk and (not nodes or nodes[0][1] != i + 1):
            nodes.insert(0, (i, i + 1, -1))
        starts.append(nodes)
    return starts


def _logaddexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    if a > b:
        return a + math.log1p(math.exp(b - a))
    return b + math.log1p(math.exp(a - b))


def _e_step_log(
    word: str,
    c: float,
    index: dict[str, int],
    scores: list[float],
    prefixes: set[str],
    max_len: int,
    unk_score: float,
    expected: list[float],
) -> float:
    """Forward-backward in log space for one (long) word; returns log Z."""
    n = len(word)
    starts = lattice(word, index, prefixes, max_len)
    ninf = -math.inf
    alpha = [ninf] * (n + 1)
    alpha[0] = 0.0
    for i in range(n):
        a = alpha[i]
        if a == ninf:
            continue
        for _, j, pid in starts[i]:
            alpha[j] = _logaddexp(alpha[j], a + (scores[pid] if pid >= 0 else unk_score))
    z = alpha[n]
    beta = [ninf] * (n + 1)
    beta[n] = 0.0
    for i in range(n - 1, -1, -1):
        b = ninf
        for _, j, pid in starts[i]:
            b = _logaddexp(b, beta[j] + (scores[pid] if pid >= 0 else unk_score))
        beta[i] = b
    for i in range(n):
        a = alpha[i]
        for _, j, pid in starts[i]:
            if pid >= 0:
                expected[pid] += c * math.exp(a + scores[pid] + beta[j] - z)
    return z


#: Longest word handled in linear space (longer ones use the log-space version).
_LINEAR_MAX_CHARS = 80


def e_step(
    words: list[str],
    counts: list[int],
    index: dict[str, int],
    scores: list[float],
    max_len: int,
    unk_score: float,
    on_word: Callable[[int], None] | None = None,
) -> tuple[list[float], float]:
    """Expected piece counts over the corpus (forward-backward on every word's lattice).

    Every path through a word covers all its chars, so multiplying each piece's probability
    by ``exp(k * len(piece))`` scales all paths alike and leaves the marginals unchanged; with
    ``k`` near the typical per-char cost, forward-backward runs in plain floats (no
    log-sum-exp). Words longer than 80 chars, or whose total weight leaves a safe range, use
    log space.

    Returns:
        ``(expected, objective)``: expected count per piece index and the negative
        log-likelihood per word occurrence.

    >>> exp, _ = e_step(["ab"], [2], {"a": 0, "b": 1, "ab": 2}, [-1.0, -1.0, -1.0], 16, -20)
    >>> [round(x, 3) for x in exp]
    [0.538, 0.538, 1.462]
    """
    expected = [0.0] * len(scores)
    prefixes = prefix_set(index)
    lens = [1] * len(scores)
    for p, i in index.items():
        lens[i] = len(p)
    # The mean per-char log probability of the pieces: a path's weight stays near 1.
    per_char = 0.0
    for sc, ln in zip(scores, lens):
        per_char += sc / ln
    k = -per_char / max(len(scores), 1)
    weight = [math.exp(sc + k * ln) for sc, ln in zip(scores, lens)]
    unk_w = math.exp(unk_score + k)
    objective = 0.0
    total = 0
    get = index.get
    log = math.log
    for w_i, word in enumerate(words):
        c = counts[w_i]
        total += c
        n = len(word)
        if n > _LINEAR_MAX_CHARS:
            objective -= c * _e_step_log(
                word, c, index, scores, prefixes, max_len, unk_score, expected
            )
            continue
        alpha = [0.0] * (n + 1)
        alpha[0] = 1.0
        nodes: list[tuple[int, int, int, float]] = []
        for i in range(n):
            a = alpha[i]
            stop = min(n, i + max_len)
            j = i + 1
            single = False
            while j <= stop:
                s = word[i:j]
                if s not in prefixes:
                    break
                pid = get(s)
                if pid is not None:
                    w = weight[pid]
                    nodes.append((i, j, pid, w))
                    alpha[j] += a * w
                    if j == i + 1:
                        single = True
                j += 1
            if not single:
                nodes.append((i, i + 1, -1, unk_w))
                alpha[i + 1] += a * unk_w
        z = alpha[n]
        if not 1e-200 < z < 1e200:  # out of the safe range: redo this word in log space
            objective -= c * _e_step_log(
                word, c, index, scores, prefixes, max_len, unk_score, expected
            )
            continue
        beta = [0.0] * (n + 1)
        beta[n] = 1.0
        for i, j, _, w in reversed(nodes):
            beta[i] += w * beta[j]
        scale = c / z
        for i, j, pid, w in nodes:
            if pid >= 0:
                expected[pid] += scale * alpha[i] * w * beta[j]
        objective -= c * (log(z) - k * n)
        if on_word is not None:
            on_word(w_i)
    return expected, objective / max(total, 1)


def viterbi(
    word: str,
    index: dict[str, int],
    scores: list[float],
    prefixes: set[str],
    max_len: int,
    unk_score: float,
    exclude: int = -2,
    with_unk: bool = True,
) -> list[int] | None:
    """Piece indices of the best segmentation of ``word`` (``None`` when there is none).

    ``exclude`` drops the node that spans the whole word with that piece index (the second
    best path of a piece is the best path without itself).

    >>> viterbi("ab", {"a": 0, "b": 1, "ab": 2}, [-1.0, -1.0, -1.5], {"a", "b", "ab"}, 16, -20)
    [2]
    """
    n = len(word)
    starts = lattice(word, index, prefixes, max_len, with_unk)
    best = [-math.inf] * (n + 1)
    back: list[Node | None] = [None] * (n + 1)
    best[0] = 0.0
    for i in range(n):
        a = best[i]
        if a == -math.inf:
            continue
        for node in starts[i]:
            _, j, pid = node
            if pid == exclude and i == 0 and j == n:
                continue
            s = a + (scores[pid] if pid >= 0 else unk_score)
            if s > best[j]:
                best[j] = s
                back[j] = node
    if back[n] is None:
        return None
    path: list[int] = []
    j = n
    while j > 0:
        node = back[j]
        assert node is not None
        path.append(node[2])
        j = node[0]
    path.reverse()
    return path


def prune_losses(
    pieces: list[str],
    scores: list[float],
    words: list[str],
    counts: list[int],
    max_len: int,
    unk_score: float,
) -> tuple[list[int], list[tuple[int, float]]]:
    """Which pieces must stay and the likelihood loss of removing each of the others.

    Returns:
        ``(keep, candidates)``: indices kept unconditionally (no alternative segmentation,
        e.g. single chars) and ``(index, loss)`` for removable pieces that the Viterbi
        segmentation of the corpus uses. Pieces neither kept nor candidates (unused, or not
        their own best segmentation) are dropped.
    """
    index = {p: i for i, p in enumerate(pieces)}
    prefixes = prefix_set(pieces)
    size = len(pieces)
    always_keep = [True] * size
    alternatives: list[list[int]] = [[] for _ in range(size)]
    for i, p in enumerate(pieces):
        best = viterbi(p, index, scores, prefixes, max_len, unk_score, with_unk=False)
        if best is None:
            continue
        if len(best) >= 2:
            always_keep[i] = False
            continue
        alt = viterbi(p, index, scores, prefixes, max_len, unk_score, exclude=i, with_unk=False)
        if alt is not None:
            alternatives[i] = alt
    freq = [0.0] * size
    inverted: list[list[int]] = [[] for _ in range(size)]
    vsum = 0.0
    for w_i, word in enumerate(words):
        c = counts[w_i]
        vsum += c
        path = viterbi(word, index, scores, prefixes, max_len, unk_score)
        for pid in path or ():
            if pid >= 0:
                freq[pid] += c
                inverted[pid].append(w_i)
    total = sum(freq)
    logsum = math.log(total) if total > 0 else 0.0
    keep: list[int] = []
    candidates: list[tuple[int, float]] = []
    log = math.log
    for i in range(size):
        if freq[i] == 0 or not always_keep[i]:
            continue
        alts = alternatives[i]
        if not alts:
            keep.append(i)
            continue
        f = sum(counts[w] for w in inverted[i]) / vsum
        logprob_sp = log(freq[i]) - logsum
        logsum_alt = log(total + freq[i] * (len(alts) - 1))
        logprob_alt = 0.0
        for a in alts:
            logprob_alt += log(freq[a] + freq[i]) - logsum_alt
        candidates.append((i, f * (logprob_sp - logprob_alt)))
    return keep, candidates


#: Pieces expected fewer times than this are dropped by the M step.
EXPECTED_FREQUENCY_THRESHOLD = 0.5
#: The unknown node scores this much below the worst piece.
UNK_PENALTY = 10.0


def m_step(pieces: list[str], expected: list[float]) -> tuple[list[str], list[float]] | None:
    """Scores from expected counts: ``digamma(count) - digamma(total)`` over the pieces
    expected at least 0.5 times (``None`` when there are none).

    >>> m_step(["a", "b"], [3.0, 0.25])[0]
    ['a']
    """
    kept = [(p, f) for p, f in zip(pieces, expected) if f >= EXPECTED_FREQUENCY_THRESHOLD]
    if not kept:
        return None
    total = 0.0
    for _, f in kept:
        total += f
    log_total = digamma(total)
    return [p for p, _ in kept], [digamma(f) - log_total for _, f in kept]


def prune(
    pieces: list[str],
    scores: list[float],
    words: list[str],
    counts: list[int],
    *,
    max_len: int,
    desired: int,
    shrinking_factor: float,
) -> tuple[list[str], list[float]]:
    """Keep the pieces that must stay, then the removable ones whose loss is highest, up to
    ``max(desired, int(shrinking_factor * len(pieces)))`` (equal losses: the smaller string
    first); the kept pieces stay in their order.
    """
    keep, candidates = prune_losses(
        pieces, scores, words, counts, max_len, min(scores) - UNK_PENALTY
    )
    target = max(desired, int(shrinking_factor * len(pieces)))
    chosen = list(keep)
    candidates.sort(key=lambda iv: (-iv[1], pieces[iv[0]]))
    for i, _ in candidates:
        if len(chosen) >= target:
            break
        chosen.append(i)
    chosen.sort()
    return [pieces[i] for i in chosen], [scores[i] for i in chosen]


def train_pieces(
    words: list[str],
    counts: list[int],
    required: list[tuple[str, int]],
    *,
    vocab_size: int,
    max_piece_length: int,
    seed_size: int,
    min_count: int,
    shrinking_factor: float,
    n_sub_iterations: int,
    whitespace_char: str,
    split_by_number: bool,
    on_step: Callable[[int], None] | None = None,
) -> tuple[list[str], list[float], list[float]]:
    """SentencePiece's unigram training loop, from the seed vocabulary to about
    ``1.1 * vocab_size`` pieces.

    Seed (:func:`codetok.reference.unigram_seeds.seed_pieces`), then repeat:
    ``n_sub_iterations`` rounds of E step and M step; stop when at most
    ``int(1.1 * vocab_size)`` pieces are left; else prune (stop when pruning removes
    nothing).

    Args:
        words: the distinct words, sorted.
        counts: how often each occurs.
        required: ``(char, frequency)`` pairs, most frequent first.
        vocab_size: the final vocabulary size the caller aims at.
        max_piece_length: longest piece, in chars.
        seed_size: how many substrings seed the vocabulary.
        min_count: fewest occurrences of a seed substring.
        shrinking_factor: share of pieces each pruning step keeps.
        n_sub_iterations: EM rounds between pruning steps.
        whitespace_char: the word-boundary marker (only allowed first in a piece).
        split_by_number: digits never share a piece with other chars.
        on_step: called with the number of pieces after seeding, after each EM round and
            after each pruning step.

    Returns:
        ``(pieces, scores, objectives)``: the pieces (required chars the EM kept first,
        then in seed order), their log probabilities, and the objective after each E step.

    >>> pieces, scores, _ = train_pieces(["▁ab"], [4], [("▁", 4), ("a", 4), ("b", 4)],
    ...     vocab_size=8, max_piece_length=16, seed_size=10, min_count=2,
    ...     shrinking_factor=0.75, n_sub_iterations=2, whitespace_char="▁",
    ...     split_by_number=True)
    >>> pieces
    ['▁ab']
    """
    pieces, scores = seed_pieces(
        words,
        counts,
        required,
        max_len=max_piece_length,
        seed_size=seed_size,
        min_count=min_count,
        whitespace_char=whitespace_char,
        split_by_number=split_by_number,
    )
    if on_step is not None:
        on_step(len(pieces))
    objectives: list[float] = []
    desired = int(vocab_size * 1.1)
    while True:
        for _ in range(n_sub_iterations):
            index = {p: i for i, p in enumerate(pieces)}
            unk = min(scores) - UNK_PENALTY
            expected, objective = e_step(words, counts, index, scores, max_piece_length, unk)
            objectives.append(objective)
            stepped = m_step(pieces, expected)
            if stepped is None:
                break
            pieces, scores = stepped
            if on_step is not None:
                on_step(len(pieces))
        if len(pieces) <= desired:
            break
        n_before = len(pieces)
        pieces, scores = prune(
            pieces,
            scores,
            words,
            counts,
            max_len=max_piece_length,
            desired=desired,
            shrinking_factor=shrinking_factor,
        )
        if on_step is not None:
            on_step(len(pieces))
        if len(pieces) >= n_before:
            break
    return pieces, scores, objectives
