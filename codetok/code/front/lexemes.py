"""The lexeme stream container: parallel numpy arrays plus on-request records.

:class:`Lexemes` holds what :func:`codetok.code.lex` produces, one array entry per lexeme
(kinds, node types, byte/char spans, lines, columns, flags), and builds a :class:`Lexeme`
record only when asked (indexing, iteration). It also checks the coverage invariant
(:meth:`Lexemes.check`). It does no lexing itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple, overload

import numpy as np

from .kinds import LexemeFlag, LexemeKind

__all__ = ["Lexeme", "Lexemes"]

_K = LexemeKind


class Lexeme(NamedTuple):
    """One lexeme, built on request from the arrays of :class:`Lexemes`."""

    index: int
    kind: LexemeKind
    text: str
    node_type: str
    parent_type: str
    byte_span: tuple[int, int]
    char_span: tuple[int, int]
    line: int
    col: int
    flags: LexemeFlag


class Lexemes:
    """A lexeme stream as parallel numpy arrays (one entry per lexeme).

    Attributes:
        language: canonical language name.
        source: the input exactly as given (str or bytes).
        kinds: ``uint8`` :class:`LexemeKind` values.
        node_types, parent_types: ``uint16`` indices into :attr:`type_names` (0 is "",
            meaning bytes outside any leaf such as whitespace, or a marker).
        byte_starts, byte_ends, char_starts, char_ends: ``int64`` half-open spans.
        lines, cols: ``int64`` 1-based line, 0-based char column of each start (worked out
            on first read when the lexer left them out, as the one-call encode does).
        flags: ``uint8`` :class:`LexemeFlag` bits.
        type_names: node type names shared by all lexemes of the language.
        has_error: whether tree-sitter had to recover from a syntax error.
        tree: the tree-sitter tree; its byte offsets are shifted by :attr:`tree_offset`
            (3 when a BOM was removed before parsing). When the native lexer parsed the
            source, the tree is parsed again on first access (the same tree: see
            :mod:`codetok.code.front.native`).
    """

    __slots__ = (
        "language",
        "source",
        "kinds",
        "node_types",
        "parent_types",
        "byte_starts",
        "byte_ends",
        "char_starts",
        "char_ends",
        "_lines",
        "_cols",
        "flags",
        "type_names",
        "has_error",
        "_tree",
        "tree_offset",
        "_text",
        "_data",
    )

    def __init__(
        self,
        *,
        language: str,
        source: str | bytes,
        text: str,
        data: bytes,
        kinds: np.ndarray,
        node_types: np.ndarray,
        parent_types: np.ndarray,
        byte_starts: np.ndarray,
        byte_ends: np.ndarray,
        char_starts: np.ndarray,
        char_ends: np.ndarray,
        lines: np.ndarray | None,
        cols: np.ndarray | None,
        flags: np.ndarray,
        type_names: tuple[str, ...],
        has_error: bool,
        tree: object = None,
        tree_offset: int = 0,
    ) -> None:
        self.language = language
        self.source = source
        self._text = text
        self._data = data
        self.kinds = kinds
        self.node_types = node_types
        self.parent_types = parent_types
        self.byte_starts = byte_starts
        self.byte_ends = byte_ends
        self.char_starts = char_starts
        self.char_ends = char_ends
        self._lines = lines
        self._cols = cols
        self.flags = flags
        self.type_names = type_names
        self.has_error = has_error
        self._tree = tree
        self.tree_offset = tree_offset

    @property
    def lines(self) -> np.ndarray:
        """``int64`` 1-based line of each lexeme's start."""
        if self._lines is None:
            self._line_cols()
        return self._lines  # type: ignore[return-value]

    @property
    def cols(self) -> np.ndarray:
        """``int64`` 0-based char column of each lexeme's start."""
        if self._cols is None:
            self._line_cols()
        return self._cols  # type: ignore[return-value]

    def _line_cols(self) -> None:
        """Lines and columns from the starts: a line counts the ``\n`` bytes before the
        start, a column the chars since the last of them (as the lexers do)."""
        data = self._data
        newline = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
        before = np.searchsorted(newline, self.byte_starts, "left")
        if len(self._text) == len(data):  # ASCII: chars are bytes
            newline_char = newline
        else:
            newline_char = np.fromiter(
                (m.start() for m in re.finditer("\n", self._text)), np.int64, len(newline)
            )
        line_start = np.zeros(len(before), np.int64)
        has = before > 0
        line_start[has] = newline_char[before[has] - 1] + 1
        self._lines = before.astype(np.int64) + 1
        self._cols = self.char_starts - line_start

    @property
    def tree(self) -> Any:
        """The tree-sitter tree of the source (see the class docstring)."""
        if self._tree is None:
            from .budget import parse_tree
            from .languages import get_grammar

            body = self._data[self.tree_offset :]
            self._tree = parse_tree(get_grammar(self.language), body, None)
        return self._tree

    @tree.setter
    def tree(self, value: Any) -> None:
        self._tree = value

    # -- whole-stream views -------------------------------------------------------------

    @property
    def source_text(self) -> str:
        """The input as a str (char spans index it)."""
        return self._text

    @property
    def source_bytes(self) -> bytes:
        """The input as UTF-8 bytes (byte spans index it)."""
        return self._data

    def __len__(self) -> int:
        return int(self.kinds.shape[0])

    @overload
    def __getitem__(self, i: int) -> Lexeme: ...
    @overload
    def __getitem__(self, i: slice) -> list[Lexeme]: ...
    def __getitem__(self, i: int | slice) -> Lexeme | list[Lexeme]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"lexeme index {i} out of range for {n} lexemes")
        return Lexeme(
            i,
            LexemeKind(int(self.kinds[i])),
            self.text(i),
            self.type_names[int(self.node_types[i])],
            self.type_names[int(self.parent_types[i])],
            (int(self.byte_starts[i]), int(self.byte_ends[i])),
            (int(self.char_starts[i]), int(self.char_ends[i])),
            int(self.lines[i]),
            int(self.cols[i]),
            LexemeFlag(int(self.flags[i])),
        )

    def __iter__(self) -> Iterator[Lexeme]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return (
            f"<Lexemes {self.language} n={len(self)} bytes={len(self._data)}"
            f"{' has_error' if self.has_error else ''}>"
        )

    # -- per-lexeme accessors -----------------------------------------------------------

    def text(self, i: int) -> str:
        """Return the source text of lexeme ``i`` ("" for INDENT/DEDENT).

        Args:
            i: lexeme index.

        Returns:
            ``source_text[char_starts[i]:char_ends[i]]``.

        >>> from codetok.code import lex
        >>> lex("x = 1\\n", "python").text(0)
        'x'
        """
        return self._text[int(self.char_starts[i]) : int(self.char_ends[i])]

    def lexeme_bytes(self, i: int) -> bytes:
        """Return the source bytes of lexeme ``i``.

        Args:
            i: lexeme index.

        Returns:
            ``source_bytes[byte_starts[i]:byte_ends[i]]``.

        >>> from codetok.code import lex
        >>> lex(b"x = 1\\n", "python").lexeme_bytes(2)
        b'='
        """
        return self._data[int(self.byte_starts[i]) : int(self.byte_ends[i])]

    def texts(self) -> list[str]:
        """Return the text of every lexeme, in order; ``"".join`` gives back the source text.

        >>> from codetok.code import lex
        >>> lex("a+b", "javascript").texts()
        ['a', '+', 'b']
        """
        t = self._text
        return [
            t[a:b] for a, b in zip(self.char_starts.tolist(), self.char_ends.tolist(), strict=True)
        ]

    def node_type(self, i: int) -> str:
        """Return the tree-sitter node type of lexeme ``i`` ("" for gaps and markers)."""
        return self.type_names[int(self.node_types[i])]

    def parent_type(self, i: int) -> str:
        """Return the node type of the node enclosing lexeme ``i``."""
        return self.type_names[int(self.parent_types[i])]

    def kind(self, i: int) -> LexemeKind:
        """Return the kind of lexeme ``i``."""
        return LexemeKind(int(self.kinds[i]))

    def indices(self, *kinds: LexemeKind) -> np.ndarray:
        """Return the indices of lexemes of the given kinds.

        Args:
            *kinds: one or more :class:`LexemeKind`.

        Returns:
            An ``int64`` array of lexeme indices, in order.

        >>> from codetok.code import lex
        >>> lx = lex("def f(): pass", "python")
        >>> [lx.text(i) for i in lx.indices(LexemeKind.KEYWORD)]
        ['def', 'pass']
        """
        return np.flatnonzero(np.isin(self.kinds, np.array([int(k) for k in kinds], np.uint8)))

    def check(self) -> None:
        """Verify the coverage invariant and span consistency.

        Raises:
            ValueError: naming the first lexeme that breaks an invariant.

        >>> from codetok.code import lex
        >>> lex("x\\r\\n\\ty", "python").check()
        """
        n = len(self)
        bs, be, cs, ce = self.byte_starts, self.byte_ends, self.char_starts, self.char_ends
        width = be - bs
        zero = width == 0
        marker = np.isin(self.kinds, np.array([_K.INDENT, _K.DEDENT], np.uint8))
        bad = np.flatnonzero(zero != marker)
        if bad.size:
            raise ValueError(f"lexeme {bad[0]} is zero-width but not a marker (or vice versa)")
        if n == 0:
            if self._data:
                raise ValueError("no lexemes for a non-empty input")
            return
        if bs[0] != 0 or be[-1] != len(self._data):
            raise ValueError("lexemes do not start at 0 and end at the end of the input")
        if np.any(bs[1:] != be[:-1]):
            i = int(np.flatnonzero(bs[1:] != be[:-1])[0])
            raise ValueError(f"gap or overlap between lexemes {i} and {i + 1}")
        if cs[0] != 0 or ce[-1] != len(self._text) or np.any(cs[1:] != ce[:-1]):
            raise ValueError("char spans do not tile the text")
        if np.any((ce - cs == 0) != zero):
            raise ValueError("char span width disagrees with byte span width")
