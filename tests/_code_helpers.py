"""Shared checks of code-tokenizer encodings (tests/test_code_*.py)."""

from __future__ import annotations

import numpy as np

from codetok.code import CodeEncoding, LexemeKind

K = LexemeKind

#: What :func:`code_state` holds, field by field.
CODE_FIELDS = ("ids", "tokens", "kinds", "node_types", "lexeme_indices", "spans")
CODE_FIELDS += ("byte_spans", "lines", "lossless")


def code_state(enc: CodeEncoding) -> tuple:
    """Everything a ``CodeEncoding`` holds, as plain values (for equality checks)."""
    return (
        enc.ids,
        enc.tokens,
        enc.kinds.tolist(),
        enc.node_type_ids.tolist(),
        enc.lexeme_indices.tolist(),
        enc.spans.tolist(),
        enc.byte_spans.tolist(),
        enc.lines.tolist(),
        enc.lossless,
    )


def check_token_extents(enc: CodeEncoding) -> None:
    """Every token lies inside its lexeme, but for what the router folds into it.

    - ``fold_whitespace``: a token may start at the one-space lexeme before its own (a
      keyword's spaced twin too), and a NEWLINE token may run on to the end of the
      indentation after it, over the newlines of blank lines with ``fold_blank_lines``;
    - ``join_punctuation``: a punctuation token may run on over the punctuation touching it,
      and an identifier's first token may start at the lone punctuation char before it (and
      at a space before that).
    """
    lx = enc.lexemes
    li = enc.lexeme_indices
    bs = enc.byte_spans
    starts, ends, kinds = lx.byte_starts, lx.byte_ends, lx.kinds
    for t in np.flatnonzero(bs[:, 0] < starts[li]).tolist():
        own = int(li[t])
        j = own - 1
        if kinds[j] == K.PUNCTUATION:
            assert kinds[own] == K.IDENTIFIER and ends[j] - starts[j] == 1, t
            if bs[t, 0] < starts[j]:
                j -= 1
        if bs[t, 0] < starts[j + 1]:
            assert kinds[j] in (K.WHITESPACE, K.PUNCTUATION), t
            if kinds[j] == K.WHITESPACE:
                assert ends[j] - starts[j] == 1 and lx.source_bytes[starts[j]] == 32, t
        assert bs[t, 0] == starts[j] and ends[j] == starts[j + 1], t
    late = np.flatnonzero(bs[:, 1] > ends[li])
    for t in late.tolist():
        own = int(li[t])
        if kinds[own] == K.NEWLINE:
            k = own + 1  # the lexeme it ends in: blank lines' newlines, then the indentation
            while kinds[k] == K.NEWLINE and ends[k] < bs[t, 1]:
                k += 1
            assert kinds[k] in (K.NEWLINE, K.WHITESPACE) and bs[t, 1] <= ends[k], t
        else:
            assert kinds[own] == K.PUNCTUATION, t
            j = int(np.searchsorted(ends, bs[t, 1]))
            assert ends[j] == bs[t, 1] and np.all(kinds[own : j + 1] == K.PUNCTUATION), t
