"""Pure-Python Unigram training kernels: seed substrings, EM steps and pruning losses.

Flat functions over plain data (DESIGN.md, "Engine boundary"): words and their counts,
pieces as ``{piece: index}`` with a parallel list of scores (log probabilities). The rules
(options, required chars, special tokens, the outer loop) live in
:mod:`codetok.trainers.unigram`.

The algorithm is SentencePiece's unigram trainer:

- a *lattice* of a word holds every vocabulary piece found in it (a char no piece covers
  becomes an unknown node scored ``unk_score``);
- the E step runs forward-backward on each lattice and adds ``count * marginal`` to each
  piece's expected count; the M step (in the trainer) turns counts into scores with the
  digamma function (a Bayesian, Dirichlet-smoothed EM);
- pruning scores each piece by how much the corpus likelihood drops when the piece is
  removed and its Viterbi occurrences are re-segmented by its best alternative.

Not handled here: the outer loop, required chars, finalization.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

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
    k = -sum(sc / ln for sc, ln in zip(scores, lens)) / max(len(scores), 1)
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


def seed_substrings(
    words: list[str],
    counts: list[int],
    max_len: int,
    is_valid: Callable[[str], bool],
    min_count: int = 2,
) -> dict[str, int]:
    """Frequency of the branching substrings of 2..``max_len`` chars seen ``min_count``+ times.

    Substrings are counted inside words only (pieces never cross a word boundary), each
    occurrence weighted by the word's count. Counting goes by length (a substring can only be
    frequent when both its prefix and suffix one char shorter are), so memory stays close to
    the number of frequent substrings. ``is_valid`` filters the result (whitespace only as a
    prefix, no unknown chars...).

    >>> seed_substrings(["▁ab", "▁ab", "b"], [1, 1, 5], 16, lambda s: True)
    {'ab': 2, '▁ab': 2}
    """
    # Level 1: frequent chars and, per word, the positions where they start.
    level: dict[str, int] = {}
    get = level.get
    for w_i, word in enumerate(words):
        c = counts[w_i]
        for ch in word:
            level[ch] = get(ch, 0) + c
    frequent = {s for s, f in level.items() if f >= min_count}
    alive: list[list[int]] = [[i for i, ch in enumerate(word) if ch in frequent] for word in words]
    out: dict[str, int] = {}
    prev: dict[str, int] = {}
    for k in range(2, max_len + 1):
        level = {}
        get = level.get
        for w_i, word in enumerate(words):
            pos = alive[w_i]
            if not pos:
                continue
            c = counts[w_i]
            n = len(word)
            for i in pos:
                if i + k <= n and word[i + 1 : i + k] in frequent:
                    s = word[i : i + k]
                    level[s] = get(s, 0) + c
        frequent = {s for s, f in level.items() if f >= min_count}
        # A substring always followed by the same char (same count as that extension) is
        # not a node of the suffix tree; SentencePiece's suffix-array seeds skip it too.
        for t in frequent:
            head = t[:-1]
            if prev.get(head) == level[t]:
                out.pop(head, None)
        if not frequent:
            break
        for w_i, word in enumerate(words):
            pos = alive[w_i]
            if pos:
                alive[w_i] = [i for i in pos if word[i : i + k] in frequent]
        prev = {t: level[t] for t in frequent}
        for t in frequent:
            if is_valid(t):
                out[t] = level[t]
    return out
