"""Property tests (hypothesis) on the pipeline with the real BERT tokenizer.json."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok import AddedToken, Tokenizer

any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=80)
settings.register_profile(
    "codetok",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
settings.load_profile("codetok")


@pytest.fixture(scope="module")
def bert(bert_dir):
    tok = Tokenizer.from_file(bert_dir / "tokenizer.json")
    tok.no_padding()
    tok.no_truncation()
    tok.add_tokens([AddedToken("<ent>", lstrip=True), "CamelWORD"])
    return tok


@pytest.fixture(scope="module")
def hf_bert(bert, hf_tokenizers):
    return hf_tokenizers.Tokenizer.from_str(bert.to_str())


@given(text=any_text)
def test_offsets_in_bounds_and_non_decreasing(bert, text):
    enc = bert.encode(text)
    starts = [s for (s, e), m in zip(enc.offsets, enc.special_tokens_mask) if not m]
    for (s, e), m in zip(enc.offsets, enc.special_tokens_mask):
        if not m:
            assert 0 <= s <= e <= len(text)
    assert starts == sorted(starts)


@given(texts=st.lists(any_text, max_size=6), pairs=st.lists(any_text, max_size=6))
def test_encode_batch_equals_encode_mapped(bert, texts, pairs):
    assert bert.encode_batch(texts) == [bert.encode(t) for t in texts]
    both = list(zip(texts, pairs))
    assert bert.encode_batch(both) == [bert.encode(a, b) for a, b in both]
    assert bert.encode_batch(both, num_threads=2) == [bert.encode(a, b) for a, b in both]


@pytest.fixture(scope="module")
def reloaded(bert):
    clone = Tokenizer.from_str(bert.to_str())
    truncating = Tokenizer.from_str(bert.to_str())
    truncating.enable_truncation(12, stride=2, strategy="longest_first")
    truncating_clone = Tokenizer.from_str(truncating.to_str())
    return clone, truncating, truncating_clone


@given(text=any_text, pair=any_text)
def test_save_load_gives_identical_output(bert, reloaded, text, pair):
    clone, truncating, truncating_clone = reloaded
    assert clone.encode(text, pair) == bert.encode(text, pair)
    assert truncating_clone.encode(text, pair) == truncating.encode(text, pair)
    ids = bert.encode(text).ids
    assert clone.decode(ids) == bert.decode(ids)


def _comparable(text: str) -> bool:
    # HF's Python binding cannot take lone surrogates. Every other code point is
    # compared: codetok's BERT components use HF's own character tables
    # (codetok/unicode/generated/bert_tables.py; tests/unicode/test_bert_unicode_parity.py walks them all).
    return not any("\ud800" <= c <= "\udfff" for c in text)


@given(text=any_text.filter(_comparable))
def test_hf_loads_what_codetok_saves(bert, hf_bert, text):
    h = hf_bert.encode(text)
    c = bert.encode(text)
    assert (c.ids, c.tokens, c.offsets) == (h.ids, h.tokens, h.offsets)
