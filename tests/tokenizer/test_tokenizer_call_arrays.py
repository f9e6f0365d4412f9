"""``tok(batch, ..., return_tensors=...)`` straight to arrays (codetok/tokenizer/call_arrays.py)
against the general path (plans off: encodings, then lists, then tensors), option by option,
and its lazily built encodings."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from codetok import Tokenizer
from codetok.engine.plan import use_plans
from codetok.errors import ConfigurationError, TruncationError

pytest.importorskip("codetok._core")

TEXTS = [
    "Hello, world! A short line.",
    "",
    "naïve café — déjà vu, 日本語のテキスト and some more words " * 4,
    "x",
    "def f(x):\n    return x + 1  # [MASK] inside [SEP]",
]


@pytest.fixture(scope="module")
def bert(bert_dir):
    tok = Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    tok.special_tokens_map["pad_token"] = "[PAD]"
    return tok


@pytest.fixture(scope="module")
def gpt2(gpt2_files):
    """Byte-level BPE without a post-processor; "!" as the pad token."""
    from codetok.models import BPE
    from codetok.pre_tokenizers import ByteLevel

    vocab, merges = gpt2_files
    tok = Tokenizer(BPE.from_files(str(vocab), str(merges)), pre_tokenizer=ByteLevel(False))
    tok.special_tokens_map["pad_token"] = "!"
    return tok


def general(tok, *args, **kwargs):
    previous = use_plans(False)
    try:
        return tok(*args, **kwargs)
    finally:
        use_plans(previous)


OPTIONS = list(
    itertools.product(
        [True, "max_length", False],  # padding
        [None, True, "only_first"],  # truncation
        [None, 9, 40],  # max_length
        ["right", "left"],  # side (padding and truncation)
        [True, False],  # add_special_tokens
    )
)


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_arrays_equal_general_path(request, name):
    tok = request.getfixturevalue(name)
    saved = tok.padding_side, tok.truncation_side
    checked = 0
    try:
        for padding, truncation, max_length, side, add in OPTIONS:
            tok.padding_side = tok.truncation_side = side
            kwargs = dict(
                padding=padding,
                truncation=truncation,
                max_length=max_length,
                add_special_tokens=add,
                return_tensors="np",
            )
            try:
                expected = general(tok, TEXTS, **kwargs)
            except (ConfigurationError, TruncationError) as e:
                with pytest.raises(type(e)):
                    tok(TEXTS, **kwargs)
                continue
            got = tok(TEXTS, **kwargs)
            assert list(got.keys()) == list(expected.keys())
            for key in expected.keys():
                assert got[key].dtype == expected[key].dtype
                assert np.array_equal(got[key], expected[key]), (key, kwargs)
            checked += 1
    finally:
        tok.padding_side, tok.truncation_side = saved
    assert checked > 30


def test_more_options_and_one_text(bert):
    for kwargs in [
        dict(padding=True, pad_to_multiple_of=8),
        dict(padding="max_length", max_length=64, truncation=True, return_token_type_ids=False),
        dict(padding=True, return_attention_mask=False),
        dict(padding=True, truncation=True, max_length=12, stride=3),
    ]:
        expected = general(bert, TEXTS, return_tensors="np", **kwargs)
        got = bert(TEXTS, return_tensors="np", **kwargs)
        assert {k: v.tolist() for k, v in got.items()} == {
            k: v.tolist() for k, v in expected.items()
        }
    one = bert(TEXTS[0], return_tensors="np")
    assert (
        one["input_ids"].tolist()
        == general(bert, TEXTS[0], return_tensors="np")["input_ids"].tolist()
    )


def test_encodings_built_on_request(bert):
    got = bert(TEXTS, padding=True, truncation=True, max_length=16, return_tensors="np")
    assert "_make_encodings" in got.__dict__  # the array path made no encodings
    expected = general(bert, TEXTS, padding=True, truncation=True, max_length=16)
    assert [e.ids for e in got.encodings] == [e.ids for e in expected.encodings]
    assert got.word_ids(2) == expected.word_ids(2)
    assert got.tokens(0) == expected.tokens(0)
    assert got[1].ids == expected.encodings[1].ids


def test_sides_and_bad_settings_as_general_path(bert):
    texts = ["hello world how are you", "hi"]
    saved = bert.padding_side, bert.truncation_side
    try:
        got = bert(texts, padding=True, padding_side="Left", return_tensors="np")
        expected = general(bert, texts, padding=True, padding_side="Left", return_tensors="np")
        assert got["input_ids"].tolist() == expected["input_ids"].tolist()
        bert.truncation_side = "Left"
        kwargs = dict(truncation=True, max_length=4, padding=True, return_tensors="np")
        assert (
            bert(texts, **kwargs)["input_ids"].tolist()
            == general(bert, texts, **kwargs)["input_ids"].tolist()
        )
        bert.truncation_side = "right"
        for bad in [
            dict(padding=True, padding_side="middle"),
            dict(truncation=True, max_length=5, padding=True, stride=-1),
            dict(truncation=True, max_length=8.0, padding=True),
            dict(padding=True, pad_to_multiple_of=-4),
        ]:
            with pytest.raises(Exception) as general_error:
                general(bert, texts, return_tensors="np", **bad)
            with pytest.raises(type(general_error.value)):
                bert(texts, return_tensors="np", **bad)
    finally:
        bert.padding_side, bert.truncation_side = saved


def test_later_encodings_are_those_of_the_call(bert):
    import pickle

    texts = ["a b c d", "hello"]
    got = bert(texts, padding=True, return_tensors="np")
    saved = bert.padding_side
    try:
        bert.padding_side = "left"
        texts.append("zzz")
        texts[0] = "bye"
        encodings = got.encodings
    finally:
        bert.padding_side = saved
    assert [e.ids for e in encodings] == got["input_ids"].tolist()
    again = pickle.loads(pickle.dumps(bert(["x y", "z"], padding=True, return_tensors="np")))
    assert [e.ids for e in again.encodings] == again["input_ids"].tolist()
