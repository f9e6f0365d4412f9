"""Morpheme segmentation: the MDL cost, recursive training, Viterbi, the pre-tokenizer.

Known answers: a gold segmentation derived from hunspell-en-us's affix rules
(tests/data/morphemes/en_us_gold_sample.txt, written by corpora/build_morph_gold.py: the
words of 400 random dictionary entries and their forms), scored with boundary precision,
recall and F1 against Morfessor 2.0.6 trained on the same words.
"""

from __future__ import annotations

import json
import pickle
import random
import time
from math import lgamma, log
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok import Tokenizer
from codetok.errors import ConfigurationError, FormatError, TrainingError
from codetok.models import BPE
from codetok.pre_tokenizers import Sequence, Whitespace
from codetok.text import MorphemeModel, Morphemes, morpheme_tokenizer, read_word_list
from codetok.text.morphemes.cost import MorphCost
from codetok.text.morphemes.evaluation import boundary_scores, read_gold
from codetok.trainers import BpeTrainer

GOLD = Path(__file__).parents[1] / "data" / "morphemes" / "en_us_gold_sample.txt"

STEMS = ["walk", "talk", "jump", "play", "work", "help", "call", "kick", "look", "turn"]
SUFFIXES = ["", "s", "ed", "ing", "er", "ers"]


def family_words() -> dict[str, int]:
    return {s + x: 1 for s in STEMS for x in SUFFIXES}


@pytest.fixture(scope="module")
def small_model() -> MorphemeModel:
    return MorphemeModel.train(family_words())


@pytest.fixture(scope="module")
def gold() -> dict[str, list[str]]:
    return read_gold(GOLD)


# ----------------------------------------------------------------------------- the MDL cost


def direct_cost(counts: dict[str, int], words: int, alpha: float) -> float:
    """The code length written out from its definition (morph_cost's module docstring)."""
    n, k = sum(counts.values()), len(counts)
    corpus = -sum(c * log(c / (n + words)) for c in counts.values()) - words * log(
        words / (n + words)
    )
    letters: dict[str, int] = {}
    for m in counts:
        for ch in m:
            letters[ch] = letters.get(ch, 0) + 1
    symbols = sum(letters.values()) + k
    strings = -sum(v * log(v / symbols) for v in letters.values()) - k * log(k / symbols)
    prior = lgamma(n) - lgamma(k) - lgamma(n - k + 1)
    return alpha * corpus + strings + prior - lgamma(k + 1)


def test_cost_matches_its_definition_after_random_changes():
    rng = random.Random(3)
    cost = MorphCost(0.7, word_tokens=9)
    counts: dict[str, int] = {}
    pool = ["walk", "ed", "s", "talk", "ing", "a", "ab", "ba", "k"]
    for _ in range(400):
        m = rng.choice(pool)
        delta = rng.choice([1, 2, 3]) if rng.random() < 0.6 or not counts.get(m) else -counts[m]
        cost.add(m, delta)
        counts[m] = counts.get(m, 0) + delta
        if not counts[m]:
            del counts[m]
        if counts:
            assert cost.total() == pytest.approx(direct_cost(counts, 9, 0.7), rel=1e-9)
    assert cost.counts == counts


def test_cost_prefers_shared_suffixes():
    """``walk+ed``/``talk+ed`` is cheaper than two whole words once both stems are known."""
    words = {"walk": 1, "talk": 1, "walked": 1, "talked": 1}
    whole = MorphCost(1.0, 4)
    split = MorphCost(1.0, 4)
    for w in words:
        whole.add(w, 1)
    for m in ["walk", "talk", "walk", "ed", "talk", "ed"]:
        split.add(m, 1)
    assert split.total() < whole.total()


# ------------------------------------------------------------------------------- training


def test_training_finds_the_suffixes(small_model):
    seg = small_model.segment
    assert seg("walked") == ["walk", "ed"]
    assert seg("talking") == ["talk", "ing"]
    assert seg("kicks") == ["kick", "s"]
    # new words: known stems and suffixes, and an unknown stem keeps its letters together
    assert seg("helped") == ["help", "ed"]
    assert seg("blorfing") == ["blorf", "ing"]
    assert seg("walk") == ["walk"]


def test_training_is_deterministic_and_seeded():
    words = family_words()
    a = MorphemeModel.train(words, seed=1)
    b = MorphemeModel.train(words, seed=1)
    assert a == b and a.to_dict() == b.to_dict()


def test_corpus_weight_trades_morphs_for_tokens():
    words = family_words()
    fine = MorphemeModel.train(words, corpus_weight=0.5)
    coarse = MorphemeModel.train(words, corpus_weight=20.0)
    assert len(fine) < len(coarse)  # heavier corpus cost: whole words, a bigger lexicon


def test_train_from_texts_counts_letter_runs():
    texts = ["Walked; WALKING 42 times!", ", ".join(family_words())] * 3
    model = MorphemeModel.train(corpus=texts, dampening="ones")
    assert model.segment("talking") == ["talk", "ing"]
    assert model.word_tokens == len(family_words()) + 1  # and "times"
    assert not any(ch.isdigit() or ch.isupper() for m in model.morphs for ch in m)


def test_dampening_flattens_counts():
    words = {"walk": 1000, "walked": 50, "talk": 1000, "talked": 60}
    model = MorphemeModel.train(words, dampening="ones")
    assert model.word_tokens == 4
    assert (
        MorphemeModel.train(words, dampening="log").word_tokens == 7 + 4 + 7 + 5
    )  # 1 + floor(ln count)


# -------------------------------------------------------------------------------- viterbi


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_segments_spell_the_word(small_model, word):
    parts = small_model.segment(word)
    assert "".join(parts) == word
    assert all(parts)


def piece_cost(model: MorphemeModel):
    """The cost of one piece, written out from morph_model's module docstring."""
    from codetok.text.morphemes.model import MAX_NEW

    total = sum(model.morphs.values()) + model.word_tokens
    letters: dict[str, int] = {}
    for m in model.morphs:
        for ch in m:
            letters[ch] = letters.get(ch, 0) + 1
    symbols = sum(letters.values()) + len(model.morphs)

    def cost(piece: str) -> float:
        if piece in model.morphs:
            return model.corpus_weight * log(total / model.morphs[piece])
        if len(piece) > MAX_NEW:
            return float("inf")
        spelled = sum(log(symbols / letters.get(ch, 1)) for ch in piece)
        return model.corpus_weight * log(total) + spelled + log(symbols / len(model.morphs))

    return cost


def plain_viterbi_cost(model: MorphemeModel, word: str) -> float:
    """The least cost of ``word`` by the plain dynamic programme over all cut points."""
    cost = piece_cost(model)
    best = [0.0] + [float("inf")] * len(word)
    for j in range(1, len(word) + 1):
        best[j] = min(best[i] + cost(word[i:j]) for i in range(j))
    return best[-1]


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="walkedtingsrx", max_size=45))
def test_viterbi_finds_the_least_cost(small_model, word):
    parts = small_model.segment(word)
    cost = piece_cost(small_model)
    found = sum(cost(p) for p in parts)
    assert found == pytest.approx(plain_viterbi_cost(small_model, word), abs=1e-6)


def test_segmentation_is_linear_in_length(small_model):
    start = time.perf_counter()
    parts = small_model.segment("walk" * 25_000)
    assert "".join(parts) == "walk" * 25_000
    assert time.perf_counter() - start < 5


# ------------------------------------------------------------------ known answers vs Morfessor


def test_boundary_f1_against_gold_no_worse_than_morfessor(gold):
    """Both systems train on the 1,102 gold words as types; Viterbi segments them."""
    morfessor = pytest.importorskip("morfessor")
    words = sorted(gold)
    model = MorphemeModel.train(words)
    ours = boundary_scores({w: model.segment(w) for w in words}, gold)

    random.seed(0)
    baseline = morfessor.BaselineModel(corpusweight=1.0)
    baseline.load_data([(1, w) for w in words])
    baseline.train_batch()
    theirs = boundary_scores({w: baseline.viterbi_segment(w)[0] for w in words}, gold)

    assert ours.words == theirs.words == 1102
    # measured: codetok P 0.856 R 0.860 F1 0.858; Morfessor 0.852 0.860 0.856
    assert (ours.correct, ours.predicted, ours.gold) == (689, 805, 801)
    assert ours.f1 >= theirs.f1 - 0.005, (ours, theirs)


def test_boundary_scores_known_answer():
    s = boundary_scores(
        {"unhappiness": ["un", "happiness"], "walked": ["wal", "ked"], "cat": ["cat"]},
        {"unhappiness": ["un", "happi", "ness"], "walked": ["walk", "ed"], "cat": ["cat"]},
    )
    assert (s.correct, s.predicted, s.gold) == (1, 2, 3)
    assert (s.precision, s.recall) == (0.5, 1 / 3)
    assert s.f1 == pytest.approx(0.4)
    with pytest.raises(ConfigurationError, match="does not spell"):
        boundary_scores({"cat": ["ca"]}, {"cat": ["cat"]})


# ------------------------------------------------------------------------- the pre-tokenizer


def test_pre_tokenizer_cuts_only_between_morphs(small_model):
    pre = Sequence([Whitespace(), Morphemes(small_model)])
    text = "Walked, KICKING 3 blorfs!"
    pieces = pre.pre_tokenize_str(text)
    assert pieces == [
        ("Walk", (0, 4)),
        ("ed", (4, 6)),
        (",", (6, 7)),
        ("KICK", (8, 12)),
        ("ING", (12, 15)),
        ("3", (16, 17)),
        ("blorf", (18, 23)),
        ("s", (23, 24)),
        ("!", (24, 25)),
    ]
    assert all(text[a:b] == p for p, (a, b) in pieces)
    # keep-case lookup finds nothing for upper case and leaves the word whole
    assert Morphemes(small_model, lowercase=False).pre_tokenize_str("KICKING") == [
        ("KICKING", (0, 7))
    ]


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet="walkedKINGs é\u0301,3-", max_size=30))
def test_split_many_equals_split(small_model, text):
    from codetok.tokenizer.offsets import NormalizedString

    pre = Sequence([Whitespace(), Morphemes(small_model)])
    texts, anchors = pre.split_many([text], [0])
    pieces = pre.split(NormalizedString(text))
    assert texts == [p.text for p in pieces]
    assert anchors == [p.base for p in pieces]


def test_pre_tokenizer_keeps_offsets_behind_a_normalizer(small_model):
    from codetok.normalizers import NFKC

    tok = morpheme_tokenizer(small_model, normalizer=NFKC())
    text = "ﬁ walked"  # the ligature normalizes to two characters
    enc = tok.encode(text)
    assert enc.tokens[-2:] == ["walk", "ed"]
    assert enc.offsets[-2:] == [(2, 6), (6, 8)]


def test_morpheme_tokenizer_works_like_the_others(small_model, tmp_path):
    tok = morpheme_tokenizer(small_model, special_tokens=["[PAD]", "[CLS]"])
    assert tok.engine == "python"
    enc = tok.encode("walked talking")
    assert enc.tokens == ["walk", "ed", "talk", "ing"]
    assert tok.decode(enc.ids) == "walk ed talk ing"
    assert tok.encode("[CLS] walks").tokens == ["[CLS]", "walk", "s"]
    tok.special_tokens_map["pad_token"] = "[PAD]"
    batch = tok(["walked", "kicking talkers"], padding=True, return_tensors="np")
    assert batch["input_ids"].shape == (2, 5)
    assert batch["attention_mask"][0].tolist() == [1, 1, 0, 0, 0]
    assert [e.ids for e in tok.encode_batch(["walked", "jumps"])] == [
        tok.encode("walked").ids,
        tok.encode("jumps").ids,
    ]
    path = tmp_path / "morph.json"
    tok.save(str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["pre_tokenizer"]["pretokenizers"][1]["type"] == "codetok.Morphemes"
    again = Tokenizer.from_file(path)
    assert again.encode("kicking talkers").ids == tok.encode("kicking talkers").ids
    assert again.pre_tokenizer == tok.pre_tokenizer
    copied = pickle.loads(pickle.dumps(tok))
    assert copied.encode("kicking talkers").ids == tok.encode("kicking talkers").ids


def test_morpheme_tokenizer_vocabulary_from_a_corpus(small_model):
    tok = morpheme_tokenizer(small_model, corpus=["walked, talked!", "walks"], unk_token="<unk>")
    assert set(tok.get_vocab()) == {"<unk>", "walk", "ed", "talk", ",", "!", "s"}
    assert tok.encode("walked?").tokens == ["walk", "ed", "<unk>"]


def test_morphemes_before_bpe_trains_and_encodes(small_model):
    tok = Tokenizer(
        BPE(unk_token="[UNK]"), pre_tokenizer=Sequence([Whitespace(), Morphemes(small_model)])
    )
    texts = ["walked talked jumped kicking looking playing"] * 20
    tok.train_from_iterator(texts, BpeTrainer(vocab_size=60, special_tokens=["[UNK]"]))
    enc = tok.encode("walked kicking")
    assert "".join(enc.tokens) == "walkedkicking"
    # no subword crosses a morph boundary
    cuts = {4, 6, 11, 15}
    for a, b in enc.offsets:
        assert not any(a < c < b for c in cuts)
    assert "walk" in enc.tokens and "ed" in enc.tokens


def test_model_save_load_and_format_errors(small_model, tmp_path):
    path = tmp_path / "model.json"
    small_model.save(path)
    assert MorphemeModel.load(path) == small_model
    bad = tmp_path / "bad.json"
    bad.write_text('{"morphs": {"a": 0}, "word_tokens": 1}', encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.json.*morphs\['a'\] must be a positive int"):
        MorphemeModel.load(bad)
    bad.write_text('{"morphs": {"a": 1}}', encoding="utf-8")
    with pytest.raises(FormatError, match="needs word_tokens"):
        MorphemeModel.load(bad)
    with pytest.raises(FormatError, match=r"pre_tokenizer.*model"):
        Tokenizer.from_dict(
            {
                "version": "1.0",
                "model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"},
                "pre_tokenizer": {"type": "codetok.Morphemes", "model": []},
            }
        )


# --------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([], "the word list is empty"),
        ({}, "the word list is empty"),
        (["walk", "123"], r"'123' has no letters"),
        (["walk", ""], "empty word"),
        (["don't"], r"\"don't\" is not all letters \(\"'\" at 3\)"),
        ({"walk": 0}, "the count must be a positive int"),
        ({"walk": 2.5}, "the count must be a positive int"),
        ([b"walk"], "a word must be a str"),
        (["x" * 300], "words longer than 256"),
    ],
)
def test_bad_word_lists_are_named(words, message):
    with pytest.raises(TrainingError, match=message):
        MorphemeModel.train(words)


def test_bad_options_are_named():
    with pytest.raises(ConfigurationError, match="either words="):
        MorphemeModel.train()
    with pytest.raises(ConfigurationError, match="not both"):
        MorphemeModel.train(["walk"], corpus=["walk"])
    with pytest.raises(ConfigurationError, match="not one str"):
        MorphemeModel.train("walk")
    with pytest.raises(ConfigurationError, match="dampening must be one of"):
        MorphemeModel.train(["walk"], dampening="sqrt")
    with pytest.raises(ConfigurationError, match="corpus_weight must be a positive number"):
        MorphemeModel.train(["walk"], corpus_weight=0)
    with pytest.raises(TrainingError, match="min_count=5"):
        MorphemeModel.train(["walk"], min_count=5)
    with pytest.raises(TrainingError, match="the texts hold no letters"):
        MorphemeModel.train(corpus=["123 456 !"])
    with pytest.raises(ConfigurationError, match="must be a MorphemeModel"):
        Morphemes({"walk": 1})


def test_read_word_list(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("# a comment\n12 walk\ntalk\t3\n\nwalk\n", encoding="utf-8")
    assert read_word_list(path) == {"walk": 13, "talk": 3}
    path.write_text("walk\n1 2 3\n", encoding="utf-8")
    with pytest.raises(TrainingError, match=r"words\.txt: line 2: expected 'word' or 'count word'"):
        read_word_list(path)
    path.write_text("walk -3\n", encoding="utf-8")
    with pytest.raises(TrainingError, match="line 1: the count must be a positive int"):
        read_word_list(path)


# ------------------------------------------------------------------------------------ CLI


def test_cli_train_and_segment(tmp_path, capsys):
    from codetok.cli.app import main

    words = tmp_path / "words.txt"
    words.write_text("".join(f"2 {w}\n" for w in family_words()), encoding="utf-8")
    model = tmp_path / "model.json"
    assert main(["morphemes", "train", str(words), "-o", str(model), "-q"]) == 0
    assert MorphemeModel.load(model).segment("walked") == ["walk", "ed"]
    capsys.readouterr()
    assert main(["morphemes", "segment", "-m", str(model), "Walked", "jumping"]) == 0
    assert capsys.readouterr().out == "Walked\twalk ed\njumping\tjump ing\n"
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert main(["morphemes", "train", str(empty), "-o", str(model)]) == 2
    assert "the word list is empty" in capsys.readouterr().err
    assert main(["morphemes", "train", str(words), "-o", str(model), "--epochs", "0"]) == 2
    assert "--epochs must be an int >= 1" in capsys.readouterr().err
