"""WordPiece trainer: likelihood known answers, HF ``WordPieceTrainer`` parity, helpers."""

from __future__ import annotations

import pytest
from test_trainers_bpe import assert_merges_equal_modulo_ties, stdlib_texts

from codetok import Tokenizer
from codetok import normalizers as cn
from codetok import pre_tokenizers as cpt
from codetok.errors import ConfigurationError
from codetok.models import WordPiece
from codetok.trainers import WordPieceTrainer, count_pieces, train_from_iterator, train_wordpiece

hf = pytest.importorskip("tokenizers")


# ----------------------------------------------------------------------------- known answers
def test_playing_played_player_likelihood_scores():
    counts = {"playing": 3, "played": 2, "player": 1}
    # Initial symbols: p ##l ##a ##y then ##i ##n ##g / ##e ##d / ##e ##r.
    # freq: p=##l=##a=##y=6, ##i=##n=##g=3, ##e=3, ##d=2, ##r=1.
    hand = {
        ("p", "##l"): 6 / (6 * 6),
        ("##y", "##i"): 3 / (6 * 3),
        ("##i", "##n"): 3 / (3 * 3),
        ("##n", "##g"): 3 / (3 * 3),
        ("##y", "##e"): 3 / (6 * 3),
        ("##e", "##d"): 2 / (3 * 2),
        ("##e", "##r"): 1 / (3 * 1),
    }
    best = max(hand.values())
    assert best == pytest.approx(1 / 3)
    trainer = WordPieceTrainer(vocab_size=20, scoring="likelihood")
    trainer.train(counts)
    first = trainer.merge_scores[0]
    assert first[2] == pytest.approx(best)
    assert (first[0], first[1]) in {p for p, s in hand.items() if s == best}
    # After ##e+##d (2 of ##e's 3 uses gone), ##e+##r scores 1 / (1 * 1) = 1.0.
    full = WordPieceTrainer(vocab_size=29, scoring="likelihood")
    model = full.train(counts)
    assert ("##e", "##r", pytest.approx(1.0)) in full.merge_scores
    assert [t.value for t in model.tokenize("playing")] == ["playing"]
    assert [t.value for t in model.tokenize("player")] == ["player"]


def test_likelihood_prefers_informative_pairs_over_frequent_ones():
    # "th" is frequent but t and h are everywhere; "qu" is rare but q never occurs alone.
    counts = {"the": 50, "to": 40, "ah": 40, "quiz": 2}
    by_freq = WordPieceTrainer(vocab_size=16).train(counts)
    lik = WordPieceTrainer(vocab_size=16, scoring="likelihood")
    lik.train(counts)
    assert "th" in by_freq.get_vocab()
    assert lik.merge_scores[0][:2] in {("q", "##u"), ("##u", "##i"), ("##i", "##z")}


def test_bad_scoring():
    with pytest.raises(ConfigurationError, match="scoring"):
        WordPieceTrainer(scoring="bm25")


# ----------------------------------------------------------------------------- HF parity
def _bert_pair(texts, **opts):
    ht = hf.Tokenizer(hf.models.WordPiece(unk_token="[UNK]"))
    ht.normalizer = hf.normalizers.BertNormalizer()
    ht.pre_tokenizer = hf.pre_tokenizers.BertPreTokenizer()
    ht.train_from_iterator(texts, hf.trainers.WordPieceTrainer(show_progress=False, **opts))
    ct = Tokenizer(
        WordPiece({}, unk_token="[UNK]"),
        normalizer=cn.BertNormalizer(),
        pre_tokenizer=cpt.BertPreTokenizer(),
    )
    train_from_iterator(ct, texts, WordPieceTrainer(**opts))
    return ht, ct


@pytest.fixture(scope="module")
def bert_pair():
    texts = stdlib_texts(20_000, start=20)
    ht, ct = _bert_pair(texts, vocab_size=500, special_tokens=["[PAD]", "[UNK]", "[CLS]"])
    return texts, ht, ct


def test_wordpiece_parity_modulo_ties(bert_pair):
    _, ht, ct = bert_pair
    assert ct.get_vocab_size() == ht.get_vocab_size()
    # Specials and the alphabet get the same ids; ## variants follow HF's hash order.
    hv, cv = ht.get_vocab(), ct.get_vocab()
    for tok in ["[PAD]", "[UNK]", "[CLS]", "a", "z", "(", "_"]:
        assert cv[tok] == hv[tok]
    common = set(cv) & set(hv)
    assert len(common) >= 0.95 * len(hv)


def test_wordpiece_merge_run_is_greedy_like_hf():
    texts = stdlib_texts(8_000, start=25)
    ht = hf.Tokenizer(hf.models.BPE())
    ht.normalizer = hf.normalizers.BertNormalizer()
    ht.pre_tokenizer = hf.pre_tokenizers.BertPreTokenizer()
    opts = {"vocab_size": 300, "continuing_subword_prefix": "##"}
    ht.train_from_iterator(texts, hf.trainers.BpeTrainer(show_progress=False, **opts))
    ct = Tokenizer(
        WordPiece({}), normalizer=cn.BertNormalizer(), pre_tokenizer=cpt.BertPreTokenizer()
    )
    words = count_pieces(ct, texts)
    trainer = WordPieceTrainer(vocab_size=300)
    trainer.train(words)
    ours = [(a, b) for a, b, _ in trainer.merge_counts]
    import json

    theirs = [tuple(m) for m in json.loads(ht.to_str())["model"]["merges"]]
    assert_merges_equal_modulo_ties(words, ours, theirs, prefix="##")


def test_encoding_with_hf_trained_wordpiece_gives_identical_ids(bert_pair):
    _, ht, _ = bert_pair
    loaded = Tokenizer.from_str(ht.to_str())
    for text in stdlib_texts(20_000, start=160)[:300] + ["Ünïcödé naïve café", ""]:
        assert loaded.encode(text).ids == ht.encode(text).ids


def test_codetok_trained_wordpiece_loads_in_hf(bert_pair, tmp_path):
    _, _, ct = bert_pair
    path = tmp_path / "tokenizer.json"
    ct.save(str(path))
    loaded = hf.Tokenizer.from_file(str(path))
    for text in stdlib_texts(20_000, start=165)[:300]:
        assert loaded.encode(text).ids == ct.encode(text).ids


# ----------------------------------------------------------------------------- helper
def test_train_wordpiece_bert_pipeline(tmp_path):
    tok = train_wordpiece(texts=stdlib_texts(20_000, start=30), vocab_size=400)
    enc = tok.encode("Return the Value")
    assert enc.tokens[0] == "[CLS]" and enc.tokens[-1] == "[SEP]"
    assert tok.decode(enc.ids) == "return the value"
    assert tok.token_to_id("[PAD]") == 0
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    loaded = hf.Tokenizer.from_file(str(path))
    assert (
        loaded.encode("Return the Value", "x = 1").ids
        == tok.encode("Return the Value", "x = 1").ids
    )
