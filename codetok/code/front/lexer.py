"""Lexer: tree-sitter parse tree -> a lossless stream of lexemes stored as arrays.

:func:`lex` parses source code with the language's tree-sitter grammar and walks the tree
once with a cursor, turning leaves into lexemes whose kind comes from the grammar file
(``grammars/*.toml``). Bytes no leaf covers become WHITESPACE / NEWLINE lexemes (or ERROR
when they are not blank). Inside string nodes, leaves and gaps merge into one STRING run per
stretch between interpolations; the code inside an interpolation is lexed as code.

Coverage invariant: the lexemes of non-zero width tile the input in order, with no gap and no
overlap. The only zero-width lexemes are INDENT and DEDENT markers, placed just before the
first code lexeme of an indented block (INDENT) and of the first line after it (DEDENT, at
the end of input for a block that ends the file); the indentation itself stays a WHITESPACE
lexeme. Markers come from the grammar's ``[layout] indent_blocks`` and are always balanced.

Positions: byte spans index the UTF-8 bytes (``Lexemes.source_bytes``: the input itself for
bytes, ``str.encode("utf-8", "surrogatepass")`` for str). Char spans index the Python string
(``Lexemes.source_text``: the input for str, ``bytes.decode("utf-8", "surrogateescape")`` for
bytes, so each invalid byte is one char). Lines are 1-based and count ``\\n``; columns are
0-based, in chars. A UTF-8 byte order mark at the start is one WHITESPACE lexeme and is not
given to the parser.

Not handled here: identifier splitting (:mod:`codetok.code.routing.identifiers`), language detection
(:mod:`codetok.code.front.language`), and anything about subword tokens.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ...engine import native as _backend
from ...errors import InputError, LanguageError
from .budget import DEFAULT_BUDGET, ParseBudget, limit_error, parse_tree
from .doc_before import mark_doc_before
from .grammar import (
    ROLE_ATOMIC,
    ROLE_CODE,
    ROLE_DECORATOR,
    ROLE_DOCBODY,
    ROLE_ERROR,
    ROLE_INDENT,
    ROLE_STRING,
    TEXT_DEFINED,
    Grammar,
    text_kind,
)
from .kinds import LexemeFlag, LexemeKind
from .language import detect_language
from .languages import get_grammar
from .layout import insert_layout, split_gaps
from .lexemes import Lexeme, Lexemes
from .native import native_lexer

__all__ = ["lex", "lex_prepared", "prepare", "Prepared", "Lexemes", "Lexeme", "char_to_byte"]

_K = LexemeKind
_BOM = b"\xef\xbb\xbf"
#: the roles of a node that change the walk's context inside it (see :func:`_context_inside`)
_CONTEXT_ROLES = ROLE_STRING | ROLE_CODE | ROLE_DECORATOR | ROLE_ERROR


# ----------------------------------------------------------------------------- lexing


def lex(
    source: str | bytes,
    /,
    language: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    budget: ParseBudget | None = None,
) -> Lexemes:
    """Lex source code into a lossless stream of typed lexemes.

    Args:
        source: the code, as str or bytes (any bytes: invalid UTF-8 is kept byte for byte).
        language: a language name or alias; when None it is detected from ``path`` and the
            content (see :func:`codetok.code.detect_language`).
        path: the file the code came from, used for language detection and in errors.
        budget: the time and memory the parse may take (default:
            :data:`~codetok.code.front.budget.DEFAULT_BUDGET`, proportional to the size).

    Returns:
        A :class:`Lexemes` whose non-zero-width lexemes tile the input.

    Raises:
        LanguageError: the language is unknown, or cannot be detected with confidence.
        TypeError: ``source`` is neither str nor bytes.
        ParseLimitError: the parse went past ``budget`` (a pathological input).

    >>> lx = lex("def f(x):\\n    return x\\n", "python")
    >>> [(lx.kind(i).name, lx.text(i)) for i in range(6)]
    [('KEYWORD', 'def'), ('WHITESPACE', ' '), ('IDENTIFIER', 'f'), ('PUNCTUATION', '('), ('IDENTIFIER', 'x'), ('PUNCTUATION', ')')]
    >>> "".join(lx.texts()) == lx.source
    True
    """
    return lex_prepared(prepare(source, language, path=path, budget=budget))


def lex_prepared(src: Prepared) -> Lexemes:
    """:func:`lex` of a source :func:`prepare` made ready."""
    plan = native_lexer(src.grammar)
    if plan is not None:  # the same columns, in one native call (native.py)
        try:
            *columns, has_error = plan.lex(
                src.grammar.capsule,
                src.parsed,
                src.base,
                src.text,
                src.from_bytes,
                *src.limits,
            )
        except _backend.core().ParseStopped as e:
            raise src.limit_error(e) from None
        return src.lexemes(columns, has_error)
    tree = parse_tree(src.grammar, src.body, src.budget, path=src.path)
    columns = _columns(tree, src.grammar, src.parsed, src.base, src.text, src.from_bytes)
    return src.lexemes(columns, tree.root_node.has_error, tree)


class Prepared(NamedTuple):
    """One source made ready to lex (:func:`prepare`): what the parse and the columns read."""

    grammar: Grammar
    source: str | bytes
    text: str  # the source as char spans index it
    data: bytes  # the source as byte spans index it
    from_bytes: bool
    parsed: bytes  # ``data`` as the parser reads it (``parsed[base:]``)
    base: int  # 3 after a UTF-8 byte order mark, else 0
    budget: ParseBudget
    path: str | os.PathLike[str] | None

    @property
    def body(self) -> bytes:
        """The bytes the parser reads."""
        return self.parsed[self.base :] if self.base else self.parsed

    @property
    def limits(self) -> tuple[float, int]:
        """``(seconds, bytes)`` the parse may take (``ParseBudget.limits``)."""
        return self.budget.limits(len(self.parsed) - self.base)

    def limit_error(self, stopped: BaseException) -> Exception:
        """The :class:`~codetok.errors.ParseLimitError` of the native ``ParseStopped``."""
        size = len(self.parsed) - self.base
        return limit_error(*stopped.args, size, self.budget, self.grammar.name, self.path)

    def lexemes(self, columns: Sequence[Any], has_error: bool, tree: Any = None) -> Lexemes:
        """The :class:`Lexemes` of the 10 columns of either lexer."""
        k, nt, pt, bs, be, cs, ce, ln, co, fl = columns
        if be is None:  # the native lexer's (n + 1) starts: ends are the next starts (shared)
            bs, be = _tiled(bs)
            cs, ce = _tiled(cs)
        return Lexemes(
            language=self.grammar.name,
            source=self.source,
            text=self.text,
            data=self.data,
            kinds=k,
            node_types=nt,
            parent_types=pt,
            byte_starts=bs,
            byte_ends=be,
            char_starts=cs,
            char_ends=ce,
            lines=ln,
            cols=co,
            flags=fl,
            type_names=self.grammar.type_names,
            has_error=bool(has_error),
            tree=tree,
            tree_offset=self.base,
        )


def prepare(
    source: str | bytes,
    language: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    budget: ParseBudget | None = None,
) -> Prepared:
    """Check ``source``, find its language and grammar, and spell it as the lexer reads it.

    Raises:
        LanguageError, TypeError: as :func:`lex`.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        text = data.decode("utf-8", "surrogateescape")
        from_bytes = True
        source = data if not isinstance(source, bytes) else source
    elif isinstance(source, str):
        text = source
        data = source.encode("utf-8", "surrogatepass")
        from_bytes = False
    else:
        raise InputError(f"source code must be str or bytes, not {type(source).__name__}")
    if language is None:
        language = detect_language(source, path=path, budget=budget)
    try:
        grammar = get_grammar(language)
    except LanguageError as e:
        if path is None:
            raise
        raise LanguageError(f"{os.fspath(path)}: {e}") from e
    base = 3 if data.startswith(_BOM) else 0
    parsed = data if from_bytes else parseable(data)
    budget = DEFAULT_BUDGET if budget is None else budget
    return Prepared(grammar, source, text, data, from_bytes, parsed, base, budget, path)


def _tiled(bounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Read-only starts and ends views of one array of n + 1 lexeme bounds."""
    bounds.flags.writeable = False
    return bounds[:-1], bounds[1:]


def _columns(
    tree: object, grammar: Grammar, data: bytes, base: int, text: str, from_bytes: bool
) -> tuple[np.ndarray, ...]:
    """Every column of the lexemes of ``data`` (``data[base:]`` parsed into ``tree``):
    kinds, node types, parent types, byte starts and ends, char starts and ends, lines,
    columns, flags."""
    body = data[base:] if base else data
    root = tree.root_node  # type: ignore[attr-defined]
    out, block_list = _walk(root, grammar)
    records = np.array(out, np.int64).reshape(-1, 6)
    blocks = np.array(block_list, np.int64).reshape(-1, 4)
    covered = int(records[-1, 1]) if len(records) else 0
    if len(body) > covered:  # bytes after the root node, such as trailing blank lines
        root_t = grammar.type_index[min(root.kind_id, len(grammar.type_index) - 1)]
        tail = [covered, len(body), len(grammar.leaf_kinds) - 2, root_t, 0, 0]
        records = np.concatenate([records, np.array([tail], np.int64)])
    k, nt, pt, fl, bs, be = _records_to_columns(records, body, grammar)
    if base:
        bs = np.concatenate([np.zeros(1, np.int64), bs + base])
        be = np.concatenate([np.array([3], np.int64), be + base])
        k = np.concatenate([np.array([_K.WHITESPACE], np.uint8), k])
        nt = np.concatenate([np.zeros(1, np.uint16), nt])
        pt = np.concatenate([np.zeros(1, np.uint16), pt])
        fl = np.concatenate([np.zeros(1, np.uint8), fl])
    if len(blocks):
        k, nt, pt, fl, bs, be = insert_layout(blocks, base, len(data), k, nt, pt, fl, bs, be)
    cs, ce, ln, co = _positions(text, data, from_bytes, bs, be)
    return k, nt, pt, bs, be, cs, ce, ln, co, fl


def _walk(root: object, g: Grammar) -> tuple[list[int], list[tuple[int, int, int, int]]]:
    """Walk the tree once with a cursor (the hot loop of the lexer).

    Returns a flat list of records ``(start, end, kid, parent, flags, ctx)`` and
    the indent blocks ``(start, end, type index, parent type index)``. ``kid`` is the leaf's
    kind id, the string node's kind id for string pieces, or ``GAP`` (``node_kind_count``)
    for code bytes no leaf covers. ``parent`` is a type index. ``ctx`` is 0 in code, +owner
    inside a string and -owner inside a docstring; owner numbers string nodes, and the
    pieces of one owner merge later.
    """
    out: list[int] = []
    ext = out.extend
    blocks: list[tuple[int, int, int, int]] = []
    roles = g.roles
    tindex = g.type_index
    doc_starts: set[int] = set()
    gap_kid = len(roles) - 2
    max_kid = gap_kid
    error_kid = gap_kid + 1
    ctx = 0
    fl = 0
    cur_t = tindex[min(root.kind_id, error_kid)]  # type: ignore[attr-defined]
    own_kid = 0
    own_p = 0
    next_owner = 1
    pos = 0
    # one entry per open inner node: its parent's type index (an int) when the node changes
    # no context, else a tuple (end byte, saved ctx, flags, type, owner kid, owner parent)
    stack: list[int | tuple[int, int, int, int, int, int]] = []
    push = stack.append
    pop = stack.pop
    if root.child_count == 0:  # type: ignore[attr-defined]
        return out, blocks
    cursor = root.walk()  # type: ignore[attr-defined]
    first_child = cursor.goto_first_child
    next_sibling = cursor.goto_next_sibling
    parent = cursor.goto_parent
    node = root
    while True:
        kid = node.kind_id
        if kid >= max_kid:
            kid = error_kid
        s = node.start_byte
        if s > pos:
            ext((pos, s, own_kid, own_p, fl, ctx) if ctx else (pos, s, gap_kid, cur_t, fl, 0))
            pos = s
        r = roles[kid]
        if r & ROLE_ATOMIC or not first_child():
            e = node.end_byte
            if e > pos:
                ext((pos, e, own_kid, own_p, fl, ctx) if ctx else (pos, e, kid, cur_t, fl, 0))
                pos = e
            while not next_sibling():
                if not stack or not parent():
                    break
                frame = pop()
                if frame.__class__ is int:
                    cur_t = frame  # type: ignore[assignment]
                    continue
                end = frame[0]  # type: ignore[index]
                if end > pos:  # the node's trailing bytes, in the node's own context
                    if ctx:
                        ext((pos, end, own_kid, own_p, fl, ctx))
                    else:
                        ext((pos, end, gap_kid, cur_t, fl, 0))
                    pos = end
                _, ctx, fl, cur_t, own_kid, own_p = frame  # type: ignore[misc]
            else:
                node = cursor.node
                continue
            break
        # an inner node: the cursor already stands on its first child
        if r:
            push((node.end_byte, ctx, fl, cur_t, own_kid, own_p))
            if r & ROLE_DOCBODY:
                _note_docstring(node, g, kid, cur_t, doc_starts)
            if r & _CONTEXT_ROLES:
                ctx, fl, own_kid, own_p, next_owner = _context_inside(
                    r, kid, s in doc_starts, cur_t, ctx, fl, own_kid, own_p, next_owner
                )
            if r & ROLE_INDENT:
                blocks.append((s, node.end_byte, tindex[kid], cur_t))
        else:
            push(cur_t)
        cur_t = tindex[kid]
        node = cursor.node
    return out, blocks


def _note_docstring(
    node: object, g: Grammar, kid: int, parent_t: int, doc_starts: set[int]
) -> None:
    """Note where a body's docstring starts, where the rule allows one, to lex it as such."""
    rule = g.docstring
    if rule is None:
        return
    allowed = rule.bodies.get(g.type_names[g.type_index[kid]])
    if allowed is None or g.type_names[parent_t] in allowed:
        _find_docstring(node, rule, doc_starts)


def _context_inside(
    r: int,
    kid: int,
    is_doc: bool,
    cur_t: int,
    ctx: int,
    fl: int,
    own_kid: int,
    own_p: int,
    next_owner: int,
) -> tuple[int, int, int, int, int]:
    """The walk's (ctx, flags, owner kid, owner parent, next owner) inside a role node."""
    if r & ROLE_STRING and not ctx:
        ctx = -next_owner if is_doc else next_owner
        next_owner += 1
        own_kid = kid
        own_p = cur_t
    elif r & ROLE_CODE and ctx:
        ctx = 0
        fl |= LexemeFlag.INTERPOLATION
    if r & ROLE_DECORATOR:
        fl |= LexemeFlag.DECORATOR
    if r & ROLE_ERROR:
        fl |= LexemeFlag.IN_ERROR
    return ctx, fl, own_kid, own_p, next_owner


def _merge_runs(rec: np.ndarray) -> np.ndarray:
    """Walk records (an ``(n, 6)`` array) with each run of pieces of one string owner
    merged into its first record, which ends where the run ends (the native walk merges
    as it goes)."""
    ctx = rec[:, 5]
    if rec.shape[0]:
        same = np.zeros(rec.shape[0], bool)
        same[1:] = (ctx[1:] != 0) & (ctx[1:] == ctx[:-1])
        if same.any():
            keep = np.flatnonzero(~same)
            last = np.append(keep[1:] - 1, rec.shape[0] - 1)
            ends = rec[last, 1]
            rec = rec[keep]
            rec[:, 1] = ends
    return rec


def _split_comment_line_breaks(rec: np.ndarray, body: bytes, g: Grammar) -> np.ndarray:
    """Give the line break that ends some grammars' line comments (Rust's ``///``) to a
    gap record of its own, so it becomes the NEWLINE lexeme it is in every other grammar."""
    if not rec.shape[0]:
        return rec
    leaf = np.array(g.leaf_kinds, np.uint8)[rec[:, 2]]
    ends = rec[:, 1]
    last = np.frombuffer(body, np.uint8)[np.maximum(ends - 1, 0)] if body else ends * 0
    hit = np.flatnonzero(
        (rec[:, 5] == 0)
        & ((leaf == _K.COMMENT) | (leaf == _K.DOCSTRING))
        & (last == 10)
        & (ends - 1 > rec[:, 0])
    )
    if not hit.size:
        return rec
    rows = []
    for i in hit.tolist():
        s, e = int(rec[i, 0]), int(rec[i, 1])
        cut = e - 2 if e - 2 > s and body[e - 2 : e - 1] == b"\r" else e - 1
        rec[i, 1] = cut
        rows.append([cut, e, len(g.leaf_kinds) - 2, rec[i, 3], rec[i, 4], 0])
    out = np.concatenate([rec, np.array(rows, np.int64)])
    return out[np.argsort(out[:, 0], kind="stable")]


def _records_to_columns(
    rec: np.ndarray, body: bytes, g: Grammar
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Turn walk records (an ``(n, 6)`` array) into lexeme columns: merge string runs,
    classify, split gaps."""
    rec = _split_comment_line_breaks(_merge_runs(rec), body, g)
    ctx = rec[:, 5]
    bs = rec[:, 0]
    be = rec[:, 1]
    kid = rec[:, 2]
    par = rec[:, 3].astype(np.uint16)
    fl = rec[:, 4].astype(np.uint8)
    leaf_kinds = np.array(g.leaf_kinds, np.uint8)
    type_index = np.array(g.type_index, np.uint16)
    kinds = leaf_kinds[kid]
    types = type_index[kid]
    kinds[ctx > 0] = _K.STRING
    kinds[ctx < 0] = _K.DOCSTRING
    code = ctx == 0
    gap_kid = len(g.leaf_kinds) - 2
    # leaves whose kind the text or the parent decides, and documentation comments
    fix = np.flatnonzero(code & (kinds == TEXT_DEFINED))
    for i in fix.tolist():
        kinds[i] = text_kind(body[bs[i] : be[i]])
    if g.by_parent:
        special = np.array(sorted({k for k, _ in g.by_parent}), np.int64)
        for i in np.flatnonzero(code & np.isin(kid, special)).tolist():
            kinds[i] = g.by_parent.get((int(kid[i]), int(par[i])), kinds[i])
    if g.by_text:
        spelled = np.array(sorted(g.by_text), np.int64)
        for i in np.flatnonzero(code & np.isin(kid, spelled)).tolist():
            t = body[bs[i] : be[i]].decode("utf-8", "surrogateescape")
            kinds[i] = g.by_text[int(kid[i])].get(t, kinds[i])
    if g.comment_doc:
        for i in np.flatnonzero(code & (kinds == _K.COMMENT) & (kid != gap_kid)).tolist():
            head = body[bs[i] : bs[i] + 8].decode("utf-8", "replace")
            if any(p.match(head) for p in g.comment_doc):
                kinds[i] = _K.DOCSTRING
    # some grammars end a line comment (or a raw leaf such as C's "#define" body) after the
    # "\r" of "\r\n": give it back to the newline, a gap or a line-break token
    line_ends = np.zeros(kid.size, bool)
    line_ends[:-1] = (kid[1:] == gap_kid) | ((ctx[1:] == 0) & (leaf_kinds[kid[1:]] == _K.NEWLINE))
    comments = np.flatnonzero(
        code
        & (kid != gap_kid)
        & ((kinds == _K.COMMENT) | (kinds == _K.DOCSTRING) | (kinds == _K.STRING))
        & line_ends
    )
    for i in comments.tolist():
        e = int(be[i])
        if body[e - 1 : e] == b"\r" and e - 1 > bs[i]:
            be[i] = e - 1
            bs[i + 1] = e - 1
    gaps = np.flatnonzero(code & (kid == gap_kid))
    if gaps.size:
        gs, ge, gk, gpar, gfl = split_gaps(
            body, bs[gaps], be[gaps], par[gaps], fl[gaps], g.gap_kinds
        )
        keep = np.ones(bs.size, bool)
        keep[gaps] = False
        bs = np.concatenate([bs[keep], gs])
        be = np.concatenate([be[keep], ge])
        kinds = np.concatenate([kinds[keep], gk])
        types = np.concatenate([types[keep], np.zeros(gs.size, np.uint16)])
        par = np.concatenate([par[keep], gpar])
        fl = np.concatenate([fl[keep], gfl])
        order = np.argsort(bs, kind="stable")
        bs, be, kinds, types, par, fl = (
            bs[order],
            be[order],
            kinds[order],
            types[order],
            par[order],
            fl[order],
        )
    if g.doc_before:
        mark_doc_before(kinds, par, bs, be, body, g.doc_before)
    return kinds, types, par, fl, np.ascontiguousarray(bs), np.ascontiguousarray(be)


def _find_docstring(node: object, rule: object, doc_starts: set[int]) -> None:
    """Record the start byte of the docstring string node(s) of a body node, if any."""
    for child in node.named_children:  # type: ignore[attr-defined]
        if "comment" in child.type:
            continue
        if child.type == rule.statement and child.named_child_count == 1:  # type: ignore[attr-defined]
            expr = child.named_children[0]
            if expr.type in rule.strings:  # type: ignore[attr-defined]
                if expr.named_child_count and expr.named_children[0].type in rule.strings:  # type: ignore[attr-defined]
                    doc_starts.update(c.start_byte for c in expr.named_children)
                else:
                    doc_starts.add(expr.start_byte)
        return


def _positions(
    text: str, data: bytes, from_bytes: bool, bs: np.ndarray, be: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Char spans, 1-based lines and 0-based char columns for byte spans."""
    if len(text) == len(data):
        cs, ce = bs.copy(), be.copy()

        def to_char(b: np.ndarray) -> np.ndarray:
            return b

    else:
        char_byte = char_to_byte(text, from_bytes)

        def to_char(b: np.ndarray) -> np.ndarray:
            return np.searchsorted(char_byte, b, "left")

        cs, ce = to_char(bs), to_char(be)
    nl = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    line0 = np.searchsorted(nl, bs, "left")
    line_start = np.where(line0 > 0, nl[np.maximum(line0 - 1, 0)] + 1 if nl.size else 0, 0)
    cols = cs - to_char(line_start)
    return cs, ce, line0 + 1, cols


#: A lone surrogate as ``surrogatepass`` writes it (U+D800..U+DFFF: ``ED A0..BF 80..BF``).
_SURROGATE = re.compile(rb"\xed[\xa0-\xbf][\x80-\xbf]")


def parseable(data: bytes) -> bytes:
    """``data`` (a str source's ``surrogatepass`` bytes) as tree-sitter should read it:
    each lone surrogate's three bytes become U+FFFD's three (``EF BF BD``).

    Tree-sitter reads ``ED A0..BF`` as invalid UTF-8, one byte at a time, and could end a
    token inside the surrogate's three bytes, where no char of the str begins. U+FFFD is as
    long, so every byte offset of the tree still indexes ``data``; the lexemes keep the
    original bytes.

    >>> parseable(b"a\\xed\\xa0\\x80b")  # "a" U+D800 "b"
    b'a\xef\xbf\xbdb'
    """
    return _SURROGATE.sub(b"\xef\xbf\xbd", data) if b"\xed" in data else data


def char_to_byte(text: str, from_bytes: bool) -> np.ndarray:
    """Byte offset of every char boundary of ``text`` (length ``len(text) + 1``); for a
    decoded bytes source (``from_bytes``) U+DC80..U+DCFF stand for one byte each.

    >>> char_to_byte("aé", False).tolist()
    [0, 1, 3]
    """
    cp = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    width = 1 + (cp >= 0x80).astype(np.int64) + (cp >= 0x800) + (cp >= 0x10000)
    if from_bytes:
        width[(cp >= 0xDC80) & (cp <= 0xDCFF)] = 1
    out = np.zeros(cp.size + 1, np.int64)
    np.cumsum(width, out=out[1:])
    return out
