"""The native parse and tree walk of the lexer (codetok/_native/code_lexer.hpp).

:func:`native_walker` gives, per grammar, the ``_core.WalkTables`` that parse a file with
the tree-sitter C runtime compiled into ``codetok._core`` and walk its tree once, returning
the records and indent blocks that :func:`codetok.code.lexer._walk` (the specification)
makes with a Python cursor.

It is used only when its trees are the Python lexer's trees: the runtime compiled into the
extension is the installed ``tree-sitter`` bindings' version, and the grammar came from a
grammar package (whose language capsule both parse with). Otherwise, and with native plans
switched off (``codetok._plan.use_plans``) or the pure-Python backend, the Python walk runs.
"""

from __future__ import annotations

import functools
from importlib import metadata
from typing import Any

from .. import _plan
from ..models import _backend
from .grammar import Grammar

__all__ = ["native_walker", "walk_tables"]

_WALKERS: dict[int, Any] = {}


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


def native_walker(g: Grammar) -> Any | None:
    """The native walk of ``g`` (built once), or None when the Python walk runs."""
    if not (_plan._enabled and _backend.native() and g.capsule is not None):
        return None
    if not _runtime_matches():
        return None
    walker = _WALKERS.get(id(g))
    if walker is None:
        walker = _WALKERS[id(g)] = (g, _backend.core().WalkTables(walk_tables(g)))
    return walker[1]
