"""Alignment of subword tokens to lexemes, on whole arrays.

A subword token from a pretrained text tokenizer does not respect lexeme boundaries: the
GPT-2 token ``Ġ(`` covers a space (WHITESPACE) and a parenthesis (PUNCTUATION), ``):``
covers two punctuation lexemes, and a byte-level token may hold only part of a multi-byte
character. This module maps each token's byte span onto a tiling of the same bytes by
*segments* (lexemes, or the pieces of a re-joined text) with the following rule:

* **overlap range**: the segments a token's bytes touch, as a half-open range
  ``[first, last + 1)`` (segments tile the input, so the touched ones are contiguous);
* **primary segment**: the first segment in that range that is not layout (WHITESPACE /
  NEWLINE); when every touched segment is layout, the first one. So ``Ġ(`` maps to ``(``,
  ``ĊĠĠĠ`` maps to the newline, and ``):`` maps to ``)``.

Tokens with an empty span (special tokens added by a post-processor) map to nothing (-1).
Everything is computed with numpy on whole arrays, never per token in Python.

Also here: the byte -> char index map of a UTF-8 buffer, used to turn token byte spans into
char spans of the Python string. Not handled here: running a tokenizer
(:mod:`codetok.code.applications.codebert`) and lexing (:mod:`codetok.code.front.lexer`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["SegmentAlignment", "align_to_segments", "byte_to_char_index", "bytes_to_char_spans"]


class SegmentAlignment(NamedTuple):
    """Per-token result of :func:`align_to_segments` (``int64`` arrays, -1 for no segment).

    Attributes:
        primary: the segment that represents the token (see the module rule).
        first: the first segment the token touches.
        stop: one past the last segment the token touches (``first == stop == -1`` for an
            empty token).
    """

    primary: np.ndarray
    first: np.ndarray
    stop: np.ndarray


def align_to_segments(
    token_starts: np.ndarray,
    token_ends: np.ndarray,
    segment_starts: np.ndarray,
    segment_ends: np.ndarray,
    segment_is_layout: np.ndarray,
) -> SegmentAlignment:
    """Map token spans to the segments that tile the same coordinates.

    Args:
        token_starts, token_ends: half-open token spans (any integer dtype); an empty span
            maps to -1 everywhere.
        segment_starts, segment_ends: half-open spans of segments that tile
            ``[segment_starts[0], segment_ends[-1])`` in order without gaps.
        segment_is_layout: bool per segment; layout segments are only chosen as primary
            when a token touches nothing else.

    Returns:
        A :class:`SegmentAlignment` of ``int64`` arrays, one entry per token.

    Raises:
        ValueError: a non-empty token span falls outside the segments.

    >>> import numpy as np
    >>> a = align_to_segments(np.array([0, 3]), np.array([3, 5]),
    ...                       np.array([0, 2, 3]), np.array([2, 3, 5]),
    ...                       np.array([False, True, False]))
    >>> a.primary.tolist(), a.first.tolist(), a.stop.tolist()
    ([0, 2], [0, 2], [2, 3])
    """
    ts = np.asarray(token_starts, np.int64)
    te = np.asarray(token_ends, np.int64)
    ss = np.asarray(segment_starts, np.int64)
    se = np.asarray(segment_ends, np.int64)
    layout = np.asarray(segment_is_layout, bool)
    n = ts.shape[0]
    primary = np.full(n, -1, np.int64)
    first = np.full(n, -1, np.int64)
    stop = np.full(n, -1, np.int64)
    live = te > ts
    if not live.any():
        return SegmentAlignment(primary, first, stop)
    if ss.shape[0] == 0:
        raise ValueError("tokens have non-empty spans but there are no segments to align to")
    lo, hi = int(ss[0]), int(se[-1])
    if int(ts[live].min()) < lo or int(te[live].max()) > hi:
        raise ValueError(f"a token span falls outside the segments, which cover [{lo}, {hi})")
    f = np.searchsorted(ss, ts[live], side="right") - 1
    last = np.searchsorted(ss, te[live] - 1, side="right") - 1
    # next_code[s]: the first non-layout segment at or after s (len(ss) when none).
    m = ss.shape[0]
    idx = np.where(layout, m, np.arange(m, dtype=np.int64))
    next_code = np.minimum.accumulate(idx[::-1])[::-1]
    p = next_code[f]
    p = np.where(p > last, f, p)
    primary[live] = p
    first[live] = f
    stop[live] = last + 1
    return SegmentAlignment(primary, first, stop)


def byte_to_char_index(data: bytes) -> np.ndarray:
    """Index of the character each byte of a UTF-8 buffer belongs to, plus one end entry.

    Args:
        data: UTF-8 bytes (``surrogatepass`` encodings of lone surrogates count as chars).

    Returns:
        An ``int64`` array of ``len(data) + 1`` entries; entry ``len(data)`` is the number
        of characters. A continuation byte maps to the char its lead byte starts.

    >>> byte_to_char_index("aé".encode()).tolist()
    [0, 1, 1, 2]
    """
    buf = np.frombuffer(data, np.uint8)
    lead = (buf & 0xC0) != 0x80
    out = np.empty(buf.shape[0] + 1, np.int64)
    counts = np.cumsum(lead, dtype=np.int64)
    out[:-1] = counts - 1
    out[-1] = counts[-1] if counts.shape[0] else 0
    return out


def bytes_to_char_spans(
    byte_starts: np.ndarray, byte_ends: np.ndarray, char_index: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Turn byte spans into the char spans of every character they touch.

    Args:
        byte_starts, byte_ends: half-open byte spans; empty spans stay empty (at the char
            of their start).
        char_index: :func:`byte_to_char_index` of the buffer.

    Returns:
        ``(char_starts, char_ends)`` as ``int64`` arrays. A span holding only part of a
        multi-byte character gets that whole character.

    >>> ci = byte_to_char_index("é!".encode())
    >>> [a.tolist() for a in bytes_to_char_spans(np.array([0, 1]), np.array([1, 3]), ci)]
    [[0, 0], [1, 2]]
    """
    bs = np.asarray(byte_starts, np.int64)
    be = np.asarray(byte_ends, np.int64)
    cs = char_index[bs]
    nonempty = be > bs
    ce = np.where(nonempty, char_index[np.maximum(be - 1, 0)] + 1, cs)
    return cs, ce
