"""Byte-level tokenizer: ids are UTF-8 bytes, lossless for any str and any bytes."""

from __future__ import annotations

import pytest
from conftest import native_equals_python
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok import Tokenizer, normalizers
from codetok.errors import VocabularyError
from codetok.text import ByteTokenizer, byte_tokenizer

ANY_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40)


@pytest.mark.parametrize(
    "text, ids",
    [
        ("", []),
        ("hi", [104, 105]),
        ("é", [0xC3, 0xA9]),
        ("€", [0xE2, 0x82, 0xAC]),
        ("😀", [0xF0, 0x9F, 0x98, 0x80]),
        ("\x00\n", [0, 10]),
        ("\ud800", [0xED, 0xA0, 0x80]),  # lone surrogate, surrogatepass
        ("\ud83d\ude00", [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]),  # two lone surrogates
    ],
)
def test_ids_are_utf8_bytes(text, ids):
    tok = byte_tokenizer()
    enc = tok.encode(text)
    assert enc.ids == ids
    assert tok.decode(enc.ids) == text


def test_vocab_and_specials():
    tok = byte_tokenizer(["<s>", "</s>"])
    assert tok.get_vocab_size() == 258
    assert tok.token_to_id("<s>") == 256 and tok.token_to_id("</s>") == 257
    enc = tok.encode("<s>a</s>")
    assert enc.ids == [256, 97, 257]
    assert tok.decode(enc.ids) == "a"
    assert tok.decode(enc.ids, skip_special_tokens=False) == "<s>a</s>"


def test_offsets_are_those_of_the_source_character():
    enc = byte_tokenizer().encode("aé€")
    assert enc.offsets == [(0, 1), (1, 2), (1, 2), (2, 3), (2, 3), (2, 3)]


def test_encode_and_decode_bytes():
    tok = byte_tokenizer(["<eos>"])
    data = b"\xff\x00abc\xc3"
    enc = tok.encode_bytes(data)
    assert enc.ids == list(data)
    assert enc.offsets == [(i, i + 1) for i in range(len(data))]
    assert tok.decode_bytes(enc.ids) == data
    assert tok.decode_bytes([*enc.ids, 256], skip_special_tokens=False) == data + b"<eos>"
    with pytest.raises(VocabularyError, match="id 999"):
        tok.decode_bytes([999])
    with pytest.raises(VocabularyError, match="use encode"):
        tok.encode_bytes("text")  # type: ignore[arg-type]


def test_hf_tokenizers_agree(hf_tokenizers, samples):
    tok = byte_tokenizer(["<eos>"])
    hf = hf_tokenizers.Tokenizer.from_str(tok.to_str())
    for text in [*samples, "end<eos>"]:
        a, b = hf.encode(text), tok.encode(text)
        assert a.ids == b.ids
        assert a.offsets == b.offsets
        assert hf.decode(a.ids) == tok.decode(b.ids) == text.replace("<eos>", "")


def test_save_load_keeps_class(tmp_path):
    tok = byte_tokenizer(["<eos>"])
    path = tmp_path / "tokenizer.json"
    tok.save(path)
    again = ByteTokenizer.from_file(path)
    assert isinstance(again, ByteTokenizer)
    assert again.decode_bytes(again.encode_bytes(b"\x80x").ids) == b"\x80x"
    plain = Tokenizer.from_file(path)
    assert plain.encode("é<eos>").ids == [0xC3, 0xA9, 256]


def test_long_single_line():
    tok = byte_tokenizer()
    text = "ab€" * 100_000
    enc = tok.encode(text)
    assert len(enc.ids) == 500_000
    assert tok.decode(enc.ids) == text


@settings(max_examples=200, deadline=None)
@given(ANY_TEXT)
def test_round_trip_any_string(text):
    tok = byte_tokenizer()
    enc = tok.encode(text)
    assert enc.ids == list(text.encode("utf-8", "surrogatepass"))
    assert tok.decode(enc.ids) == text
    prev = 0
    for s, e in enc.offsets:
        assert 0 <= s < e <= len(text) and s >= prev
        prev = s


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64))
def test_round_trip_any_bytes(data):
    tok = byte_tokenizer()
    assert tok.decode_bytes(tok.encode_bytes(data).ids) == data


@settings(max_examples=100, deadline=None)
@given(st.lists(ANY_TEXT, max_size=4))
def test_batch_and_save_load(texts):
    tok = byte_tokenizer(["<pad>"])
    assert [e.ids for e in tok.encode_batch(texts)] == [tok.encode(t).ids for t in texts]
    loaded = Tokenizer.from_str(tok.to_str())
    for t in texts:
        a, b = loaded.encode(t), tok.encode(t)
        assert (a.ids, a.offsets) == (b.ids, b.offsets)
        assert loaded.decode(a.ids) == t


NORMALIZERS = {
    "nfc": lambda: normalizers.NFC(),
    "nfkc": lambda: normalizers.NFKC(),
    "nfd": lambda: normalizers.NFD(),
    "nfd_lower": lambda: normalizers.Sequence([normalizers.NFD(), normalizers.Lowercase()]),
}
MIXED = st.lists(
    st.sampled_from(
        [
            "e",
            "\u0301",
            "\u0308",
            "ﬁ",
            "É",
            "Ａ",
            "\u1100",
            "\u1161",
            "\u11a8",
            "한",
            "<eos>",
            " ",
            "\n",
            "\x00",
            "\ud800",
            "👍",
            "\U0001f3fd",
            "ß",
            "İ",
        ]
    ),
    max_size=16,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(MIXED, st.sampled_from(sorted(NORMALIZERS)))
def test_bytes_behind_a_normalizer_run_natively_as_the_python_pipeline(text, name):
    tok = byte_tokenizer(["<eos>"])
    tok.normalizer = NORMALIZERS[name]()
    native_equals_python(tok, text)


@pytest.mark.parametrize("name", sorted(NORMALIZERS))
def test_bytes_behind_a_normalizer_match_hf(hf_tokenizers, name):
    tok = byte_tokenizer(["<eos>"])
    tok.normalizer = NORMALIZERS[name]()
    hf = hf_tokenizers.Tokenizer.from_str(tok.to_str())
    for text in ["e\u0301x", "ﬁ É<eos>ü\u0308", "Ａ\u1100\u1161\u11a8한 İß 👍\U0001f3fd"]:
        got, want = tok.encode(text), hf.encode(text)
        assert got.ids == want.ids
        assert got.offsets == [tuple(o) for o in want.offsets]
