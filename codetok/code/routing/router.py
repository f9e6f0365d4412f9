"""The router: each lexeme's kind picks its treatment (reserved token or subword pieces).

:func:`route` walks a :class:`~codetok.code.Lexemes` stream and emits *units* in source
order. A unit is either a reserved token (keyword, layout marker, comment marker, docstring
section marker) or a piece for a subword model, on the code channel or the comment channel:

================  ==========================================================================
kind              units
================  ==========================================================================
KEYWORD           ``<lang:kw>`` when the text is a keyword of the language, else word pieces
IDENTIFIER        the reversible split parts and joins (``get``, ``_``, ``user``)
NUMBER, STRING    number / word pieces under the digit policy
OPERATOR, PUNCT.  the lexeme whole (a run of punctuation whole, with ``join_punctuation``)
WHITESPACE        runs of one blank char (compact whitespace tokens)
NEWLINE           ``<NL>`` / ``<CRLF>`` / ``<CR>``
INDENT, DEDENT    ``<INDENT>`` / ``<DEDENT>`` (zero-width)
COMMENT           ``<comment>`` word pieces on the comment channel ``</comment>``
DOCSTRING         ``<doc>`` pieces, with ``<doc:NAME>`` before section headers, ``</doc>``
ERROR             word pieces
================  ==========================================================================

With ``fold_whitespace`` (:class:`RouterOptions`), layout costs no token of its own: a
newline and the indentation after it make one code piece (its kind NEWLINE; with
``fold_blank_lines``, the newlines of blank lines in between too), and a single
space between two tokens joins the code piece after it (``" x"``, ``" ="``, as GPT-style
tokenizers do), or a keyword's spaced twin (``<js: function>``, with ``spaced_keywords``),
but not a comment or a keyword without a twin. With
``join_punctuation``, touching punctuation is one piece and a lone punctuation char joins
the identifier after it (``"("`` + ``"self"`` -> ``"(self"``). A folded token's kind and
lexeme are those of the lexeme it joins.

Units tile the source (reserved tokens carry their exact surface), so the concatenation of
unit texts is the source, unless options drop comments or normalize whitespace; then a unit
may carry a replacement text and :attr:`Routed.lossless` is False.

Not handled: turning pieces into ids (:mod:`codetok.code.tokenizer`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..front.kinds import LexemeKind
from ..front.lexemes import Lexemes
from .comments import find_sections
from .identifiers import IdentifierSplitter, split_identifier
from .pieces import PieceSplitter
from .reserved import (
    COMMENT_CLOSE,
    COMMENT_OPEN,
    DEDENT,
    DOC_CLOSE,
    DOC_OPEN,
    INDENT,
    NEWLINES,
    ReservedTokens,
)

__all__ = ["RouterOptions", "Routed", "route", "CODE", "COMMENT"]

#: channel codes of piece units (reserved units carry their token index, >= 0)
CODE = -1
COMMENT = -2

_K = LexemeKind


@dataclass(frozen=True)
class RouterOptions:
    """What the router does with each kind of lexeme.

    Attributes:
        digits: digit policy of numbers, strings and comments (``single``/``group3``/``whole``).
        max_piece: the longest piece, in chars.
        split_identifiers: cut identifiers into parts (otherwise one piece each).
        statistical_split: also split same-case runs of identifiers (``getusername``).
        keyword_tokens: one reserved token per (language, keyword).
        comment_markers: ``<comment>``/``<doc>`` begin and end markers.
        doc_sections: ``<doc:NAME>`` markers before docstring section headers.
        drop_comments: leave comments out (the encoding is then not lossless).
        drop_docstrings: leave docstrings and documentation comments out.
        normalize_whitespace: one space between tokens, no trailing blanks, ``\\n`` line ends,
            four spaces per level for indentation-based languages.
        fold_whitespace: a newline and the indentation after it are one piece, and a single
            space joins the code piece after it (see the module docstring); saved tokenizers
            without the setting read it as False.
        join_punctuation: a run of punctuation lexemes with nothing between them (``();``,
            ``})``) is one piece (its kind and lexeme are the first one's), and a lone
            punctuation char right before an identifier joins its first piece (``.get``,
            ``(self``, as cl100k cuts them); saved tokenizers without the setting read it as
            False.
        fold_blank_lines: with ``fold_whitespace``, the newlines of the blank lines after a
            newline join its piece too (``"\\n\\n    "`` is one piece, where each newline
            was a ``<NL>`` of its own); saved tokenizers without the setting read it as
            False.
        spaced_keywords: the reserved set built for these options (a new tokenizer's, or
            training's) also has each keyword's spaced twin (``<js: function>``, the text
            ``" function"``), which a single space before the keyword joins, with
            ``fold_whitespace``, where the space was a token of its own; saved tokenizers
            without the setting read it as False (routing follows the reserved set a
            tokenizer holds).
    """

    digits: str = "group3"
    max_piece: int = 64
    split_identifiers: bool = True
    statistical_split: bool = False
    keyword_tokens: bool = True
    comment_markers: bool = True
    doc_sections: bool = True
    drop_comments: bool = False
    drop_docstrings: bool = False
    normalize_whitespace: bool = False
    fold_whitespace: bool = True
    join_punctuation: bool = True
    fold_blank_lines: bool = True
    spaced_keywords: bool = True

    @property
    def lossless(self) -> bool:
        """Whether decoding gives back the source exactly."""
        return not (self.drop_comments or self.drop_docstrings or self.normalize_whitespace)

    def to_dict(self) -> dict[str, object]:
        """JSON form (every field)."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class Routed:
    """Units in source order, as parallel lists.

    Attributes:
        ops: reserved token index (>= 0), :data:`CODE` or :data:`COMMENT` for a piece.
        starts, ends: char span of the unit in the source (zero-width for markers).
        lexemes: index of the lexeme the unit comes from.
        replaced: unit index -> replacement text (normalized whitespace only).
        lossless: whether the units spell the source exactly.
    """

    ops: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    lexemes: list[int] = field(default_factory=list)
    replaced: dict[int, str] = field(default_factory=dict)
    lossless: bool = True


class _Emitter:
    """Appends units to a :class:`Routed`; one instance per call of :func:`route`.

    ``lead`` is the start of a folded space waiting for the next unit (-1: none); the router
    sets it only before a lexeme whose first unit is a code piece, which then starts there.
    """

    def __init__(self, out: Routed) -> None:
        self.ops = out.ops
        self.starts = out.starts
        self.ends = out.ends
        self.lexemes = out.lexemes
        self.lead = -1

    def unit(self, op: int, a: int, b: int, lex: int) -> None:
        if self.lead >= 0:
            a, self.lead = self.lead, -1
        self.ops.append(op)
        self.starts.append(a)
        self.ends.append(b)
        self.lexemes.append(lex)

    def spans(self, op: int, spans: list[tuple[int, int]], lex: int) -> None:
        for a, b in spans:
            self.unit(op, a, b, lex)


def route(
    lexemes: Lexemes,
    reserved: ReservedTokens,
    index: dict[str, int],
    options: RouterOptions,
    splitter: PieceSplitter | None = None,
) -> Routed:
    """Route every lexeme to reserved tokens or subword pieces.

    Args:
        lexemes: the lexeme stream of one source.
        reserved: the reserved tokens (keywords per language, markers).
        index: reserved token -> the number a unit carries in :attr:`Routed.ops`.
        options: what to do with each kind.
        splitter: piece splitter (built from ``options`` when None).

    Returns:
        The units, in source order.

    >>> from codetok.code import lex
    >>> r = ReservedTokens.for_languages(["python"])
    >>> idx = {t: i for i, t in enumerate(r.tokens)}
    >>> lexemes_text = "if x_y: pass"
    >>> routed = route(lex(lexemes_text, "python"), r, idx, RouterOptions())
    >>> [r.tokens[o] if o >= 0 else lexemes_text[a:b] for o, a, b in
    ...  zip(routed.ops, routed.starts, routed.ends)]
    ['<py:if>', ' x', '_', 'y', ':', ' ', '<py:pass>']
    """
    r = _Router(lexemes, reserved, index, options, splitter)
    emit = r.emit
    kinds, starts, texts, n = r.kinds, r.starts, r.texts, r.n
    cap = options.max_piece
    fold = options.fold_whitespace and not options.normalize_whitespace
    join = options.join_punctuation
    skip_to = 0  # lexemes before it went into an earlier unit
    for i in range(n):
        if i < skip_to:
            continue
        k = kinds[i]
        t = texts[i]
        s = starts[i]
        e = s + len(t)
        if fold and k == _K.WHITESPACE and t == " " and i + 1 < n:
            j = r.fold_space(i, s, e)  # into the lexeme after it
            if j > i:
                skip_to = j
                continue
        if fold and k == _K.NEWLINE:
            j, end = r.newline_run(i, e)  # with the blank lines and indentation after it
            if j > i + 1:
                emit.unit(CODE, s, end, i)
                skip_to = j
                continue
        if join and k == _K.PUNCTUATION and e - s <= cap:
            skip_to, e = r.punctuation_run(i, e)
            if skip_to == i + 1 and e - s == 1 and r.touches_identifier(skip_to, e):
                if emit.lead < 0:  # a single punctuation char joins the identifier after it
                    emit.lead = s
                continue
        r.lexeme(i, k, t, s, e)
    return r.out


class _Router:
    """The state of one call of :func:`route`: the lexeme columns (as lists, which the loop
    indexes fastest), the reserved-token numbers, the options and the indentation depth, with
    the steps of the routing loop that take more than a few lines."""

    def __init__(
        self,
        lexemes: Lexemes,
        reserved: ReservedTokens,
        index: dict[str, int],
        options: RouterOptions,
        splitter: PieceSplitter | None,
    ) -> None:
        self.options = options
        self.index = index
        self.sp = splitter or PieceSplitter(options.digits, max_piece=options.max_piece)
        self.out = Routed(lossless=options.lossless)
        self.emit = _Emitter(self.out)
        self.kinds: list[int] = lexemes.kinds.tolist()
        self.starts: list[int] = lexemes.char_starts.tolist()
        self.texts = lexemes.texts()
        self.n = len(self.kinds)
        kw_table = reserved.keywords.get(lexemes.language, {}) if options.keyword_tokens else {}
        self.kw_ids = {kw: index[tok] for kw, tok in kw_table.items()}
        self.nl_ids = {nl: index[tok] for nl, tok in NEWLINES.items()}
        self.indent_id, self.dedent_id = index[INDENT], index[DEDENT]
        self.c_open, self.c_close = index[COMMENT_OPEN], index[COMMENT_CLOSE]
        self.d_open, self.d_close = index[DOC_OPEN], index[DOC_CLOSE]
        self.splitter_id: IdentifierSplitter | None = None
        if options.statistical_split:
            from .segmenter import WordSegmenter

            self.splitter_id = IdentifierSplitter(segmenter=WordSegmenter.default())
        self.cap = options.max_piece
        self.depth = 0
        self.indent_lang = options.normalize_whitespace and _K.INDENT in self.kinds

    def fold_space(self, i: int, s: int, e: int) -> int:
        """Fold the space at ``i`` into the next lexeme (fold_whitespace); return where to go on."""
        nk = self.kinds[i + 1]
        if nk == _K.KEYWORD and self.starts[i + 1] == e:
            spaced = self.kw_ids.get(" " + self.texts[i + 1])  # the keyword's spaced twin
            if spaced is not None:
                self.emit.unit(spaced, s, e + len(self.texts[i + 1]), i + 1)
                return i + 2
        if nk in _FOLDS_INTO or (nk == _K.KEYWORD and self.texts[i + 1] not in self.kw_ids):
            self.emit.lead = s
            return i + 1
        return i

    def newline_run(self, i: int, e: int) -> tuple[int, int]:
        """The (next lexeme, end) of the blank lines and indentation newline ``i`` takes in."""
        kinds, starts, texts, n = self.kinds, self.starts, self.texts, self.n
        s = starts[i]
        cap = self.cap
        j, end = i + 1, e
        while (  # with fold_blank_lines, the newlines of blank lines after it
            self.options.fold_blank_lines
            and j < n
            and kinds[j] == _K.NEWLINE
            and starts[j] == end
            and end + len(texts[j]) - s <= cap
        ):
            end += len(texts[j])
            j += 1
        if j < n and kinds[j] == _K.WHITESPACE:  # the indentation after them
            w = texts[j]
            if end + len(w) - s <= cap and not w.strip(" \t"):
                end += len(w)
                j += 1
        return j, end

    def punctuation_run(self, i: int, e: int) -> tuple[int, int]:
        """The (next lexeme, end) of the touching punctuation that joins the piece of ``i``."""
        kinds, starts, texts, n = self.kinds, self.starts, self.texts, self.n
        s = starts[i]
        j = i + 1
        while (
            j < n
            and kinds[j] == _K.PUNCTUATION
            and starts[j] == e
            and e + len(texts[j]) - s <= self.cap
        ):
            e += len(texts[j])
            j += 1
        return j, e

    def touches_identifier(self, j: int, e: int) -> bool:
        """Whether lexeme ``j`` is an identifier at ``e``, which a lone punctuation char joins."""
        return j < self.n and self.kinds[j] == _K.IDENTIFIER and self.starts[j] == e

    def code(self, i: int, t: str, s: int, e: int) -> None:
        """One code piece, or word pieces when longer than ``max_piece``, the models' limit."""
        if e - s > self.cap:
            self.emit.spans(CODE, self.sp.spans("words", t, s), i)
        else:
            self.emit.unit(CODE, s, e, i)

    def lexeme(self, i: int, k: int, t: str, s: int, e: int) -> None:
        """Emit the units lexeme ``i`` gets by its kind (the table of the module docstring)."""
        emit, sp = self.emit, self.sp
        if k == _K.IDENTIFIER:
            self.identifier(i, t, s, e)
        elif k == _K.WHITESPACE:
            if self.options.normalize_whitespace:
                _normalized_ws(
                    self.out, self.kinds, self.texts, i, s, e, self.depth, self.indent_lang
                )
            elif e - s <= self.cap and t.count(t[0]) == e - s:
                emit.unit(CODE, s, e, i)
            else:
                emit.spans(CODE, sp.spans("whitespace", t, s), i)
        elif k == _K.OPERATOR or k == _K.PUNCTUATION:
            self.code(i, t, s, e)
        elif k == _K.KEYWORD:
            kid = self.kw_ids.get(t)
            if kid is not None:
                emit.unit(kid, s, e, i)
            else:
                emit.spans(CODE, sp.spans("words", t, s), i)
        elif k == _K.NEWLINE:
            self.newline(i, t, s, e)
        elif k == _K.STRING:
            emit.spans(CODE, sp.spans("words", t, s), i)
        elif k == _K.NUMBER:
            emit.spans(CODE, sp.spans("number", t, s), i)
        elif k == _K.INDENT:
            self.depth += 1
            emit.unit(self.indent_id, s, s, i)
        elif k == _K.DEDENT:
            self.depth -= 1
            emit.unit(self.dedent_id, s, s, i)
        elif k == _K.COMMENT:
            if not self.options.drop_comments:
                self.comment(i, t, s, e)
        elif k == _K.DOCSTRING:
            if not self.options.drop_docstrings:
                self.docstring(i, t, s, e)
        else:  # ERROR and anything new
            emit.spans(CODE, sp.spans("words", t, s), i)

    def identifier(self, i: int, t: str, s: int, e: int) -> None:
        """Code pieces of an identifier: its split parts (split_identifiers), else itself."""
        if self.options.split_identifiers and len(t) > 1:
            split = self.splitter_id.split(t) if self.splitter_id else split_identifier(t)
            for p in split.pieces():
                b = s + len(p)
                self.code(i, p, s, b)
                s = b
        else:
            self.code(i, t, s, e)

    def newline(self, i: int, t: str, s: int, e: int) -> None:
        """The reserved token of a newline (``<NL>`` when normalized), else whitespace pieces."""
        if self.options.normalize_whitespace:
            self.emit.unit(self.nl_ids["\n"], s, e, i)
            if t != "\n":
                self.out.lossless = False
        else:
            nid = self.nl_ids.get(t)
            if nid is not None:
                self.emit.unit(nid, s, e, i)
            else:
                self.emit.spans(CODE, self.sp.spans("whitespace", t, s), i)

    def comment(self, i: int, t: str, s: int, e: int) -> None:
        """A comment as comment-channel pieces, between markers when comment_markers is on."""
        marks = self.options.comment_markers
        if marks:
            self.emit.unit(self.c_open, s, s, i)
        self.emit.spans(COMMENT, self.sp.spans("words", t, s), i)
        if marks:
            self.emit.unit(self.c_close, e, e, i)

    def docstring(self, i: int, t: str, s: int, e: int) -> None:
        """A docstring as comment-channel pieces with section markers, between doc markers."""
        marks = self.options.comment_markers
        if marks:
            self.emit.unit(self.d_open, s, s, i)
        _docstring(self.emit, self.sp, t, s, i, self.index, self.options.doc_sections)
        if marks:
            self.emit.unit(self.d_close, e, e, i)


def _docstring(
    emit: _Emitter,
    sp: PieceSplitter,
    text: str,
    base: int,
    lex: int,
    index: dict[str, int],
    sections: bool,
) -> None:
    """Pieces of a docstring, with a zero-width marker before each section header."""
    cuts = find_sections(text) if sections else []
    pos = 0
    for off, name in cuts:
        if off > pos:
            emit.spans(COMMENT, sp.spans("words", text[pos:off], base + pos), lex)
        emit.unit(index[f"<doc:{name}>"], base + off, base + off, lex)
        pos = off
    if pos < len(text):
        emit.spans(COMMENT, sp.spans("words", text[pos:], base + pos), lex)


_LAYOUT = (_K.INDENT, _K.DEDENT)
#: kinds whose first unit is always a code piece (a folded space joins it)
_FOLDS_INTO = frozenset(
    (_K.IDENTIFIER, _K.OPERATOR, _K.PUNCTUATION, _K.STRING, _K.NUMBER, _K.ERROR)
)


def _normalized_ws(
    out: Routed,
    kinds: list[int],
    texts: list[str],
    i: int,
    s: int,
    e: int,
    depth: int,
    indent_language: bool,
) -> None:
    """One WHITESPACE lexeme under ``normalize_whitespace`` (see :class:`RouterOptions`)."""
    t = texts[i]
    if "\\" in t or "\n" in t or "\r" in t:  # a line continuation stays as it is
        out.ops.append(CODE)
        out.starts.append(s)
        out.ends.append(e)
        out.lexemes.append(i)
        return
    j = i + 1
    d = depth
    while j < len(kinds) and kinds[j] in _LAYOUT:
        d += 1 if kinds[j] == _K.INDENT else -1
        j += 1
    trailing = j >= len(kinds) or kinds[j] == _K.NEWLINE
    line_start = i == 0 or kinds[i - 1] == _K.NEWLINE
    if trailing:
        new = ""
    elif line_start:
        new = "    " * d if indent_language else t
    else:
        new = " "
    if new != t:
        out.lossless = False
    if not new:
        return
    out.ops.append(CODE)
    out.starts.append(s)
    out.ends.append(e)
    out.lexemes.append(i)
    if new != t:
        out.replaced[len(out.ops) - 1] = new
