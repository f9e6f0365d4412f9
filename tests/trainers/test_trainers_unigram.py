"""Unigram trainer: EM known answers, SentencePiece compression parity, HF loading, errors."""

from __future__ import annotations

import math
import os

import pytest
from test_trainers_bpe import stdlib_texts

from codetok import Tokenizer
from codetok import decoders as cd
from codetok import pre_tokenizers as cpt
from codetok.errors import ConfigurationError, TrainingError
from codetok.models import Unigram
from codetok.reference import unigram_train as k
from codetok.trainers import UnigramTrainer, train_from_iterator, train_unigram
from codetok.trainers.unigram import required_chars


# ----------------------------------------------------------------------------- known answers
def test_digamma_known_values():
    euler = 0.5772156649015329
    assert k.digamma(1.0) == pytest.approx(-euler, abs=1e-9)
    assert k.digamma(0.5) == pytest.approx(-euler - 2 * math.log(2), abs=1e-9)
    assert k.digamma(10.0) == pytest.approx(2.251752589066721, abs=1e-9)


def test_tiny_em_expected_counts_by_hand():
    # "ab" seen twice, pieces a, b, ab all with log prob -1:
    # path a+b scores e^-2, path ab scores e^-1; P(ab) = e^-1 / (e^-1 + e^-2) = 1 / (1 + e^-1).
    p_ab = 1 / (1 + math.exp(-1))
    expected, objective = k.e_step(["ab"], [2], {"a": 0, "b": 1, "ab": 2}, [-1.0] * 3, 16, -20)
    assert expected[2] == pytest.approx(2 * p_ab)
    assert expected[0] == expected[1] == pytest.approx(2 * (1 - p_ab))
    # Objective: -log Z per occurrence, Z = e^-1 + e^-2.
    assert objective == pytest.approx(-math.log(math.exp(-1) + math.exp(-2)))
    # M step (digamma): score = digamma(count) - digamma(total).
    total = sum(expected)
    assert k.digamma(expected[2]) - k.digamma(total) > k.digamma(expected[0]) - k.digamma(total)


def test_e_step_linear_and_log_space_agree():
    words = ["▁hello", "▁help", "x" * 120, "▁hhh"]
    index = {p: i for i, p in enumerate(["▁", "h", "e", "l", "o", "p", "▁he", "ll", "x", "xx"])}
    scores = [-3.0, -4.0, -4.0, -3.5, -4.0, -6.0, -2.0, -2.5, -1.0, -1.5]
    got, obj = k.e_step(words, [3, 1, 1, 2], index, scores, 16, -20)
    ref = [0.0] * len(scores)
    ref_obj = 0.0
    prefixes = k.prefix_set(index)
    for w, c in zip(words, [3, 1, 1, 2]):
        ref_obj -= c * k._e_step_log(w, c, index, scores, prefixes, 16, -20, ref)
    assert got == pytest.approx(ref, rel=1e-9)
    assert obj == pytest.approx(ref_obj / 7)


def test_prune_drops_pieces_that_are_not_their_own_best_path():
    pieces = ["a", "b", "ab", "abab"]
    scores = [-1.0, -1.0, -5.0, -1.5]
    keep, cands = k.prune_losses(pieces, scores, ["abab", "ab"], [3, 1], 16, -20)
    # "ab" scores -5 < a+b = -2: removable, so neither kept nor a candidate.
    assert 2 not in keep and all(i != 2 for i, _ in cands)
    assert {0, 1} <= set(keep)
    assert [i for i, _ in cands] == [3]


def test_required_chars_coverage_and_tiny_training():
    counts = {"▁hello": 5, "▁world": 3, "▁help": 2, "▁q": 1}
    req = required_chars(counts, character_coverage=0.97)
    assert "q" not in [c for c, _ in req] and req[0] == ("l", 15)
    trainer = UnigramTrainer(vocab_size=20, character_coverage=0.97)
    model = trainer.train(counts)
    pieces = [p for p, _ in model.get_pieces()]
    assert pieces[0] == "<unk>" and model.unk_id == 0
    assert "▁hello" in pieces and "q" not in pieces
    assert [t.value for t in model.tokenize("▁hello")] == ["▁hello"]
    assert model.tokenize("▁q")[-1].id == 0  # uncovered char -> <unk>
    # EM objective never gets worse within the first sub-iterations.
    assert trainer.objectives[1] <= trainer.objectives[0] + 1e-9


def test_options_max_piece_length_byte_fallback_specials():
    texts = stdlib_texts(15_000, start=5)
    tok = Tokenizer(Unigram(), pre_tokenizer=cpt.Metaspace(), decoder=cd.Metaspace())
    trainer = UnigramTrainer(
        vocab_size=600, max_piece_length=4, byte_fallback=True, special_tokens=["<s>", "<unk>"]
    )
    train_from_iterator(tok, texts, trainer)
    pieces = [p for p, _ in tok.model.get_pieces()]
    assert pieces[:3] == ["<s>", "<unk>", "<0x00>"] and tok.model.unk_id == 1
    assert len(pieces) == 600 and tok.model.byte_fallback
    learned = pieces[2 + 256 :]
    assert max(len(p) for p in learned) <= 4
    for p in learned:  # split_by_number: digits never share a piece with other chars
        body = p[1:] if p.startswith("▁") else p
        assert body.isdigit() or not any(c.isdigit() for c in body), p
    assert tok.encode("ǅ").tokens[-2:] == ["<0xC7>", "<0x85>"]


def test_bad_arguments():
    with pytest.raises(TrainingError, match="required chars"):
        UnigramTrainer(vocab_size=5).train({"▁abcdefgh": 3})
    with pytest.raises(TrainingError, match="empty"):
        UnigramTrainer().train({})
    with pytest.raises(ConfigurationError, match="shrinking_factor"):
        UnigramTrainer(shrinking_factor=1.5)
    with pytest.raises(ConfigurationError, match="continuing_subword_prefix") as info:
        UnigramTrainer(continuing_subword_prefix="##")
    assert "max_piece_length" in str(info.value)


@pytest.mark.parametrize("name", ["BpeTrainer", "WordPieceTrainer", "UnigramTrainer"])
def test_trainers_take_no_seed(name):
    import codetok.trainers as trainers

    cls = getattr(trainers, name)
    assert "seed" not in cls.options()
    with pytest.raises(ConfigurationError, match="deterministic"):
        cls(seed=0)


# ----------------------------------------------------------------------------- parity
def _lines(texts):
    return [t.rstrip("\n") for t in texts if t.strip()]


def test_compression_within_two_percent_of_sentencepiece(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    train_lines = _lines(stdlib_texts(150_000, start=0))
    held_out = _lines(stdlib_texts(40_000, start=120))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(train_lines) + "\n", encoding="utf-8")
    vocab = 800
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(tmp_path / "m"),
        vocab_size=vocab,
        model_type="unigram",
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        split_by_unicode_script=False,  # codetok has no script rule (documented)
        max_sentence_length=1 << 16,
        num_threads=1,
        minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "m.model"))
    tok = Tokenizer(Unigram(), pre_tokenizer=cpt.Metaspace(), decoder=cd.Metaspace())
    train_from_iterator(
        tok, train_lines, UnigramTrainer(vocab_size=vocab, special_tokens=["<unk>", "<s>", "</s>"])
    )
    assert tok.get_vocab_size() == vocab
    n_bytes = sum(len(line.encode("utf-8")) for line in held_out)
    bpt_spm = n_bytes / sum(len(sp.encode(line)) for line in held_out)
    bpt_ours = n_bytes / sum(len(tok.encode(line).ids) for line in held_out)
    # Within 2% of SentencePiece, or better.
    assert bpt_ours >= 0.98 * bpt_spm, (bpt_ours, bpt_spm)


def test_trained_unigram_loads_in_hf_with_identical_ids(tmp_path):
    hf = pytest.importorskip("tokenizers")
    tok = train_unigram(texts=stdlib_texts(10_000, start=10), vocab_size=300)
    path = os.path.join(tmp_path, "tokenizer.json")
    tok.save(path)
    loaded = hf.Tokenizer.from_file(path)
    for text in stdlib_texts(10_000, start=140)[:200] + ["ünï 日本", ""]:
        assert loaded.encode(text).ids == tok.encode(text).ids
    sample = "def f(x):  return x"
    assert tok.decode(tok.encode(sample).ids) == sample
