"""Tests for the grammar registry (codetok.code.front.languages) and language detection."""

from __future__ import annotations

import re
import subprocess
import sys
import types
import warnings
from collections.abc import Iterator

import pytest
import tree_sitter
import tree_sitter_python

from codetok.code import LexemeKind, detect_language, get_grammar, lex, load_grammar
from codetok.code.front import languages
from codetok.code.front.languages import (
    available_languages,
    generic_grammar,
    grammar_specs,
    register_grammar,
    resolve_language_name,
)
from codetok.errors import FormatError, LanguageError

CORE = ["csharp", "java", "javascript", "python"]
#: Every language with a grammar file (the core four and the curated ones).
CURATED = sorted(grammar_specs())


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    """Tests that register grammars must not leak them into other tests."""
    languages._packaged_specs()
    grammars = dict(languages._grammars)
    aliases = dict(languages._alias_map)
    yield
    languages._grammars.clear()
    languages._grammars.update(grammars)
    languages._alias_map.clear()
    languages._alias_map.update(aliases)
    languages._by_spelling.clear()


def test_core_languages_available() -> None:
    assert set(CORE) <= set(available_languages())
    for name in CORE:
        g = get_grammar(name)
        assert g.name == name and not g.generic
        assert g.type_names[0] == "" and len(g.leaf_kinds) == g.language.node_kind_count + 2


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("py", "python"),
        ("C#", "csharp"),
        ("cs", "csharp"),
        ("JS", "javascript"),
        ("jsx", "javascript"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert resolve_language_name(alias) == name
    assert get_grammar(alias) is get_grammar(name)


@pytest.mark.parametrize("name", CURATED)
def test_every_node_type_in_the_file_exists(name: str) -> None:
    """Catch typos: each node type a grammar file names must exist in the grammar."""
    spec = grammar_specs()[name]
    lang = get_grammar(name).language

    def named(t: str) -> bool:
        return lang.id_for_node_kind(t, True) is not None

    def anonymous(t: str) -> bool:
        return lang.id_for_node_kind(t, False) is not None

    missing = []
    for key, value in spec.get("kinds", {}).items():
        if key == "anonymous":
            missing += [t for t in value if not anonymous(t)]
        elif key == "by_text":
            missing += [t for t in value if not named(t)]
        elif key == "gaps":  # spellings of uncovered bytes, no node types
            continue
        elif key == "by_parent":
            for parent, toks in value.items():
                missing += [parent] if not named(parent) else []
                missing += [t for t in toks if not anonymous(t)]
        else:
            missing += [t for t in value if not named(t)]
    for section, key in [
        ("strings", "nodes"),
        ("strings", "code"),
        ("comments", "nodes"),
        ("decorators", "nodes"),
        ("layout", "indent_blocks"),
        ("comments", "doc_before"),
    ]:
        missing += [t for t in spec.get(section, {}).get(key, []) if not named(t)]
    missing += [t for t in spec.get("operators", {}).get("punctuation", []) if not anonymous(t)]
    for body in spec.get("docstring", {}).get("bodies", []):
        missing += [t for t in [body["node"], *body.get("parents", [])] if not named(t)]
    assert missing == []


@pytest.mark.parametrize("name", CURATED)
def test_every_word_token_is_a_listed_keyword(name: str) -> None:
    g = get_grammar(name)
    lang = g.language
    anon_map = grammar_specs()[name].get("kinds", {}).get("anonymous", {})
    words = g.keywords | g.contextual_keywords | set(anon_map)
    unlisted = []
    for kid in range(lang.node_kind_count):
        if lang.node_kind_is_named(kid) or not lang.node_kind_is_visible(kid):
            continue
        t = lang.node_kind_for_id(kid)
        if re.match(r"^[#@]?[^\W\d]", t) and t not in words:
            unlisted.append(t)
    assert unlisted == []


def test_kind_of() -> None:
    py = get_grammar("python")
    assert py.kind_of("identifier") == LexemeKind.IDENTIFIER
    assert py.kind_of("def", named=False) == LexemeKind.KEYWORD
    assert py.kind_of("match", named=False) == LexemeKind.KEYWORD
    assert py.kind_of("(", named=False) == LexemeKind.PUNCTUATION
    assert py.kind_of("+=", named=False) == LexemeKind.OPERATOR
    assert py.kind_of("integer") == LexemeKind.NUMBER
    assert "match" in py.contextual_keywords and "def" in py.keywords
    with pytest.raises(LanguageError):
        py.kind_of("no_such_node")


def test_comment_style() -> None:
    java = get_grammar("java")
    assert java.comment_style("/** doc */") == "doc"
    assert java.comment_style("/**/") == "block"
    assert java.comment_style("// x") == "line"
    cs = get_grammar("csharp")
    assert cs.comment_style("/// <summary/>") == "doc"
    assert cs.comment_style("//// banner") == "line"


def test_unknown_language_error() -> None:
    with pytest.raises(LanguageError, match="unknown language 'klingon'") as info:
        get_grammar("klingon")
    assert isinstance(info.value, LookupError)


def test_missing_provider_module() -> None:
    text = 'name = "fake"\n[provider]\nmodule = "tree_sitter_no_such_thing"\n'
    with pytest.raises(LanguageError, match="pip install tree-sitter-no-such-thing"):
        load_grammar(text=text)


def test_bad_grammar_files() -> None:
    with pytest.raises(FormatError):
        load_grammar(text="name = [unclosed")
    with pytest.raises(FormatError, match="unknown kind"):
        load_grammar(
            text='name = "x"\n[provider]\nmodule = "tree_sitter_python"\n[kinds]\nbogus = ["a"]\n'
        )
    with pytest.raises(FormatError, match="name"):
        load_grammar(text='[provider]\nmodule = "tree_sitter_python"\n')


def test_load_and_register_custom_grammar(tmp_path: object) -> None:
    path = tmp_path / "mini.toml"  # type: ignore[operator]
    path.write_text(
        'name = "minipy"\naliases = ["mpy"]\nextensions = [".mpy"]\n'
        '[provider]\nmodule = "tree_sitter_python"\nfunction = "language"\n'
        '[keywords]\nreserved = ["def", "return"]\n'
        '[kinds]\nidentifier = ["identifier"]\nnumber = ["integer"]\n'
        '[comments]\nnodes = ["comment"]\n',
        encoding="utf-8",
    )
    g = load_grammar(path)
    register_grammar(g)
    lx = lex("def f(): return 1  # c\n", "mpy")
    lx.check()
    assert lx.language == "minipy"
    kinds = {lx.text(i): lx.kind(i) for i in range(len(lx))}
    assert kinds["def"] == LexemeKind.KEYWORD and kinds["1"] == LexemeKind.NUMBER
    assert kinds["# c"] == LexemeKind.COMMENT


def test_generic_grammar_from_node_types() -> None:
    g = generic_grammar("generic-python", tree_sitter.Language(tree_sitter_python.language()))
    assert g.generic
    register_grammar(g)
    src = 'def f(x):\n    return x + 1  # c\ns = "a{b}"\n'
    lx = lex(src, "generic-python")
    lx.check()
    kinds = {lx.text(i): lx.kind(i).name for i in range(len(lx))}
    assert kinds["def"] == "KEYWORD"
    assert kinds["x"] == "IDENTIFIER"
    assert kinds["1"] == "NUMBER"
    assert kinds["# c"] == "COMMENT"
    assert kinds['"a{b}"'] == "STRING"
    assert kinds["("] == "PUNCTUATION"


def test_language_pack_fallback_is_generic(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack without ``get_binding`` still gives a generic grammar (the Python lexer reads
    it), without a warning: generic languages are a supported path."""
    fake = types.ModuleType("tree_sitter_language_pack")
    seen = []

    def get_language(name: str) -> tree_sitter.Language:
        seen.append(name)
        if name != "fakelang":
            raise LookupError(name)
        return tree_sitter.Language(tree_sitter_python.language())

    fake.get_language = get_language  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tree_sitter_language_pack", fake)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = get_grammar("fakelang")
    assert g.generic and seen == ["fakelang"] and g.capsule is None
    lex("x = 1\n", "fakelang").check()
    with pytest.raises(LanguageError):
        get_grammar("otherlang")


def test_import_does_not_load_optional_modules() -> None:
    code = (
        "import sys, codetok.code as c; c.lex('x=1', 'python'); "
        "print('tree_sitter_language_pack' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ----------------------------------------------------------------------------- detection


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("a/b/mod.py", "python"),
        ("stubs.pyi", "python"),
        ("Main.java", "java"),
        ("Program.CS", "csharp"),
        ("app.mjs", "javascript"),
        ("View.jsx", "javascript"),
    ],
)
def test_detect_by_extension(path: str, name: str) -> None:
    assert detect_language(path=path) == name
    assert detect_language("whatever content", path=path) == name


@pytest.mark.parametrize(
    ("first_line", "name"),
    [
        ("#!/usr/bin/env python3", "python"),
        ("#!/usr/bin/python3.11 -u", "python"),
        ("#!/usr/bin/env -S node --harmony", "javascript"),
        ("#!/usr/local/bin/node", "javascript"),
    ],
)
def test_detect_by_shebang(first_line: str, name: str) -> None:
    assert detect_language(first_line + "\nx\n") == name
    assert detect_language((first_line + "\nx\n").encode(), path="script") == name


def test_unknown_shebang_is_an_error() -> None:
    with pytest.raises(LanguageError, match="frobnicate"):
        detect_language("#!/opt/bin/frobnicate\necho hi\n")


CONTENT = {
    "python": "import os\n\n\ndef main(argv):\n    if not argv:\n        return None\n"
    "    print(self.x)\n",
    "java": "package com.acme;\n\nimport java.util.List;\n\npublic class A {\n"
    '    @Override\n    public String toString() { return "a"; }\n}\n',
    "csharp": "using System;\n\nnamespace Acme\n{\n    public class A\n    {\n"
    "        public string Name { get; set; }\n    }\n}\n",
    "javascript": "const fs = require('fs');\n\nfunction main() {\n"
    "  console.log('hi');\n}\nmodule.exports = main;\n",
}


@pytest.mark.parametrize("name", CORE)
def test_detect_by_content(name: str) -> None:
    assert detect_language(CONTENT[name]) == name
    assert detect_language(CONTENT[name].encode()) == name


@pytest.mark.parametrize("src", ["", "   \n", "hello world", "x = 1", "{}"])
def test_detect_refuses_when_unsure(src: str) -> None:
    with pytest.raises(LanguageError, match="language="):
        detect_language(src)


def test_detect_unknown_extension_without_content() -> None:
    with pytest.raises(LanguageError, match="notes.txt"):
        detect_language(path="notes.txt")


def test_lex_detects_language() -> None:
    assert lex(CONTENT["java"]).language == "java"
    assert lex(b"x = 1\n", path="m.py").language == "python"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lex(CONTENT["javascript"]).language == "javascript"
