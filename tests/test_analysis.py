"""Analysis helpers: statistics by hand on small corpora, duck-typed tokenizers, tables."""

from __future__ import annotations

import pytest

from codetok.analysis import COLUMNS, Encoder, Table, analyze, as_encoder, compare
from codetok.errors import ConfigurationError
from codetok.text import byte_tokenizer, char_tokenizer, whitespace_tokenizer, words_tokenizer

CORPUS = ["the cat sat", "the dog ran far", "é"]


def test_known_answer_statistics():
    tok = whitespace_tokenizer(corpus=["the cat the"], unk_token="<unk>")  # vocab: <unk>, the, cat
    row = analyze(tok, CORPUS, name="ws")
    assert row["tokenizer"] == "ws"
    assert (row["texts"], row["chars"], row["bytes"], row["words"], row["tokens"]) == (
        3,
        27,
        28,
        8,
        8,
    )
    assert row["chars_per_token"] == pytest.approx(27 / 8)
    assert row["bytes_per_token"] == pytest.approx(28 / 8)
    assert row["tokens_per_word"] == 1.0
    # unknown: sat, dog, ran, far, é
    assert row["unk_rate"] == pytest.approx(5 / 8)
    assert row["word_coverage"] == pytest.approx(3 / 8)
    # seen ids: the, cat, <unk> -> all 3 entries
    assert (row["vocab_size"], row["vocab_used"]) == (3, 1.0)
    assert set(row) == set(COLUMNS)


def test_bytes_and_chars():
    row = analyze(byte_tokenizer(), ["aé"])
    assert (row["tokens"], row["bytes_per_token"], row["unk_rate"]) == (3, 1.0, 0.0)
    assert row["vocab_used"] == pytest.approx(3 / 256)
    chars = analyze(char_tokenizer(corpus=["ab"]), ["abc"])
    assert chars["unk_rate"] == pytest.approx(1 / 3)
    assert chars["word_coverage"] == 0.0


def test_empty_corpus_gives_none_ratios():
    row = analyze(whitespace_tokenizer(), [])
    assert row["tokens"] == 0 and row["chars_per_token"] is None and row["unk_rate"] is None


def test_custom_word_splitter():
    row = analyze(byte_tokenizer(), ["ab,cd"], word_splitter=lambda t: [(0, 2), (3, 5)])
    assert row["words"] == 2 and row["tokens_per_word"] == 2.5


def test_compare_one_pass_over_a_generator():
    ws = whitespace_tokenizer(corpus=CORPUS)
    table = compare(
        {"whitespace": ws, "words": words_tokenizer(corpus=CORPUS), "bytes": byte_tokenizer()},
        (t for t in CORPUS),
    )
    assert [r["tokenizer"] for r in table] == ["whitespace", "words", "bytes"]
    assert table[2]["tokens"] == 28 and table[0]["tokens"] == 8
    assert len(table) == 3
    md = table.to_markdown()
    lines = md.splitlines()
    assert lines[0].startswith("| tokenizer | texts | chars |")
    assert lines[1].startswith("| --- | ---: |")
    assert lines[2].startswith("| whitespace | 3 | 27 | 28 | 8 | 8 | 3.375 |")
    assert len(lines) == 5
    unnamed = compare([ws], CORPUS)
    assert unnamed[0]["tokenizer"] == "Tokenizer"


def test_table_to_markdown_escapes_and_blank_none():
    t = Table([{"tokenizer": "a|b", "unk_rate": None, "tokens": 1}])
    assert (
        t.to_markdown()
        == "| tokenizer | tokens | unk_rate |\n| --- | ---: | --- |\n| a\\|b | 1 |  |"
    )
    assert t.to_dicts() == [{"tokenizer": "a|b", "unk_rate": None, "tokens": 1}]


def test_hf_tokenizers_duck_typed(hf_tokenizers):
    ws = whitespace_tokenizer(corpus=["the cat"], unk_token="[UNK]")
    hf = hf_tokenizers.Tokenizer.from_str(ws.to_str())
    a = analyze(ws, CORPUS)
    b = analyze(hf, CORPUS)
    assert {k: v for k, v in a.items() if k != "tokenizer"} == {
        k: v for k, v in b.items() if k != "tokenizer"
    }


def test_tiktoken_encoding_is_recognised():
    tiktoken = pytest.importorskip("tiktoken")
    enc = tiktoken.Encoding(
        name="bytes-only",
        pat_str=r"\S+|\s+",
        mergeable_ranks={bytes([i]): i for i in range(256)},
        special_tokens={"<|endoftext|>": 256},
    )
    row = analyze(enc, ["hé <|endoftext|>"])  # special text is encoded as ordinary text
    assert row["tokens"] == len("hé <|endoftext|>".encode())
    assert row["unk_rate"] == 0.0 and row["vocab_size"] == 257


def test_plain_callable_encoder_and_errors():
    row = analyze(Encoder("len", lambda t: [0] * len(t), unk_id=0, vocab_size=1), ["ab"])
    assert row["unk_rate"] == 1.0
    with pytest.raises(ConfigurationError, match="encode"):
        as_encoder(object())
    with pytest.raises(ConfigurationError, match="not one str"):
        analyze(byte_tokenizer(), "a text")
    with pytest.raises(ConfigurationError, match="item 1"):
        analyze(byte_tokenizer(), ["ok", b"bytes"])
    with pytest.raises(ConfigurationError, match="at least one"):
        compare({}, ["a"])


def test_padding_and_truncation_are_not_counted(bert_dir, hf_tokenizers):
    """A tokenizer.json that pads and truncates to 128 (BERT here) is measured on whole,
    unpadded texts; the caller's tokenizer keeps its settings."""
    from codetok import Tokenizer

    path = str(bert_dir / "tokenizer.json")
    corpus = ["a short line", "word " * 300]  # 2 and 300 tokens
    plain = Tokenizer.from_file(path)
    plain.no_padding()
    plain.no_truncation()
    expected = analyze(plain, corpus, name="bert")
    assert expected["tokens"] == 303
    for padded in (Tokenizer.from_file(path), hf_tokenizers.Tokenizer.from_file(path)):
        assert padded.padding is not None and padded.truncation is not None
        assert analyze(padded, corpus, name="bert") == expected
        assert padded.padding is not None and padded.truncation is not None
