"""The native docstring section scanner (``DocSections`` in codetok/_native/code/) against
:func:`codetok.code.routing.comments.find_sections`, the specification it repeats on ASCII
docstrings: the same headers at the same offsets, and every docstring that is not ASCII
handed back for the Python scanner."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.code.routing.comments import find_sections
from codetok.code.routing.reserved import SECTION_NAMES

pytest.importorskip("codetok._core")
from codetok.code.routing.native import _section_scanner  # noqa: E402


def native_sections(texts: list[str]) -> tuple[list[list[tuple[int, str]] | None], list[int]]:
    """Each text's headers as the native scanner finds them (None: handed back), and the
    indices it handed back, with the texts laid end to end as one file's lexemes."""
    text = "".join(texts)
    bounds = np.cumsum([0, *map(len, texts)])
    starts, ends = bounds[:-1], bounds[1:]
    docs = np.arange(len(texts), dtype=np.int64)
    lex, off, code, rest = _section_scanner().find(text, docs, starts, ends)
    out: list[list[tuple[int, str]] | None] = [[] for _ in texts]
    for i, at, c in zip(lex.tolist(), off.tolist(), code.tolist(), strict=True):
        out[i].append((at, SECTION_NAMES[c]))
    for i in rest.tolist():
        out[i] = None
    return out, rest.tolist()


def check(texts: list[str]) -> None:
    got, rest = native_sections(texts)
    assert rest == [i for i, t in enumerate(texts) if not t.isascii()]
    for text, found in zip(texts, got, strict=True):
        if found is not None:
            assert found == find_sections(text), repr(text)


def test_examples():
    texts = [
        "Add.\n\n    Args:\n        x: a number.\n    Returns:\n        x+1\n",
        "/** Adds.\n * @param x the value\n * @return x + 1 */",
        "/// <summary>Adds.</summary>",
        "Parameters\n----------\nx : int\n",
        "returns: lower case prose is no header\nReturns:",
        "caf\xe9 Args:\n",
        "{@link Foo} and @see Bar, a@param, @params @Param\n",
        "",
    ]
    got, rest = native_sections(texts)
    assert got[0] == [(10, "param"), (41, "returns")]
    assert got[3] == [(0, "param")]
    assert got[4] == [(39, "returns")]
    assert rest == [5]
    check(texts)


def _stdlib_docstrings() -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    out: list[str] = []
    for path in sorted(root.glob("*.py"))[:200]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    out.append(doc)
    return out


def test_stdlib_docstrings():
    docs = _stdlib_docstrings()
    assert len(docs) > 1000
    assert sum(bool(find_sections(d)) for d in docs) > 50
    check(docs)


FRAGMENTS = [
    "Args", "args", "ARGS", "Arguments", "Keyword Args", "keyword  args", "See Also",
    "Returns", "Return", "returnsx", "Yields", "Raises", "Note", "Notes", "Examples",
    "Warnings", "Deprecated", "Other Parameters", "Parameters", "Attributes",
    ":", ": ", ":\t", " ", "\t", "\n", "\r\n", "\r", "---", "-", "--", "x", "_", "1",
    "@", "{", "<", ">", "param", "params", "Param", "return", "returns", "throws", "arg",
    "argument", "property", "prop", "link", "see", "seealso", "summary", "typeparam",
    "remarks", "value", "exception", "example", "*", "/", "//", "///", "#", "**", "a@",
    "\xe9", "\u017f",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("".join), max_size=6))
def test_fragments(texts):
    check(texts)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=5))
def test_any_text(texts):
    check(texts)


def test_spans_outside_the_text_are_refused():
    with pytest.raises(ValueError, match="inside the text"):
        _section_scanner().find("abc", np.array([0]), np.array([0]), np.array([4]))
    with pytest.raises(ValueError, match="inside the text"):
        _section_scanner().find("abc", np.array([3]), np.array([0, 1]), np.array([1, 2]))
