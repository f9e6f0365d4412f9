"""Any ``str`` gives a result or a clear codetok error, never a crash.

Lone surrogates, NUL and control characters, a 1 MB single line, long runs of one
character and mixed scripts, through the real BERT pipeline and a byte-level pipeline.
"""

from __future__ import annotations

import pytest

from codetok import Tokenizer
from codetok import decoders as cd
from codetok import pre_tokenizers as cp
from codetok.errors import CodetokError
from codetok.models import WordLevel

NASTY = [
    "\ud800",
    "a\udfffb\ud83d",
    "\x00\x00nul\x00",
    "\x01\x02\x1b[31mansi\x7f",
    "\ufeffBOM \ufffd replacement \uffff",
    "Ελληνικά Русский עברית العربية हिन्दी ไทย 한국어 日本語",
    "\u202eRTL override\u202c and \u200f marks",
    "👍🏽 🏳️‍🌈 🇺🇳 e\u0301\u0302\u0303",
    "[CLS][SEP][PAD] [UNK]",
]


@pytest.fixture(scope="module")
def bert(bert_dir):
    tok = Tokenizer.from_file(bert_dir / "tokenizer.json")
    tok.no_padding()
    tok.no_truncation()
    return tok


def _byte_level() -> Tokenizer:
    alphabet = cp.ByteLevel.alphabet()
    tok = Tokenizer(
        WordLevel({c: i for i, c in enumerate(alphabet)} | {"<unk>": 256}, "<unk>"),
        pre_tokenizer=cp.Sequence(
            [
                cp.ByteLevel(add_prefix_space=False, use_regex=False),
                cp.Split({"Regex": "."}, "isolated"),
            ]
        ),
        decoder=cd.ByteLevel(),
    )
    return tok


def _check_offsets(text, enc):
    last = 0
    for s, e in enc.offsets:
        assert 0 <= s <= e <= len(text)
        assert s >= last or (s, e) == (0, 0)
        last = max(last, s)


@pytest.mark.parametrize("text", NASTY)
def test_bert_never_crashes(bert, text):
    enc = bert.encode(text)
    _check_offsets(text, enc)
    assert isinstance(bert.decode(enc.ids), str)


@pytest.mark.parametrize("text", NASTY)
def test_byte_level_round_trips_nasty_strings(text):
    tok = _byte_level()
    enc = tok.encode(text)
    assert "<unk>" not in enc.tokens
    assert tok.decode(enc.ids) == text
    _check_offsets(text, enc)


def test_one_megabyte_single_line(bert):
    text = ("lorem ipsum dolor sit amet, " * 40000)[:1_000_000]
    enc = bert.encode(text)
    assert len(enc) > 100_000
    assert enc.offsets[-2][1] <= len(text)


def test_long_run_of_one_character(bert):
    text = "a" * 200_000
    enc = bert.encode(text)
    # WordPiece turns a word longer than max_input_chars_per_word into one [UNK].
    assert enc.tokens == ["[CLS]", "[UNK]", "[SEP]"]
    assert enc.offsets[1] == (0, 200_000)


def test_non_str_input_is_a_clear_error(bert):
    with pytest.raises(CodetokError, match="expected a str"):
        bert.encode(b"bytes are not text")  # type: ignore[arg-type]
    with pytest.raises(CodetokError, match="ints"):
        bert.decode(["1"])  # type: ignore[list-item]
