"""Known answers for the C grammar file (grammars/c.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, get_grammar, lex, split_identifier
from codetok.code.front.languages import resolve_language_name

LANG = "c"

RING = """\
/** @file ring.c
 *  A fixed-size ring buffer. */
#include <stdio.h>
#include <stdlib.h>
#include "ring.h"

#define RING_CAP 16
#define RING_NEXT(i) (((i) + 1) % RING_CAP)
#pragma once

//// banner, not documentation
/// Pushes one value; returns false when full.
//! Also documentation (Qt style).
/*! Qt-style block doc. */
/**/
/*** banner block ***/
/* plain block */
// plain line
static bool ring_push(struct ring *r, int value) {
    if (r->count >= RING_CAP || r == NULL) {
        return false;
    }
    r->items[r->head] = value;
    r->head = RING_NEXT(r->head);
    r->count++;
    return true;
}

int main(void) {
    struct ring *r = calloc(1, sizeof *r);
    for (unsigned long i = 0; i < 3; i++) {
        ring_push(r, (int)i);
    }
    printf("%d items\\n", r->count);
    free(r);
    return 0;
}
"""

PREPROC = """\
#ifndef RING_H
#define RING_H
#if defined(USE_ATOMIC) && USE_ATOMIC > 1
#include <stdatomic.h>
#elif BUILD_DEBUG
#undef NDEBUG
#else
#error "no atomics"
#endif
#ifdef __GNUC__
#endif
#endif
"""

LITERALS = """\
const char *s = "tab\\there \\"q\\"";
const char *w = L"wide" u8"utf8";
char c = 'x', nl = '\\n', wc = L'y';
long n[] = {0x1F, 0777, 42u, 10UL, 0b101, 1.5e-3, 2.0f, .5};
"""


def test_keywords() -> None:
    got = kinds(RING, LANG)
    words = {t for t, k in got if k == "KEYWORD"}
    assert {"static", "bool", "struct", "int", "if", "return", "void", "for", "unsigned"} <= words
    assert {"long", "sizeof", "true", "false", "NULL"} <= words
    src = (
        "typedef struct node { volatile int x; } node_t;\n"
        "extern _Thread_local int tls; register int r; inline int f(void);\n"
        '_Static_assert(sizeof(int) == 4, "int"); void *p = nullptr;\n'
        "int g(int defined) { switch (defined) { case 1: goto out; default: break; } out: return 0; }\n"
    )
    for word in ("typedef", "volatile", "extern", "register", "inline", "switch", "case", "goto"):
        assert kind_of(src, LANG, word) == "KEYWORD", word
    assert kind_of(src, LANG, "nullptr") == "KEYWORD"
    # "defined" is an operator of #if lines only
    assert kind_of(src, LANG, "defined") == "IDENTIFIER"
    assert kind_of(PREPROC, LANG, "defined") == "KEYWORD"
    g = get_grammar(LANG)
    assert {"_Bool", "_Generic", "alignas", "constexpr", "typeof", "#include"} <= g.keywords
    assert {"__attribute__", "__declspec", "NULL"} <= g.contextual_keywords
    check_language(src, LANG)


def test_preprocessor_lines() -> None:
    got = kinds(PREPROC, LANG)
    directives = [t for t, k in got if t.startswith("#")]
    assert directives == [
        "#ifndef", "#define", "#if", "#include", "#elif", "#undef", "#else", "#error",
        "#endif", "#ifdef", "#endif", "#endif",
    ]  # fmt: skip
    assert all(k == "KEYWORD" for t, k in got if t.startswith("#"))
    assert ("<stdatomic.h>", "STRING") in got
    ring = kinds(RING, LANG)
    assert ("<stdio.h>", "STRING") in ring and ('"ring.h"', "STRING") in ring
    # the raw text after "#define NAME" is one STRING lexeme (the grammar does not parse it)
    assert ("16", "STRING") in ring
    assert ("(((i) + 1) % RING_CAP)", "STRING") in ring
    assert ("once", "STRING") in ring
    assert kind_of(RING, LANG, "RING_NEXT") == "IDENTIFIER"
    # the line break ending an "#if" line is a newline, never an operator
    lx = lex(PREPROC, LANG)
    assert all(lx.kind(i).name == "NEWLINE" for i in range(len(lx)) if lx.text(i) == "\n")
    check_language(PREPROC, LANG)


def test_doxygen_and_plain_comments() -> None:
    got = [(t, k) for t, k in kinds(RING, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert got == [
        ("/** @file ring.c\n *  A fixed-size ring buffer. */", "DOCSTRING"),
        ("//// banner, not documentation", "COMMENT"),
        ("/// Pushes one value; returns false when full.", "DOCSTRING"),
        ("//! Also documentation (Qt style).", "DOCSTRING"),
        ("/*! Qt-style block doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/*** banner block ***/", "COMMENT"),
        ("/* plain block */", "COMMENT"),
        ("// plain line", "COMMENT"),
    ]
    check_language(RING, LANG)


def test_strings_chars_and_numbers() -> None:
    got = kinds(LITERALS, LANG)
    assert [t for t, k in got if k == "STRING"] == [
        '"tab\\there \\"q\\""', 'L"wide"', 'u8"utf8"', "'x'", "'\\n'", "L'y'",
    ]  # fmt: skip
    assert [t for t, k in got if k == "NUMBER"] == [
        "0x1F", "0777", "42u", "10UL", "0b101", "1.5e-3", "2.0f", ".5",
    ]  # fmt: skip
    check_language(LITERALS, LANG)


def test_attributes_are_decorators() -> None:
    src = (
        "[[nodiscard]] int f(void);\n"
        "__attribute__((unused)) static int k;\n"
        "__declspec(dllexport) int g;\n"
    )
    lx = lex(src, LANG)
    flagged = [
        lx.text(i)
        for i in range(len(lx))
        if lx.flags[i] & LexemeFlag.DECORATOR and lx.kind(i).name not in ("WHITESPACE", "NEWLINE")
    ]
    assert flagged == (
        ["[[", "nodiscard", "]]"]
        + ["__attribute__", "(", "(", "unused", ")", ")"]
        + ["__declspec", "(", "dllexport", ")"]
    )
    assert kind_of(src, LANG, "__attribute__") == "KEYWORD"
    check_language(src, LANG)


def test_comparisons_are_operators_and_identifiers_split() -> None:
    got = kinds(RING, LANG)
    assert all(k == "OPERATOR" for t, k in got if t in ("<", ">=", "->", "%", "++", "||"))
    assert kind_of(RING, LANG, "ring_push") == "IDENTIFIER"
    assert kind_of(RING, LANG, "r") == "IDENTIFIER"
    assert kind_of(RING, LANG, "items") == "IDENTIFIER"
    assert split_identifier("ring_push").parts == ("ring", "push")
    assert split_identifier("getBufferSize").parts == ("get", "Buffer", "Size")
    # the grammar files common typedefs under primitive_type: keyword kind, like "int"
    assert kind_of("size_t n = 0;", LANG, "size_t") == "KEYWORD"


@pytest.mark.parametrize(
    "src",
    [
        "int main( { int x = [; }\n",
        'const char *s = "unterminated;\n',
        "#define X(a, \\\n   b) a ## b\n#if\n",
        "struct { int } } } \x00 ☃ §",
        "/* unclosed block comment\nint f(void);\n",
        "#include <stdio.h\nint x;\n",
    ],
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src


def test_crlf_line_endings() -> None:
    body = RING.split("#pragma once\n")[1]  # without #define / #pragma text (see below)
    crlf = body.replace("\n", "\r\n")
    lx = check_language(crlf, LANG)
    assert "".join(lx.texts()) == crlf
    assert kinds(crlf, LANG) == kinds(body, LANG)
    check_language(RING.replace("\n", "\r\n"), LANG)
    check_language(PREPROC.replace("\n", "\r\n"), LANG)


def test_crlf_define_body_excludes_the_carriage_return() -> None:
    """tree-sitter-c ends a ``#define`` body after the "\\r" of "\\r\\n": the lexer gives
    it back to the line break."""
    src = "#define CAP 16\r\nint x;\r\n"
    assert ("16", "STRING") in kinds(src, LANG)
    lx = check_language(src, LANG)
    assert "\r\n" in lx.texts() and "16\r" not in lx.texts()


def test_names_and_detection() -> None:
    assert resolve_language_name("c99") == LANG
    assert detect_language(path="src/ring.c") == LANG
    assert detect_language(RING) == LANG
    assert detect_language(PREPROC + "typedef struct ring ring_t;\n", path="ring.h") == LANG
    assert detect_language("#!/usr/bin/tcc -run\nint main(void) { return 0; }\n") == LANG


def test_bool_type_name_is_a_keyword() -> None:
    src = "_Bool ready = 1;\ntypedef int Bool_t;\n"
    assert kind_of(src, "c", "_Bool") == "KEYWORD"
    assert kind_of(src, "c", "Bool_t") == "IDENTIFIER"
    check_language(src, "c")
