"""Tokenizers pickle and copy after use (issue 11, item 1): the pickle holds the
configuration, not the native kernels and caches, and the copy encodes the same."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from pathlib import Path

import pytest

from codetok import Tokenizer
from codetok.code import CodeTokenizer

# Each pickle of cl100k writes and parses a 6 MB JSON: no collector passes while that runs.
pytestmark = pytest.mark.usefixtures("gc_paused")

TEXTS = ["def f(x):\n    return x + 1\n", "naïve café 日本語 😀", "hello world " * 50, ""]


def _encode_all(tok: Tokenizer) -> list[list[int]]:
    return [tok.encode(t).ids for t in TEXTS]


@pytest.fixture(scope="module")
def bert(bert_dir: Path) -> Tokenizer:
    tok = Tokenizer.from_file(bert_dir / "tokenizer.json")
    tok.enable_truncation(16)
    tok.enable_padding(length=16)
    return tok


@pytest.mark.parametrize("name", ["cl100k", "bert"])
def test_pickle_after_encode(name: str, request: pytest.FixtureRequest) -> None:
    tok = request.getfixturevalue(name)
    want = _encode_all(tok)  # builds the native plan and fills its caches
    data = pickle.dumps(tok)
    # the configuration only: about the tokenizer.json text, whatever was encoded before
    assert len(data) < len(tok.to_str(settings=True).encode("utf-8")) + 10_000
    for _ in range(200):
        tok.encode("more text to cache " * 20)
    assert len(pickle.dumps(tok)) == len(data)
    back = pickle.loads(data)
    assert type(back) is type(tok) and _encode_all(back) == want
    assert back.truncation == tok.truncation and back.padding == tok.padding
    for clone in (copy.deepcopy(tok), copy.copy(tok)):
        assert _encode_all(clone) == want


def _pool_encode(args: tuple[Tokenizer, str]) -> list[int]:
    tok, text = args
    return tok.encode(text).ids


def test_tokenizer_crosses_processes(cl100k: Tokenizer) -> None:
    want = _encode_all(cl100k)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        # Two texts a task: the tokenizer is pickled (and unpickled) once a task, not once
        # a text.
        got = pool.map(_pool_encode, [(cl100k, t) for t in TEXTS], chunksize=2)
    assert got == want


def test_code_tokenizer_pickles() -> None:
    tok = CodeTokenizer.default()
    plain = CodeTokenizer(tok.tokenizer, tok.comment_tokenizer, fold_whitespace=False)
    src = "class A:\n    def f(self):  # c\n        return self.x\n"
    for t in (tok, plain):
        want = t.encode(src, "python")
        back = pickle.loads(pickle.dumps(t))
        assert back.options == t.options
        got = back.encode(src, "python")
        assert got.ids == want.ids and (got.spans == want.spans).all()
        assert copy.deepcopy(t).encode(src, "python").ids == want.ids
