"""Training reports and the warning when the corpus cannot reach ``vocab_size`` (issue 33)."""

from __future__ import annotations

import warnings

import pytest

import codetok
from codetok.errors import TrainingWarning
from codetok.trainers import BpeTrainer, UnigramTrainer, count_pieces
from codetok.trainers.report import TrainingReport

SMALL = ["hello world, hello there"] * 10
PROSE = [
    f"Line {i}: the quick brown fox jumps over the lazy dog number {i * 7 % 13}, "
    f"then écrit «{i}» and returns home.\n"
    for i in range(400)
]


@pytest.mark.parametrize(
    ("train", "kwargs"),
    [
        (codetok.train_bpe, {}),
        (codetok.train_bpe, {"byte_level": False}),
        (codetok.train_wordpiece, {}),
        (codetok.train_wordpiece, {"scoring": "likelihood"}),
        (codetok.train_unigram, {}),
    ],
)
def test_a_corpus_too_small_for_vocab_size_warns_with_what_it_reached(train, kwargs):
    with pytest.warns(TrainingWarning) as caught:
        tok = train(texts=SMALL, vocab_size=5000, **kwargs)
    (w,) = caught
    size = tok.get_vocab_size()
    assert f"reached {size} tokens of the vocab_size=5000 asked" in str(w.message)
    assert w.filename == __file__  # points at the caller, not into codetok
    report = tok.training_report
    assert report.final_size == size and report.shortfall in str(w.message)
    assert "train on more text or ask for a smaller vocab_size" in report.shortfall


def test_no_warning_when_the_vocabulary_is_reached():
    with warnings.catch_warnings():
        warnings.simplefilter("error", TrainingWarning)
        tok = codetok.train_bpe(texts=PROSE, vocab_size=300)
    assert tok.get_vocab_size() == 300
    assert tok.training_report.shortfall is None and "short" not in str(tok.training_report)


def test_min_frequency_shortfall_names_the_best_pair_left():
    with pytest.warns(TrainingWarning, match=r"occurs (\d+) times, below min_frequency=500"):
        codetok.train_bpe(texts=PROSE, vocab_size=5000, min_frequency=500)


def test_the_report_counts_what_was_read_and_learned():
    tok = codetok.train_bpe(texts=PROSE, vocab_size=400)
    r = tok.training_report
    assert isinstance(r, TrainingReport) and r.model == "BPE"
    assert r.texts == len(PROSE)
    assert r.bytes == sum(len(t.encode("utf-8")) for t in PROSE)
    pieces = count_pieces(tok, PROSE)  # the same pipeline counts the same pieces
    assert (r.words, r.distinct_words) == (sum(pieces.values()), len(pieces))
    assert r.merges == len(tok.model.get_merges()) == 400 - 256 - 1
    assert (r.alphabet, r.special_tokens, r.final_size, r.vocab_size) == (256, 1, 400, 400)
    assert list(r.seconds) == ["count", "words", "merges", "model"]
    assert all(s >= 0 for s in r.seconds.values()) and r.peak_memory > 2**20
    text = str(r)
    for row in ("read", "400 texts", "words", "distinct", "merges", "143", "400 of 400"):
        assert row in text


def test_unigram_report_has_pieces_and_files_are_read(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("".join(PROSE), encoding="utf-8")
    tok = codetok.train_unigram(files=[path], vocab_size=120)
    r = tok.training_report
    assert r.texts == len(PROSE) and r.bytes == path.stat().st_size
    assert r.pieces == r.final_size - r.special_tokens == 120 - 3
    assert "EM" in r.seconds


def test_a_trainer_alone_reports_too():
    trainer = UnigramTrainer(vocab_size=50, special_tokens=["<unk>"])
    with pytest.warns(TrainingWarning):
        trainer.train({"▁hello": 5, "▁world": 3})
    assert trainer.report.texts is None and trainer.report.distinct_words == 2
    bpe = BpeTrainer(vocab_size=3)
    bpe.train({"ab": 3})
    assert bpe.report.merges == 1 and bpe.report.shortfall is None


def test_code_training_reports(tmp_path):
    (tmp_path / "a.py").write_text("def f(x):\n    return x + 1\n" * 20, encoding="utf-8")
    with pytest.warns(TrainingWarning):
        tok = codetok.CodeTokenizer.train(tmp_path, vocab_size=3000, show_progress=False)
    assert tok.tokenizer.training_report.final_size == tok.tokenizer.model.get_vocab_size()
