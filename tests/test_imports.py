"""``import codetok`` stays light: optional and oracle libraries, and the modules only some
paths need (numpy, ``regex``, ``inspect``, ...), are imported where they are used."""

from __future__ import annotations

import subprocess
import sys

import pytest

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


#: Installed and standard modules that only some paths need, imported there: numpy when
#: arrays are built, ``regex`` when a pattern is compiled, ``inspect`` when a component is
#: written from its constructor's signature, ``json`` and ``pathlib`` when files are read or
#: written, ``dataclasses`` (and the ``inspect`` it imports) with SentencePiece files, and the
#: modules of codetok that import them for those paths.
ON_FIRST_USE = [
    "numpy",
    "regex",
    "inspect",
    "dataclasses",
    "ast",
    "json",
    "pathlib",
    "concurrent.futures",
    "logging",
    "mmap",
    "heapq",
    "codetok.unicode.hf_regex",
    "codetok.tokenizer.call_arrays",
    "codetok.formats._ctk_tables",
    "codetok.formats._protobuf",
    "codetok.formats.sentencepiece_model",
]


def test_import_codetok_leaves_what_only_some_paths_need():
    """What ``import codetok`` itself adds to ``sys.modules`` (the interpreter may load some
    standard modules before it: an editable install's import hook loads ``pathlib``)."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import codetok\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    added = set(out.stdout.split())
    assert "codetok.tokenizer.tokenizer" in added
    assert sorted(added & set(ON_FIRST_USE)) == []


#: ``(module, setup, step, what the step gives)``: after ``import codetok`` and ``setup``
#: the module is not loaded; ``step`` needs it, loads it and works.
PATHS = [
    ("numpy", "", "codetok.Encoding(ids=[5, 7]).ids_array.tolist()", "[5, 7]"),
    (
        "numpy",
        "",
        "type(codetok.BatchEncoding({'input_ids': [[5, 7]]}, tensor_type='np')['input_ids'])",
        "<class 'numpy.ndarray'>",
    ),
    (
        "regex",
        "from codetok.pre_tokenizers import Split",
        "Split({'Regex': 'b+'}, 'isolated').pre_tokenize_str('abba')",
        "[('a', (0, 1)), ('bb', (1, 3)), ('a', (3, 4))]",
    ),
    (
        "inspect",
        "from codetok.pre_tokenizers import Digits",
        "Digits(individual_digits=True).to_dict()",
        "{'type': 'Digits', 'individual_digits': True}",
    ),
    (
        "json",
        "from codetok.models import WordLevel\n"
        "tok = codetok.Tokenizer(WordLevel({'[UNK]': 0, 'hi': 1}, unk_token='[UNK]'))",
        "codetok.Tokenizer.from_str(tok.to_str()).encode('hi').ids",
        "[1]",
    ),
]


@pytest.mark.parametrize(("module", "setup", "step", "expected"), PATHS)
def test_a_path_that_needs_a_module_imports_it(module, setup, step, expected):
    code = (
        f"import sys\nimport codetok\n{setup}\n"
        f"assert {module!r} not in sys.modules, 'loaded before the step'\n"
        f"print({step})\nprint({module!r} in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [expected, "True"]


def test_bpe_and_wordpiece_training_need_no_numpy():
    """Importing numpy costs more than training on a small corpus takes (issue 33)."""
    code = (
        "import sys, warnings; warnings.simplefilter('ignore')\n"
        "from codetok.trainers import train_bpe, train_wordpiece\n"
        "texts = [f'word{i} token{i * 7} lower{i % 13}' for i in range(300)]\n"
        "assert train_bpe(texts=texts, vocab_size=300).get_vocab_size() == 300\n"
        "assert train_wordpiece(texts=texts, vocab_size=60).get_vocab_size() == 60\n"
        "print('numpy' in sys.modules, 'multiprocessing' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


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
