"""Documentation comments found by what follows them (``[comments] doc_before``).

Some languages mark documentation by position, not by spelling: a Go doc comment is the
run of ordinary ``//`` comments right above a declaration, and RDoc/YARD read the ``#``
comments right above a Ruby ``def``, ``class`` or ``module``. A comment is documentation
here when it starts its line and the next code token, with no blank line between, belongs
to a node type the grammar lists (its parent type), or is the next comment of such a run.
The native lexer repeats this rule in ``code_columns.cpp`` (``Builder::doc_before``).
"""

from __future__ import annotations

import numpy as np

from .kinds import LexemeKind

__all__ = ["mark_doc_before"]

_K = LexemeKind
_TRIVIA = np.array([_K.WHITESPACE, _K.NEWLINE], np.uint8)


def _starts_line(body: bytes, start: int) -> bool:
    """Only spaces and tabs lie between the line's start and ``start``."""
    i = start
    while i > 0 and body[i - 1] in b" \t":
        i -= 1
    return i == 0 or body[i - 1] in b"\n\r"


def mark_doc_before(
    kinds: np.ndarray,
    parents: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    body: bytes,
    owners: frozenset[int],
) -> None:
    """Turn the COMMENT lexemes that document what follows them into DOCSTRING, in place.

    Args:
        kinds, parents, starts, ends: lexeme columns (parent type indices, byte spans
            into ``body``), gaps already split into whitespace and newlines.
        body: the parsed bytes.
        owners: type indices of the nodes whose tokens a comment above documents.
    """
    comments = np.flatnonzero(kinds == _K.COMMENT)
    if not comments.size or not owners:
        return
    n = kinds.size
    significant = ~np.isin(kinds, _TRIVIA)
    # next_sig[i]: the first significant lexeme after i (n: none)
    idx = np.where(significant, np.arange(n), n)
    next_sig = np.minimum.accumulate(idx[::-1])[::-1]
    next_sig = np.append(next_sig[1:], n)
    for i in comments[::-1].tolist():
        j = int(next_sig[i])
        if j == n:
            continue
        if kinds[j] in (_K.COMMENT, _K.DOCSTRING):
            follows_doc = kinds[j] == _K.DOCSTRING
        else:
            follows_doc = int(parents[j]) in owners
        if (
            follows_doc
            and body.count(b"\n", int(ends[i]), int(starts[j])) <= 1
            and _starts_line(body, int(starts[i]))
        ):
            kinds[i] = _K.DOCSTRING
