"""Texts the byte and char tokenizers encode straight into their native result (one token
per UTF-8 byte or per char, counted first: no added token to look for, no normalizer that
changes the text) give the encoding the Python pipeline gives, in every string width, with
and without the unknown token, short and long (a long text is encoded without the GIL)."""

from __future__ import annotations

import pytest
from conftest import encoding_state, python_pipeline
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.text import byte_tokenizer, char_tokenizer

TEXTS = st.lists(
    st.characters(codec="utf-8").map(str)
    | st.sampled_from(["a", " ", "\n", "é", "ÿ", "€", "ß", "e\u0301", "\U0001f600", "\x00"]),
    max_size=40,
).map("".join)
LONG = ["ab" * 3000, "aé" * 2500, "a€c" * 2000, "x\U0001f600" * 2100, "plain ascii text\n" * 400]


def tokenizers():
    corpus = ["abc é€ ßx \U0001f600\n"]
    return {
        "bytes": byte_tokenizer(),
        "chars, NFC": char_tokenizer(corpus=corpus),
        "chars, no normalizer": char_tokenizer(corpus=corpus, normalizer=None),
        "chars, no unknown token": char_tokenizer(
            corpus=corpus + [chr(c) for c in range(0x20, 0x250)], normalizer=None, unk_token=None
        ),
    }


TOKENIZERS = tokenizers()


def same_as_python(tok, text: str) -> None:
    with python_pipeline():
        try:
            want = encoding_state(tok.encode(text))
        except Exception as e:  # the Python pipeline refuses: so must the native one
            with pytest.raises(type(e)):
                tok.encode(text)
            return
    assert encoding_state(tok.encode(text)) == want


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
def test_plans_run_natively(name: str) -> None:
    assert TOKENIZERS[name].engine == "native", TOKENIZERS[name].engine_reason


@settings(max_examples=150, deadline=None)
@given(text=TEXTS, name=st.sampled_from(sorted(TOKENIZERS)))
def test_short_texts(text: str, name: str) -> None:
    same_as_python(TOKENIZERS[name], text)


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@pytest.mark.parametrize("text", ["", *LONG], ids=lambda t: f"{len(t)} chars")
def test_empty_and_long_texts(name: str, text: str) -> None:
    same_as_python(TOKENIZERS[name], text)


def test_unknown_chars_without_an_unknown_token_still_refused() -> None:
    tok = TOKENIZERS["chars, no unknown token"]
    text = "ab" * 3000 + "\u4e00"
    with python_pipeline(), pytest.raises(Exception) as want:
        tok.encode(text)
    with pytest.raises(want.type):
        tok.encode(text)


def test_templates_and_lengths_around_the_result() -> None:
    from codetok.processors import TemplateProcessing

    tok = char_tokenizer(corpus=["abc"], special_tokens=["<s>"], normalizer=None)
    tok.post_processor = TemplateProcessing(
        single="<s> $A <s>", special_tokens=[("<s>", tok.token_to_id("<s>"))]
    )
    tok.enable_truncation(5)
    for text in ["abcabc" * 1000, "ab", ""]:
        same_as_python(tok, text)
        assert tok.encode(text).ids_array.tolist() == tok.encode(text).ids
