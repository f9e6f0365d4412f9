"""``import codetok`` stays light: optional and oracle libraries are imported lazily."""

from __future__ import annotations

import subprocess
import sys

LAZY = [
    "huggingface_hub",
    "torch",
    "transformers",
    "tokenizers",
    "tiktoken",
    "sentencepiece",
    "tree_sitter_language_pack",
    "matplotlib",
    "pyarrow",
    "dask",
    "distributed",
    "datasets",
    "codetok.corpus",
    "codetok.trainers",
    "codetok.code",
    "tree_sitter",
    "codetok.music",
    "mido",
    "morfessor",
    "wordfreq",
]
#: Every grammar package: none is imported before its language is used.
GRAMMARS = [
    "tree_sitter_python", "tree_sitter_java", "tree_sitter_c_sharp", "tree_sitter_javascript",
    "tree_sitter_go", "tree_sitter_rust", "tree_sitter_typescript", "tree_sitter_c",
    "tree_sitter_cpp", "tree_sitter_php", "tree_sitter_ruby", "tree_sitter_kotlin",
    "tree_sitter_swift", "tree_sitter_scala", "tree_sitter_bash", "tree_sitter_lua",
    "tree_sitter_haskell", "tree_sitter_sql",
]  # fmt: skip
LAZY += GRAMMARS


def test_import_codetok_does_not_import_optional_modules():
    code = f"import sys, codetok\nprint([m for m in {LAZY!r} if m in sys.modules])\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_grammar_is_imported_when_its_language_is_used():
    """Detection reads the grammar files, not the grammars; lexing Go imports Go's only."""
    code = (
        "import sys, codetok.code as c\n"
        "assert c.detect_language('package main\\nfunc main() {}\\n', path='m.go') == 'go'\n"
        "c.lex('package main\\n', 'go')\n"
        f"print([m for m in {GRAMMARS!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['tree_sitter_go']"


def test_public_names():
    import codetok

    for name in codetok.__all__:
        assert getattr(codetok, name) is not None
