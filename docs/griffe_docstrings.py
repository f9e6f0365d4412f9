"""A griffe extension for the API reference: codetok's docstrings are written for
``help()`` and doctest (``>>>`` examples in the text, Sphinx roles such as
:meth:`encode`), so before mkdocstrings renders them as Markdown, each run of doctest
lines becomes a ``pycon`` code block and each role its plain code span."""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension

_ROLE = re.compile(r":(?:meth|attr|class|func|data|mod|exc|obj|const|py:\w+):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """``text`` with every doctest run (``>>>`` up to a blank line) inside a fence."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class DoctestFences(Extension):
    """Rewrites each object's docstring as it is loaded."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        doc = getattr(obj, "docstring", None)
        if doc is not None:
            doc.value = _ROLE.sub(r"`\1`", fence_doctests(doc.value))
