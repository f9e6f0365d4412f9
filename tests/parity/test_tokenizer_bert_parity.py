"""The pipeline on the real BERT-uncased tokenizer.json against HF ``tokenizers``.

Checks ids, tokens, offsets, type ids, word ids, masks and decode, single and pair,
with and without special tokens, on mixed-script and adversarial samples.
"""

from __future__ import annotations

import pytest

from codetok import Tokenizer


@pytest.fixture(scope="module")
def pair(bert_dir, hf_tokenizers):
    path = str(bert_dir / "tokenizer.json")
    hf = hf_tokenizers.Tokenizer.from_file(path)
    ct = Tokenizer.from_file(path)
    for t in (hf,):
        t.no_truncation()
        t.no_padding()
    ct.no_truncation()
    ct.no_padding()
    return ct, hf


def _same(ce, he):
    assert ce.ids == he.ids
    assert ce.tokens == he.tokens
    assert ce.offsets == he.offsets
    assert ce.type_ids == he.type_ids
    assert ce.word_ids == he.word_ids
    assert ce.special_tokens_mask == he.special_tokens_mask
    assert ce.attention_mask == he.attention_mask
    assert ce.sequence_ids == he.sequence_ids


@pytest.mark.parametrize("add_special", [True, False])
def test_single_matches_hf(pair, samples, add_special):
    ct, hf = pair
    for text in samples:
        _same(
            ct.encode(text, add_special_tokens=add_special),
            hf.encode(text, add_special_tokens=add_special),
        )


def test_pairs_match_hf(pair, samples):
    ct, hf = pair
    for a, b in zip(samples, reversed(samples)):
        _same(ct.encode(a, b), hf.encode(a, b))


def test_pretokenized_matches_hf(pair):
    ct, hf = pair
    words = ["Hello", "WORLD!", "naïve", "[SEP]", "日本"]
    _same(ct.encode(words, is_pretokenized=True), hf.encode(words, is_pretokenized=True))
    _same(
        ct.encode(words, words[::-1], is_pretokenized=True),
        hf.encode(words, words[::-1], is_pretokenized=True),
    )


@pytest.mark.parametrize("skip", [True, False])
def test_decode_matches_hf(pair, samples, skip):
    ct, hf = pair
    for text in samples:
        ids = hf.encode(text).ids
        assert ct.decode(ids, skip_special_tokens=skip) == hf.decode(ids, skip_special_tokens=skip)


def test_vocab_accessors_match_hf(pair):
    ct, hf = pair
    assert ct.get_vocab_size() == hf.get_vocab_size()
    assert ct.get_vocab() == hf.get_vocab()
    for tok in ["[CLS]", "hello", "##ing", "not-a-token"]:
        assert ct.token_to_id(tok) == hf.token_to_id(tok)
    for i in [0, 100, 101, 2000, 30521, 10**6]:
        assert ct.id_to_token(i) == hf.id_to_token(i)


# ASCII runs keep the table path when another run of the text leaves it: cuts fall at ASCII
# whitespace only, so every kind of char next to a cut, and runs mixing both, are checked.
MIXED_RUNS = [
    "plain words then café and more words",
    "café",
    "naïve\u0301x tail",
    "word,é punct.ü!",
    "a\u00a0b c\u3000d\u2003e",
    "x\x01y z\x7f w",
    "\tcafé\n\rnext\x0bline",
    "abc\u200bdef ghi",
    "中文words mixed 日本 end",
    "ΟΔΟΣ final σ ΟΔΟΣ.",
    "Ǆ ǅ ǆ İstanbul ß",
    "emoji 🙂 tail😀 x",
    "\ufffd replaced \u0000 nul",
    "trailing accent é",
    "é leading",
    "  spaced   é   words  ",
]


def test_runs_mixing_ascii_and_other_chars_match_hf(pair):
    ct, hf = pair
    for text in MIXED_RUNS + [" ".join(MIXED_RUNS)]:
        _same(ct.encode(text, add_special_tokens=False), hf.encode(text, add_special_tokens=False))
        _same(ct.encode(text), hf.encode(text))
