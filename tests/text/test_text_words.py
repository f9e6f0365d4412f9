"""Rule-based words: Penn Treebank clitics, URLs, e-mails and numbers, offsets, save/load."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import codetok.text  # noqa: F401  (registers codetok.Words)
from codetok import Tokenizer
from codetok.pre_tokenizers import pre_tokenizer_from_dict
from codetok.text import Words, words_tokenizer

WHITE = regex.compile(r"\s*")

# (text, expected pieces): the Penn Treebank clitic rules and the kept-whole classes.
KNOWN = [
    ("can't", ["ca", "n't"]),
    ("won't", ["wo", "n't"]),
    ("don't isn't ain't", ["do", "n't", "is", "n't", "ai", "n't"]),
    ("CAN'T Won't", ["CA", "N'T", "Wo", "n't"]),
    ("they're", ["they", "'re"]),
    ("I'm", ["I", "'m"]),
    ("she's he'll we've you'd", ["she", "'s", "he", "'ll", "we", "'ve", "you", "'d"]),
    ("they\u2019re can\u2019t", ["they", "\u2019re", "ca", "n\u2019t"]),
    ("I'M HE'LL", ["I", "'M", "HE", "'LL"]),
    (
        "cannot gonna gotta wanna gimme lemme",
        ["can", "not", "gon", "na", "got", "ta", "wan", "na", "gim", "me", "lem", "me"],
    ),
    ("dogs' bones", ["dogs", "'", "bones"]),
    ("O'Neil o'clock", ["O'Neil", "o'clock"]),
    ("'quoted'", ["'", "quoted", "'"]),
    ('"double"', ['"', "double", '"']),
    ("Hello, world!", ["Hello", ",", "world", "!"]),
    ("well-known", ["well-known"]),
    ("wait... what--now", ["wait", "...", "what", "--", "now"]),
    ("U.S. e.g. Mr. Smith", ["U.S.", "e.g.", "Mr", ".", "Smith"]),
    ("__init__ snake_case", ["__init__", "snake_case"]),
    # numbers
    (
        "1,000,000 3.14 .5 -2 +3.5 1e-5 6.02E23",
        ["1,000,000", "3.14", ".5", "-2", "+3.5", "1e-5", "6.02E23"],
    ),
    ("3-4 12,34 1,0000", ["3", "-", "4", "12", ",", "34", "1", ",", "0000"]),
    ("$3.50. 50%", ["$", "3.50", ".", "50", "%"]),
    ("(-1) [+2]", ["(", "-1", ")", "[", "+2", "]"]),
    ("3rd 10am v1.2", ["3rd", "10am", "v1", ".", "2"]),
    ("a-1", ["a-1"]),
    # URLs and e-mails
    ("see https://example.com/a?b=1&c=2.", ["see", "https://example.com/a?b=1&c=2", "."]),
    ("(http://x.org/path)", ["(", "http://x.org/path", ")"]),
    (
        "https://en.wikipedia.org/wiki/Foo_(bar), ok",
        ["https://en.wikipedia.org/wiki/Foo_(bar)", ",", "ok"],
    ),
    (
        "www.python.org! ftp://files.host.net/x.tar.gz",
        ["www.python.org", "!", "ftp://files.host.net/x.tar.gz"],
    ),
    ("mail john.doe+tag@mail.example.co.uk.", ["mail", "john.doe+tag@mail.example.co.uk", "."]),
    ("<a_b-c@d-e.org>", ["<", "a_b-c@d-e.org", ">"]),
    # other scripts and symbols
    ("naïve café — déjà", ["naïve", "café", "—", "déjà"]),
    ("日本語 テキスト", ["日本語", "テキスト"]),
    ("x 👍🏽 y", ["x", "👍", "🏽", "y"]),
    ("", []),
    ("   \n\t ", []),
]


@pytest.mark.parametrize("text, expected", KNOWN)
def test_known_answers(text, expected):
    pieces = Words().pre_tokenize_str(text)
    assert [p for p, _ in pieces] == expected
    assert all(text[s:e] == p for p, (s, e) in pieces)


def test_split_hyphens():
    assert [p for p, _ in Words(split_hyphens=True).pre_tokenize_str("well-known")] == [
        "well",
        "-",
        "known",
    ]


def test_serializes_under_codetok_name():
    w = Words(split_hyphens=True)
    d = w.to_dict()
    assert d == {"type": "codetok.Words", "split_hyphens": True}
    assert pre_tokenizer_from_dict(d) == w


def test_tokenizer_round_trip_and_offsets():
    tok = words_tokenizer(corpus=["I can't go.", "I can go."])
    enc = tok.encode("I can't!")
    assert enc.tokens == ["I", "ca", "n't", "[UNK]"]
    assert enc.offsets == [(0, 1), (2, 4), (4, 7), (7, 8)]
    assert tok.decode(enc.ids) == "I ca n't [UNK]"
    assert (
        tok.decode(tok.encode("I can't go.").ids, clean_up_tokenization_spaces=True)
        == "I can't go."
    )
    loaded = Tokenizer.from_str(tok.to_str())
    assert isinstance(loaded.pre_tokenizer, Words)
    assert loaded.encode("I can't!").ids == enc.ids


def test_vocab_min_frequency():
    tok = words_tokenizer(corpus=["it's it's it is"], min_frequency=2)
    assert tok.get_vocab() == {"[UNK]": 0, "it": 1, "'s": 2}


def test_linear_time_on_long_inputs():
    w = Words()
    assert len(w.pre_tokenize_str("a" * 200_000)) == 1
    assert len(w.pre_tokenize_str("http://" + "a" * 100_000 + " x")) == 2
    assert len(w.pre_tokenize_str("1" * 100_000)) == 1


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab1.,'’-@:/ \n$nNtT()é\u0301")), max_size=40)
    | st.text(max_size=30)
)
def test_pieces_are_exact_non_overlapping_and_cover_non_space(text):
    pieces = Words().pre_tokenize_str(text)
    pos = 0
    for p, (s, e) in pieces:
        assert 0 <= pos <= s < e <= len(text)
        assert text[s:e] == p
        assert WHITE.fullmatch(text[pos:s])
        pos = e
    assert WHITE.fullmatch(text[pos:])
