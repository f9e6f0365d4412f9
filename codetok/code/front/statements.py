"""The statements of a syntax tree: where code can be cut between two of them.

Statements are the named, non-comment children of block nodes (``block``,
``statement_block``, ``switch_section``, ...) at any depth; of a whole file, also its top
level and the members of its classes. Truncation at a statement boundary
(:mod:`codetok.code.applications.truncation`, ``truncation="statement"`` of
:meth:`codetok.code.CodeTokenizer.__call__`) cuts only at their ends.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BLOCK_TYPES", "FILE_BLOCK_TYPES", "statement_units"]

#: Node types whose named children are statements, per language.
BLOCK_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"block"}),
    "java": frozenset({"block", "constructor_body", "switch_block_statement_group"}),
    "csharp": frozenset({"block", "switch_section"}),
    "javascript": frozenset({"statement_block", "switch_case", "switch_default"}),
}
#: Node types whose named children are statements or declarations of a whole file (its
#: top level and class bodies), per language: with ``whole_file``, cuts fall between them too.
FILE_BLOCK_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"module"}),
    "java": frozenset({"program", "class_body", "interface_body", "enum_body_declarations"}),
    "csharp": frozenset({"compilation_unit", "declaration_list", "namespace_declaration"}),
    "javascript": frozenset({"program", "class_body"}),
}
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})


def statement_units(
    node: Any, language: str, offset: int = 0, *, whole_file: bool = False
) -> list[tuple[int, int]]:
    """Byte spans of the statements inside a tree-sitter node, in document order.

    Args:
        node: a tree-sitter node (a function).
        language: canonical language name (a key of :data:`BLOCK_TYPES`).
        offset: added to every span (the lexer's ``tree_offset`` for a BOM).
        whole_file: ``node`` is a file's root: its top-level statements and the members of
            its classes count too (:data:`FILE_BLOCK_TYPES`).

    Returns:
        ``(start, end)`` byte spans of each statement at any depth, sorted by start.

    >>> from codetok.code import lex
    >>> lx = lex("def f():\\n    x = 1\\n    return x\\n", "python")
    >>> statement_units(lx.tree.root_node, "python")
    [(13, 18), (23, 31)]
    """
    blocks = BLOCK_TYPES.get(language, frozenset())
    if whole_file:
        blocks = blocks | FILE_BLOCK_TYPES.get(language, frozenset())
    out: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        n = stack.pop()
        inside_block = n.type in blocks
        for child in reversed(n.children):
            if inside_block and child.is_named and child.type not in _COMMENTS:
                out.append((child.start_byte + offset, child.end_byte + offset))
            if child.child_count:
                stack.append(child)
    out.sort()
    return out
