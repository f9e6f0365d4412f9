"""Letter-to-phoneme alignment: which letters of a word spell which of its phonemes.

A pronunciation dictionary pairs a spelling with a phoneme string but does not say which
letters give which phonemes. This module finds that out, as a segmentation of the pair
into *graphones*: a chunk of letters together with the chunk of phonemes it spells, for
example ``p|F``, ``h|``, ``o|OW1``, ``n|N``, ``e|`` for ``phone``. The shapes allowed by
default are :data:`SHAPES`, (letters, phonemes) pairs: one letter is silent or gives one
or two phonemes (``x|K S``). Longer letter chunks (``ph|F``) are possible through the
``shapes`` argument; on CMUdict they made the G2P model slightly less accurate and
slower (``corpora/PROVENANCE.md``).

- :func:`train_alignment` learns how likely each graphone is with expectation-maximization
  over all segmentations of every dictionary entry (the forward-backward algorithm on the
  lattice of letter and phoneme positions), vectorized with numpy over words of one
  length.
- :func:`viterbi_alignments` segments every entry with the learned probabilities (the
  most likely segmentation).
- :func:`align` segments one entry in pure Python; the tokenizer uses it to give each
  dictionary phoneme the offsets of its letters.

The joint n-gram model of :mod:`.ngram` is trained on the segmentations. Not here: that
model, and how it predicts phonemes for new words (:mod:`.g2p`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ...errors import TrainingError

__all__ = ["SHAPES", "Graphone", "train_alignment", "viterbi_alignments", "shapes_of", "align"]

#: Allowed graphone shapes: (number of letters, number of phonemes).
SHAPES: tuple[tuple[int, int], ...] = ((1, 0), (1, 1), (1, 2))

#: A graphone: a chunk of letters and the phonemes it spells (possibly none).
Graphone = tuple[str, tuple[str, ...]]

Entry = tuple[str, Sequence[str]]


class _Inventory:
    """Ids of the letter chunks and phoneme chunks that occur in the entries."""

    def __init__(self, entries: Sequence[Entry], shapes: Sequence[tuple[int, int]]) -> None:
        self.shapes = tuple(shapes)
        self.letters: dict[str, int] = {}
        self.phones: dict[tuple[str, ...], int] = {(): 0}
        max_l = max(a for a, _ in shapes)
        max_p = max(b for _, b in shapes)
        for word, phones in entries:
            for i in range(len(word)):
                for a in range(1, max_l + 1):
                    if i + a <= len(word):
                        self.letters.setdefault(word[i : i + a], len(self.letters))
            ph = tuple(phones)
            for j in range(len(ph)):
                for b in range(1, max_p + 1):
                    if j + b <= len(ph):
                        self.phones.setdefault(ph[j : j + b], len(self.phones))
        self.letter_list = list(self.letters)
        self.phone_list = list(self.phones)

    def allowed(self) -> np.ndarray:
        """A (letter chunks + 1, phoneme chunks + 1) 0/1 matrix of the allowed shapes;
        the extra row and column are the zero-probability sentinels."""
        lens_l = np.array([len(c) for c in self.letter_list] + [0])
        lens_p = np.array([len(c) for c in self.phone_list] + [-1])
        mask = np.zeros((len(lens_l), len(lens_p)))
        for a, b in self.shapes:
            mask[np.ix_(lens_l == a, lens_p == b)] = 1.0
        return mask


class _Bucket:
    """The entries whose words have one length ``n``, as index arrays.

    ``g[w, i, a - 1]`` is the id of ``word[i : i + a]``; ``p[w, j, b]`` the id of
    ``phones[j : j + b]`` or the sentinel (zero probability) past the end.
    """

    def __init__(self, inv: _Inventory, entries: Sequence[Entry], rows: list[int], n: int):
        self.rows = rows
        self.n = n
        self.m = np.array([len(entries[r][1]) for r in rows])
        self.width = int(self.m.max()) + 1
        self.shapes = inv.shapes
        max_l = max(a for a, _ in inv.shapes)
        max_p = max(b for _, b in inv.shapes)
        sentinel_l, sentinel_p = len(inv.letters), len(inv.phones)
        self.g = np.full((len(rows), n, max_l), sentinel_l, dtype=np.int64)
        self.p = np.full((len(rows), self.width, max_p + 1), sentinel_p, dtype=np.int64)
        for w, r in enumerate(rows):
            word, phones = entries[r]
            ph = tuple(phones)
            for i in range(n):
                for a in range(1, max_l + 1):
                    if i + a <= n:
                        self.g[w, i, a - 1] = inv.letters[word[i : i + a]]
            for j in range(len(ph) + 1):
                for b in range(max_p + 1):
                    if j + b <= len(ph):
                        self.p[w, j, b] = inv.phones[ph[j : j + b]]

    def steps(self) -> Iterable[tuple[int, int, int, np.ndarray, np.ndarray]]:
        """``(i, a, b, letter ids (W, 1), phoneme ids (W, width - b))`` of every arc."""
        for i in range(self.n):
            for a, b in self.shapes:
                if i + a <= self.n:
                    yield i, a, b, self.g[:, i, a - 1][:, None], self.p[:, : self.width - b, b]

    def forward(self, theta: np.ndarray) -> np.ndarray:
        alpha = np.zeros((len(self.rows), self.n + 1, self.width))
        alpha[:, 0, 0] = 1.0
        for i, a, b, g, p in self.steps():
            alpha[:, i + a, b:] += alpha[:, i, : self.width - b] * theta[g, p]
        return alpha

    def backward(self, theta: np.ndarray) -> np.ndarray:
        beta = np.zeros((len(self.rows), self.n + 1, self.width))
        beta[np.arange(len(self.rows)), self.n, self.m] = 1.0
        for i, a, b, g, p in reversed(list(self.steps())):
            beta[:, i, : self.width - b] += theta[g, p] * beta[:, i + a, b:]
        return beta


def _buckets(inv: _Inventory, entries: Sequence[Entry]) -> list[_Bucket]:
    by_length: dict[int, list[int]] = {}
    for r, (word, _) in enumerate(entries):
        by_length.setdefault(len(word), []).append(r)
    return [_Bucket(inv, entries, rows, n) for n, rows in sorted(by_length.items())]


def train_alignment(
    entries: Sequence[Entry],
    *,
    iterations: int = 10,
    shapes: Sequence[tuple[int, int]] = SHAPES,
    log: bool = False,
) -> dict[Graphone, float]:
    """Learn graphone probabilities from dictionary entries by expectation-maximization.

    Every way of cutting an entry into graphones of the :data:`SHAPES` counts, weighted by
    its probability under the current estimate (starting from uniform); the expected
    counts, normalized over all graphones, are the next estimate.

    Args:
        entries: ``(word, phonemes)`` pairs (a word with several pronunciations appears
            once per pronunciation).
        iterations: EM iterations.
        shapes: the allowed graphone shapes, (letters, phonemes) pairs.
        log: print the log-likelihood after each iteration.

    Returns:
        Graphone -> probability (graphones with a zero probability are left out).

    Raises:
        TrainingError: no entry can be cut into the allowed shapes.

    >>> theta = train_alignment([("ax", ["AE1", "K", "S"]), ("a", ["AE1"])], iterations=3)
    >>> max(theta, key=theta.get)
    ('a', ('AE1',))
    """
    entries = [(w, tuple(p)) for w, p in entries if w]
    inv = _Inventory(entries, shapes)
    buckets = _buckets(inv, entries)
    allowed = inv.allowed()
    theta = allowed / allowed.sum()
    cols = allowed.shape[1]
    for it in range(iterations):
        counts = np.zeros(allowed.size)
        loglik = 0.0
        used = 0
        for bk in buckets:
            alpha = bk.forward(theta)
            beta = bk.backward(theta)
            z = alpha[np.arange(len(bk.rows)), bk.n, bk.m]
            ok = z > 0
            used += int(ok.sum())
            loglik += float(np.log(z[ok]).sum())
            inv_z = np.where(ok, 1.0 / np.where(ok, z, 1.0), 0.0)[:, None]
            keys, weights = [], []
            for i, a, b, g, p in bk.steps():
                gamma = alpha[:, i, : bk.width - b] * theta[g, p] * beta[:, i + a, b:] * inv_z
                nz = gamma > 0
                keys.append((g * cols + p)[nz])
                weights.append(gamma[nz])
            if keys:
                counts += np.bincount(
                    np.concatenate(keys), np.concatenate(weights), minlength=allowed.size
                )
        total = counts.sum()
        if total <= 0:
            raise TrainingError(
                "no dictionary entry can be cut into graphones of the allowed shapes "
                f"{tuple(shapes)}; pass (word, phonemes) pairs with at most 2 phonemes per letter"
            )
        theta = (counts / total).reshape(allowed.shape)
        if log:
            print(
                f"alignment EM {it + 1}/{iterations}: log-likelihood {loglik:.1f} ({used} entries)"
            )
    nz_l, nz_p = np.nonzero(theta[:-1, :-1])
    return {
        (inv.letter_list[i], inv.phone_list[j]): float(theta[i, j])
        for i, j in zip(nz_l.tolist(), nz_p.tolist())
    }


def viterbi_alignments(
    entries: Sequence[Entry], theta: Mapping[Graphone, float]
) -> list[list[Graphone] | None]:
    """The most likely graphone segmentation of each entry under ``theta``.

    Args:
        entries: ``(word, phonemes)`` pairs.
        theta: graphone probabilities from :func:`train_alignment`.

    Returns:
        One graphone list per entry, in order; ``None`` for an entry that cannot be cut
        into graphones of ``theta``.

    >>> theta = {("a", ("AE1",)): 0.5, ("x", ("K", "S")): 0.5}
    >>> viterbi_alignments([("ax", ["AE1", "K", "S"])], theta)
    [[('a', ('AE1',)), ('x', ('K', 'S'))]]
    """
    entries = [(w, tuple(p)) for w, p in entries]
    inv = _Inventory(entries, shapes_of(theta))
    score = np.full((len(inv.letters) + 1, len(inv.phones) + 1), -np.inf)
    for (g, p), prob in theta.items():
        i, j = inv.letters.get(g), inv.phones.get(p)
        if i is not None and j is not None and prob > 0:
            score[i, j] = math.log(prob)
    out: list[list[Graphone] | None] = [None] * len(entries)
    for bk in _buckets(inv, entries):
        rows = len(bk.rows)
        delta = np.full((rows, bk.n + 1, bk.width), -np.inf)
        delta[:, 0, 0] = 0.0
        back = np.full((rows, bk.n + 1, bk.width), -1, dtype=np.int8)
        for i in range(bk.n):
            for k, (a, b) in enumerate(bk.shapes):
                if i + a > bk.n:
                    continue
                g = bk.g[:, i, a - 1][:, None]
                p = bk.p[:, : bk.width - b, b]
                cand = delta[:, i, : bk.width - b] + score[g, p]
                target = delta[:, i + a, b:]
                better = cand > target
                target[better] = cand[better]
                back[:, i + a, b:][better] = k
        for w, r in enumerate(bk.rows):
            i, j = bk.n, int(bk.m[w])
            if back[w, i, j] < 0:
                continue
            word, phones = entries[r]
            path: list[Graphone] = []
            while i > 0 or j > 0:
                a, b = bk.shapes[back[w, i, j]]
                path.append((word[i - a : i], tuple(phones[j - b : j])))
                i, j = i - a, j - b
            path.reverse()
            out[r] = path
    return out


def shapes_of(graphones: Iterable[Graphone]) -> tuple[tuple[int, int], ...]:
    """The distinct (letters, phonemes) shapes of ``graphones``, sorted.

    >>> shapes_of([("ph", ("F",)), ("x", ("K", "S")), ("o", ("OW1",))])
    ((1, 1), (1, 2), (2, 1))
    """
    return tuple(sorted({(len(g), len(p)) for g, p in graphones}))


def align(
    word: str,
    phonemes: Sequence[str],
    scores: Mapping[Graphone, float],
    shapes: Sequence[tuple[int, int]] | None = None,
) -> list[tuple[int, int]] | None:
    """The letter span of each phoneme in the best segmentation of one entry.

    Pure Python dynamic programming over the letter/phoneme lattice, for one short word.

    Args:
        word: the spelling.
        phonemes: its pronunciation.
        scores: graphone -> log-probability (higher is more likely).
        shapes: the shapes of the graphones in ``scores`` (:func:`shapes_of`; computed
            when not given).

    Returns:
        One ``(start, end)`` letter span per phoneme (two phonemes of one letter share it),
        or ``None`` when no segmentation uses only graphones of ``scores``.

    >>> s = {("ph", ("F",)): -1.0, ("o", ("OW1",)): -1.0, ("n", ("N",)): -1.0, ("e", ()): -1.0}
    >>> align("phone", ["F", "OW1", "N"], s)
    [(0, 2), (2, 3), (3, 4)]
    """
    n, m = len(word), len(phonemes)
    ph = tuple(phonemes)
    if shapes is None:
        shapes = shapes_of(scores)
    best: dict[tuple[int, int], tuple[float, int, int]] = {(0, 0): (0.0, 0, 0)}
    for i in range(n):
        for j in range(m + 1):
            here = best.get((i, j))
            if here is None:
                continue
            for a, b in shapes:
                if i + a > n or j + b > m:
                    continue
                s = scores.get((word[i : i + a], ph[j : j + b]))
                if s is None:
                    continue
                total = here[0] + s
                key = (i + a, j + b)
                old = best.get(key)
                if old is None or total > old[0]:
                    best[key] = (total, a, b)
    if (n, m) not in best:
        return None
    spans: list[tuple[int, int]] = []
    i, j = n, m
    while i > 0 or j > 0:
        _, a, b = best[(i, j)]
        spans.extend([(i - a, i)] * b)
        i, j = i - a, j - b
    spans.reverse()
    return spans
