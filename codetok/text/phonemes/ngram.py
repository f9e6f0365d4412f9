"""A smoothed n-gram model over token ids, stored as flat backoff arrays.

The G2P model (:mod:`.g2p`) is an n-gram model over graphones: the probability of a word
with its pronunciation is the product of ``p(graphone | previous graphones)``. This module
estimates those probabilities from token-id sequences (each sequence is one dictionary
entry, cut into graphones by :mod:`.alignment`) and stores them compactly.

- **Smoothing:** interpolated Kneser-Ney with three discounts per order (for counts 1, 2
  and 3 or more), estimated from the counts of counts (Chen and Goodman's "modified"
  Kneser-Ney). Lower orders count distinct left contexts instead of occurrences, except
  for n-grams that start at the beginning of a sequence.
- **Pruning** (off by default): n-grams of order 3 and up seen fewer than ``min_count``
  times, or adding little over their backoff estimate (``prune``), are dropped; their
  probability mass goes to the backoff weight, renormalized. An n-gram is kept only when
  its history and its next-shorter suffix are kept, so every history the decoder can
  reach is in the table and the table is closed under suffixes.
- **Storage:** :class:`NgramArrays`, the backoff form of the model as a trie in numpy
  arrays: per history (a *node*) its number of entries and its backoff weight, per kept
  n-gram (an *entry*) its last token and log-probability, both quantized to 8 bits
  (:func:`quantize`). Loading derives the lookup arrays: entries sorted by
  ``node * vocabulary + token`` (a lookup is one binary search), each node's next-shorter
  history and each entry's next node.

Not here: what the tokens mean (graphones; :mod:`.g2p`) or how sequences are decoded.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import FormatError, TrainingError, VocabularyError

__all__ = ["NgramArrays", "quantize", "train_ngram"]

Gram = tuple[int, ...]


@dataclass
class NgramArrays:
    """A backoff n-gram model as a trie in flat arrays (see the module docstring).

    The histories (*nodes*) are numbered breadth-first: node 0 is the empty history,
    node 1 "start of sequence", then every kept n-gram that is also a history, in the
    order of the entries. The entries (kept n-grams) are listed node by node, by token.
    Those are the stored arrays (the attributes below); building the object derives the
    lookup arrays from them.

    Attributes:
        order: the longest n-gram.
        vocab_size: the number of predictable tokens (ids ``0 .. vocab_size - 1``; the
            end-of-sequence token is the last).
        child_counts: the number of entries of each node.
        tokens: the last token of each entry.
        is_node: whether each entry is also a history (has entries of its own).
        logp_codes, logp_values: each entry's natural log-probability is
            ``logp_values[logp_codes[i]]`` (quantized by :func:`quantize`).
        bow_codes, bow_values: each node's natural log backoff weight, likewise.

    Derived: ``keys`` (sorted ``node * vocab_size + token`` of each entry), ``logp``,
    ``next_node`` (the history after the entry's token), ``node_bow`` and
    ``node_suffix`` (each node's next-shorter history; the root's is itself).

    Raises:
        FormatError: the arrays do not describe a trie closed under suffixes.
    """

    order: int
    vocab_size: int
    child_counts: np.ndarray
    tokens: np.ndarray
    is_node: np.ndarray
    logp_codes: np.ndarray
    logp_values: np.ndarray
    bow_codes: np.ndarray
    bow_values: np.ndarray

    #: The node of the history "start of sequence".
    bos_node: ClassVar[int] = 1

    #: The stored fields (what :meth:`G2P.save <codetok.text.phonemes.g2p.G2P.save>` writes).
    ARRAYS: ClassVar[tuple[str, ...]] = (
        "child_counts",
        "tokens",
        "is_node",
        "logp_codes",
        "logp_values",
        "bow_codes",
        "bow_values",
    )

    def __post_init__(self) -> None:
        v = self.vocab_size
        counts = self.child_counts.astype(np.int64)
        tokens = self.tokens.astype(np.int64)
        is_node = self.is_node.astype(bool)
        n_nodes, n_entries = len(counts), len(tokens)
        if (
            n_nodes < 2
            or int(counts.sum()) != n_entries
            or int(is_node.sum()) != n_nodes - 2
            or (len(tokens) and int(tokens.max()) >= v)
        ):
            raise FormatError("n-gram arrays disagree: node, entry and token counts do not match")
        parent = np.repeat(np.arange(n_nodes), counts)
        self.keys = parent * v + tokens
        if (np.diff(self.keys) <= 0).any():
            raise FormatError("n-gram entries are not sorted by node and token")
        self.logp = self.logp_values[self.logp_codes]
        self.node_bow = self.bow_values[self.bow_codes]
        entry_node = np.full(n_entries, -1, dtype=np.int64)
        entry_node[is_node] = np.arange(2, n_nodes)
        node_parent = np.zeros(n_nodes, dtype=np.int64)
        node_token = np.zeros(n_nodes, dtype=np.int64)
        node_parent[2:], node_token[2:] = parent[is_node], tokens[is_node]
        first = np.concatenate(([0], np.cumsum(counts)))
        suffix = np.zeros(n_nodes, dtype=np.int64)
        nxt = np.zeros(n_entries, dtype=np.int64)
        # The root's entries: a one-token history, or back to the root.
        root = slice(0, int(first[1]))
        nxt[root] = np.where(is_node[root], entry_node[root], 0)
        # Breadth-first numbering puts the nodes of one depth in a contiguous range,
        # created by the entries of the depth above: walk depth by depth (depth 1 holds
        # "start" and the one-token histories, whose suffix is the root).
        lo, hi = 1, 2 + int(is_node[root].sum())
        while lo < hi:
            kids = np.arange(max(lo, 2), hi)
            deep = kids[node_parent[kids] != 0]
            suffix[deep] = entry_node[self._find(suffix[node_parent[deep]] * v + node_token[deep])]
            ents = np.arange(first[lo], first[hi])
            back = nxt[self._find(suffix[parent[ents]] * v + tokens[ents])]
            nxt[ents] = np.where(is_node[ents], entry_node[ents], back)
            lo, hi = hi, hi + int(is_node[ents].sum())
        nxt[tokens == v - 1] = 0  # nothing follows the end token
        if (suffix < 0).any():
            raise FormatError("n-gram arrays are not closed under suffixes")
        self.next_node = nxt
        self.node_suffix = suffix

    def _find(self, keys: np.ndarray) -> np.ndarray:
        """Entry index of each key (each must be present)."""
        if not len(keys):
            return np.zeros(0, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        if not (self.keys[at] == keys).all():
            raise FormatError("n-gram arrays are not closed under suffixes")
        return at

    def score(self, nodes: np.ndarray, tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Log-probabilities of ``tokens`` after the histories ``nodes``, and the next nodes.

        Vectorized backoff: where ``(node, token)`` is not kept, add the node's backoff
        weight and retry with its next-shorter history, down to the root (which holds
        every token).

        Args:
            nodes: history node per query (int array).
            tokens: token id per query (int array of the same length).

        Returns:
            ``(log-probabilities, next nodes)``.

        Raises:
            VocabularyError: a token id the model does not have.
        """
        nodes = np.asarray(nodes, dtype=np.int64)
        tokens = np.asarray(tokens, dtype=np.int64)
        out = np.zeros(len(nodes))
        nxt = np.zeros(len(nodes), dtype=np.int64)
        pending = np.arange(len(nodes))
        cur = nodes.copy()
        last = len(self.keys) - 1
        while len(pending):
            key = cur[pending] * self.vocab_size + tokens[pending]
            at = np.minimum(np.searchsorted(self.keys, key), last)
            found = self.keys[at] == key
            hit = pending[found]
            out[hit] += self.logp[at[found]]
            nxt[hit] = self.next_node[at[found]]
            pending = pending[~found]
            at_root = cur[pending] == 0
            if at_root.any():
                missing = sorted(set(tokens[pending[at_root]].tolist()))
                raise VocabularyError(
                    f"token ids {missing[:5]} are outside the n-gram model's vocabulary "
                    f"(0..{self.vocab_size - 1})"
                )
            out[pending] += self.node_bow[cur[pending]]
            cur[pending] = self.node_suffix[cur[pending]]
        return out, nxt


def _discounts(counts: Iterable[int]) -> tuple[float, float, float]:
    """Modified Kneser-Ney discounts for counts 1, 2, 3+ from the counts of counts."""
    cc = Counter(c for c in counts if c <= 4)
    n1, n2, n3, n4 = (cc.get(k, 0) for k in (1, 2, 3, 4))
    if min(n1, n2, n3, n4) == 0:
        return 0.5, 1.0, 1.5  # too little data for the estimate: a plain ladder
    y = n1 / (n1 + 2 * n2)
    return 1 - 2 * y * n2 / n1, 2 - 3 * y * n3 / n2, 3 - 4 * y * n4 / n3


def _count(sequences: Iterable[Sequence[int]], order: int, bos: int, eos: int) -> list[Counter]:
    """``counts[L]``: occurrences of each n-gram of length ``L`` (index 0 unused)."""
    counts: list[Counter] = [Counter() for _ in range(order + 1)]
    for seq in sequences:
        toks = (bos, *seq, eos)
        for t in range(1, len(toks)):
            for length in range(1, min(order, t + 1) + 1):
                counts[length][toks[t - length + 1 : t + 1]] += 1
    return counts


def _adjusted(counts: list[Counter], order: int, bos: int) -> list[dict[Gram, int]]:
    """Kneser-Ney counts: distinct left contexts below the top order (raw counts at the
    top order and for n-grams that start with the start-of-sequence token)."""
    adj: list[dict[Gram, int]] = [{} for _ in range(order + 1)]
    adj[order] = dict(counts[order])
    for length in range(1, order):
        left: Counter = Counter(g[1:] for g in counts[length + 1])
        adj[length] = {g: (c if g[0] == bos else left.get(g, c)) for g, c in counts[length].items()}
    return adj


def train_ngram(
    sequences: Iterable[Sequence[int]],
    vocab_size: int,
    *,
    order: int = 6,
    min_count: int = 1,
    prune: float = 0.0,
) -> NgramArrays:
    """Estimate an interpolated modified Kneser-Ney n-gram model, optionally pruned.

    Args:
        sequences: token-id sequences over ``0 .. vocab_size - 1`` (without start or end
            markers; both are added).
        vocab_size: the number of token ids; the end-of-sequence token gets id
            ``vocab_size`` (so the model predicts ``vocab_size + 1`` tokens).
        order: the longest n-gram.
        min_count: n-grams of order 3 and up seen fewer times are dropped.
        prune: n-grams of order 3 and up are dropped when their count times the log of
            their probability over the backoff estimate (natural log) is below this
            (weighted-difference pruning; 0 keeps them all).

    Returns:
        The model as :class:`NgramArrays` (``vocab_size`` there counts the end token).

    Raises:
        TrainingError: no sequence, a token outside the vocabulary, or ``order`` < 1.

    >>> m = train_ngram([[0, 1], [0, 1], [1]], 2, order=2)
    >>> lp, _ = m.score(np.array([m.bos_node, m.bos_node]), np.array([0, 1]))
    >>> bool(lp[0] > lp[1])
    True
    """
    if order < 1:
        raise TrainingError(f"order must be >= 1, got {order}")
    eos, bos = vocab_size, vocab_size + 1
    seqs = [tuple(s) for s in sequences]
    if not seqs:
        raise TrainingError("no sequences to train the n-gram model on")
    bad = {t for s in seqs for t in s if not 0 <= t < vocab_size}
    if bad:
        raise TrainingError(f"token ids outside 0..{vocab_size - 1}: {sorted(bad)[:5]}")
    counts = _count(seqs, order, bos, eos)
    adj = _adjusted(counts, order, bos)
    predictable = vocab_size + 1

    logp: dict[Gram, float] = {}
    bow: dict[Gram, float] = {(): 0.0}

    def prob(hist: Gram, tok: int) -> float:
        """p(tok | hist) under the orders built so far (with backoff)."""
        acc = 0.0
        while True:
            lp = logp.get((*hist, tok))
            if lp is not None:
                return math.exp(acc + lp)
            acc += bow.get(hist, 0.0)
            hist = hist[1:]

    # Unigrams: Kneser-Ney continuation counts interpolated with the uniform distribution.
    d = _discounts(adj[1].values())
    total = sum(adj[1].values())
    gamma = sum(d[min(c, 3) - 1] for c in adj[1].values()) / total
    for (tok,), c in adj[1].items():
        logp[(tok,)] = math.log((c - d[min(c, 3) - 1]) / total + gamma / predictable)
    floor = math.log(gamma / predictable)
    for tok in range(predictable):
        logp.setdefault((tok,), floor)

    for length in range(2, order + 1):
        d = _discounts(adj[length].values())
        by_hist: dict[Gram, list[tuple[int, int]]] = defaultdict(list)
        for g, c in adj[length].items():
            by_hist[g[:-1]].append((g[-1], c))
        keep_all = length < 3
        new_logp: dict[Gram, float] = {}
        new_bow: dict[Gram, float] = {}
        for hist, toks in by_hist.items():
            if len(hist) > 1 and hist not in logp:
                continue  # its history was pruned: so is every longer n-gram
            total = sum(c for _, c in toks)
            gamma = sum(d[min(c, 3) - 1] for _, c in toks) / total
            mass = lower = 0.0
            for t, c in toks:
                back = prob(hist[1:], t)
                p = (c - d[min(c, 3) - 1]) / total + gamma * back
                if not keep_all:
                    # Weighted difference: what the n-gram adds over the backoff estimate.
                    raw = counts[length][(*hist, t)]
                    if raw < min_count or raw * math.log(p / (gamma * back)) < prune:
                        continue
                    if (*hist[1:], t) not in logp:
                        continue  # keep suffixes closed: a kept n-gram's suffix is kept
                new_logp[(*hist, t)] = math.log(p)
                mass += p
                lower += back
            if not mass:
                continue
            new_bow[hist] = math.log(max(1.0 - mass, 1e-12) / max(1.0 - lower, 1e-12))
        logp.update(new_logp)
        bow.update(new_bow)
    return _arrays(logp, bow, order, predictable, bos)


def quantize(values: np.ndarray, bits: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Map ``values`` to ``2 ** bits`` levels that stand for equally many values each.

    Returns ``(codes, levels)`` with ``levels[codes]`` close to ``values``; each level is
    the mean of the values it stands for.

    >>> codes, levels = quantize(np.array([-3.0, -2.9, -1.0, -0.1]), bits=1)
    >>> [round(float(x), 2) for x in levels[codes]]
    [-2.95, -2.95, -0.55, -0.55]
    """
    values = np.asarray(values, dtype=np.float64)
    n_levels = 1 << bits
    order = np.argsort(values, kind="stable")
    codes = np.empty(len(values), dtype=np.uint8 if bits <= 8 else np.uint16)
    codes[order] = np.arange(len(values)) * n_levels // max(len(values), 1)
    sums = np.bincount(codes, values, minlength=n_levels)
    sizes = np.bincount(codes, minlength=n_levels)
    levels = (sums / np.maximum(sizes, 1)).astype(np.float32)
    return codes, levels


def _arrays(
    logp: dict[Gram, float], bow: dict[Gram, float], order: int, predictable: int, bos: int
) -> NgramArrays:
    """Number the histories breadth-first and flatten the model (:class:`NgramArrays`)."""
    children: dict[Gram, list[int]] = defaultdict(list)
    for g in logp:
        children[g[:-1]].append(g[-1])
    queue: list[Gram] = [(), (bos,)]
    counts, tokens, is_node, lps = [], [], [], []
    k = 0
    while k < len(queue):
        hist = queue[k]
        toks = sorted(children.get(hist, ()))
        counts.append(len(toks))
        for t in toks:
            g = (*hist, t)
            tokens.append(t)
            lps.append(logp[g])
            node = g in bow and len(g) < order
            is_node.append(node)
            if node:
                queue.append(g)
        k += 1
    logp_codes, logp_values = quantize(np.array(lps))
    bow_codes, bow_values = quantize(np.array([bow.get(h, 0.0) for h in queue]))
    return NgramArrays(
        order=order,
        vocab_size=predictable,
        child_counts=np.array(counts, dtype=np.uint32),
        tokens=np.array(tokens, dtype=np.uint16),
        is_node=np.array(is_node, dtype=bool),
        logp_codes=logp_codes,
        logp_values=logp_values,
        bow_codes=bow_codes,
        bow_values=bow_values,
    )
