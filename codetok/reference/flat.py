"""The flat lists the Tokenizer builds an Encoding from; twin of ``flat_encoding`` in C++.

``encode_offsets`` of the kernels returns ``(ids, tokens, offsets, words)`` for many pieces
at once, so the Tokenizer runs no per-token Python loop of its own. Piece ``k`` is anchored
by ``anchors[k]``: an int is the original position of the piece's first character under the
identity alignment (a token's offsets are ``base + span``); anything else is an object whose
``original_span(start, end)`` maps a span of the piece (a
:class:`~codetok.tokenizer.offsets.NormalizedString`). Piece ``k``'s word id is
``word_start + word_step * k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["flat_encoding"]


def flat_encoding(
    results: Sequence[tuple[Sequence[int], Sequence[str], Sequence[tuple[int, int]]]],
    anchors: Sequence[Any],
    word_start: int,
    word_step: int,
) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]]:
    """Concatenate per-piece ``(ids, token strings, spans)`` into the four flat lists.

    >>> flat_encoding([([1, 2], ["a", "b"], [(0, 1), (1, 2)])], [10], 0, 1)
    ([1, 2], ['a', 'b'], [(10, 11), (11, 12)], [0, 0])
    """
    if len(results) != len(anchors):
        raise ValueError("anchors and pieces differ in length")
    ids: list[int] = []
    tokens: list[str] = []
    offsets: list[tuple[int, int]] = []
    words: list[int] = []
    for k, ((pids, ptoks, spans), anchor) in enumerate(zip(results, anchors)):
        ids.extend(pids)
        tokens.extend(ptoks)
        if type(anchor) is int:
            offsets.extend([(anchor + s, anchor + e) for s, e in spans])
        else:
            span = anchor.original_span
            offsets.extend([span(s, e) for s, e in spans])
        words.extend([word_start + word_step * k] * len(pids))
    return ids, tokens, offsets, words
