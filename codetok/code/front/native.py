"""The native lexer (codetok/_native/code/code_lexer.hpp, code_columns.hpp): source -> lexeme
columns in one call.

:func:`native_lexer` gives, per grammar, the the native ``LexPlan`` that parses a file with the
tree-sitter C runtime compiled into the native extension, walks its tree once and builds every
column of :class:`~codetok.code.Lexemes`, as :func:`codetok.code.front.lexer.lex` does in Python
(the specification: ``_walk``, ``_records_to_columns``, ``split_gaps``, ``insert_layout``,
``_positions``), with the GIL released.

Python still describes what it runs: the grammar's tables (:func:`walk_tables`,
:func:`column_tables`) and three rare questions it calls back for: the kind of a named
leaf the grammar file does not map (:func:`~.grammar.text_kind`), documentation comment
patterns that are not plain ``^LITERAL(?![CHARS])`` ones, and whether a gap of non-ASCII
bytes is blank.

It is used only when its trees are the Python lexer's trees: the runtime compiled into the
extension is the installed ``tree-sitter`` bindings' version, and the grammar came from a
grammar package (whose language capsule both parse with). Otherwise, and with native plans
switched off (``codetok.engine.plan.use_plans``) or the pure-Python backend, the Python lexer runs.
"""

from __future__ import annotations

import functools
import re
from importlib import metadata
from typing import Any

from ...engine import native as _backend
from ...engine import plan as _plan
from .grammar import Grammar, text_kind
from .layout import _EXTRA_BLANKS

__all__ = ["native_lexer", "walk_tables", "column_tables", "doc_pattern"]

_PLANS: dict[int, tuple[Grammar, Any]] = {}
_META = r"\\\[\]().*+?{}|^$"
_SIMPLE_DOC = re.compile(
    rf"\^((?:\\.|[^{_META}])+)(?:\(\?!(\[(?:\\.|[^\]\\-])+\]|\\.|[^{_META}])\))?"
)


@functools.lru_cache(maxsize=1)
def _runtime_matches() -> bool:
    """The compiled runtime is the installed bindings' version (so both build one tree)."""
    if not _backend.available():
        return False
    compiled = getattr(_backend.core(), "TREE_SITTER_VERSION", None)
    try:
        return compiled is not None and compiled == metadata.version("tree-sitter")
    except metadata.PackageNotFoundError:
        return False


def walk_tables(g: Grammar) -> tuple[Any, ...]:
    """The per-kind-id tables of ``g`` the native walk reads (see ``WalkTables``)."""
    names = [g.type_names[t] for t in g.type_index]
    index = {name: i for i, name in enumerate(g.type_names)}
    rule = g.docstring
    if rule is None:
        doc_body = doc_parents = None
        statement = strings = [0] * len(names)
    else:
        allowed = [rule.bodies.get(name) for name in names]
        doc_body = [1 if a is None else 2 for a in allowed]
        doc_parents = [sorted(index[p] for p in a if p in index) if a else [] for a in allowed]
        statement = [int(name == rule.statement) for name in names]
        strings = [int(name in rule.strings) for name in names]
    comment = [int("comment" in name) for name in names]
    return (list(g.roles), list(g.type_index), doc_body, doc_parents, comment, statement, strings)


def doc_pattern(pattern: str) -> tuple[str, str] | None:
    """``(literal, forbidden chars)`` of a pattern ``^LITERAL(?![CHARS])`` (or
    ``(?!C)``, or no lookahead) in ASCII, or None for any other pattern.

    >>> doc_pattern(r"^/\\*\\*(?![*/])"), doc_pattern("^///(?!/)"), doc_pattern("^#+")
    (('/**', '*/'), ('///', '/'), None)
    """
    m = _SIMPLE_DOC.fullmatch(pattern)
    if m is None or not pattern.isascii():
        return None
    literal = re.sub(r"\\(.)", r"\1", m.group(1))
    ahead = m.group(2) or ""
    forbidden = re.sub(r"\\(.)", r"\1", ahead[1:-1] if ahead.startswith("[") else ahead)
    return literal, forbidden


def column_tables(g: Grammar) -> tuple[Any, ...]:
    """The tables the native columns read (see ``ColumnTables``)."""
    doc: Any = None
    if g.comment_doc:
        parsed = [doc_pattern(p.pattern) for p in g.comment_doc]
        simple = all(p is not None for p in parsed) and not any(
            p.flags & re.I for p in g.comment_doc
        )
        doc = parsed if simple else True
    by_text = {
        kid: {t.encode("utf-8", "surrogateescape"): k for t, k in table.items()}
        for kid, table in g.by_text.items()
    }
    return (
        list(g.leaf_kinds),
        dict(g.by_parent),
        doc,
        sorted(g.doc_before),
        by_text,
        dict(g.gap_kinds),
    )


def native_lexer(g: Grammar) -> Any | None:
    """The native lexer of ``g`` (built once), or None when the Python lexer runs."""
    if _plan.python_reason() is not None or g.capsule is None:
        return None
    if not _runtime_matches():
        return None
    entry = _PLANS.get(id(g))
    if entry is None:

        def is_doc(head: bytes) -> bool:
            text = head.decode("utf-8", "replace")
            return any(p.match(text) for p in g.comment_doc)

        def blank(raw: bytes) -> bool:
            text = raw.decode("utf-8", "surrogateescape")
            return all(ch.isspace() or ch in _EXTRA_BLANKS for ch in text)

        plan = _backend.core().LexPlan(walk_tables(g), column_tables(g), text_kind, is_doc, blank)
        entry = _PLANS[id(g)] = (g, plan)
    return entry[1]
