"""The native lexer (codetok/code/front/native.py) against the Python lexer it repeats.

The records and blocks of the native walk must equal the Python cursor walk's on the same
tree, and ``lex`` must give the same lexemes (every column) with native plans on and off:
fixtures, standard library files, generated code with syntax errors, any bytes, every
language; also when the documentation comment patterns go back to Python.
"""

from __future__ import annotations

import sysconfig
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
from _language_helpers import FIELDS
from conftest import python_pipeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import get_grammar, lex
from codetok.code.front import native as native_lexer
from codetok.code.front.lexer import _merge_runs, _walk

core = pytest.importorskip("codetok._core")

DATA = Path(__file__).parents[1] / "data" / "code"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".py", ".java", ".cs", ".jsx"))
LANGS = ("python", "java", "csharp", "javascript")


def test_runtime_is_built_in() -> None:
    """The build compiled the tree-sitter runtime of the installed bindings (setup.py)."""
    assert core.TREE_SITTER_VERSION == metadata.version("tree-sitter")
    for lang in LANGS:
        assert native_lexer.native_lexer(get_grammar(lang)) is not None
    with python_pipeline():
        assert native_lexer.native_lexer(get_grammar("python")) is None


def check_walk(source: bytes, lang: str) -> None:
    g = get_grammar(lang)
    walker = native_lexer.native_lexer(g)
    records, blocks, root_kid, root_end, has_error = walker.walk(g.capsule, source)
    tree = g.parser().parse(source)
    out, block_list = _walk(tree.root_node, g)
    reference = _merge_runs(np.array(out, np.int64).reshape(-1, 6))
    reference[:, 5] = np.sign(reference[:, 5])  # the native walk keeps the context's sign
    assert records.tolist() == reference.tolist()
    assert blocks.tolist() == [list(b) for b in block_list]
    assert root_kid == min(tree.root_node.kind_id, len(g.type_index) - 1)
    assert root_end == tree.root_node.end_byte
    assert has_error == tree.root_node.has_error


def check_lex(source: str | bytes, lang: str) -> None:
    native = lex(source, lang)
    with python_pipeline():
        reference = lex(source, lang)
    for name in FIELDS:
        assert np.array_equal(getattr(native, name), getattr(reference, name)), name
    assert native.has_error == reference.has_error
    assert str(native.tree.root_node) == str(reference.tree.root_node)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    lang = get_grammar(
        {".py": "python", ".java": "java", ".cs": "csharp"}.get(path.suffix, "javascript")
    ).name
    data = path.read_bytes()
    check_walk(data, lang)
    check_lex(data, lang)
    check_lex(b"\xef\xbb\xbf" + data, lang)  # a byte order mark is not parsed
    check_lex(data.replace(b"\n", b"\r\n"), lang)  # comments that end after a "\r"


def test_stdlib_files() -> None:
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:60]:
        data = path.read_bytes()
        check_walk(data, "python")
        check_lex(data, "python")


CODE_BITS = [
    "def ", "class ", "if ", "x", " = ", "(", ")", "{", "}", "[", "]", ";", ":", ",", ".", "\n",
    "\n    ", "\n\t", "\r\n", "  ", "# c\n", "// c\n", "/* b */", "/** @param x */", '"""Doc."""',
    '"s"', "'c'", 'f"{a}b"', "`t ${x}`", '$"{a}"', "@dec", "<a>", "</a>", "=>", "0x1F", "é",
    "return ", "import ", "\x00", "\\", "\ufeff", "\u00a0", "\u3000", "\x1c", "\x7f", "\\\n",
    "/// doc\n", "/**/", "/***/", "\r", "#!x\n", "# c", "// c", "\r\n\r\n",
]  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lang=st.sampled_from(LANGS),
    bits=st.lists(st.sampled_from(CODE_BITS) | st.characters(codec="utf-8"), max_size=40),
)
def test_generated_code(lang: str, bits: list[str]) -> None:
    source = "".join(bits)
    check_walk(source.encode("utf-8"), lang)
    check_lex(source, lang)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lang=st.sampled_from(LANGS), data=st.binary(max_size=200))
def test_any_bytes(lang: str, data: bytes) -> None:
    check_walk(data, lang)
    check_lex(data, lang)


def test_other_runtime_version_takes_the_python_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native_lexer, "_runtime_matches", lambda: False)
    assert native_lexer.native_lexer(get_grammar("java")) is None
    lexemes = lex("class A {}", "java")
    assert lexemes.tree is not None  # parsed by the bindings, as before


def test_tree_is_parsed_on_first_access() -> None:
    lexemes = lex("def f():\n    return 1\n", "python")
    assert lexemes._tree is None
    assert lexemes.tree.root_node.type == "module"
    assert lexemes.tree is lexemes.tree


def test_bad_language_capsule() -> None:
    walker = native_lexer.native_lexer(get_grammar("python"))
    with pytest.raises(TypeError):
        walker.walk(object(), b"x = 1")


def test_doc_patterns_read_natively() -> None:
    assert native_lexer.doc_pattern(r"^/\*\*(?![*/])") == ("/**", "*/")
    assert native_lexer.doc_pattern("^///(?!/)") == ("///", "/")
    assert native_lexer.doc_pattern("^##") == ("##", "")
    for other in ("^#+", "^/[a-z]", "/\\*\\*", "^x(?![a-z])", "^\u00e9"):
        assert native_lexer.doc_pattern(other) is None, other
    assert native_lexer.column_tables(get_grammar("csharp"))[2] == [("///", "/"), ("/**", "*/")]


def test_doc_patterns_asked_of_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Patterns the native side cannot read are asked of Python, with the same result."""
    tables = native_lexer.column_tables
    monkeypatch.setattr(
        native_lexer, "column_tables", lambda g: (*tables(g)[:2], True, *tables(g)[3:])
    )
    monkeypatch.setattr(native_lexer, "_PLANS", {})
    source = "/** a */\nclass A { /// b\n /* c */ int x; /***/ }\n"
    for lang in ("java", "csharp", "javascript"):
        check_lex(source, lang)
    assert native_lexer._PLANS  # the plans of this test were native ones


def test_callback_errors_surface(monkeypatch: pytest.MonkeyPatch) -> None:
    from codetok.code.front import layout

    monkeypatch.setattr(native_lexer, "_PLANS", {})
    monkeypatch.setattr(layout, "_EXTRA_BLANKS", None)  # makes blank() raise TypeError
    monkeypatch.setattr(native_lexer, "_EXTRA_BLANKS", None)
    with pytest.raises(TypeError):
        lex("x = 1\u200b\n", "python")  # a gap: not isspace, one of the extra blanks
    monkeypatch.undo()
    native_lexer._PLANS.clear()
