"""Layout lexemes: splitting blank gaps, and Python-style INDENT/DEDENT markers.

:func:`split_gaps` turns the bytes between tree-sitter leaves into NEWLINE (one per line
break, ``\\r\\n`` counted as one), WHITESPACE (blank runs, a backslash line continuation,
Unicode blanks) and ERROR (anything else) lexemes, on whole arrays. :func:`insert_layout`
adds zero-width INDENT/DEDENT markers around indented blocks that start a line: INDENT
right before the block's first code lexeme, DEDENT right before the first code lexeme at or
after the block's end (the end of input for a block that ends the file), so markers are
always balanced. Neither looks at the parse tree.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .kinds import LexemeKind

__all__ = ["split_gaps", "insert_layout"]

_K = LexemeKind
_EXTRA_BLANKS = frozenset("\ufeff\u200b\u2060\u00a0")

# byte classes for splitting gaps: 0 "\n", 1 "\r", 2 blank, 3 other, 4 backslash
_CLASS = np.full(256, 3, np.int8)
_CLASS[10] = 0
_CLASS[13] = 1
_CLASS[[32, 9, 11, 12]] = 2
_CLASS[92] = 4


def split_gaps(
    body: bytes,
    gs: np.ndarray,
    ge: np.ndarray,
    gpar: np.ndarray,
    gfl: np.ndarray,
    gap_kinds: Mapping[bytes, int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Split code gaps into NEWLINE (one per line break), WHITESPACE and ERROR lexemes.

    A backslash right before a line break is a line continuation: one WHITESPACE lexeme
    covering both (as tree-sitter-python's ``line_continuation`` does). A run of other
    bytes spelled as a key of ``gap_kinds`` (``[kinds.gaps]``: a ``;`` some grammars'
    scanners consume without a node) gets that kind instead of ERROR.
    """
    lengths = ge - gs
    total = int(lengths.sum())
    owner = np.repeat(np.arange(gs.size), lengths)
    offsets = np.zeros(gs.size, np.int64)
    np.cumsum(lengths[:-1], out=offsets[1:])
    pos = gs[owner] + (np.arange(total, dtype=np.int64) - offsets[owner])
    c = _CLASS[np.frombuffer(body, np.uint8)[pos]]
    prev = np.empty_like(c)
    prev[0] = -1
    prev[1:] = c[:-1]
    first = pos == gs[owner]
    prev[first] = -1
    boundary = (
        first
        | ((c == 1) & (prev != 4))
        | ((c == 0) & (prev != 1) & (prev != 4))
        | ((c >= 2) & ((prev != c) | (c == 4)))
    )
    seg = np.flatnonzero(boundary)
    s = pos[seg]
    e = np.append(pos[seg[1:] - 1] + 1, pos[-1] + 1)
    cls = c[seg]
    blank = (cls == 2) | ((cls == 4) & (e - s > 1))
    kinds = np.where(cls <= 1, _K.NEWLINE, np.where(blank, _K.WHITESPACE, _K.ERROR))
    kinds = kinds.astype(np.uint8)
    for i in np.flatnonzero(cls == 3).tolist():
        t = body[s[i] : e[i]].decode("utf-8", "surrogateescape")
        if all(ch.isspace() or ch in _EXTRA_BLANKS for ch in t):
            kinds[i] = _K.WHITESPACE
        elif gap_kinds:
            kinds[i] = gap_kinds.get(body[s[i] : e[i]], kinds[i])
    o = owner[seg]
    return s, e, kinds, gpar[o], gfl[o]


def insert_layout(
    blocks: list[tuple[int, int, int, int]],
    base: int,
    total: int,
    k: np.ndarray,
    nt: np.ndarray,
    pt: np.ndarray,
    fl: np.ndarray,
    bs: np.ndarray,
    be: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """Insert zero-width INDENT/DEDENT markers for blocks that start a line."""
    layout = np.array([_K.WHITESPACE, _K.NEWLINE, _K.COMMENT], np.uint8)
    code_idx = np.flatnonzero(~np.isin(k, layout))
    if code_idx.size == 0:
        return k, nt, pt, fl, bs, be
    code_starts = bs[code_idx]
    blk = np.array(blocks, np.int64)
    b_start = blk[:, 0] + base
    b_end = blk[:, 1] + base
    j = np.searchsorted(code_starts, b_start, "left")
    ok = j < code_idx.size
    jj = np.minimum(j, code_idx.size - 1)
    first = code_idx[jj]
    ok &= code_starts[jj] < b_end
    prev = first - 1
    prev = np.where((prev >= 0) & (k[np.maximum(prev, 0)] == _K.WHITESPACE), prev - 1, prev)
    ok &= (prev < 0) | (k[np.maximum(prev, 0)] == _K.NEWLINE)
    if not ok.any():
        return k, nt, pt, fl, bs, be
    first = first[ok]
    blk = blk[ok]
    b_end = b_end[ok]
    indent_pos = bs[first]
    d = np.searchsorted(code_starts, b_end, "left")
    dedent_pos = np.where(d < code_idx.size, code_starts[np.minimum(d, code_idx.size - 1)], total)
    m = blk.shape[0]
    pos = np.concatenate([dedent_pos, indent_pos])
    # order at one position: DEDENTs (innermost first) before INDENTs
    order_kind = np.concatenate([np.zeros(m, np.int64), np.ones(m, np.int64)])
    inner = np.concatenate([-blk[:, 0], blk[:, 0]])
    order = np.lexsort((inner, order_kind, pos))
    pos = pos[order]
    mk = np.concatenate([np.full(m, _K.DEDENT, np.uint8), np.full(m, _K.INDENT, np.uint8)])[order]
    mt = np.concatenate([blk[:, 2], blk[:, 2]]).astype(np.uint16)[order]
    mp = np.concatenate([blk[:, 3], blk[:, 3]]).astype(np.uint16)[order]
    at = np.searchsorted(bs, pos, "left")
    # a marker at the very end goes after the last lexeme
    at = np.where(pos >= total, k.size, at)
    # markers land at at[i] + i in the merged arrays (at is sorted); the lexemes fill the rest
    is_marker = np.zeros(k.size + pos.size, bool)
    is_marker[at + np.arange(pos.size)] = True

    def merged(old: np.ndarray, new: np.ndarray) -> np.ndarray:
        out = np.empty(is_marker.size, old.dtype)
        out[is_marker] = new
        out[~is_marker] = old
        return out

    return (
        merged(k, mk),
        merged(nt, mt),
        merged(pt, mp),
        merged(fl, np.zeros(pos.size, np.uint8)),
        merged(bs, pos),
        merged(be, pos),
    )
