"""Normalized added tokens behind a normalizer, in the native WordPiece, Unigram and WordLevel
plans (codetok/_native/plans/wordpiece_pipeline.cpp, unigram_pipeline.cpp, wordlevel_pipeline.cpp):
BERT, a T5-style SentencePiece Unigram and the plain-text tokenizers with tokens added by
``add_tokens``.

HF matches such tokens on the normalized text (their contents normalized too), each stretch
between the raw added tokens on its own; the matched normalized text is the token's string
and its offsets are those of the original chars. Checked against HF ``tokenizers`` (ids,
tokens, offsets) and against codetok's Python pipeline (word ids too).
"""

from __future__ import annotations

import itertools

import pytest
from conftest import encoding_state, python_pipeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok import AddedToken, Tokenizer
from codetok.engine import native as _backend

pytest.importorskip("codetok._core")
pytestmark = pytest.mark.skipif(not _backend.native(), reason="native backend not selected")

#: (content, single_word, lstrip, rstrip, normalized, special)
ADDED = [
    ("NewWord", False, False, False, True, False),
    ("ÉCOLE", False, False, False, True, False),
    ("zebra42", True, False, False, True, False),
    ("hello world", False, True, True, True, False),
    ("中文", False, False, False, True, False),
    ("[RAW]", False, False, False, False, True),
]

TEXTS = [
    "NewWord newword NEWWORD newwordy xnewword",
    "école École ÉCOLE ecole écoles",
    "zebra42 zebra42x xzebra42 (zebra42) zebra42.",
    "  hello world  and hello  world HELLO WORLD",
    "中文 中文字 x中文x",
    "[RAW] [raw] NewWord[RAW]newword",
    "naïve café NewWord\u00a0\u2003newword\tzebra42\n",
    "",
    "   ",
    "\x00NewWord\u0301 e\u0301cole \ufff0NewWord\ufffe",
]


@pytest.fixture(scope="module", params=["bert", "unigram"])
def pair(request, bert_dir, hf_tokenizers, tmp_path_factory):
    if request.param == "bert":
        path = bert_dir / "tokenizer.json"
    else:
        from _sentencepiece_helpers import train_models

        from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

        model = train_models(tmp_path_factory.mktemp("spm_added"))["unigram"]
        path = model.with_suffix(".json")
        tokenizer_from_sentencepiece(model).save(path)
    tok = Tokenizer.from_file(str(path))
    hf = hf_tokenizers.Tokenizer.from_file(str(path))
    for t in (tok, hf):
        t.no_truncation()
        t.no_padding()
    names = ("single_word", "lstrip", "rstrip", "normalized", "special")
    tok.add_tokens([AddedToken(row[0], *row[1:]) for row in ADDED])
    hf.add_tokens([hf_tokenizers.AddedToken(row[0], **dict(zip(names, row[1:]))) for row in ADDED])
    assert tok.engine == "native", tok.engine_reason
    return tok, hf


def python_encode(tok: Tokenizer, text: str):
    with python_pipeline():
        return tok.encode(text)


def check(tok, hf, text: str) -> None:
    got = tok.encode(text)
    want = hf.encode(text)
    assert got.ids == want.ids, text
    assert got.tokens == want.tokens, text
    assert got.offsets == [tuple(o) for o in want.offsets], text
    assert encoding_state(got) == encoding_state(python_encode(tok, text)), text
    with python_pipeline():
        ordinary = tok.encode_ordinary(text)  # [RAW] read as text
    assert tok.encode_ordinary(text) == ordinary, text


@pytest.mark.parametrize("text", TEXTS)
def test_added_tokens_on_normalized_text_match_hf(pair, text):
    check(*pair, text)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                "NewWord",
                "newword",
                "ÉCOLE",
                "école",
                "zebra42",
                "hello world",
                "hello",
                "中文",
                "[RAW]",
                " ",
                "  ",
                "\t",
                "x",
                "42",
                "é",
                "\u0301",
                "中",
                ".",
                "\u00a0",
                "Ü",
            ]
        ),
        max_size=12,
    )
)
def test_added_tokens_on_normalized_text_match_hf_on_mixtures(pair, parts):
    check(*pair, "".join(parts))


# Added contents that exercise the matcher's first-two-chars filter: one-char contents,
# ASCII pairs, a non-ASCII second char, non-ASCII first chars, shared prefixes.
CONTENT_CHARS = ["a", "b", "n", " ", ".", "é", "中", "\u0301"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(CONTENT_CHARS), min_size=1, max_size=3).map("".join),
        min_size=1,
        max_size=5,
        unique=True,
    ),
    st.lists(st.sampled_from(CONTENT_CHARS + ["x", "B", "N"]), max_size=20).map("".join),
    st.booleans(),
)
def test_random_added_contents_match_the_python_pipeline(contents, text, normalized):
    from codetok.models import WordLevel, WordPiece
    from codetok.normalizers import Lowercase
    from codetok.pre_tokenizers import BertPreTokenizer, WhitespaceSplit

    plain = Tokenizer(WordLevel({"[UNK]": 0}, "[UNK]"), pre_tokenizer=WhitespaceSplit())
    vocab = {"[UNK]": 0, "a": 1, "b": 2, "n": 3, "##a": 4, "##b": 5, "x": 6}
    lowered = Tokenizer(
        WordPiece(vocab), normalizer=Lowercase(), pre_tokenizer=BertPreTokenizer()
    )  # normalized contents are matched on the lowercased text
    for tok in (plain, lowered):
        tok.add_tokens([AddedToken(c, normalized=normalized) for c in contents])
        assert tok.engine == "native", tok.engine_reason
        assert encoding_state(tok.encode(text)) == encoding_state(python_encode(tok, text))


@pytest.mark.parametrize("config", list(itertools.product([True, False], repeat=4)))
def test_every_bert_normalizer_config_with_normalized_added_tokens(config):
    from codetok.models import WordPiece
    from codetok.normalizers import BertNormalizer
    from codetok.pre_tokenizers import BertPreTokenizer

    vocab = {"[UNK]": 0, "a": 1, "b": 2, "##a": 3, "x": 4, "tab": 5}
    tok = Tokenizer(
        WordPiece(vocab), normalizer=BertNormalizer(*config), pre_tokenizer=BertPreTokenizer()
    )
    tok.add_tokens(["AB", "a\tb", "Tab", "x\x00"])
    assert tok.engine == "native", tok.engine_reason
    for text in ["AB ab a\tb A\tB Tab tab x\x00 x\x01y", "ÀB ab", "\tAB\r\n", ""]:
        assert encoding_state(tok.encode(text)) == encoding_state(python_encode(tok, text))


def _plain_text_tokenizers():
    from codetok.text import byte_tokenizer, char_tokenizer, whitespace_tokenizer

    corpus = ["cafe\u0301 ABC xyz é 中文 👍\U0001f3fd"]
    return {
        "chars": lambda: char_tokenizer(corpus=corpus),
        "graphemes": lambda: char_tokenizer(corpus=corpus, graphemes=True),
        "bytes": lambda: byte_tokenizer(),
        "words": lambda: whitespace_tokenizer(corpus=corpus),
    }


@pytest.mark.parametrize("kind", ["chars", "graphemes", "bytes", "words"])
@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(["Café", "cafe\u0301", "CAFÉ", "xy", "XY", " ", "é", "中文", "👍", "a"]),
        max_size=10,
    ).map("".join)
)
def test_plain_text_tokenizers_behind_a_normalizer_with_added_tokens(kind, text):
    from codetok.normalizers import NFC, Lowercase
    from codetok.normalizers import Sequence as NormSequence

    tok = _plain_text_tokenizers()[kind]()
    tok.normalizer = NormSequence([NFC(), Lowercase()])
    tok.add_tokens(["Café", "xy", AddedToken("中文", single_word=True)])
    assert tok.engine == "native", tok.engine_reason
    assert encoding_state(tok.encode(text)) == encoding_state(python_encode(tok, text))


@pytest.mark.parametrize("kind", ["chars", "graphemes", "bytes", "words"])
def test_plain_text_tokenizers_with_added_tokens_match_hf(hf_tokenizers, kind):
    from codetok.normalizers import NFC, Lowercase
    from codetok.normalizers import Sequence as NormSequence

    tok = _plain_text_tokenizers()[kind]()
    tok.normalizer = NormSequence([NFC(), Lowercase()])
    tok.add_tokens(["Café", "xy"])
    hf = hf_tokenizers.Tokenizer.from_str(tok.to_str())
    for text in ["CAFE\u0301 café xyz XY abc", "xyxy Cafe\u0301 中文", ""]:
        got, want = tok.encode(text), hf.encode(text)
        assert (got.ids, got.tokens) == (want.ids, want.tokens)
        assert got.offsets == [tuple(o) for o in want.offsets]
