"""Source code: a tree-sitter front end, a router, and the code tokenizer that joins them.

The public names are the ones below (``from codetok.code import CodeTokenizer, lex``). The
modules are laid out in the order the code flows through them::

    front/      source -> lexemes
      languages.py, grammar.py   grammars/*.toml files: node type -> lexeme kind
      language.py                the language from a file name, a shebang or the content
      budget.py                  ParseBudget: the time and memory one parse may take
      lexer.py                   lex(): parse, walk the tree, one lexeme per leaf or gap
      layout.py                  blank gaps, INDENT / DEDENT markers
      native.py                  the same lexer in one native call
      kinds.py, lexemes.py       LexemeKind, and the Lexemes arrays lex() returns
    routing/    lexemes -> reserved tokens and pieces -> ids
      router.py                  route(): each lexeme's kind picks its treatment
      reserved.py                reserved tokens: keywords, layout and comment markers
      comments.py                docstring section headers (<doc:param>, ...)
      identifiers.py             reversible identifier splitting (getUserName)
      segmenter.py               statistical splitting of same-case runs (getusername)
      pieces.py                  other text cut into pieces for a subword model
      channels.py                pieces -> ids with a codetok Tokenizer
      cache.py                   BoundedCache: the router's caches, two generations at most
      native.py                  route and encode in one native call
    tokenizer.py                 CodeTokenizer: lex, route, encode; decode; save / load
    fused.py                     the front end and router in one native call per file
    encoding.py                  CodeEncoding: what CodeTokenizer.encode returns
    training.py                  the subword models CodeTokenizer.train learns
    applications/  built on the above
      codebert.py, align.py      CodeBERT mode: a pretrained tokenizer's ids, per lexeme
      pairs.py, truncation.py    (docstring, function) pairs cut to a token budget
      html.py                    an HTML page of a CodeEncoding

Imports only go down this list: the front end imports nothing from the router, the
tokenizer or the applications; the router nothing from the tokenizer or the applications;
the tokenizer, its encoding and training nothing from the applications. There are no
import cycles, lazy and ``TYPE_CHECKING`` imports included
(``tests/code/test_code_layout.py`` checks both).

``CodeTokenizer``, ``CodeEncoding`` and training sit at the root, between the router and
the applications, because they tie the two layers together: ``CodeTokenizer.encode`` runs
the front end, then the router, then the channels, and a ``CodeEncoding`` holds per token what both
give (ids, lexeme kinds, node types, spans); training counts pieces exactly as ``encode``
routes them, and ``CodeTokenizer.train`` is its entry. In either layer they would make it
reach into the other; the applications take them as they are (``pairs``, ``html``; the
``codetok pairs`` command is :mod:`codetok.cli.pairs`).

>>> from codetok.code import lex, LexemeKind
>>> lx = lex("x = 1  # one\\n", "python")
>>> [lx.kind(i).name for i in range(len(lx))]
['IDENTIFIER', 'WHITESPACE', 'OPERATOR', 'WHITESPACE', 'NUMBER', 'WHITESPACE', 'COMMENT', 'NEWLINE']
"""

from __future__ import annotations

from .encoding import CodeEncoding as CodeEncoding
from .front.budget import ParseBudget as ParseBudget
from .front.kinds import LexemeFlag as LexemeFlag
from .front.kinds import LexemeKind as LexemeKind
from .front.language import detect_language as detect_language
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
    "ParseBudget",
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
