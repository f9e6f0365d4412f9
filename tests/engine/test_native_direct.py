"""Texts the byte and char tokenizers encode straight into their native result (one token
per UTF-8 byte or per char, counted first: no added token in the text, no normalizer that
changes it) give the encoding the Python pipeline gives, in every string width, with and
without the unknown token and added tokens, short and long (a long text is encoded without
the GIL)."""

from __future__ import annotations

import pytest
from conftest import native_equals_python, python_pipeline
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.text import byte_tokenizer, char_tokenizer

TEXTS = st.lists(
    st.characters(codec="utf-8").map(str)
    | st.sampled_from(["a", " ", "\n", "é", "ÿ", "€", "ß", "e\u0301", "\U0001f600", "\x00"])
    | st.sampled_from(["<eos>", "<pad>", "é€", "<eos"]),
    max_size=40,
).map("".join)
LONG = [
    "ab" * 3000,
    "aé" * 2500,
    "a€c" * 2000,
    "x\U0001f600" * 2100,
    "plain ascii text\n" * 400,
    "ab" * 3000 + "<eos>" + "é€" * 10,
]


def tokenizers():
    corpus = ["abc é€ ßx \U0001f600\n"]
    return {
        "bytes": byte_tokenizer(),
        "chars, NFC": char_tokenizer(corpus=corpus),
        "chars, no normalizer": char_tokenizer(corpus=corpus, normalizer=None),
        "chars, no unknown token": char_tokenizer(
            corpus=corpus + [chr(c) for c in range(0x20, 0x250)], normalizer=None, unk_token=None
        ),
        "bytes, special tokens": byte_tokenizer(["<eos>", "<pad>"]),
        "chars, special tokens": char_tokenizer(corpus=corpus, special_tokens=["<eos>", "é€"]),
    }


TOKENIZERS = tokenizers()


def same_as_python(tok, text: str) -> None:
    with python_pipeline():
        try:
            tok.encode(text)
        except Exception as e:  # the Python pipeline refuses: so must the native one
            with pytest.raises(type(e)):
                tok.encode(text)
            return
    native_equals_python(tok, text)


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


def _composition_partners() -> list[str]:
    """Pairs NFC composes where the later char is a starter (class 0: Indic vowel signs,
    Hangul jamo), the cases a check by combining class alone would miss."""
    import unicodedata

    pairs = []
    for c in range(0x300, 0x30000):
        d = unicodedata.decomposition(chr(c))
        if not d or d.startswith("<"):
            continue
        parts = [chr(int(x, 16)) for x in d.split()]
        if len(parts) == 2 and unicodedata.combining(parts[1]) == 0:
            pairs.append("".join(parts))
    return pairs + ["\u1100\u1161", "\uac00\u11a8", "\u1100\u1161\u11a8"]


PARTNERS = _composition_partners()


@pytest.mark.parametrize(
    "text",
    [
        "Le café déjà vu — naïve façade. 中文字符测试，日本語のテキスト。Ελληνικά. Русский.\n"
        * 200,
        "한국어 텍스트 " * 300,
        "mixed e\u0301 and \u00e9 " * 300,
        "".join(f"x{p}y{p[0]} {p[1]}" for p in PARTNERS) * 3,
    ],
    ids=["scripts", "hangul", "combining", "partners"],
)
def test_nfc_of_texts_it_leaves_alone_and_texts_it_changes(text: str) -> None:
    """A text NFC leaves as it is skips the normalizer (and is encoded in place); one holding
    a char that composes with the char before it (a mark, or a class-0 partner) does not."""
    for name in ("chars, NFC", "chars, no normalizer"):
        same_as_python(TOKENIZERS[name], text)
    assert len(PARTNERS) > 20
