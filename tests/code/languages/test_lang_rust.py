"""Known answers for the Rust grammar file (grammars/rust.toml)."""

from __future__ import annotations

import pytest
from _language_helpers import check_language, kind_of, kinds

from codetok.code import LexemeFlag, detect_language, get_grammar, lex, split_identifier
from codetok.code.front.languages import resolve_language_name

LANG = "rust"

LIBRARY = """\
//! Geometry helpers.
#![allow(dead_code)]

use std::collections::HashMap;

/// A point on a grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Point<'a, T: Copy> {
    label: &'a str,
    coords: Vec<Option<T>>,
}

//// banner, not documentation
/** Outer block doc. */
/*! Inner block doc. */
/**/
/*** banner block ***/
/* plain block */
// plain line
impl<'a, T: Copy + PartialOrd> Point<'a, T> {
    pub fn new(label: &'a str) -> Self {
        let mut coords = Vec::<Option<T>>::new();
        coords.push(None);
        Self { label, coords }
    }

    fn closer(&self, a: T, b: T) -> Result<bool, String> {
        if a < b && b > a {
            return Ok(true);
        }
        Err(format!("{} is not closer", self.label))
    }
}
"""

LITERALS = """\
fn literals() {
    let s = "line\\n\\t\\"quoted\\"";
    let raw = r#"raw "inner" \\d+"#;
    let bytes = b"bytes\\x00";
    let c = 'x';
    let nl = '\\n';
    let byte = b'z';
    let n = (0xFF_u8, 1_000_000i64, 0b1010, 0o777, 2.5e-3f64, 1.0);
}
"""


def _comments(src: str) -> list[tuple[str, str]]:
    return [(t, k) for t, k in kinds(src, LANG) if k in ("COMMENT", "DOCSTRING")]


def test_strict_and_reserved_keywords() -> None:
    got = kinds(LIBRARY, LANG)
    words = {t for t, k in got if k == "KEYWORD"}
    assert {"use", "pub", "struct", "impl", "fn", "let", "mut", "if", "return", "self"} <= words
    src = (
        "async fn f() { let x = async move { 1 }.await; loop { break; } }\n"
        "mod m { pub(crate) trait T where Self: Sized {} }\n"
        "unsafe fn g(p: *const u8) -> &'static dyn Fn() { super::h(); crate::k(); }\n"
    )
    for word in ("async", "await", "move", "loop", "break", "mod", "trait", "where", "unsafe"):
        assert kind_of(src, LANG, word) == "KEYWORD", word
    assert kind_of(src, LANG, "dyn") == kind_of(src, LANG, "super") == "KEYWORD"
    assert kind_of(src, LANG, "crate") == kind_of(src, LANG, "const") == "KEYWORD"
    g = get_grammar(LANG)
    assert {"Self", "yield", "become", "gen", "try"} <= g.keywords
    assert {"union", "'static", "macro_rules", "raw", "safe"} <= g.contextual_keywords
    check_language(src, LANG)


def test_weak_keywords_in_and_out_of_context() -> None:
    src = (
        "union Bits { i: u32, f: f32 }\n"
        "fn f(x: &u32) { let union = 1; let raw = &raw const x; let default = 2; }\n"
        "macro_rules! twice { ($e:expr) => { $e + $e }; }\n"
    )
    got = kinds(src, LANG)
    assert [k for t, k in got if t == "union"] == ["KEYWORD", "IDENTIFIER"]
    assert [k for t, k in got if t == "raw"] == ["IDENTIFIER", "KEYWORD"]
    assert [k for t, k in got if t == "default"] == ["IDENTIFIER"]
    assert ("macro_rules!", "KEYWORD") in got
    assert ("expr", "KEYWORD") in got  # fragment specifier
    assert [k for t, k in got if t == "$e"] == ["IDENTIFIER"] * 3
    # primitive types are identifiers: the same word in a path is one too
    prim = "fn f() -> i32 { i32::MAX }\n"
    assert [k for t, k in kinds(prim, LANG) if t == "i32"] == ["IDENTIFIER", "IDENTIFIER"]
    check_language(src, LANG)
    check_language(prim, LANG)


def test_doc_comments_and_plain_comments() -> None:
    assert _comments(LIBRARY) == [
        ("//! Geometry helpers.", "DOCSTRING"),
        ("/// A point on a grid.", "DOCSTRING"),
        ("//// banner, not documentation", "COMMENT"),
        ("/** Outer block doc. */", "DOCSTRING"),
        ("/*! Inner block doc. */", "DOCSTRING"),
        ("/**/", "COMMENT"),
        ("/*** banner block ***/", "COMMENT"),
        ("/* plain block */", "COMMENT"),
        ("// plain line", "COMMENT"),
    ]
    g = get_grammar(LANG)
    assert g.comment_style("/// x") == "doc" and g.comment_style("//// x") == "line"
    assert g.comment_style("/**/") == "block" and g.comment_style("/*! x */") == "doc"
    check_language(LIBRARY, LANG)


def test_doc_line_comment_excludes_its_line_break() -> None:
    """tree-sitter-rust ends ``///``, ``//!`` and the shebang after the line break; the
    lexer gives it back to a NEWLINE lexeme, as in every other grammar."""
    got = kinds("/// Doc.\nfn f() {}\n", LANG)
    assert got[0] == ("/// Doc.", "DOCSTRING")
    for src in (
        "//! Crate.\r\n/// Doc.\r\nfn f() {}\r\n",
        "#!/usr/bin/env rust-script\n/// D\nfn main() {}\n",
    ):
        lx = check_language(src, LANG)
        texts = [lx.text(i) for i in range(len(lx))]
        assert all(not (t.endswith("\n") and t.strip()) for t in texts), texts
        assert texts.count("\r\n" if "\r" in src else "\n") == src.count("\n")


def test_strings_chars_and_numbers() -> None:
    got = kinds(LITERALS, LANG)
    assert [t for t, k in got if k == "STRING"] == [
        '"line\\n\\t\\"quoted\\""',
        'r#"raw "inner" \\d+"#',
        'b"bytes\\x00"',
        "'x'",
        "'\\n'",
        "b'z'",
    ]
    assert [t for t, k in got if k == "NUMBER"] == [
        "0xFF_u8",
        "1_000_000i64",
        "0b1010",
        "0o777",
        "2.5e-3f64",
        "1.0",
    ]
    check_language(LITERALS, LANG)


def test_attributes_are_decorators() -> None:
    lx = lex(LIBRARY, LANG)
    flagged = [
        lx.text(i)
        for i in range(len(lx))
        if lx.flags[i] & LexemeFlag.DECORATOR and lx.kind(i).name not in ("WHITESPACE", "NEWLINE")
    ]
    assert flagged == (
        ["#", "!", "[", "allow", "(", "dead_code", ")", "]"]
        + ["#", "[", "derive", "(", "Debug", ",", "Clone", ",", "PartialEq", ")", "]"]
    )
    assert kind_of(LIBRARY, LANG, "#") == "PUNCTUATION"


def test_generic_brackets_lifetimes_and_comparisons() -> None:
    got = kinds(LIBRARY, LANG)
    # "Point<'a, T: Copy>", "Vec<Option<T>>", "Vec::<Option<T>>::new()", "Result<bool, String>"
    assert [k for t, k in got if t == "<"] == ["PUNCTUATION"] * 8 + ["OPERATOR"]
    assert [k for t, k in got if t == ">"] == ["PUNCTUATION"] * 8 + ["OPERATOR"]
    assert ("'", "PUNCTUATION") in got and ("'", "OPERATOR") not in got
    assert kind_of(LIBRARY, LANG, "Self") == "KEYWORD"  # a type_identifier, [kinds.by_text]
    assert kind_of("fn f(x: &'static str) {}\n", LANG, "static") == "KEYWORD"
    labelled = "fn f() { 'outer: loop { break 'outer; } }\n"
    assert [t for t, _ in kinds(labelled, LANG)][5:8] == ["'", "outer", ":"]
    check_language(labelled, LANG)


def test_identifiers_and_splitting() -> None:
    src = "fn parse_http_response(rawBuffer: &[u8]) -> HttpResponse { todo!() }\n"
    for name in ("parse_http_response", "rawBuffer", "HttpResponse", "todo"):
        assert kind_of(src, LANG, name) == "IDENTIFIER", name
    assert split_identifier("parse_http_response").parts == ("parse", "http", "response")
    assert split_identifier("HttpResponse").parts == ("Http", "Response")
    check_language(src, LANG)


@pytest.mark.parametrize(
    "src",
    [
        "fn main( { let x = [; }\n",
        'fn f() { let s = "unterminated;\n',
        'fn f() { let r = r#"never closed"; }\n',
        "impl<T for X { fn } } } \x00 ☃ §",
        "/* unclosed block comment\nfn f() {}\n",
        "#!/usr/bin/env rust-script\nfn main() {}\n",
    ],
)
def test_syntax_errors_stay_lossless(src: str) -> None:
    lx = check_language(src, LANG)
    assert "".join(lx.texts()) == src


def test_crlf_line_endings() -> None:
    crlf = LIBRARY.replace("\n", "\r\n")
    lx = check_language(crlf, LANG)
    assert "".join(lx.texts()) == crlf
    lf_kinds = [(t.rstrip("\n"), k) for t, k in kinds(LIBRARY, LANG)]
    assert [(t.rstrip("\r\n"), k) for t, k in kinds(crlf, LANG)] == lf_kinds


def test_names_and_detection() -> None:
    assert resolve_language_name("rs") == LANG
    assert detect_language(path="src/lib.rs") == LANG
    assert detect_language(LIBRARY) == LANG
    assert detect_language(LITERALS + 'fn main() { println!("{}", 1); }\n') == LANG
    assert detect_language("#!/usr/bin/env rust-script\nfn main() {}\n") == LANG
