"""The result of encoding source code: ids plus per-token kind, node type, span and line.

:class:`CodeEncoding` holds parallel per-token arrays built by
:meth:`codetok.code.CodeTokenizer.encode`. Spans index the source as given: char spans into
the str (for bytes input, into ``bytes.decode("utf-8", "surrogateescape")``), byte spans
into its UTF-8 bytes. A token that covers part of a multi-byte character gets the char span
of the whole character. Zero-width tokens (``<INDENT>``, ``<comment>``...) have an empty
span at their position. It does not tokenize anything itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .front.kinds import LexemeKind
from .front.lexemes import Lexemes
from .front.lexer import char_to_byte

__all__ = ["CodeEncoding", "token_positions"]


class CodeEncoding:
    """Token ids of one source file with what each token is and where it comes from.

    Attributes:
        ids: token ids (a list, built on first read from :attr:`ids_array`).
        ids_array: the ids as an ``int64`` array.
        tokens: token strings (byte-level spelling for subword tokens; built on first read).
        kinds: ``uint8`` :class:`~codetok.code.LexemeKind` of each token's lexeme.
        node_type_ids: ``uint16`` indices into :attr:`type_names`.
        type_names: node type names of the language.
        lexeme_indices: ``int64`` index of each token's lexeme in :attr:`lexemes`.
        spans: ``int64`` array of shape (n, 2): char spans into the source.
        byte_spans: ``int64`` array of shape (n, 2): byte spans into the UTF-8 source.
        lines: ``int64`` 1-based line of each token's start.
        language: canonical language name.
        source_is_bytes: the input was bytes (decode with ``as_bytes=True`` to get it back,
            with ``from_bytes=True`` to get its ``surrogateescape`` text).
        lossless: ``decode(ids)`` gives back the source exactly. False when comments were
            dropped or whitespace normalized; decoding then gives the normalized source.
        lexemes: the lexeme stream the tokens come from.

    Args:
        ids: the ids, as a list or an int array.
        tokens: the token strings, or None to look each id up in ``vocab`` on first read.
        vocab: token string by id (with ``tokens=None``).
        lengths: the byte length of every id's token, for an encoding whose token bytes
            spell the source (lossless): ``kinds``, ``node_type_ids``, ``spans``,
            ``byte_spans`` and ``lines`` may then be None and are worked out from the ids
            and lexeme indices when first read (a large file's encoding holds 16 bytes per
            token until then, not 59).

    The other arguments are the attributes of the same names.

    >>> from codetok.code import CodeTokenizer
    >>> enc = CodeTokenizer.default().encode("x = 1\\n", "python")
    >>> [k.name for k in enc.kind_list()]
    ['IDENTIFIER', 'OPERATOR', 'NUMBER', 'NEWLINE']
    >>> [enc.token_text(i) for i in range(len(enc))]  # a space joins the token after it
    ['x', ' =', ' 1', '\\n']
    """

    __slots__ = (
        "_ids",
        "_id_array",
        "_tokens",
        "_vocab",
        "_kinds",
        "_node_type_ids",
        "type_names",
        "lexeme_indices",
        "_spans",
        "_byte_spans",
        "_lines",
        "_lengths",
        "language",
        "source_is_bytes",
        "lossless",
        "lexemes",
    )

    def __init__(
        self,
        ids: list[int] | np.ndarray,
        tokens: list[str] | None,
        kinds: np.ndarray | None,
        node_type_ids: np.ndarray | None,
        type_names: tuple[str, ...],
        lexeme_indices: np.ndarray,
        spans: np.ndarray | None,
        byte_spans: np.ndarray | None,
        lines: np.ndarray | None,
        language: str,
        source_is_bytes: bool,
        lossless: bool,
        lexemes: Lexemes,
        *,
        vocab: Sequence[str] | None = None,
        lengths: np.ndarray | None = None,
    ) -> None:
        if tokens is None and vocab is None:
            raise TypeError("CodeEncoding needs tokens or a vocab to look them up in")
        if lengths is None and any(
            a is None for a in (kinds, node_type_ids, spans, byte_spans, lines)
        ):
            raise TypeError("CodeEncoding works out missing annotations only from lengths")
        if lengths is not None and not lossless:
            raise TypeError("only a lossless CodeEncoding works its spans out of its ids")
        self._ids = ids if isinstance(ids, list) else None
        self._id_array = np.asarray(ids, np.int64) if self._ids is None else None
        self._tokens = tokens
        self._vocab = vocab
        self._kinds = kinds
        self._node_type_ids = node_type_ids
        self.type_names = type_names
        self.lexeme_indices = lexeme_indices
        self._spans = spans
        self._byte_spans = byte_spans
        self._lines = lines
        self._lengths = lengths
        self.language = language
        self.source_is_bytes = source_is_bytes
        self.lossless = lossless
        self.lexemes = lexemes

    @property
    def ids(self) -> list[int]:
        """Token ids."""
        if self._ids is None:
            self._ids = self._id_array.tolist()  # type: ignore[union-attr]
        return self._ids

    @ids.setter
    def ids(self, value: list[int]) -> None:
        self._ids = list(value)
        self._id_array = None

    @property
    def ids_array(self) -> np.ndarray:
        """Token ids as an ``int64`` array."""
        if self._id_array is None:
            self._id_array = np.asarray(self._ids, np.int64)
        return self._id_array

    @property
    def tokens(self) -> list[str]:
        """Token strings (byte-level spelling for subword tokens)."""
        if self._tokens is None:
            vocab = self._vocab
            self._tokens = [vocab[i] for i in self.ids]  # type: ignore[index]
        return self._tokens

    @tokens.setter
    def tokens(self, value: list[str]) -> None:
        self._tokens = list(value)

    # ---------------------------------------------------------------- annotations
    @property
    def kinds(self) -> np.ndarray:
        """``uint8`` :class:`~codetok.code.LexemeKind` of each token's lexeme."""
        if self._kinds is None:
            self._kinds = self.lexemes.kinds[self.lexeme_indices]
        return self._kinds

    @kinds.setter
    def kinds(self, value: np.ndarray) -> None:
        self._kinds = value

    @property
    def node_type_ids(self) -> np.ndarray:
        """``uint16`` index into :attr:`type_names` of each token's node type."""
        if self._node_type_ids is None:
            self._node_type_ids = self.lexemes.node_types[self.lexeme_indices]
        return self._node_type_ids

    @node_type_ids.setter
    def node_type_ids(self, value: np.ndarray) -> None:
        self._node_type_ids = value

    @property
    def byte_spans(self) -> np.ndarray:
        """``int64`` array of shape (n, 2): byte spans into the UTF-8 source."""
        if self._byte_spans is None:
            # Lossless: the tokens' bytes spell the source, so each starts where the bytes
            # of the tokens before it end.
            lens = self._lengths[self.ids_array]  # type: ignore[index]
            ends = np.cumsum(lens)
            self._byte_spans = np.stack([ends - lens, ends], axis=1)
        return self._byte_spans

    @byte_spans.setter
    def byte_spans(self, value: np.ndarray) -> None:
        self._byte_spans = value

    @property
    def spans(self) -> np.ndarray:
        """``int64`` array of shape (n, 2): char spans into the source."""
        if self._spans is None:
            self._annotate()
        return self._spans  # type: ignore[return-value]

    @spans.setter
    def spans(self, value: np.ndarray) -> None:
        self._spans = value

    @property
    def lines(self) -> np.ndarray:
        """``int64`` 1-based line of each token's start."""
        if self._lines is None:
            self._annotate()
        return self._lines  # type: ignore[return-value]

    @lines.setter
    def lines(self, value: np.ndarray) -> None:
        self._lines = value

    def _annotate(self) -> None:
        b = self.byte_spans
        lx = self.lexemes
        spans, lines = token_positions(
            lx.source_text, lx.source_bytes, self.source_is_bytes, b[:, 0], b[:, 1]
        )
        if self._spans is None:
            self._spans = spans
        if self._lines is None:
            self._lines = lines

    def __len__(self) -> int:
        return len(self._ids) if self._ids is not None else len(self._id_array)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        flag = "" if self.lossless else " normalized"
        return f"<CodeEncoding {self.language} tokens={len(self.ids)}{flag}>"

    @property
    def node_types(self) -> list[str]:
        """The tree-sitter node type of each token's lexeme ("" for gaps)."""
        names = self.type_names
        return [names[i] for i in self.node_type_ids.tolist()]

    @property
    def offsets(self) -> list[tuple[int, int]]:
        """Char spans as a list of tuples (like :attr:`codetok.Encoding.offsets`)."""
        return [(int(a), int(b)) for a, b in self.spans.tolist()]

    def kind_list(self) -> list[LexemeKind]:
        """The kind of each token as :class:`~codetok.code.LexemeKind` members."""
        return [LexemeKind(k) for k in self.kinds.tolist()]

    def token_text(self, i: int) -> str:
        """The source text under token ``i`` ("" for a zero-width marker)."""
        a, b = self.spans[i].tolist()
        return self.lexemes.source_text[a:b]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ids, tokens, kinds (names), node types, spans and lines.

        >>> from codetok.code import CodeTokenizer
        >>> d = CodeTokenizer.default().encode("x\\n", "python").to_dict()
        >>> sorted(d)
        ['byte_spans', 'ids', 'kinds', 'language', 'lines', 'lossless', 'node_types', 'spans', 'tokens']
        """
        return {
            "language": self.language,
            "lossless": self.lossless,
            "ids": list(self.ids),
            "tokens": list(self.tokens),
            "kinds": [k.name for k in self.kind_list()],
            "node_types": self.node_types,
            "spans": self.spans.tolist(),
            "byte_spans": self.byte_spans.tolist(),
            "lines": self.lines.tolist(),
        }


def token_positions(
    text: str, data: bytes, from_bytes: bool, bstart: np.ndarray, bend: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Char spans (n, 2) and 1-based lines of tokens at byte spans ``[bstart, bend)`` of a
    source whose text is ``text`` and UTF-8 bytes ``data``: a token that starts inside a
    character gets that character; its end is the first character starting at or after
    its last byte.

    >>> spans, lines = token_positions("é\\nx", "é\\nx".encode(), False,
    ...                                np.array([0, 1, 2, 3]), np.array([1, 2, 3, 4]))
    >>> spans.tolist(), lines.tolist()
    ([[0, 1], [0, 1], [1, 2], [2, 3]], [1, 1, 1, 2])
    """
    if len(text) == len(data):
        cstart, cend = bstart, bend
    else:
        char_byte = char_to_byte(text, from_bytes)
        cstart = np.searchsorted(char_byte, bstart, "right") - 1
        cend = np.searchsorted(char_byte, bend, "left")
    nl = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    lines = np.searchsorted(nl, bstart, "left") + 1
    spans = np.stack([cstart, cend], axis=1) if bstart.size else np.zeros((0, 2), np.int64)
    return spans, lines
