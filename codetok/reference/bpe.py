"""Pure-Python BPE kernels: initial symbols of a piece and merge application.

These are the flat loops a native kernel replaces (DESIGN.md, "Engine boundary"). They take
and return plain lists and dicts; options, errors, caching and offsets stay in
:mod:`codetok.models.bpe`.

Merge order is HF ``tokenizers``' order: the pending merge with the lowest rank is applied
first and ties go to the leftmost position. Long pieces use a heap over a linked list of
symbols (O(n log n)); short pieces use a direct scan, which gives the same result.
:class:`BpeCore` bundles them per model with fixed options: it is the exact interface of
the native ``BpeCore``.
Not handled here: caching and the unknown-token policy checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .flat import flat_encoding

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
    import heapq

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


def char_spans(piece: str, lens: Sequence[int]) -> list[tuple[int, int]]:
    """Map consecutive UTF-8 byte lengths to char spans inside ``piece``.

    A token covering part of a char (a byte-fallback token) gets that whole char, as HF
    reports it. Spans past the end (byte fallback combined with a prefix or suffix) are
    clamped to the piece.
    """
    n = len(piece)
    out: list[tuple[int, int]] = []
    pos = 0
    if piece.isascii():
        for ln in lens:
            end = pos + ln
            out.append((pos if pos < n else n, end if end < n else n))
            pos = end
        return out
    byte_to_char: list[int] = []
    for i, ch in enumerate(piece):
        byte_to_char.extend([i] * len(ch.encode("utf-8", "surrogatepass")))
    nb = len(byte_to_char)
    for ln in lens:
        end = pos + ln
        start_c = byte_to_char[pos] if pos < nb else n
        end_c = byte_to_char[end - 1] + 1 if 0 < end <= nb else (n if end > nb else start_c)
        out.append((start_c, end_c))
        pos = end
    return out


class BpeCore:
    """One model's BPE kernel with fixed options; twin of the native ``BpeCore``.

    Args:
        vocab: token -> id.
        merges: ``(left_id, right_id, rank, new_id)`` per merge.
        values: token text by id (``None`` for ids without a token); builds tokens.
        token_type: the tuple subclass tokens are made of, called as
            ``token_type(id, value, (start, end))``.
        prefix: ``continuing_subword_prefix`` (``""`` for none).
        suffix: ``end_of_word_suffix`` (``""`` for none).
        unk_id: emitted for unknown chars; ``-1`` drops them.
        fuse_unk: fuse consecutive unknown chars.
        byte_fallback: unknown chars become ``<0xNN>`` tokens when they all exist.
        ignore_merges: a piece found whole in ``vocab`` is one token.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Sequence[tuple[int, int, int, int]],
        values: Sequence[str | None],
        token_type: Any,
        *,
        prefix: str,
        suffix: str,
        unk_id: int,
        fuse_unk: bool,
        byte_fallback: bool,
        ignore_merges: bool,
    ) -> None:
        self._vocab = vocab
        self._merges: MergeMap = {(a, b): (rank, new) for a, b, rank, new in merges}
        self._values = list(values)
        self._token_type = token_type
        self._args = (vocab, prefix, suffix, byte_fallback, unk_id, fuse_unk)
        self._ignore_merges = ignore_merges

    def encode(self, piece: str) -> tuple[list[int], list[tuple[int, int]]]:
        """Ids of ``piece`` and their char spans (``unk_id`` may appear, whatever it is)."""
        if not piece:
            return [], []
        if self._ignore_merges:
            tid = self._vocab.get(piece)
            if tid is not None:
                return [tid], [(0, len(piece))]
        ids, lens = word_symbols(piece, *self._args)
        ids, lens = merge(ids, lens, self._merges)
        return ids, char_spans(piece, lens)

    def encode_batch(self, pieces: Sequence[str]) -> list[list[int]]:
        """Ids of each piece."""
        return [self.encode(p)[0] for p in pieces]

    def encode_offsets(
        self, pieces: Sequence[str], anchors: Sequence[Any], word_start: int, word_step: int
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]] | None:
        """All pieces as flat lists (see :mod:`codetok.reference.flat`).

        ``None`` when an id has no token string (the missing unk_token).
        """
        values = self._values
        size = len(values)
        results = []
        for p in pieces:
            ids, spans = self.encode(p)
            if any(not 0 <= i < size or values[i] is None for i in ids):
                return None
            results.append((ids, [values[i] for i in ids], spans))
        return flat_encoding(results, anchors, word_start, word_step)

    def tokenize_batch(self, pieces: Sequence[str]) -> list[list[Any] | None]:
        """Tokens of each piece; ``None`` for a piece with an id that has no value."""
        out: list[list[Any] | None] = []
        values = self._values
        size = len(values)
        make = self._token_type
        for p in pieces:
            ids, spans = self.encode(p)
            if any(not 0 <= i < size or values[i] is None for i in ids):
                out.append(None)
                continue
            out.append([make(i, values[i], sp) for i, sp in zip(ids, spans, strict=True)])
        return out
