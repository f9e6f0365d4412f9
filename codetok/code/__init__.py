"""The code front end: grammars, language detection, the lexer and identifier splitting.

>>> from codetok.code import lex, LexemeKind
>>> lx = lex("x = 1  # one\\n", "python")
>>> [lx.kind(i).name for i in range(len(lx))]
['IDENTIFIER', 'WHITESPACE', 'OPERATOR', 'WHITESPACE', 'NUMBER', 'WHITESPACE', 'COMMENT', 'NEWLINE']
"""

from __future__ import annotations

from .encoding import CodeEncoding as CodeEncoding
from .front.detect import detect_language as detect_language
from .front.kinds import LexemeFlag as LexemeFlag
from .front.kinds import LexemeKind as LexemeKind
from .front.languages import Grammar as Grammar
from .front.languages import available_languages as available_languages
from .front.languages import get_grammar as get_grammar
from .front.languages import load_grammar as load_grammar
from .front.languages import register_grammar as register_grammar
from .front.lexer import Lexeme as Lexeme
from .front.lexer import Lexemes as Lexemes
from .front.lexer import lex as lex
from .routing.identifiers import IdentifierSplitter as IdentifierSplitter
from .routing.identifiers import SplitIdentifier as SplitIdentifier
from .routing.identifiers import split_identifier as split_identifier
from .routing.segmenter import WordSegmenter as WordSegmenter
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
