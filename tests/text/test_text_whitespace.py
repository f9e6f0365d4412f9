"""The whitespace tokenizer: splitting (HF WhitespaceSplit as oracle), vocabulary, save/load."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from codetok import Tokenizer
from codetok.errors import ConfigurationError, NotFoundError, TrainingError
from codetok.normalizers import RUST_WHITESPACE, Lowercase
from codetok.text import build_vocab, iter_corpus, train, vocab_from_counts, whitespace_tokenizer
from codetok.text.byte_level import byte_tokenizer

TEXTS = [
    "the cat sat on the mat",
    "  leading and trailing  ",
    "tabs\tand\nnewlines\r\n",
    "nbsp\u00a0and\u3000ideographic\u2003em space",
    "zero\u200bwidth is not white space",
    "",
    "   ",
    "one",
    "punctuation, stays; attached!",
]


def test_known_answer_tokens_and_offsets():
    tok = whitespace_tokenizer(corpus=["the cat sat on the mat"], max_size=3)
    enc = tok.encode("the cat  ran")
    assert enc.tokens == ["the", "cat", "[UNK]"]
    assert enc.offsets == [(0, 3), (4, 7), (9, 12)]
    assert tok.decode(enc.ids) == "the cat [UNK]"


@pytest.mark.parametrize("text", TEXTS)
def test_matches_hf_whitespace_split(text, hf_tokenizers):
    hf = hf_tokenizers.pre_tokenizers.WhitespaceSplit()
    tok = whitespace_tokenizer(corpus=[text])
    assert tok.pre_tokenizer.pre_tokenize_str(text) == hf.pre_tokenize_str(text)
    enc = tok.encode(text)
    assert list(zip(enc.tokens, enc.offsets, strict=True)) == hf.pre_tokenize_str(text)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab \t\n\u00a0\u2028\u200b\u3000é")), max_size=40))
def test_matches_hf_whitespace_split_property(text):
    hf = pytest.importorskip("tokenizers").pre_tokenizers.WhitespaceSplit()
    assert whitespace_tokenizer().pre_tokenizer.pre_tokenize_str(text) == hf.pre_tokenize_str(text)


def test_hf_loads_the_saved_file(hf_tokenizers, tmp_path):
    tok = whitespace_tokenizer(corpus=TEXTS, special_tokens=["[PAD]"])
    path = tmp_path / "tokenizer.json"
    tok.save(path)
    hf = hf_tokenizers.Tokenizer.from_file(str(path))
    for text in TEXTS + ["unseen words here [PAD]"]:
        assert hf.encode(text).ids == tok.encode(text).ids


def test_vocab_order_min_frequency_max_size():
    corpus = ["b a b c", "a b d", "c"]
    # counts: b=3, a=2, c=2, d=1 -> by frequency, then token
    assert build_vocab(whitespace_tokenizer(), corpus) == {
        "[UNK]": 0,
        "b": 1,
        "a": 2,
        "c": 3,
        "d": 4,
    }
    assert build_vocab(whitespace_tokenizer(), corpus, min_frequency=2) == {
        "[UNK]": 0,
        "b": 1,
        "a": 2,
        "c": 3,
    }
    assert build_vocab(whitespace_tokenizer(), corpus, max_size=2) == {"[UNK]": 0, "b": 1}
    v = build_vocab(
        whitespace_tokenizer(), corpus, special_tokens=["[PAD]", "[UNK]"], unk_token="[UNK]"
    )
    assert v == {"[PAD]": 0, "[UNK]": 1, "b": 2, "a": 3, "c": 4, "d": 5}


def test_vocab_is_deterministic_across_corpus_order():
    corpus = ["x y z", "z y", "w"] * 3
    assert build_vocab(whitespace_tokenizer(), corpus) == build_vocab(
        whitespace_tokenizer(), corpus[::-1]
    )


def test_bad_vocab_options():
    with pytest.raises(ConfigurationError, match="min_frequency"):
        vocab_from_counts({"a": 1}, min_frequency=0)
    with pytest.raises(ConfigurationError, match="max_size"):
        vocab_from_counts({"a": 1}, special_tokens=["<s>", "</s>"], max_size=2)
    with pytest.raises(ConfigurationError, match="not both"):
        whitespace_tokenizer({"a": 0}, corpus=["a"])
    with pytest.raises(ConfigurationError, match="wrap it in a list"):
        list(iter_corpus("one text"))


def test_unk_handling():
    tok = whitespace_tokenizer({"a": 0, "b": 1}, unk_token="<unk>")
    assert tok.get_vocab() == {"a": 0, "b": 1, "<unk>": 2}
    assert tok.encode("a zzz b").ids == [0, 2, 1]
    tok = whitespace_tokenizer({"a": 0}, unk_token=None)
    with pytest.raises(Exception, match="unknown token"):
        tok.encode("zzz")


def test_special_tokens_are_never_split_and_skipped_on_decode():
    tok = whitespace_tokenizer(corpus=["hello world"], special_tokens=["<s>", "</s>"])
    assert tok.get_vocab()["<s>"] == 0
    enc = tok.encode("<s>hello world</s>")
    assert enc.tokens == ["<s>", "hello", "world", "</s>"]
    assert tok.decode(enc.ids) == "hello world"


def test_normalizer_option():
    tok = whitespace_tokenizer(corpus=["Hello HELLO"], normalizer=Lowercase())
    assert tok.get_vocab() == {"[UNK]": 0, "hello": 1}
    assert tok.encode("HeLLo").offsets == [(0, 5)]


def test_files_are_streamed_line_by_line(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text("a b\nb c\n", encoding="utf-8")
    v1 = build_vocab(whitespace_tokenizer(), files=[str(f)])
    v2 = build_vocab(whitespace_tokenizer(), [Path(f), "extra a"])
    assert v1 == {"[UNK]": 0, "b": 1, "a": 2, "c": 3}
    assert v2 == {"[UNK]": 0, "a": 1, "b": 2, "c": 3, "extra": 4}
    with pytest.raises(NotFoundError, match="no such corpus file"):
        build_vocab(whitespace_tokenizer(), files=[tmp_path / "missing.txt"])
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\n")
    with pytest.raises(Exception, match="line 2"):
        build_vocab(whitespace_tokenizer(), files=[bad])


def test_train_returns_new_tokenizer():
    base = whitespace_tokenizer()
    tok = train(base, ["a a b"], unk_token="<unk>", special_tokens=["<pad>"])
    assert tok.get_vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3}
    assert base.get_vocab() == {"[UNK]": 0}
    with pytest.raises(TrainingError, match="no pieces"):
        train(base, ["   "])
    with pytest.raises(TrainingError, match="fixed"):
        train(byte_tokenizer(), ["a"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=5))
def test_properties(texts):
    # The text "[UNK]" is the unknown token's own special text, matched as that token.
    assume(not any("[UNK]" in t for t in texts))
    tok = whitespace_tokenizer(corpus=texts)
    for text in texts:
        enc = tok.encode(text)
        assert "[UNK]" not in enc.tokens
        assert enc.tokens == [text[s:e] for s, e in enc.offsets]
        assert tok.decode(enc.ids) == " ".join(enc.tokens)
        assert all(not set(t) & RUST_WHITESPACE for t in enc.tokens)
        starts = [s for s, _ in enc.offsets]
        assert starts == sorted(starts)
    assert [e.ids for e in tok.encode_batch(texts)] == [tok.encode(t).ids for t in texts]
    loaded = Tokenizer.from_str(tok.to_str())
    assert [loaded.encode(t).ids for t in texts] == [tok.encode(t).ids for t in texts]


def test_factory_learns_from_files(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text("x y\ny\n", encoding="utf-8")
    tok = whitespace_tokenizer(files=[f], max_size=2)
    assert tok.get_vocab() == {"[UNK]": 0, "y": 1}
