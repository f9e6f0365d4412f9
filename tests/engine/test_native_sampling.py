"""Subword regularization on the native plan: BPE dropout and Unigram sampling draw for draw
equal to the Python reference for a seed, at native speed (issue 33).

The reference is the pure-Python engine (plans off, reference kernels), whose loops are the
readable specification: the same seed must give the same segmentations, text after text.
"""

from __future__ import annotations

import math
import pickle
import random
import warnings
from collections import Counter
from contextlib import contextmanager

import pytest
from _sentencepiece_helpers import CASES, PROSE, corpus_lines

import codetok
from codetok.engine import native
from codetok.engine.plan import use_plans
from codetok.engine.shared_random import SharedRandom
from codetok.formats.pretrained import tokenizer_from_vocab_files
from codetok.models import Unigram

pytest.importorskip("codetok._core")

TEXTS = CASES + corpus_lines(300) + ["", " ", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" * 3]


@contextmanager
def python_engine():
    plans, kernels = use_plans(False), native.use_native(False)
    try:
        yield
    finally:
        use_plans(plans)
        native.use_native(kernels)


def _pair(make, seed):
    a, b = make(), make()
    a.model.seed(seed)
    b.model.seed(seed)
    return a, b


def _same_draws(a, b):
    """``a`` on its native plan, ``b`` on the reference engine: the same ids, text by text."""
    assert a.engine == "native", a.engine_reason
    ours = [a.encode(t).ids for t in TEXTS]
    with python_engine():
        theirs = [b.encode(t).ids for t in TEXTS]
    assert ours == theirs
    return ours


def test_shared_random_is_pythons_generator():
    for seed in (0, 1, 2**70 + 3, "seed", b"x"):
        ours, theirs = SharedRandom(seed), random.Random(seed)
        assert [ours.random() for _ in range(3000)] == [theirs.random() for _ in range(3000)]
        assert [ours.getrandbits(k) for k in (1, 31, 32, 33, 95)] == [
            theirs.getrandbits(k) for k in (1, 31, 32, 33, 95)
        ]
        assert ours.getstate() == theirs.getstate()
    again = pickle.loads(pickle.dumps(ours))
    assert again.random() == ours.random() == theirs.random()


@pytest.fixture(scope="module")
def gpt2(gpt2_files):
    vocab, merges = gpt2_files
    return lambda: _with_dropout(tokenizer_from_vocab_files(vocab, merges), 0.1)


def _with_dropout(tok, p):
    tok.model.dropout = p
    return tok


def test_bpe_dropout_native_equals_reference(gpt2):
    a, b = _pair(gpt2, 1234)
    ours = _same_draws(a, b)
    plain = gpt2()
    plain.model.dropout = None
    assert sum(x != plain.encode(t).ids for x, t in zip(ours, TEXTS)) > 50  # it samples
    c = gpt2()
    c.model.seed(1234)
    assert [e.ids for e in c.encode_batch(TEXTS)] == ours  # a batch draws in order


def test_bpe_dropout_extremes(gpt2):
    tok = gpt2()
    tok.model.dropout = 1.0  # every merge dropped: one token per byte
    assert tok.encode("hello world").tokens == [
        "h",
        "e",
        "l",
        "l",
        "o",
        "Ġ",
        "w",
        "o",
        "r",
        "l",
        "d",
    ]
    tok.model.dropout = 0.0
    assert tok.encode("hello world").tokens == ["hello", "Ġworld"]


@pytest.fixture(scope="module")
def unigram_json():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tok = codetok.train_unigram(texts=[PROSE] * 3 + corpus_lines(2000), vocab_size=1500)
    return tok.to_str()


@pytest.mark.parametrize("nbest", [-1, 2, 8])
def test_unigram_sampling_native_equals_reference(unigram_json, nbest):
    def make():
        tok = codetok.Tokenizer.from_str(unigram_json)
        tok.model.alpha = 0.2
        tok.model.nbest_size = nbest
        return tok

    a, b = _pair(make, 99)
    ours = _same_draws(a, b)
    viterbi = codetok.Tokenizer.from_str(unigram_json)
    assert sum(x != viterbi.encode(t).ids for x, t in zip(ours, TEXTS)) > 20
    c = make()
    c.model.seed(99)
    assert [e.ids for e in c.encode_batch(TEXTS)] == ours


def test_model_level_sampling_matches_reference_kernels(unigram_json):
    pieces = ["▁tokenizers", "▁Größe,", "▁東京は日本の首都です。", "▁aaaaaaaa", "▁x"] * 20
    for nbest in (-1, 4):
        a = codetok.Tokenizer.from_str(unigram_json).model
        b = codetok.Tokenizer.from_str(unigram_json).model
        a.seed(5)
        b.seed(5)
        ours = [a.sample(p, alpha=0.3, nbest_size=nbest) for p in pieces]
        with python_engine():
            theirs = [b.sample(p, alpha=0.3, nbest_size=nbest) for p in pieces]
        assert ours == theirs


def test_unigram_whole_lattice_sampling_has_the_path_distribution():
    """10^5 native draws over "aaaa" against the exact probabilities of its 8 paths."""
    pieces = [("<unk>", 0.0), ("a", -1.0), ("aa", -1.7), ("aaa", -2.9), ("aaaa", -3.5)]
    model = Unigram(pieces, 0, seed=3)
    theta = 0.7
    scores: dict[tuple[int, ...], float] = {}

    def paths(rest: int, prefix: tuple[int, ...]) -> None:
        if rest == 0:
            scores[prefix] = sum(pieces[i][1] for i in prefix)
            return
        for k in range(1, min(rest, 4) + 1):
            paths(rest - k, (*prefix, k))

    paths(4, ())
    weights = {p: math.exp(theta * s) for p, s in scores.items()}
    total = sum(weights.values())
    n = 100_000
    seen = Counter(tuple(len(t.value) for t in model.sample("aaaa", alpha=theta)) for _ in range(n))
    assert set(seen) <= set(scores)
    chi2 = sum((seen[p] - n * w / total) ** 2 / (n * w / total) for p, w in weights.items())
    assert chi2 < 30.0, (chi2, seen)  # 7 degrees of freedom: p < 1e-4 for a correct sampler


def test_a_callers_random_is_drawn_in_python(gpt2):
    tok = gpt2()
    tok.model._rng = random.Random(0)
    assert tok.engine == "python" and "random.Random" in tok.engine_reason
    assert tok.decode(tok.encode("hello there").ids) == "hello there"


def test_native_nbest_equals_the_reference(unigram_json):
    model = codetok.Tokenizer.from_str(unigram_json).model
    counts = []
    for piece in ["▁tokenizers", "▁Größe,", "▁aaaaaaaa", "▁x", "▁東京は日本の首都です。"]:
        ours = model.nbest_scored(piece, 12)
        with python_engine():
            theirs = model.nbest_scored(piece, 12)
        assert ours == theirs
        counts.append(len(ours))
    assert max(counts) > 2 and min(counts) >= 1
