"""The native parse and walk of the lexer (codetok/code/native_walk.py) against ``_walk``.

The records and blocks of the native walk must equal the Python cursor walk's on the same
tree (fixtures, standard library files, generated code with syntax errors, every language),
and ``lex`` must give the same lexemes with native plans on and off.
"""

from __future__ import annotations

import sysconfig
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
from conftest import python_pipeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.code import get_grammar, lex, native_walk
from codetok.code.lexer import _walk

core = pytest.importorskip("codetok._core")

DATA = Path(__file__).parent / "data" / "code"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".py", ".java", ".cs", ".jsx"))
LANGS = ("python", "java", "csharp", "javascript")
FIELDS = ("kinds", "node_types", "parent_types", "byte_starts", "byte_ends", "char_starts",
          "char_ends", "lines", "cols", "flags")  # fmt: skip


def test_runtime_is_built_in() -> None:
    """The build compiled the tree-sitter runtime of the installed bindings (setup.py)."""
    assert core.TREE_SITTER_VERSION == metadata.version("tree-sitter")
    for lang in LANGS:
        assert native_walk.native_walker(get_grammar(lang)) is not None
    with python_pipeline():
        assert native_walk.native_walker(get_grammar("python")) is None


def check_walk(source: bytes, lang: str) -> None:
    g = get_grammar(lang)
    walker = native_walk.native_walker(g)
    records, blocks, root_kid, root_end, has_error = walker.walk(g.capsule, source)
    tree = g.parser().parse(source)
    out, block_list = _walk(tree.root_node, g)
    assert records.tolist() == np.array(out, np.int64).reshape(-1, 6).tolist()
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


def test_stdlib_files() -> None:
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:60]:
        data = path.read_bytes()
        check_walk(data, "python")
        check_lex(data, "python")


CODE_BITS = [
    "def ", "class ", "if ", "x", " = ", "(", ")", "{", "}", "[", "]", ";", ":", ",", ".", "\n",
    "\n    ", "\n\t", "\r\n", "  ", "# c\n", "// c\n", "/* b */", "/** @param x */", '"""Doc."""',
    '"s"', "'c'", 'f"{a}b"', "`t ${x}`", '$"{a}"', "@dec", "<a>", "</a>", "=>", "0x1F", "é",
    "return ", "import ", "\x00", "\\", "\ufeff",
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
    monkeypatch.setattr(native_walk, "_runtime_matches", lambda: False)
    assert native_walk.native_walker(get_grammar("java")) is None
    lexemes = lex("class A {}", "java")
    assert lexemes.tree is not None  # parsed by the bindings, as before


def test_tree_is_parsed_on_first_access() -> None:
    lexemes = lex("def f():\n    return 1\n", "python")
    assert lexemes._tree is None
    assert lexemes.tree.root_node.type == "module"
    assert lexemes.tree is lexemes.tree


def test_bad_language_capsule() -> None:
    walker = native_walk.native_walker(get_grammar("python"))
    with pytest.raises(TypeError):
        walker.walk(object(), b"x = 1")
