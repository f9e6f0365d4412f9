"""Pure-Python Unigram kernels: Viterbi best path, n-best paths and path sampling.

These are the flat loops a native kernel replaces (DESIGN.md, "Engine boundary"). The
lattice over a piece has one node per vocabulary piece found at each char position (looked
up in a :class:`PieceTrie`, one step per char), plus an unknown node of score ``unk_score``
for a char that no one-char piece covers.
Paths are returned as ``(starts, ids)``: node ``k`` covers ``text[starts[k]:starts[k + 1]]``.

Not handled here: fusing unknowns, byte fallback, offsets, caching (see
:mod:`codetok.models.unigram`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

#: A path: char start of each node and the node's id (``unk_id`` for unknown chars).
Path = tuple[list[int], list[int]]


class MissingUnknown(LookupError):
    """A char of the text cannot be covered and there is no unknown id."""


class PieceTrie:
    """Every vocabulary piece in a trie over chars, as the native kernel holds them.

    Node 0 is the root; ``edges[node << 21 | ord(c)]`` is the child of ``node`` by the char
    ``c`` and ``ids[node]`` the id of the piece that ends there, or ``-1``. Memory is linear
    in the pieces' total length (a dict of every prefix of every piece is quadratic in the
    length of a piece: 1.5 GB for one 40k-char piece), and walking the pieces at a position
    costs one lookup per char (slicing ``text[s:e]`` for each ``e`` would cost its length).

    Args:
        pieces: the pieces by id; for a piece listed twice the last id wins, as in HF.

    >>> trie = PieceTrie(["a", "ab", "b"])
    >>> list(trie.matches("abab", 0))
    [(1, 0), (2, 1)]
    """

    __slots__ = ("edges", "ids")

    def __init__(self, pieces: Sequence[str]) -> None:
        self.edges: dict[int, int] = {}
        self.ids: list[int] = [-1]
        for tid, piece in enumerate(pieces):
            if not piece:
                continue
            node = 0
            for c in piece:
                key = node << 21 | ord(c)
                child = self.edges.get(key)
                if child is None:
                    child = self.edges[key] = len(self.ids)
                    self.ids.append(-1)
                node = child
            self.ids[node] = tid

    def matches(self, text: str, start: int) -> Iterator[tuple[int, int]]:
        """``(end, id)`` of each piece equal to ``text[start:end]``, shortest first."""
        edges, ids = self.edges, self.ids
        node = 0
        for e in range(start, len(text)):
            child = edges.get(node << 21 | ord(text[e]))
            if child is None:
                return
            node = child
            tid = ids[node]
            if tid >= 0:
                yield e + 1, tid


def viterbi(
    text: str, trie: PieceTrie, scores: Sequence[float], unk_id: int, unk_score: float
) -> Path:
    """Best-scoring segmentation of ``text``; ``unk_id < 0`` means there is no unknown id.

    Ties keep the first candidate found (shorter pieces first, the unknown node last).

    Raises:
        MissingUnknown: the best path needs an unknown node and ``unk_id < 0``.
    """
    n = len(text)
    best = [0.0] * (n + 1)
    back = [-1] * (n + 1)
    node = [0] * (n + 1)
    get, piece_ids = trie.edges.get, trie.ids
    codes = list(map(ord, text))
    for s in range(n):
        base = best[s]
        single = False
        at: int | None = 0  # the walk of PieceTrie.matches, inlined (the hot loop)
        e = s
        while e < n:
            at = get(at << 21 | codes[e])
            if at is None:
                break
            e += 1
            tid = piece_ids[at]
            if tid < 0:
                continue
            score = base + scores[tid]
            if back[e] < 0 or score > best[e]:
                best[e] = score
                back[e] = s
                node[e] = tid
            if e == s + 1:
                single = True
        if not single:
            score = base + unk_score
            if back[s + 1] < 0 or score > best[s + 1]:
                if unk_id < 0:
                    raise MissingUnknown(s)
                best[s + 1] = score
                back[s + 1] = s
                node[s + 1] = unk_id
    starts: list[int] = []
    ids: list[int] = []
    e = n
    while e > 0:
        starts.append(back[e])
        ids.append(node[e])
        e = back[e]
    starts.reverse()
    ids.reverse()
    return starts, ids


def lattice(
    text: str, trie: PieceTrie, scores: Sequence[float], unk_id: int, unk_score: float
) -> list[list[tuple[int, int, float]]]:
    """Nodes grouped by end position: ``ends[e]`` lists ``(start, id, score)``."""
    n = len(text)
    ends: list[list[tuple[int, int, float]]] = [[] for _ in range(n + 1)]
    for s in range(n):
        single = False
        for e, tid in trie.matches(text, s):
            ends[e].append((s, tid, scores[tid]))
            if e == s + 1:
                single = True
        if not single and unk_id >= 0:
            ends[s + 1].append((s, unk_id, unk_score))
    return ends


def nbest(
    text: str,
    trie: PieceTrie,
    scores: Sequence[float],
    unk_id: int,
    unk_score: float,
    n: int,
) -> list[tuple[Path, float]]:
    """The ``n`` best segmentations with their scores, best first (exact k-best DP).

    Raises:
        MissingUnknown: no segmentation exists (a char is uncovered and ``unk_id < 0``).
    """
    size = len(text)
    if n <= 0:
        return []
    if size == 0:
        return [(([], []), 0.0)]
    import heapq

    ends = lattice(text, trie, scores, unk_id, unk_score)
    # kbest[e]: up to n entries (score, start, rank of the entry at start, id), best first.
    kbest: list[list[tuple[float, int, int, int]]] = [[] for _ in range(size + 1)]
    kbest[0] = [(0.0, -1, -1, -1)]
    for e in range(1, size + 1):
        cands = [
            (entry[0] + score, s, rank, tid)
            for s, tid, score in ends[e]
            for rank, entry in enumerate(kbest[s])
        ]
        kbest[e] = heapq.nlargest(n, cands, key=lambda c: c[0])
    if not kbest[size]:
        raise MissingUnknown(size)
    out: list[tuple[Path, float]] = []
    for entry in kbest[size]:
        starts: list[int] = []
        ids: list[int] = []
        cur = entry
        while cur[1] >= 0:
            starts.append(cur[1])
            ids.append(cur[3])
            cur = kbest[cur[1]][cur[2]]
        starts.reverse()
        ids.reverse()
        out.append(((starts, ids), entry[0]))
    return out


def sample(
    text: str,
    trie: PieceTrie,
    scores: Sequence[float],
    unk_id: int,
    unk_score: float,
    theta: float,
    rand: Callable[[], float],
) -> Path:
    """Draw a segmentation with probability proportional to ``exp(theta * score)``.

    Forward filtering (log-sum-exp of path weights into each position), then backward
    sampling of one incoming node at a time.

    Raises:
        MissingUnknown: no segmentation exists.
    """
    size = len(text)
    if size == 0:
        return [], []
    ends = lattice(text, trie, scores, unk_id, unk_score)
    neg_inf = -math.inf
    alpha = [neg_inf] * (size + 1)
    alpha[0] = 0.0
    for e in range(1, size + 1):
        terms = [alpha[s] + theta * score for s, _, score in ends[e] if alpha[s] > neg_inf]
        if terms:
            top = max(terms)
            alpha[e] = top + math.log(math.fsum(math.exp(t - top) for t in terms))
    if alpha[size] == neg_inf:
        raise MissingUnknown(size)
    starts: list[int] = []
    ids: list[int] = []
    e = size
    while e > 0:
        nodes = [(s, tid, score) for s, tid, score in ends[e] if alpha[s] > neg_inf]
        weights = [math.exp(alpha[s] + theta * score - alpha[e]) for s, _, score in nodes]
        r = rand() * math.fsum(weights)
        chosen = nodes[-1]
        acc = 0.0
        for node, w in zip(nodes, weights, strict=True):
            acc += w
            if r < acc:
                chosen = node
                break
        starts.append(chosen[0])
        ids.append(chosen[1])
        e = chosen[0]
    starts.reverse()
    ids.reverse()
    return starts, ids


def sample_nbest(
    candidates: Sequence[tuple[Path, float]], theta: float, rand: Callable[[], float]
) -> Path:
    """Pick one of ``candidates`` with probability proportional to ``exp(theta * score)``."""
    top = max(score for _, score in candidates)
    weights = [math.exp(theta * (score - top)) for _, score in candidates]
    r = rand() * math.fsum(weights)
    acc = 0.0
    for (path, _), w in zip(candidates, weights, strict=True):
        acc += w
        if r < acc:
            return path
    return candidates[-1][0]


class UnigramCore:
    """One model's Viterbi kernel; twin of the native ``UnigramCore``.

    Args:
        pieces: vocabulary pieces by id.
        scores: their scores.
        unk_id: id of the unknown piece, or ``-1``.
        unk_score: score of an unknown char.
    """

    def __init__(
        self, pieces: Sequence[str], scores: Sequence[float], *, unk_id: int, unk_score: float
    ) -> None:
        self._trie = PieceTrie(pieces)
        self._scores = list(scores)
        self._unk_id = unk_id
        self._unk_score = unk_score

    def viterbi(self, piece: str) -> Path | None:
        """Best path of ``piece``; ``None`` when it needs an unknown node and there is none."""
        try:
            return viterbi(piece, self._trie, self._scores, self._unk_id, self._unk_score)
        except MissingUnknown:
            return None

    def viterbi_batch(self, pieces: Sequence[str]) -> list[Path | None]:
        """:meth:`viterbi` of each piece."""
        return [self.viterbi(p) for p in pieces]
