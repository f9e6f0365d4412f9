"""Lexeme kinds and per-lexeme flags shared by the code front end.

Only the two enumerations live here, so that the grammar registry and the lexer can both
use them without importing each other.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag

__all__ = ["LexemeKind", "LexemeFlag"]


class LexemeKind(IntEnum):
    """What a lexeme is; stored as ``uint8`` in :attr:`Lexemes.kinds`.

    ``INDENT`` and ``DEDENT`` are zero-width markers; every other kind covers at least one
    byte. Documentation comments (Javadoc, JSDoc, C# ``///``) are ``DOCSTRING`` like Python
    docstrings; their node type still tells which syntax they use.
    """

    KEYWORD = 0
    IDENTIFIER = 1
    OPERATOR = 2
    PUNCTUATION = 3
    NUMBER = 4
    STRING = 5
    COMMENT = 6
    DOCSTRING = 7
    WHITESPACE = 8
    NEWLINE = 9
    INDENT = 10
    DEDENT = 11
    ERROR = 12


class LexemeFlag(IntFlag):
    """Context bits stored as ``uint8`` in :attr:`Lexemes.flags`."""

    NONE = 0
    #: inside a decorator, annotation or attribute list (``@dec``, ``@Override``, ``[Obsolete]``)
    DECORATOR = 1
    #: inside a node tree-sitter marked as ERROR during error recovery
    IN_ERROR = 2
    #: code inside a string interpolation (f-string, template literal, ``$"..."``)
    INTERPOLATION = 4
