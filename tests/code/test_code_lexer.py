"""Tests for codetok.code.front.lexer: expected kind tables, coverage invariant, positions."""

from __future__ import annotations

import glob
import os
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.code import LexemeFlag, LexemeKind, Lexemes, lex
from codetok.errors import LanguageError

K = LexemeKind
DATA = Path(__file__).parents[1] / "data" / "code"
LANGS = ["python", "java", "csharp", "javascript"]
LAYOUT = (K.WHITESPACE, K.NEWLINE)


def visible(lx: Lexemes) -> list[tuple[str, str]]:
    """(kind name, text) of every lexeme that is not whitespace or a line break."""
    return [(lx.kind(i).name, lx.text(i)) for i in range(len(lx)) if lx.kinds[i] not in LAYOUT]


def assert_lossless(lx: Lexemes, source: str | bytes) -> None:
    lx.check()
    if isinstance(source, bytes):
        assert b"".join(lx.lexeme_bytes(i) for i in range(len(lx))) == source
    else:
        assert "".join(lx.texts()) == source
    k = lx.kinds
    assert int((k == K.INDENT).sum()) == int((k == K.DEDENT).sum())


# ----------------------------------------------------------------------------- tables

PY_EXPECTED = [
    ("COMMENT", "#!/usr/bin/env python3"), ("DOCSTRING", '"""Module docstring."""'),
    ("KEYWORD", "import"), ("IDENTIFIER", "functools"),
    ("PUNCTUATION", "@"), ("IDENTIFIER", "functools"), ("PUNCTUATION", "."),
    ("IDENTIFIER", "total_ordering"),
    ("KEYWORD", "class"), ("IDENTIFIER", "Greeter"), ("PUNCTUATION", ":"),
    ("INDENT", ""), ("DOCSTRING", '"""Class docstring."""'),
    ("KEYWORD", "def"), ("IDENTIFIER", "greet"), ("PUNCTUATION", "("), ("IDENTIFIER", "self"),
    ("PUNCTUATION", ","), ("IDENTIFIER", "name"), ("PUNCTUATION", ":"), ("IDENTIFIER", "str"),
    ("PUNCTUATION", ")"), ("OPERATOR", "->"), ("IDENTIFIER", "str"), ("PUNCTUATION", ":"),
    ("INDENT", ""), ("DOCSTRING", '"""Function docstring."""'),
    ("IDENTIFIER", "x"), ("OPERATOR", "="), ("STRING", '"not a docstring"'),
    ("KEYWORD", "if"), ("IDENTIFIER", "name"), ("PUNCTUATION", ":"),
    ("INDENT", ""), ("KEYWORD", "return"), ("STRING", 'f"Hello '), ("PUNCTUATION", "{"),
    ("IDENTIFIER", "name"), ("OPERATOR", "!r"), ("STRING", ":>10"), ("PUNCTUATION", "}"),
    ("STRING", '!"'), ("OPERATOR", "+"), ("IDENTIFIER", "x"),
    ("DEDENT", ""), ("KEYWORD", "return"), ("STRING", '"none"'),
    ("DEDENT", ""), ("DEDENT", ""),
    ("KEYWORD", "def"), ("IDENTIFIER", "héllo"), ("PUNCTUATION", "("), ("PUNCTUATION", ")"),
    ("PUNCTUATION", ":"), ("INDENT", ""), ("KEYWORD", "pass"), ("DEDENT", ""),
]  # fmt: skip

JAVA_EXPECTED = [
    ("KEYWORD", "package"), ("IDENTIFIER", "org"), ("PUNCTUATION", "."),
    ("IDENTIFIER", "example"), ("PUNCTUATION", ";"),
    ("KEYWORD", "import"), ("IDENTIFIER", "java"), ("PUNCTUATION", "."), ("IDENTIFIER", "util"),
    ("PUNCTUATION", "."), ("IDENTIFIER", "List"), ("PUNCTUATION", ";"),
    ("DOCSTRING", "/** Javadoc for the class. */"),
    ("PUNCTUATION", "@"), ("IDENTIFIER", "Deprecated"),
    ("KEYWORD", "public"), ("KEYWORD", "class"), ("IDENTIFIER", "Sample"), ("PUNCTUATION", "<"),
    ("IDENTIFIER", "T"), ("PUNCTUATION", ">"), ("PUNCTUATION", "{"),
    ("COMMENT", "// a line comment"),
    ("KEYWORD", "private"), ("KEYWORD", "static"), ("KEYWORD", "final"), ("KEYWORD", "int"),
    ("IDENTIFIER", "COUNT"), ("OPERATOR", "="), ("NUMBER", "0x1F"), ("PUNCTUATION", ";"),
    ("COMMENT", "/* a block comment */"),
    ("KEYWORD", "public"), ("IDENTIFIER", "String"), ("IDENTIFIER", "name"), ("PUNCTUATION", "("),
    ("IDENTIFIER", "List"), ("PUNCTUATION", "<"), ("IDENTIFIER", "T"), ("PUNCTUATION", ">"),
    ("IDENTIFIER", "items"), ("PUNCTUATION", ")"), ("PUNCTUATION", "{"),
    ("KEYWORD", "char"), ("IDENTIFIER", "c"), ("OPERATOR", "="), ("STRING", "'x'"),
    ("PUNCTUATION", ";"),
    ("IDENTIFIER", "String"), ("IDENTIFIER", "block"), ("OPERATOR", "="),
    ("STRING", '"""\n            text block\n            """'), ("PUNCTUATION", ";"),
    ("KEYWORD", "return"), ("STRING", '"n="'), ("OPERATOR", "+"), ("IDENTIFIER", "items"),
    ("PUNCTUATION", "."), ("IDENTIFIER", "size"), ("PUNCTUATION", "("), ("PUNCTUATION", ")"),
    ("OPERATOR", "+"), ("IDENTIFIER", "c"), ("OPERATOR", "+"), ("IDENTIFIER", "block"),
    ("PUNCTUATION", ";"), ("PUNCTUATION", "}"), ("PUNCTUATION", "}"),
]  # fmt: skip

CS_EXPECTED = [
    ("KEYWORD", "using"), ("IDENTIFIER", "System"), ("PUNCTUATION", ";"),
    ("KEYWORD", "namespace"), ("IDENTIFIER", "Demo"), ("PUNCTUATION", "{"),
    ("DOCSTRING", "/// <summary>Says hello.</summary>"),
    ("PUNCTUATION", "["), ("IDENTIFIER", "Serializable"), ("PUNCTUATION", "]"),
    ("KEYWORD", "public"), ("KEYWORD", "class"), ("IDENTIFIER", "Greeter"), ("PUNCTUATION", "{"),
    ("KEYWORD", "public"), ("KEYWORD", "string"), ("IDENTIFIER", "Name"), ("PUNCTUATION", "{"),
    ("KEYWORD", "get"), ("PUNCTUATION", ";"), ("KEYWORD", "set"), ("PUNCTUATION", ";"),
    ("PUNCTUATION", "}"),
    ("KEYWORD", "public"), ("KEYWORD", "string"), ("IDENTIFIER", "Greet"), ("PUNCTUATION", "("),
    ("KEYWORD", "int"), ("IDENTIFIER", "count"), ("PUNCTUATION", ")"), ("PUNCTUATION", "{"),
    ("KEYWORD", "var"), ("IDENTIFIER", "verbatim"), ("OPERATOR", "="),
    ("STRING", '@"C:\\path ""quoted"""'), ("PUNCTUATION", ";"),
    ("KEYWORD", "var"), ("IDENTIFIER", "raw"), ("OPERATOR", "="),
    ("STRING", '"""raw "text" here"""'), ("PUNCTUATION", ";"),
    ("KEYWORD", "return"), ("STRING", '$"Hello '), ("PUNCTUATION", "{"), ("IDENTIFIER", "Name"),
    ("PUNCTUATION", ","), ("NUMBER", "5"), ("STRING", ":F2"), ("PUNCTUATION", "}"),
    ("STRING", " x"), ("PUNCTUATION", "{"), ("IDENTIFIER", "count"), ("PUNCTUATION", "}"),
    ("STRING", '!"'), ("PUNCTUATION", ";"),
    ("PUNCTUATION", "}"), ("PUNCTUATION", "}"), ("PUNCTUATION", "}"),
]  # fmt: skip

JS_EXPECTED = [
    ("COMMENT", "// @flow-less sample"), ("DOCSTRING", "/** JSDoc comment. */"),
    ("KEYWORD", "import"), ("IDENTIFIER", "React"), ("KEYWORD", "from"), ("STRING", "'react'"),
    ("PUNCTUATION", ";"),
    ("KEYWORD", "export"), ("KEYWORD", "function"), ("IDENTIFIER", "App"), ("PUNCTUATION", "("),
    ("PUNCTUATION", "{"), ("IDENTIFIER", "name"), ("PUNCTUATION", "}"), ("PUNCTUATION", ")"),
    ("PUNCTUATION", "{"),
    ("KEYWORD", "const"), ("IDENTIFIER", "greeting"), ("OPERATOR", "="), ("STRING", "`Hello "),
    ("PUNCTUATION", "${"), ("IDENTIFIER", "name"), ("PUNCTUATION", "."),
    ("IDENTIFIER", "toUpperCase"), ("PUNCTUATION", "("), ("PUNCTUATION", ")"),
    ("PUNCTUATION", "}"), ("STRING", "!`"), ("PUNCTUATION", ";"),
    ("KEYWORD", "const"), ("IDENTIFIER", "re"), ("OPERATOR", "="), ("STRING", "/ab+c/gi"),
    ("PUNCTUATION", ";"),
    ("KEYWORD", "return"), ("PUNCTUATION", "<"), ("IDENTIFIER", "div"),
    ("IDENTIFIER", "className"), ("OPERATOR", "="), ("STRING", '"app"'), ("IDENTIFIER", "id"),
    ("OPERATOR", "="), ("PUNCTUATION", "{"), ("IDENTIFIER", "name"), ("PUNCTUATION", "}"),
    ("PUNCTUATION", ">"), ("STRING", "Hi "), ("STRING", "&amp;"), ("STRING", " "),
    ("PUNCTUATION", "{"), ("IDENTIFIER", "greeting"), ("PUNCTUATION", "}"),
    ("PUNCTUATION", "</"), ("IDENTIFIER", "div"), ("PUNCTUATION", ">"), ("PUNCTUATION", ";"),
    ("PUNCTUATION", "}"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("filename", "language", "expected"),
    [
        ("sample.py", "python", PY_EXPECTED),
        ("Sample.java", "java", JAVA_EXPECTED),
        ("Sample.cs", "csharp", CS_EXPECTED),
        ("sample.jsx", "javascript", JS_EXPECTED),
    ],
)
def test_sample_kinds(filename: str, language: str, expected: list[tuple[str, str]]) -> None:
    path = DATA / filename
    data = path.read_bytes()
    lx = lex(data, path=path)
    assert lx.language == language
    assert not lx.has_error
    assert_lossless(lx, data)
    assert visible(lx) == expected


def test_lex_str_and_bytes_agree() -> None:
    text = (DATA / "sample.py").read_text(encoding="utf-8")
    a = lex(text, "python")
    b = lex(text.encode("utf-8"), "python")
    assert np.array_equal(a.kinds, b.kinds)
    assert np.array_equal(a.byte_starts, b.byte_starts)
    assert np.array_equal(a.char_starts, b.char_starts)
    assert a.texts() == b.texts()


# ----------------------------------------------------------------------------- layout


def test_indent_dedent_positions() -> None:
    src = "def f():\n    if x:\n        y()\n    # note\n    z = 1\nw = 2\n"
    lx = lex(src, "python")
    assert_lossless(lx, src)
    marks = [(lx.kind(i).name, lx.lines[i], lx.cols[i]) for i in lx.indices(K.INDENT, K.DEDENT)]
    assert marks == [("INDENT", 2, 4), ("INDENT", 3, 8), ("DEDENT", 5, 4), ("DEDENT", 6, 0)]
    # markers are zero-width and sit right before the first code lexeme of their line
    for i in lx.indices(K.INDENT, K.DEDENT):
        assert lx.byte_starts[i] == lx.byte_ends[i] == lx.byte_starts[i + 1]
        assert lx.kinds[i + 1] not in LAYOUT
    assert lx.text(int(lx.indices(K.DEDENT)[0]) + 1) == "z"


def test_dedent_at_end_of_file_and_one_line_blocks() -> None:
    lx = lex("if a:\n    if b:\n        pass", "python")
    kinds = [lx.kind(i).name for i in range(len(lx))]
    assert kinds[-3:] == ["KEYWORD", "DEDENT", "DEDENT"]
    assert lx.byte_starts[-1] == len(lx.source_bytes)
    one_line = lex("if a: pass\nwhile b: c()\n", "python")
    assert one_line.indices(K.INDENT, K.DEDENT).size == 0


def test_brace_languages_have_no_indent_markers() -> None:
    lx = lex("class A {\n    void f() {\n        g();\n    }\n}\n", "java")
    assert lx.indices(K.INDENT, K.DEDENT).size == 0


def test_crlf_tabs_and_positions() -> None:
    src = "def f():\r\n\tx = 1\r\n\treturn x\r\n"
    lx = lex(src, "python")
    assert_lossless(lx, src)
    newlines = [lx.text(i) for i in lx.indices(K.NEWLINE)]
    assert newlines == ["\r\n", "\r\n", "\r\n"]
    i = [lx.text(j) for j in range(len(lx))].index("return")
    assert (lx.lines[i], lx.cols[i]) == (3, 1)
    assert lx.text(i - 1) == "\t" and lx.kind(i - 1) == K.WHITESPACE


def test_comment_with_crlf_keeps_line_break_separate() -> None:
    lx = lex("x = 1  # note\r\ny = 2\r\n", "python")
    comment = int(lx.indices(K.COMMENT)[0])
    assert lx.text(comment) == "# note"
    assert lx.text(comment + 1) == "\r\n"


# ----------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("as_bytes", [False, True])
def test_bom(as_bytes: bool) -> None:
    src = "\ufeffimport os\nx = 1\n"
    source = src.encode("utf-8") if as_bytes else src
    lx = lex(source, "python")
    assert_lossless(lx, source)
    assert lx.kind(0) == K.WHITESPACE and lx.text(0) == "\ufeff"
    assert (lx.byte_starts[1], lx.char_starts[1]) == (3, 1)
    assert lx.kind(1) == K.KEYWORD
    assert not lx.has_error


def test_unicode_identifiers_char_and_byte_spans() -> None:
    src = "größe = naïve + 名前  # ünïcode\n"
    lx = lex(src, "python")
    assert_lossless(lx, src)
    assert visible(lx)[:5] == [
        ("IDENTIFIER", "größe"),
        ("OPERATOR", "="),
        ("IDENTIFIER", "naïve"),
        ("OPERATOR", "+"),
        ("IDENTIFIER", "名前"),
    ]
    i = [lx.text(j) for j in range(len(lx))].index("名前")
    assert lx.char_starts[i] == src.index("名前")
    assert lx.byte_starts[i] == len(src[: src.index("名前")].encode("utf-8"))
    assert lx.cols[i] == src.index("名前")
    assert lx.lexeme_bytes(i) == "名前".encode()


def test_invalid_utf8_bytes_round_trip() -> None:
    data = b'x = "caf\xe9"\ny = \xff\xfe + 1\n'
    lx = lex(data, "python")
    assert_lossless(lx, data)
    assert lx.source_text == data.decode("utf-8", "surrogateescape")
    assert "".join(lx.texts()) == lx.source_text


def test_lone_surrogate_in_str() -> None:
    src = 'x = "\ud800"\n'
    lx = lex(src, "python")
    assert_lossless(lx, src)


def test_empty_and_blank_sources() -> None:
    for src in ["", "\n", "   ", "\n\n  \n"]:
        for lang in LANGS:
            lx = lex(src, lang)
            assert_lossless(lx, src)
    assert len(lex("", "python")) == 0


# ----------------------------------------------------------------------------- strings


def test_fstring_nested_format_spec() -> None:
    lx = lex('s = f"{a:{w}.{p}f} and {{b}}"\n', "python")
    assert visible(lx)[2:] == [
        ("STRING", 'f"'),
        ("PUNCTUATION", "{"),
        ("IDENTIFIER", "a"),
        ("STRING", ":"),
        ("PUNCTUATION", "{"),
        ("IDENTIFIER", "w"),
        ("PUNCTUATION", "}"),
        ("STRING", "."),
        ("PUNCTUATION", "{"),
        ("IDENTIFIER", "p"),
        ("PUNCTUATION", "}"),
        ("STRING", "f"),
        ("PUNCTUATION", "}"),
        ("STRING", ' and {{b}}"'),
    ]
    inside = [lx.text(i) for i in range(len(lx)) if lx.flags[i] & LexemeFlag.INTERPOLATION]
    assert "a" in inside and "w" in inside


def test_template_literal_nested() -> None:
    src = "const s = `a${`b${c}`}d`;"
    lx = lex(src, "javascript")
    assert_lossless(lx, src)
    assert visible(lx)[3:-1] == [
        ("STRING", "`a"),
        ("PUNCTUATION", "${"),
        ("STRING", "`b"),
        ("PUNCTUATION", "${"),
        ("IDENTIFIER", "c"),
        ("PUNCTUATION", "}"),
        ("STRING", "`"),
        ("PUNCTUATION", "}"),
        ("STRING", "d`"),
    ]


def test_csharp_strings() -> None:
    src = 'var a = @"x""y"; var b = $@"p{q}r"; var c = """\n  raw\n  """; var d = "s"u8;'
    lx = lex(src, "csharp")
    assert_lossless(lx, src)
    strings = [lx.text(i) for i in lx.indices(K.STRING)]
    assert strings == ['@"x""y"', '$@"p', 'r"', '"""\n  raw\n  """', '"s"u8']


def test_java_text_block_and_escape() -> None:
    lx = lex('String s = "a\\tb" + """\n  x\n  """;', "java")
    assert [lx.text(i) for i in lx.indices(K.STRING)] == ['"a\\tb"', '"""\n  x\n  """']


def test_python_docstring_rules() -> None:
    src = (
        '"""mod"""\n'
        "x = 1\n"
        '"""not a docstring"""\n'
        "def f():\n"
        "    # comment first\n"
        '    "doc" "string"\n'
        "def g():\n"
        "    x = 1\n"
        '    "no"\n'
        "class C:\n"
        "    '''cls'''\n"
    )
    lx = lex(src, "python")
    assert [lx.text(i) for i in lx.indices(K.DOCSTRING)] == [
        '"""mod"""',
        '"doc"',
        '"string"',
        "'''cls'''",
    ]
    assert '"no"' in [lx.text(i) for i in lx.indices(K.STRING)]


def test_decorator_and_annotation_flags() -> None:
    cases = [
        ("@dec.x(1)\ndef f(): pass\n", "python", ["@", "dec", ".", "x", "(", "1", ")"]),
        ("@Override\nvoid f() {}", "java", ["@", "Override"]),
        ('[Obsolete("x")]\nclass A {}', "csharp", ["[", "Obsolete", "(", '"x"', ")", "]"]),
        ("class A { @dec m() {} }", "javascript", ["@", "dec"]),
    ]
    for src, lang, expected in cases:
        lx = lex(src, lang)
        flagged = [
            lx.text(i)
            for i in range(len(lx))
            if lx.flags[i] & LexemeFlag.DECORATOR and lx.kinds[i] not in LAYOUT
        ]
        assert flagged == expected, lang


def test_jsx_kinds() -> None:
    lx = lex("const a = b < c ? <br/> : <p>x</p>;", "javascript")
    kinds = {(lx.text(i), lx.parent_type(i)): lx.kind(i).name for i in range(len(lx))}
    assert kinds[("<", "binary_expression")] == "OPERATOR"
    assert kinds[("<", "jsx_self_closing_element")] == "PUNCTUATION"
    assert kinds[("x", "jsx_element")] == "STRING"


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("src", "lang"),
    [
        ("def f(:\n  return ]\n", "python"),
        ("x = 'unterminated\n", "python"),
        ("class { int x = ; }}}", "java"),
        ("namespace { void ( }", "csharp"),
        ("function ( { let = ; `x${", "javascript"),
        ("\x00\x01 ☃ §§ ¶", "python"),
    ],
)
def test_syntax_errors_stay_lossless(src: str, lang: str) -> None:
    lx = lex(src, lang)
    assert lx.has_error
    assert_lossless(lx, src)
    assert (lx.flags & LexemeFlag.IN_ERROR).any() or (lx.kinds == K.ERROR).any()


def test_unknown_language() -> None:
    with pytest.raises(LanguageError):
        lex("x", "klingon")
    with pytest.raises(TypeError):
        lex(123, "python")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- API


def test_lexemes_api() -> None:
    lx = lex("a = 1\n", "python")
    assert len(lx) == 6
    assert lx[-1].kind == K.NEWLINE
    first = lx[0]
    assert first.text == "a" and first.node_type == "identifier"
    assert first.parent_type == "assignment"
    assert first.byte_span == (0, 1) and first.char_span == (0, 1)
    assert (first.line, first.col) == (1, 0)
    assert [x.text for x in lx[1:3]] == [" ", "="]
    assert [x.text for x in lx] == lx.texts()
    assert lx.kinds.dtype == np.uint8 and lx.byte_starts.dtype == np.int64
    assert lx.node_type(1) == "" and lx.parent_type(1) == "assignment"
    assert "python" in repr(lx)
    with pytest.raises(IndexError):
        lx[6]


# ----------------------------------------------------------------------------- properties

_CODEISH = st.text(
    alphabet=st.sampled_from(
        list("abcXYZ_019 \t\n\r\"'`#/*\\{}()[];:,.=+-<>@$!?") + ["é", "名", "\ufeff", "\x00"]
    ),
    max_size=80,
)


@settings(max_examples=60, deadline=None)
@given(src=_CODEISH, lang=st.sampled_from(LANGS))
def test_any_text_is_covered(src: str, lang: str) -> None:
    assert_lossless(lex(src, lang), src)


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=60), lang=st.sampled_from(LANGS))
def test_any_bytes_are_covered(data: bytes, lang: str) -> None:
    assert_lossless(lex(data, lang), data)


# ----------------------------------------------------------------------------- real code


def _stdlib_slice(n: int) -> list[str]:
    root = sysconfig.get_paths()["stdlib"]
    files = sorted(glob.glob(os.path.join(root, "**", "*.py"), recursive=True))
    return files[:: max(1, len(files) // n)][:n]


@pytest.mark.parametrize("path", _stdlib_slice(25), ids=os.path.basename)
def test_stdlib_files_lossless(path: str) -> None:
    data = Path(path).read_bytes()
    lx = lex(data, path=path)
    assert_lossless(lx, data)
    assert not (lx.kinds == K.ERROR).any()


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("lang", ["python", "java", "csharp", "javascript"])
def test_a_lone_surrogate_is_never_cut_by_a_lexeme_boundary(lang: str, engine: str) -> None:
    """Fuzz finding (10^6 run, parse:java #1114): tree-sitter read a lone surrogate's
    three ``surrogatepass`` bytes as invalid UTF-8 and ended a token after the first, so a
    lexeme held two bytes and no char. The parser now reads U+FFFD in its place."""
    from codetok.code.front.languages import get_grammar
    from codetok.code.front.native import native_lexer
    from codetok.engine.plan import use_plans

    src = "x\\\udbc0\u0110\u06fe = '\ud800' + \udfff;\n"
    previous = use_plans(engine == "native")
    try:
        assert (native_lexer(get_grammar(lang)) is not None) == (engine == "native")
        lx = lex(src, lang)
    finally:
        use_plans(previous)
    lx.check()
    assert "".join(lx.texts()) == src
    widths = lx.char_ends - lx.char_starts
    assert np.all((widths == 0) == (lx.byte_ends == lx.byte_starts))
