"""Tests of codetok.models.unigram: Viterbi known answers, n-best, sampling, parity."""

from __future__ import annotations

import collections
import glob
import io
import json
import math
import os
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.errors import ConfigurationError, FormatError, VocabularyError
from codetok.models.unigram import Unigram
from codetok.reference import unigram as kernel

tokenizers = pytest.importorskip("tokenizers")
HFTokenizer = tokenizers.Tokenizer
hf_models = tokenizers.models

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A hand-made vocabulary for "▁hello ▁world"; scores are log-probabilities.
HELLO_VOCAB = [
    ("<unk>", 0.0),
    ("▁", -2.0),
    ("h", -4.0),
    ("e", -4.0),
    ("l", -3.0),
    ("o", -3.0),
    ("w", -4.0),
    ("r", -4.0),
    ("d", -4.0),
    ("▁he", -5.0),
    ("llo", -4.5),
    ("▁hello", -9.6),
    ("hell", -6.0),
    ("▁wor", -6.5),
    ("wor", -5.5),
    ("ld", -3.5),
    ("▁world", -10.5),
]


def hello_model(**options) -> Unigram:
    return Unigram(HELLO_VOCAB, 0, **options)


def values(tokens) -> list[str]:
    return [t.value for t in tokens]


# -- Viterbi known answers ----------------------------------------------------------------------


def test_hello_world_viterbi() -> None:
    model = hello_model()
    # ▁he + llo = -9.5 beats ▁hello = -9.6 and ▁ + hell + o = -11.0.
    assert values(model.tokenize("▁hello")) == ["▁he", "llo"]
    # ▁wor + ld = -10.0 beats ▁world = -10.5 and ▁ + wor + ld = -11.0.
    assert values(model.tokenize("▁world")) == ["▁wor", "ld"]
    toks = model.tokenize("▁hello▁world")
    assert values(toks) == ["▁he", "llo", "▁wor", "ld"]
    assert [t.offsets for t in toks] == [(0, 3), (3, 6), (6, 10), (10, 12)]
    assert [t.id for t in toks] == [9, 10, 13, 15]


def test_unknown_penalty_and_fusion() -> None:
    model = hello_model()
    assert model.min_score == -10.5
    # "z" and "q" are unknown (score -20.5 each) and fuse into one token valued by the text.
    toks = model.tokenize("▁hezqo")
    assert values(toks) == ["▁he", "zq", "o"]
    assert [t.id for t in toks] == [9, 0, 5]
    assert toks[1].offsets == (3, 5)
    scored = model.nbest_scored("▁hez", 1)
    assert scored[0][1] == pytest.approx(-5.0 - 20.5)


def test_missing_unk_id_raises() -> None:
    model = Unigram([("a", -1.0)], None)
    assert model.tokenize_ids("aa") == [0, 0]
    with pytest.raises(VocabularyError, match="unk_id"):
        model.tokenize("ab")


def test_byte_fallback() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0)] + [(f"<0x{b:02X}>", -5.0) for b in range(256)]
    model = Unigram(vocab, 0, byte_fallback=True)
    toks = model.tokenize("aé€")
    assert values(toks) == ["a", "<0xC3>", "<0xA9>", "<0xE2>", "<0x82>", "<0xAC>"]
    # The fused unknown "é€" spans chars 1-3; each of its byte tokens reports that span.
    assert [t.offsets for t in toks] == [(0, 1)] + [(1, 3)] * 5
    hf = HFTokenizer(hf_models.Unigram(vocab, 0, True))
    enc = hf.encode("aé€")
    assert (enc.ids, enc.tokens, enc.offsets) == (
        [t.id for t in toks],
        values(toks),
        [t.offsets for t in toks],
    )


def test_default_and_accessors() -> None:
    model = Unigram()
    assert model.to_dict() == {
        "type": "Unigram",
        "unk_id": 0,
        "vocab": [["<unk>", 0.0]],
        "byte_fallback": False,
    }
    hello = hello_model()
    assert hello.token_to_id("llo") == 10
    assert hello.id_to_token(10) == "llo"
    assert hello.id_to_token(999) is None
    assert hello.get_score(10) == -4.5
    assert hello.get_vocab_size() == len(HELLO_VOCAB)
    assert hello.get_pieces() == HELLO_VOCAB
    assert hello.tokenize("") == []
    assert Unigram.type_name == "Unigram"
    with pytest.raises(ConfigurationError):
        Unigram([("a", -1.0)], 5)
    with pytest.raises(ConfigurationError):
        Unigram([("a", "x")], None)  # type: ignore[list-item]


# -- n-best -------------------------------------------------------------------------------------


def test_nbest_order() -> None:
    model = hello_model()
    scored = model.nbest_scored("▁hello", 4)
    assert [values(toks) for toks, _ in scored[:3]] == [
        ["▁he", "llo"],
        ["▁hello"],
        ["▁", "hell", "o"],
    ]
    assert [s for _, s in scored[:3]] == pytest.approx([-9.5, -9.6, -11.0])
    scores = [s for _, s in scored]
    assert scores == sorted(scores, reverse=True)
    assert values(model.nbest("▁hello", 1)[0]) == values(model.tokenize("▁hello"))
    assert model.nbest("▁hello", 0) == []


def all_paths(model: Unigram, piece: str) -> dict[tuple[str, ...], float]:
    """Every segmentation and its score, by brute force through a huge n-best."""
    return {tuple(values(toks)): score for toks, score in model.nbest_scored(piece, 10_000)}


def test_nbest_is_exhaustive_and_exact() -> None:
    model = hello_model()
    paths = all_paths(model, "▁hello")
    # Count the segmentations of "▁hello" into vocabulary pieces by hand-free recursion.
    pieces = {p for p, _ in HELLO_VOCAB}

    def count(s: str) -> int:
        if not s:
            return 1
        return sum(count(s[k:]) for k in range(1, len(s) + 1) if s[:k] in pieces)

    assert len(paths) == count("▁hello")
    for seg, score in paths.items():
        assert score == pytest.approx(sum(dict(HELLO_VOCAB)[p] for p in seg))


# -- sampling -----------------------------------------------------------------------------------


def test_sampling_varies_by_seed_and_is_lossless() -> None:
    seen = set()
    for seed in range(30):
        model = hello_model(alpha=0.1, seed=seed)
        toks = model.tokenize("▁hello▁world")
        assert "".join(values(toks)) == "▁hello▁world"
        seen.add(tuple(values(toks)))
    assert len(seen) > 5
    model = hello_model(alpha=0.1, seed=3)
    first = [values(model.tokenize("▁hello")) for _ in range(10)]
    model.seed(3)
    assert first == [values(model.tokenize("▁hello")) for _ in range(10)]


def test_sampling_with_large_alpha_is_viterbi() -> None:
    model = hello_model(seed=0)
    best = values(model.tokenize("▁world"))
    for nbest_size in (-1, 5):
        for _ in range(100):
            assert values(model.sample("▁world", alpha=100.0, nbest_size=nbest_size)) == best
    assert values(model.sample("▁world", alpha=0.0, nbest_size=1)) == best


def test_sampling_matches_path_probabilities() -> None:
    """FFBS draws each path with probability exp(alpha * score) / Z."""
    model = hello_model(seed=1)
    alpha = 0.5
    paths = all_paths(model, "▁hello")
    z = math.fsum(math.exp(alpha * s) for s in paths.values())
    draws = 4000
    counts = collections.Counter(
        tuple(values(model.sample("▁hello", alpha=alpha))) for _ in range(draws)
    )
    for path, score in paths.items():
        p = math.exp(alpha * score) / z
        sd = math.sqrt(p * (1 - p) / draws)
        assert abs(counts[path] / draws - p) < 5 * sd + 1e-3, path


def test_nbest_sampling_stays_in_nbest() -> None:
    model = hello_model(seed=2)
    top3 = {tuple(values(t)) for t in model.nbest("▁hello", 3)}
    drawn = {tuple(values(model.sample("▁hello", alpha=0.2, nbest_size=3))) for _ in range(200)}
    assert drawn == top3


def test_alpha_option_validation() -> None:
    with pytest.raises(ConfigurationError):
        hello_model(alpha=-1.0)
    model = hello_model(alpha=0.3)
    model.alpha = None
    assert values(model.tokenize("▁hello")) == ["▁he", "llo"]


# -- parity with HF on random models ---------------------------------------------------------

ALPHABET = "abé😀"


@st.composite
def random_unigram(draw: st.DrawFn):
    vocab = [("<unk>", 0.0)]
    for _ in range(draw(st.integers(0, 15))):
        piece = draw(st.text(ALPHABET, min_size=1, max_size=3))
        score = draw(st.floats(-8.0, -0.5, allow_nan=False)) // 0.1 * 0.1
        vocab.append((piece, score))
    byte_fallback = draw(st.booleans())
    if byte_fallback:
        keep = draw(st.sets(st.integers(0, 255), min_size=200))
        vocab += [(f"<0x{b:02X}>", -3.0) for b in sorted(keep)]
    unk_id = draw(st.sampled_from([0, None]))
    return vocab, unk_id, byte_fallback


@SETTINGS
@given(random_unigram(), st.lists(st.text(ALPHABET + "x", min_size=1, max_size=10), max_size=8))
def test_parity_random_models(model_def, pieces: list[str]) -> None:
    vocab, unk_id, byte_fallback = model_def
    model = Unigram(vocab, unk_id, byte_fallback=byte_fallback)
    hf = HFTokenizer(hf_models.Unigram(vocab, unk_id, byte_fallback))
    for piece in pieces:
        try:
            enc = hf.encode(piece)
        except Exception:
            with pytest.raises(VocabularyError):
                model.tokenize(piece)
            continue
        toks = model.tokenize(piece)
        assert [t.id for t in toks] == enc.ids
        assert values(toks) == enc.tokens
        assert [t.offsets for t in toks] == enc.offsets
        assert model.tokenize_ids(piece) == enc.ids


@SETTINGS
@given(st.text(min_size=1, max_size=30))
def test_offsets_within_bounds_and_lossless(text: str) -> None:
    model = hello_model()
    toks = model.tokenize(text)
    assert "".join(values(toks)) == text  # unknown tokens carry their text
    pos = 0
    for t in toks:
        assert t.offsets == (pos, pos + len(t.value))
        pos = t.offsets[1]
    assert pos == len(text)


# -- SentencePiece-trained model ----------------------------------------------------------------


@pytest.fixture(scope="module")
def sp_model():
    spm = pytest.importorskip("sentencepiece")
    std = sysconfig.get_paths()["stdlib"]
    files = sorted(glob.glob(os.path.join(std, "json", "*.py")))
    files += [os.path.join(std, "textwrap.py"), os.path.join(std, "string.py")]
    lines = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines += [line for line in f.read().splitlines() if line.strip()]
    proto = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=proto,
        model_type="unigram",
        vocab_size=500,
        normalization_rule_name="identity",
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_proto=proto.getvalue())
    vocab = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())]
    return sp, vocab


def held_out_words(limit: int = 3000) -> list[str]:
    path = os.path.join(sysconfig.get_paths()["stdlib"], "difflib.py")
    with open(path, encoding="utf-8") as f:
        return sorted(set(f.read().split()))[:limit]


def test_sentencepiece_viterbi_parity(sp_model) -> None:
    sp, vocab = sp_model
    model = Unigram(vocab, sp.unk_id())
    hf = HFTokenizer(hf_models.Unigram(vocab, sp.unk_id(), False))
    for word in held_out_words():
        # SentencePiece adds the "▁" dummy prefix itself; the pipeline's Metaspace does here.
        piece = "▁" + word
        got = values(model.tokenize(piece))
        assert got == sp.encode(word, out_type=str), word
        assert got == hf.encode(piece).tokens


def test_sentencepiece_nbest_parity(sp_model) -> None:
    sp, vocab = sp_model
    model = Unigram(vocab, sp.unk_id())
    scores = dict((p, s) for p, s in vocab)
    for word in held_out_words(300):
        ours = model.nbest_scored("▁" + word, 5)
        theirs = sp.nbest_encode_as_pieces(word, 5)
        their_scores = [math.fsum(scores[p] for p in seg) for seg in theirs]
        assert [s for _, s in ours] == pytest.approx(their_scores, abs=1e-4), word
        # Equal-score paths may come in another order (also across the cut at n): a path
        # whose score no other listed path shares, and which is not the last, must match.
        for k, ((toks, score), seg) in enumerate(zip(ours, theirs, strict=True)):
            tied = sum(1 for s in their_scores if abs(s - score) < 1e-4) > 1
            if not tied and k < len(theirs) - 1:
                assert values(toks) == seg


def test_sentencepiece_sampling_round_trips(sp_model) -> None:
    sp, vocab = sp_model
    model = Unigram(vocab, sp.unk_id(), seed=0)
    for word in held_out_words(200):
        piece = "▁" + word
        assert "".join(values(model.sample(piece, alpha=0.1))) == piece
        assert "".join(values(model.sample(piece, alpha=0.1, nbest_size=4))) == piece


# -- long input ---------------------------------------------------------------------------------


def test_long_run() -> None:
    model = Unigram([("<unk>", 0.0), ("a", -2.0), ("aa", -3.0), ("aaaa", -5.0)], 0)
    piece = "a" * 200_000
    toks = model.tokenize(piece)
    assert "".join(values(toks)) == piece
    assert values(toks) == ["aaaa"] * 50_000
    hf = HFTokenizer(hf_models.Unigram(model.get_pieces(), 0, False))
    assert hf.encode(piece).ids == [t.id for t in toks]


def test_kernel_viterbi_path_shape() -> None:
    trie = kernel.PieceTrie(["a", "ab", "b"])
    assert list(trie.matches("abab", 0)) == [(1, 0), (2, 1)]
    assert list(trie.matches("abab", 3)) == [(4, 2)]
    starts, ids = kernel.viterbi("abab", trie, [-1.0, -1.5, -1.0], -1, -11.0)
    assert (starts, ids) == ([0, 2], [1, 1])


# -- serialization ----------------------------------------------------------------------------


def minimal_tokenizer_json(model_dict: dict) -> str:
    return json.dumps(
        {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": [],
            "normalizer": None,
            "pre_tokenizer": None,
            "post_processor": None,
            "decoder": None,
            "model": model_dict,
        }
    )


@pytest.mark.parametrize(("unk_id", "byte_fallback"), [(0, False), (None, False), (0, True)])
def test_to_dict_matches_hf_serialization(unk_id, byte_fallback) -> None:
    model = Unigram(HELLO_VOCAB, unk_id, byte_fallback=byte_fallback)
    hf = hf_models.Unigram(HELLO_VOCAB, unk_id, byte_fallback)
    expected = json.loads(HFTokenizer(hf).to_str())["model"]
    got = model.to_dict()
    assert json.loads(json.dumps(got)) == expected
    assert list(got) == list(expected)
    loaded = HFTokenizer.from_str(minimal_tokenizer_json(got))
    for piece in ["▁hello", "▁world", "▁hello▁world", "hell"]:
        assert loaded.encode(piece).ids == model.tokenize_ids(piece)
    assert Unigram.from_dict(got).to_dict() == got


def test_sentencepiece_vocab_round_trips_through_hf(sp_model) -> None:
    sp, vocab = sp_model
    model = Unigram(vocab, sp.unk_id())
    loaded = HFTokenizer.from_str(minimal_tokenizer_json(model.to_dict()))
    for word in held_out_words(300):
        assert loaded.encode("▁" + word).ids == model.tokenize_ids("▁" + word)


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ("x", "model"),
        ({"type": "BPE", "vocab": []}, "model.type"),
        ({"unk_id": 0}, "model.vocab"),
        ({"unk_id": 0, "vocab": [["a"]]}, "model.vocab[0]"),
        ({"unk_id": 0, "vocab": [["a", "high"]]}, "model.vocab[0]"),
        ({"unk_id": 3, "vocab": [["a", -1.0]]}, "model.unk_id"),
        ({"unk_id": "0", "vocab": [["a", -1.0]]}, "model.unk_id"),
        ({"unk_id": 0, "vocab": [["a", -1.0]], "byte_fallback": 1}, "model.byte_fallback"),
    ],
)
def test_from_dict_errors(data, where: str) -> None:
    with pytest.raises(FormatError) as info:
        Unigram.from_dict(data, path="tok.json")
    assert info.value.where == where
    assert info.value.path == "tok.json"
