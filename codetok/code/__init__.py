"""The code front end: grammars, language detection, the lexer and identifier splitting.

>>> from codetok.code import lex, LexemeKind
>>> lx = lex("x = 1  # one\\n", "python")
>>> [lx.kind(i).name for i in range(len(lx))]
['IDENTIFIER', 'WHITESPACE', 'OPERATOR', 'WHITESPACE', 'NUMBER', 'WHITESPACE', 'COMMENT', 'NEWLINE']
"""

from __future__ import annotations

from .code_encoding import CodeEncoding as CodeEncoding
from .detect import detect_language as detect_language
from .identifiers import IdentifierSplitter as IdentifierSplitter
from .identifiers import SplitIdentifier as SplitIdentifier
from .identifiers import split_identifier as split_identifier
from .kinds import LexemeFlag as LexemeFlag
from .kinds import LexemeKind as LexemeKind
from .languages import Grammar as Grammar
from .languages import available_languages as available_languages
from .languages import get_grammar as get_grammar
from .languages import load_grammar as load_grammar
from .languages import register_grammar as register_grammar
from .lexer import Lexeme as Lexeme
from .lexer import Lexemes as Lexemes
from .lexer import lex as lex
from .segmenter import WordSegmenter as WordSegmenter
from .tokenizer import CodeTokenizer as CodeTokenizer

__all__ = [
    "CodeEncoding",
    "CodeTokenizer",
    "Grammar",
    "IdentifierSplitter",
    "Lexeme",
    "LexemeFlag",
    "LexemeKind",
    "Lexemes",
    "SplitIdentifier",
    "WordSegmenter",
    "available_languages",
    "detect_language",
    "get_grammar",
    "lex",
    "load_grammar",
    "register_grammar",
    "split_identifier",
]
