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


def test_import_codetok_does_not_import_optional_modules():
    code = f"import sys, codetok\nprint([m for m in {LAZY!r} if m in sys.modules])\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_public_names():
    import codetok

    for name in codetok.__all__:
        assert getattr(codetok, name) is not None
