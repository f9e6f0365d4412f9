"""Known answers for the Go grammar file (grammars/go.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import detect_language, get_grammar, split_identifier
from codetok.code.front.languages import resolve_language_name

LANG = "go"

SERVER = """\
// Package server answers pings.
package server

import (
\t"fmt"
\tstr "strings"
)

// DefaultPort is used when none is given.
const DefaultPort = 8080

// Handler answers one request.
type Handler struct {
\t// Name is shown in logs.
\tName string
\tcount int // requests so far
}

/* Serve is documented by a block comment. */
func (h *Handler) Serve(msg string) (string, error) {
\t// not documentation: a statement follows
\th.count++
\tif msg == "" || h.count > 10 {
\t\treturn "", fmt.Errorf("bad %q", msg)
\t}
\treturn str.ToUpper(msg), nil
}

// This comment is separated from the function by a blank line.

func helper() {}
"""

GENERIC = """\
package sets

// Set is a generic set.
type Set[T comparable] map[T]struct{}

func Keys[K comparable, V any](m map[K]V) []K {
\tout := make([]K, 0, len(m))
\tfor k := range m {
\t\tout = append(out, k)
\t}
\treturn out
}

func less(a, b int) bool { return a < b && b > 0 }

func pipe(ch chan<- int, in <-chan int) { ch <- <-in }
"""

LITERALS = """\
package lit

var (
\thex, bin, oct = 0x1F, 0b1010, 0o17
\tbig          = 1_000_000
\tf, e, hf     = 1.5, 2.5e-3, 0x1p-2
\tim           = 3i
\tr, esc       = 'x', '\\n'
\ts            = "tab\\there \\u00e9"
\traw          = `C:\\path
second line`
)
"""


def test_reserved_keywords_and_predeclared_names() -> None:
    got = kinds(SERVER + GENERIC, LANG)
    words = {t for t, k in got if k == "KEYWORD"}
    assert {"package", "import", "const", "type", "struct", "func", "if", "return"} <= words
    assert {"map", "for", "range", "chan"} <= words
    assert kind_of(SERVER, LANG, "nil") == "KEYWORD"
    src = "package p\nconst a, b = iota, true\nvar c = false\n"
    assert kind_of(src, LANG, "iota") == kind_of(src, LANG, "true") == "KEYWORD"
    assert kind_of(src, LANG, "false") == "KEYWORD"
    # predeclared types are identifiers in Go, not keywords
    assert kind_of(SERVER, LANG, "string") == "IDENTIFIER"
    assert kind_of(SERVER, LANG, "error") == "IDENTIFIER"
    assert kind_of(GENERIC, LANG, "any") == "IDENTIFIER"
    g = get_grammar(LANG)
    assert len(g.keywords) == 25 and "fallthrough" in g.keywords
    assert g.contextual_keywords == {"true", "false", "nil", "iota"}
    more = "package p\nfunc f() { go g(); defer h(); select { default: }; goto end\nend: }\n"
    assert kind_of(more, LANG, "go") == "KEYWORD"
    assert kind_of(more, LANG, "defer") == kind_of(more, LANG, "select") == "KEYWORD"
    assert kind_of(more, LANG, "goto") == "KEYWORD"
    assert kind_of(more, LANG, "end") == "IDENTIFIER"
    check_language(more, LANG)


def test_doc_comments_above_declarations() -> None:
    got = [(t, k) for t, k in kinds(SERVER, LANG) if k in ("COMMENT", "DOCSTRING")]
    assert got == [
        ("// Package server answers pings.", "DOCSTRING"),
        ("// DefaultPort is used when none is given.", "DOCSTRING"),
        ("// Handler answers one request.", "DOCSTRING"),
        ("// Name is shown in logs.", "DOCSTRING"),
        ("// requests so far", "COMMENT"),
        ("/* Serve is documented by a block comment. */", "DOCSTRING"),
        ("// not documentation: a statement follows", "COMMENT"),
        ("// This comment is separated from the function by a blank line.", "COMMENT"),
    ]
    check_language(SERVER, LANG)


def test_doc_comment_runs_and_grouped_declarations() -> None:
    src = (
        "package p\n\n"
        "// Line one of the doc.\n// Line two of the doc.\nfunc F() {}\n\n"
        "const (\n\t// A is first.\n\tA = iota\n\tB // trailing\n)\n\n"
        "var (\n\t// x is a var.\n\tx = 1\n)\n\n"
        "type (\n\t// Alias is an alias.\n\tAlias = int\n)\n\n"
        "type I interface {\n\t// M does it.\n\tM() error\n}\n\n"
        "// Unattached at the end of the file.\n"
    )
    doc = {t: k for t, k in kinds(src, LANG) if k in ("COMMENT", "DOCSTRING")}
    assert doc == {
        "// Line one of the doc.": "DOCSTRING",
        "// Line two of the doc.": "DOCSTRING",
        "// A is first.": "DOCSTRING",
        "// trailing": "COMMENT",
        "// x is a var.": "DOCSTRING",
        "// Alias is an alias.": "DOCSTRING",
        "// M does it.": "DOCSTRING",
        "// Unattached at the end of the file.": "COMMENT",
    }
    check_language(src, LANG)


def test_strings_runes_and_raw_strings_are_single_lexemes() -> None:
    got = kinds(LITERALS, LANG)
    strings = [t for t, k in got if k == "STRING"]
    assert strings == ["'x'", "'\\n'", '"tab\\there \\u00e9"', "`C:\\path\nsecond line`"]
    imports = [t for t, k in kinds(SERVER, LANG) if k == "STRING"]
    assert imports[:2] == ['"fmt"', '"strings"']
    check_language(LITERALS, LANG)


def test_numbers() -> None:
    numbers = [t for t, k in kinds(LITERALS, LANG) if k == "NUMBER"]
    assert numbers == ["0x1F", "0b1010", "0o17", "1_000_000", "1.5", "2.5e-3", "0x1p-2", "3i"]


def test_brackets_of_generics_and_comparison_operators() -> None:
    got = kinds(GENERIC, LANG)
    # type parameters use "[" "]": punctuation; "<" and ">" are always comparisons here
    assert ("[", "PUNCTUATION") in got and ("]", "PUNCTUATION") in got
    assert ("<", "OPERATOR") in got and (">", "OPERATOR") in got
    assert ("<", "PUNCTUATION") not in got and (">", "PUNCTUATION") not in got
    assert [t for t, k in got if t == "<-"] == ["<-", "<-", "<-", "<-"]
    assert all(k == "OPERATOR" for t, k in got if t in ("<-", ":=", "&&"))
    assert kind_of(GENERIC, LANG, "comparable") == "IDENTIFIER"
    check_language(GENERIC, LANG)


def test_identifiers_and_splitting() -> None:
    src = "package p\n\nfunc parseHTTPResponse(max_retry_count int) {}\n"
    assert kind_of(src, LANG, "parseHTTPResponse") == "IDENTIFIER"
    assert kind_of(src, LANG, "max_retry_count") == "IDENTIFIER"
    assert split_identifier("parseHTTPResponse").parts == ("parse", "HTTP", "Response")
    assert split_identifier("max_retry_count").parts == ("max", "retry", "count")
    labels = "package p\nfunc f() {\nouter:\n\tfor {\n\t\tbreak outer\n\t}\n}\n"
    assert [t for t, k in kinds(labels, LANG) if t == "outer" and k == "IDENTIFIER"] == [
        "outer",
        "outer",
    ]
    check_language(src, LANG)
    check_language(labels, LANG)


@pytest.mark.parametrize(
    "src",
    [
        "package main\nfunc main( {\n\tx := [}\n",
        'package p\nvar s = "unterminated\n',
        "package p\nvar r = `never closed\n",
        "func ) ( { \x00 ☃ §",
        "#!/usr/bin/env gorun\npackage main\nfunc main() {}\n",
    ],
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src


def test_crlf_line_endings() -> None:
    crlf = SERVER.replace("\n", "\r\n")
    lx = check_language(crlf, LANG)
    assert "".join(lx.texts()) == crlf
    assert kinds(crlf, LANG) == kinds(SERVER, LANG)
    newlines = [lx.text(i) for i in range(len(lx)) if lx.kind(i).name == "NEWLINE"]
    assert newlines and all(n.endswith("\r\n") for n in newlines)


def test_names_and_detection() -> None:
    assert resolve_language_name("golang") == LANG
    assert detect_language(path="cmd/server/main.go") == LANG
    assert detect_language(SERVER) == LANG
    assert detect_language(GENERIC) == LANG
    assert detect_language("#!/usr/bin/env gorun\npackage main\n") == LANG


def test_nil_in_a_type_switch_case_is_a_keyword() -> None:
    src = 'func kind(v any) string {\n\tswitch v.(type) {\n\tcase nil:\n\t\treturn "none"\n\t}\n\treturn "some"\n}\n'
    assert kind_of(src, "go", "nil") == "KEYWORD"
    assert kind_of(src, "go", "kind") == "IDENTIFIER"
    check_language(src, "go")
