"""Pure-Python WordPiece kernel: greedy longest-match-first of one piece (BERT).

The flat loop a native kernel replaces (DESIGN.md, "Engine boundary"). At each position
the longest vocabulary entry that matches wins; every sub-token but the first is looked up
with the continuation prefix (``"##"``) in front. A piece longer than ``max_chars``, or one
with a position where nothing matches, is unknown as a whole.

Not handled here: the unknown token itself (the caller gets ``None`` and applies its
policy), caching.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .flat import flat_encoding

#: Sub-tokens of a piece as ``(id, token text, (start, end))``.
Match = list[tuple[int, str, tuple[int, int]]]


def longest_match(
    piece: str, vocab: dict[str, int], prefix: str, max_chars: int, max_len: int
) -> Match | None:
    """Greedy longest-match split of ``piece``, or ``None`` when it is unknown.

    ``max_len`` bounds the length (in chars) of any vocabulary entry; it only saves work.
    """
    n = len(piece)
    if n > max_chars:
        return None
    out: Match = []
    start = 0
    while start < n:
        end = min(n, start + max_len)
        found = None
        while start < end:
            sub = piece[start:end]
            if start > 0:
                sub = prefix + sub
            tid = vocab.get(sub)
            if tid is not None:
                found = (tid, sub, (start, end))
                break
            end -= 1
        if found is None:
            return None
        out.append(found)
        start = end
    return out


class WordPieceCore:
    """One model's WordPiece kernel; twin of the native ``WordPieceCore``.

    Args:
        vocab: token -> id.
        token_type: tuple subclass of the tokens, called as ``token_type(id, text, span)``.
        prefix: continuation prefix.
        max_input_chars_per_word: longer pieces are unknown.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        token_type: Any,
        *,
        prefix: str,
        max_input_chars_per_word: int,
    ) -> None:
        self._vocab = vocab
        self._make = token_type
        self._prefix = prefix
        self._max_chars = max_input_chars_per_word
        self._max_len = max((len(t) for t in vocab), default=1)

    def encode_offsets(
        self,
        pieces: Sequence[str],
        anchors: Sequence[Any],
        word_start: int,
        word_step: int,
        unk_id: int,
        unk_token: Any,
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]] | None:
        """All pieces as flat lists (see :mod:`codetok.reference.flat`).

        A piece the vocabulary cannot cover becomes one token ``(unk_id, unk_token,
        (0, len))``; ``None`` when that is needed and ``unk_id < 0``.
        """
        results = []
        for p in pieces:
            m = longest_match(p, self._vocab, self._prefix, self._max_chars, self._max_len)
            if m is None:
                if unk_id < 0:
                    return None
                m = [(unk_id, unk_token, (0, len(p)))]
            results.append(([t[0] for t in m], [t[1] for t in m], [t[2] for t in m]))
        return flat_encoding(results, anchors, word_start, word_step)

    def tokenize_batch(self, pieces: Sequence[str]) -> list[list[Any] | None]:
        """Tokens of each piece; ``None`` for an unknown piece."""
        out: list[list[Any] | None] = []
        make = self._make
        for p in pieces:
            m = longest_match(p, self._vocab, self._prefix, self._max_chars, self._max_len)
            out.append(None if m is None else [make(*t) for t in m])
        return out
