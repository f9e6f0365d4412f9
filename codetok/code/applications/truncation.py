"""AST-aware truncation: cut code to a token budget at a statement boundary.

:func:`truncate_code` keeps the longest prefix of a piece of code that ends at the end of a
statement and whose token count fits the budget. Statements are the named, non-comment
children of block nodes (``block``, ``statement_block``, ``switch_section``, ...) at any
depth, so a cut may fall inside a nested block; the report says how many enclosing
statements it leaves open. The prefix is encoded on its own, so no subword token is ever
cut. When no statement end fits (one huge statement, an arrow function without a block),
the cut falls back to the end of a lexeme, never inside one.

Token counts come from a caller-supplied function, so any tokenizer works. The search is a
binary search over candidate cut points (a few encodes per truncated function), assuming, as
holds for subword tokenizers in practice, that a longer prefix never has fewer tokens; the
chosen prefix is always verified to fit.

Not handled here: finding functions and their documentation (:mod:`codetok.code.applications.pairs`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..front.statements import BLOCK_TYPES, FILE_BLOCK_TYPES, statement_units

__all__ = ["BLOCK_TYPES", "FILE_BLOCK_TYPES", "Truncation", "statement_units", "truncate_code"]

# The statements of a tree live with the syntax (front/); re-exported here, where they
# were first.


@dataclass(frozen=True)
class Truncation:
    """What :func:`truncate_code` cut.

    Attributes:
        truncated: whether anything was cut.
        boundary: ``"statement"`` or ``"lexeme"`` (where the cut fell), None when not cut.
        tokens_before, tokens_after: token counts of the whole code and of the kept prefix.
        bytes_dropped: UTF-8 bytes removed from the end of the code.
        statements_dropped: statements removed whole, counted at the outermost level (a
            dropped ``if`` holding three statements counts once).
        open_blocks: statements the cut falls inside (kept partly, braces left open).
    """

    truncated: bool = False
    boundary: str | None = None
    tokens_before: int = 0
    tokens_after: int = 0
    bytes_dropped: int = 0
    statements_dropped: int = 0
    open_blocks: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-ready dict."""
        return asdict(self)


def _best_prefix(cuts: Sequence[int], fits: Callable[[int], bool]) -> int | None:
    """Largest cut in ascending ``cuts`` with ``fits(cut)``, by binary search."""
    lo, hi, best = 0, len(cuts) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if fits(cuts[mid]):
            best, lo = cuts[mid], mid + 1
        else:
            hi = mid - 1
    return best


def truncate_code(
    code: bytes,
    count_tokens: Callable[[bytes], int],
    max_tokens: int,
    statements: Sequence[tuple[int, int]],
    lexeme_ends: Sequence[int] = (),
) -> tuple[int, Truncation]:
    """Choose where to cut ``code`` so that it fits ``max_tokens``.

    Args:
        code: the code as UTF-8 bytes.
        count_tokens: returns the token count of a prefix of ``code``.
        max_tokens: the budget.
        statements: statement spans relative to ``code`` (:func:`statement_units`).
        lexeme_ends: ends of lexemes relative to ``code`` (non-layout ones), the fallback
            cut points.

    Returns:
        ``(cut, report)``: keep ``code[:cut]``; ``cut == len(code)`` when it already fits.

    Raises:
        ValueError: ``max_tokens`` is negative.

    >>> code = b"x = 1\\ny = 2\\nz = 3"
    >>> cut, rep = truncate_code(code, lambda b: len(b.split()), 6, [(0, 5), (6, 11), (12, 17)])
    >>> code[:cut], rep.statements_dropped, rep.boundary
    (b'x = 1\\ny = 2', 1, 'statement')
    """
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be >= 0, got {max_tokens}")
    before = count_tokens(code)
    if before <= max_tokens:
        return len(code), Truncation(tokens_before=before, tokens_after=before)
    memo: dict[int, int] = {}

    def count(cut: int) -> int:
        if cut not in memo:
            memo[cut] = count_tokens(code[:cut])
        return memo[cut]

    def fits(cut: int) -> bool:
        return count(cut) <= max_tokens

    ends = sorted({e for _, e in statements if 0 < e < len(code)})
    cut = _best_prefix(ends, fits)
    boundary = "statement"
    if cut is None:
        lex_ends = sorted({e for e in lexeme_ends if 0 < e < len(code)})
        cut = _best_prefix(lex_ends, fits)
        boundary = "lexeme"
    if cut is None:
        cut = 0
    dropped = 0
    open_blocks = 0
    stack: list[tuple[int, int]] = []  # the statements enclosing the current one
    for s, e in statements:
        while stack and stack[-1][1] <= s:
            stack.pop()
        if s < cut < e:
            open_blocks += 1
        elif s >= cut and not any(ps >= cut for ps, _ in stack):
            dropped += 1
        stack.append((s, e))
    return cut, Truncation(
        truncated=True,
        boundary=boundary,
        tokens_before=before,
        tokens_after=count(cut),
        bytes_dropped=len(code) - cut,
        statements_dropped=dropped,
        open_blocks=open_blocks,
    )
