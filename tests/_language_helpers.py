"""Shared checks of one language's grammar file (tests/code/languages/test_lang_*.py).

Each curated language's test file states known answers (keywords, comment and docstring
routing, strings, identifier splitting) on real snippets and runs the same three checks on
them: the lexemes cover the source exactly, the native lexer gives the Python lexer's
columns, and the default code tokenizer decodes back to the source.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from conftest import python_pipeline

from codetok.code import CodeTokenizer, Lexemes, lex
from codetok.code.front import native as native_lexer
from codetok.code.front.languages import get_grammar

FIELDS = ("kinds", "node_types", "parent_types", "byte_starts", "byte_ends", "char_starts",
          "char_ends", "lines", "cols", "flags")  # fmt: skip


@cache
def default_tokenizer() -> CodeTokenizer:
    """One default code tokenizer for every check (they only encode and decode with it)."""
    return CodeTokenizer.default()


def kinds(source: str, language: str) -> list[tuple[str, str]]:
    """``(text, kind name)`` of every lexeme but whitespace, newlines and layout markers."""
    lx = lex(source, language)
    out = []
    for i in range(len(lx)):
        kind = lx.kind(i).name
        if kind not in ("WHITESPACE", "NEWLINE", "INDENT", "DEDENT"):
            out.append((lx.text(i), kind))
    return out


def kind_of(source: str, language: str, text: str) -> str:
    """The kind of the first lexeme spelled ``text`` (KeyError when there is none)."""
    for t, k in kinds(source, language):
        if t == text:
            return k
    raise KeyError(f"no lexeme {text!r} in {[t for t, _ in kinds(source, language)]}")


def check_language(source: str | bytes, language: str) -> Lexemes:
    """Lossless lexemes, the native lexer equal to the Python one, and a lossless encode."""
    lx = lex(source, language)
    lx.check()
    raw = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    assert b"".join(lx.lexeme_bytes(i) for i in range(len(lx))) == raw
    g = get_grammar(language)
    assert native_lexer.native_lexer(g) is not None, f"{language}: the native lexer does not run"
    with python_pipeline():
        reference = lex(source, language)
    for name in FIELDS:
        assert np.array_equal(getattr(lx, name), getattr(reference, name)), (language, name)
    if isinstance(source, str):
        tok = default_tokenizer()
        assert tok.decode(tok.encode(source, language=language).ids) == source
    return lx
