"""``Tokenizer.__call__`` against ``transformers`` on the same tokenizer.

Both sides are built from the same real BERT-uncased ``tokenizer.json``: transformers
through ``PreTrainedTokenizerFast`` (its Rust backend is HF ``tokenizers``), codetok
through :meth:`Tokenizer.from_file`. Every padding / truncation / stride / side
combination, single and pair inputs, must give the same model inputs, the same
overflowing windows, and the same errors (codetok raises a codetok error where HF fails,
including where HF's Rust core panics).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _call_helpers import outcome

from codetok import Tokenizer
from codetok.errors import CodetokError

TEXTS = [
    "Hello, world! This is a test of the tokenizer.",
    "short",
    "def parse_http_response(raw: bytes) -> dict: return {'status': 200}",
    "Ünïcödé naïve café — déjà vu, 日本語 [MASK] done",
]
PAIRS = [
    "a question?",
    "another, much longer second sequence that goes on and on and on",
    "x",
    "[SEP] odd",
]

KEYS = [
    "input_ids",
    "token_type_ids",
    "attention_mask",
    "special_tokens_mask",
    "offset_mapping",
    "overflow_to_sample_mapping",
    "length",
]


@pytest.fixture(scope="module")
def toks(bert_dir, transformers_mod):
    path = str(bert_dir / "tokenizer.json")
    hf = transformers_mod.PreTrainedTokenizerFast(
        tokenizer_file=path,
        pad_token="[PAD]",
        unk_token="[UNK]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=512,
    )
    ct = Tokenizer.from_file(path)
    ct.special_tokens_map = {"pad_token": "[PAD]", "unk_token": "[UNK]"}
    ct.model_max_length = 512
    ct.model_input_names = list(hf.model_input_names)
    return ct, hf


def _compare(ct, hf, kwargs):
    hf.padding_side = kwargs.pop("_padding_side")
    hf.truncation_side = kwargs.pop("_truncation_side")
    ct.padding_side = hf.padding_side
    ct.truncation_side = hf.truncation_side
    h_status, h = outcome(hf, dict(kwargs))
    c_status, c = outcome(ct, dict(kwargs))
    if h_status == "error":
        assert c_status == "error", (
            f"transformers failed ({type(h).__name__}: {h}) but codetok returned {c}"
        )
        assert isinstance(c, CodetokError), f"codetok raised a non-codetok error: {c!r}"
        return
    assert c_status == "ok", f"codetok failed where transformers did not: {c!r}"
    assert sorted(c.keys()) == sorted(h.keys())
    for key in KEYS:
        if key in h:
            hv, cv = h[key], c[key]
            if key == "offset_mapping":
                hv = (
                    [[tuple(o) for o in row] for row in hv]
                    if hv and isinstance(hv[0], list)
                    else [tuple(o) for o in hv]
                )
                cv = (
                    [[tuple(o) for o in row] for row in cv]
                    if cv and isinstance(cv[0], list)
                    else [tuple(o) for o in cv]
                )
            assert cv == hv, f"{key} differs for {kwargs}"


PADDING = [False, True, "max_length"]
TRUNCATION = [None, True, "only_first", "only_second"]
MAX_LENGTH = [None, 9, 16]
STRIDE = [0, 3]
SIDES = [("right", "right"), ("left", "left"), ("right", "left")]


@pytest.mark.parametrize("padding", PADDING)
@pytest.mark.parametrize("truncation", TRUNCATION)
@pytest.mark.parametrize("is_pair", [False, True])
def test_call_matrix(toks, padding, truncation, is_pair):
    ct, hf = toks
    for max_length, stride, (pside, tside), multiple, overflow in itertools.product(
        MAX_LENGTH, STRIDE, SIDES, [None, 8], [False, True]
    ):
        kwargs = dict(
            text=TEXTS,
            text_pair=PAIRS if is_pair else None,
            padding=padding,
            truncation=truncation,
            max_length=max_length,
            stride=stride,
            pad_to_multiple_of=multiple,
            return_overflowing_tokens=overflow,
            return_special_tokens_mask=True,
            return_offsets_mapping=True,
            return_length=True,
            _padding_side=pside,
            _truncation_side=tside,
        )
        _compare(ct, hf, kwargs)


@pytest.mark.parametrize("is_pair", [False, True])
def test_single_example_unbatched(toks, is_pair):
    ct, hf = toks
    for text, pair in zip(TEXTS, PAIRS):
        kwargs = dict(
            text=text,
            text_pair=pair if is_pair else None,
            return_offsets_mapping=True,
            _padding_side="right",
            _truncation_side="right",
        )
        _compare(ct, hf, kwargs)
        kwargs = dict(
            text=text,
            text_pair=pair if is_pair else None,
            max_length=7,
            truncation=True,
            padding="max_length",
            return_overflowing_tokens=True,
            stride=2,
            _padding_side="left",
            _truncation_side="right",
        )
        _compare(ct, hf, kwargs)


def test_split_into_words(toks):
    ct, hf = toks
    words = [["Hello", "world", "!"], ["naïve", "café", "[SEP]", "x"]]
    for kwargs in (
        dict(text=words, is_split_into_words=True, padding=True, return_offsets_mapping=True),
        dict(text=words[1], is_split_into_words=True, return_offsets_mapping=True),
        dict(
            text=words,
            text_pair=words[::-1],
            is_split_into_words=True,
            padding=True,
            truncation=True,
            max_length=8,
        ),
    ):
        kwargs.update(_padding_side="right", _truncation_side="right")
        _compare(ct, hf, kwargs)


@pytest.mark.parametrize("tensors", ["np", "pt"])
def test_return_tensors(toks, tensors):
    ct, hf = toks
    if tensors == "pt":
        pytest.importorskip("torch")
    h = hf(TEXTS, PAIRS, padding=True, return_tensors=tensors)
    c = ct(TEXTS, PAIRS, padding=True, return_tensors=tensors)
    for key in h:
        assert type(c[key]) is type(h[key])
        assert np.array_equal(np.asarray(c[key]), np.asarray(h[key]))


def test_ragged_tensors_raise_clear_error(toks):
    ct, _ = toks
    with pytest.raises(CodetokError, match="padding=True"):
        ct(TEXTS, return_tensors="np")


def test_position_ids_follow_attention_mask(toks):
    ct, _ = toks
    out = ct(["a b c", "a"], padding=True, padding_side="left", return_position_ids=True)
    for mask, pos in zip(out["attention_mask"], out["position_ids"]):
        real = [p for m, p in zip(mask, pos) if m]
        assert real == list(range(len(real)))
        assert all(p == 1 for m, p in zip(mask, pos) if not m)


def test_batch_encoding_alignment_helpers(toks):
    ct, hf = toks
    h = hf(TEXTS, PAIRS)
    c = ct(TEXTS, PAIRS)
    for b in range(len(TEXTS)):
        assert c.tokens(b) == h.tokens(b)
        assert c.word_ids(b) == h.word_ids(b)
        assert c.sequence_ids(b) == h.sequence_ids(b)
        for ch in range(0, len(TEXTS[b]), 3):
            assert c.char_to_token(b, ch) == h.char_to_token(b, ch)
