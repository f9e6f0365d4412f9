"""Pure-Python BPE kernels: initial symbols of a piece and merge application.

These are the flat loops a native kernel replaces (DESIGN.md, "Engine boundary"). They take
and return plain lists and dicts; options, errors, caching and offsets stay in
:mod:`codetok.models.bpe`.

Merge order is HF ``tokenizers``' order: the pending merge with the lowest rank is applied
first and ties go to the leftmost position. Long pieces use a heap over a linked list of
symbols (O(n log n)); short pieces use a direct scan, which gives the same result.
Not handled here: caching, ``ignore_merges`` and the unknown-token policy checks.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

#: ``(left_id, right_id) -> (rank, new_id)``.
MergeMap = dict[tuple[int, int], tuple[int, int]]

# Below this many symbols (and without dropout) a rescan per merge beats heap bookkeeping.
_SCAN_LIMIT = 24

BYTE_TOKENS: list[str] = [f"<0x{b:02X}>" for b in range(256)]


def word_symbols(
    piece: str,
    vocab: dict[str, int],
    prefix: str,
    suffix: str,
    byte_fallback: bool,
    unk_id: int,
    fuse_unk: bool,
) -> tuple[list[int], list[int]]:
    """Initial symbols of ``piece``: one per char, as ``(ids, utf8_byte_lengths)``.

    ``prefix`` goes before every char but the first, ``suffix`` after the last one. A char
    missing from ``vocab`` becomes its ``<0xNN>`` byte tokens (when ``byte_fallback`` and all
    of them exist, bytes of prefix/suffix included, each of length 1), else ``unk_id``
    (``-1``: dropped). Unknowns are fused when ``fuse_unk``. As in HF, a pending unknown is
    only flushed when a char found in ``vocab`` (or the end) comes, so byte tokens may
    precede it.
    """
    ids: list[int] = []
    lens: list[int] = []
    get = vocab.get
    last = len(piece) - 1
    unk_len = 0
    for i, ch in enumerate(piece):
        blen = 1 if ch < "\x80" else len(ch.encode("utf-8", "surrogatepass"))
        s = ch
        if prefix and i:
            s = prefix + s
        if suffix and i == last:
            s = s + suffix
        tid = get(s)
        if tid is not None:
            if unk_len:
                ids.append(unk_id)
                lens.append(unk_len)
                unk_len = 0
            ids.append(tid)
            lens.append(blen)
            continue
        if byte_fallback:
            byte_ids = [get(BYTE_TOKENS[b]) for b in s.encode("utf-8", "surrogatepass")]
            if None not in byte_ids:
                ids.extend(byte_ids)  # type: ignore[arg-type]
                lens.extend([1] * len(byte_ids))
                continue
        if unk_id == -1:
            continue
        if unk_len and not fuse_unk:
            ids.append(unk_id)
            lens.append(unk_len)
            unk_len = 0
        unk_len += blen
    if unk_len:
        ids.append(unk_id)
        lens.append(unk_len)
    return ids, lens


def merge(
    ids: list[int],
    lens: list[int],
    merges: MergeMap,
    dropout: float = 0.0,
    rand: Callable[[], float] | None = None,
) -> tuple[list[int], list[int]]:
    """Apply ``merges`` to the symbols ``ids`` (lengths ``lens``) and return the result.

    With ``dropout > 0`` each candidate merge is skipped with that probability (``rand()``
    draws in [0, 1)); skipped merges come back once another merge has been applied.
    """
    if len(ids) < 2:
        return list(ids), list(lens)
    if dropout <= 0.0 and len(ids) <= _SCAN_LIMIT:
        return _merge_scan(ids, lens, merges)
    return _merge_heap(ids, lens, merges, dropout, rand)


def _merge_scan(ids: list[int], lens: list[int], merges: MergeMap) -> tuple[list[int], list[int]]:
    c = list(ids)
    ln = list(lens)
    get = merges.get
    while len(c) > 1:
        best_rank = -1
        best_pos = 0
        best_new = 0
        for i in range(len(c) - 1):
            m = get((c[i], c[i + 1]))
            if m is not None and (best_rank < 0 or m[0] < best_rank):
                best_rank, best_new = m
                best_pos = i
        if best_rank < 0:
            break
        c[best_pos : best_pos + 2] = [best_new]
        ln[best_pos : best_pos + 2] = [ln[best_pos] + ln[best_pos + 1]]
    return c, ln


def _merge_heap(
    ids: list[int],
    lens: list[int],
    merges: MergeMap,
    dropout: float,
    rand: Callable[[], float] | None,
) -> tuple[list[int], list[int]]:
    n = len(ids)
    c = list(ids)
    ln = list(lens)
    if n < 2:
        return c, ln
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    get = merges.get
    # Heap entries are single ints ``rank * n + pos``: (rank, leftmost) order, cheap compares.
    heap = []
    for i in range(n - 1):
        m = get((c[i], c[i + 1]))
        if m is not None:
            heap.append(m[0] * n + i)
    heapq.heapify(heap)
    push = heapq.heappush
    pop = heapq.heappop
    use_dropout = dropout > 0.0 and rand is not None
    skipped: list[int] = []
    while heap:
        top = pop(heap)
        if use_dropout and rand() < dropout:  # type: ignore[misc]
            skipped.append(top)
            continue
        if skipped:
            for s in skipped:
                push(heap, s)
            skipped.clear()
        rank, pos = divmod(top, n)
        if ln[pos] == 0:
            continue
        right = nxt[pos]
        if right == -1:
            continue
        m = get((c[pos], c[right]))
        # A stale entry: the pair at ``pos`` changed since it was queued. (HF compares the
        # new ids; comparing ranks differs only if two merges make the same id, which needs
        # a vocabulary that gives two tokens one id.)
        if m is None or m[0] != rank:
            continue
        new_id = m[1]
        c[pos] = new_id
        ln[pos] += ln[right]
        ln[right] = 0
        after = nxt[right]
        nxt[pos] = after
        if after != -1:
            prv[after] = pos
        before = prv[pos]
        if before >= 0:
            m = get((c[before], new_id))
            if m is not None:
                push(heap, m[0] * n + before)
        if after != -1:
            m = get((new_id, c[after]))
            if m is not None:
                push(heap, m[0] * n + pos)
    out_ids = [c[i] for i in range(n) if ln[i]]
    out_lens = [x for x in ln if x]
    return out_ids, out_lens
