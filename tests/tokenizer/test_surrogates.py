"""Lone surrogates (and surrogate pairs) in a str, per kind of tokenizer file.

- ``.tiktoken`` files (cl100k, and o200k's pattern on the same ranks): the ids are
  tiktoken's own, which reads such a str through UTF-16 with ``errors="replace"`` (a pair
  becomes its character, any other surrogate U+FFFD) (``Tokenizer.surrogates ==
  "replace"``); offsets still index the caller's str. Checked against ``tiktoken`` itself
  for every entry point (encode, encode_ordinary, batches, flat batches, ``__call__``),
  natively and through the Python pipeline.
- HF byte-level files (a GPT-2 ``tokenizer.json``): HF ``tokenizers`` refuses such a str
  (``TypeError``); codetok keeps the surrogate (``"keep"``): the model sees the three
  bytes ``surrogatepass`` writes, and ``decode`` gives the str back, native = Python.
"""

from __future__ import annotations

import pickle

import pytest
from conftest import _package_file, encoding_state, python_pipeline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codetok import Tokenizer
from codetok.errors import ConfigurationError, FormatError
from codetok.formats.tiktoken_file import ENCODINGS, O200K_PATTERN, tokenizer_from_tiktoken
from codetok.tokenizer.offsets import replace_surrogates
from codetok.unicode.byte_alphabet import BYTE_TO_CHAR

TEXTS = [
    "a\ud800b",
    "\ud800",
    "\udfff",
    "x \udc80 y",
    "\udfff\ud800",  # low then high: two lone surrogates
    "\ud800\ud800\udc00",  # a lone high, then a pair
    "\ud83d\ude00 smile",  # a pair: tiktoken joins it into U+1F600
    "hi \ud83d\ude00\ud83d",  # a pair, then a lone high at the end
    "é\ud800é 123\ud800456",
    "  \ud800  \n\n\udbff",
    "don't\ud800's",
    "\ud840\udc00abc",  # a pair spelling a letter (U+20000), which the pattern joins
    "<|endoftext|>\ud800",
    "plain text, no surrogate",
]

_BYTE = {c: b for b, c in enumerate(BYTE_TO_CHAR)}

# Saving cl100k writes and parses a 6 MB JSON: no collector passes while the tests run.
pytestmark = pytest.mark.usefixtures("gc_paused")

PIECES = st.sampled_from(
    ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00", "\ud840", "a", " ", "1", "'s"]
)
MIXED = st.lists(PIECES | st.characters(), max_size=20).map("".join)


@pytest.fixture(scope="module")
def cl100k_path():
    return _package_file("tiktoken_ext", "data", "cl100k_base.tiktoken")


@pytest.fixture(scope="module")
def tiktoken_ranks(cl100k_path):
    """tiktoken's own reading of the cl100k ranks (read once for both patterns)."""
    pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    return load_tiktoken_bpe(str(cl100k_path))


def _tiktoken(ranks, pattern):
    tiktoken = pytest.importorskip("tiktoken")
    return tiktoken.Encoding(
        "offline",
        pat_str=pattern,
        mergeable_ranks=ranks,
        special_tokens=ENCODINGS["cl100k_base"]["special_tokens"],
    )


@pytest.fixture(scope="module", params=["cl100k", "o200k_pattern"])
def pair(request, cl100k_path, tiktoken_ranks):
    """(codetok, tiktoken) on the same ranks, with cl100k's or o200k's split pattern.

    codetok's cl100k is the session's (conftest ``cl100k``: ``tokenizer_from_tiktoken`` of
    the same file), which these tests only read.
    """
    if request.param == "cl100k":
        pattern = ENCODINGS["cl100k_base"]["pat_str"]
        ct = request.getfixturevalue("cl100k")
    else:
        pattern = O200K_PATTERN
        ct = tokenizer_from_tiktoken(
            cl100k_path,
            pat_str=O200K_PATTERN,
            special_tokens=ENCODINGS["cl100k_base"]["special_tokens"],
        )
    assert ct.surrogates == "replace"
    return ct, _tiktoken(tiktoken_ranks, pattern)


# ------------------------------------------------------------------ the rewrite itself


@settings(max_examples=500, deadline=None)
@given(text=MIXED)
def test_rewrite_is_tiktokens(text):
    got = replace_surrogates(text)
    if got is None:
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        return
    fixed, starts = got
    assert fixed == text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if starts is None:
        assert len(fixed) == len(text)
        return
    assert len(starts) == len(fixed) + 1 and starts[-1] == len(text)
    for k, c in enumerate(fixed):
        # Each rewritten char comes from text[starts[k]:starts[k + 1]] read as UTF-16.
        part = text[starts[k] : starts[k + 1]]
        assert part.encode("utf-16", "surrogatepass").decode("utf-16", "replace") == c


# ------------------------------------------------------------------ tiktoken files


@pytest.mark.parametrize("native", [True, False], ids=["native", "python"])
def test_ids_match_tiktoken(pair, native):
    ct, enc = pair
    want = [enc.encode(t, allowed_special="all") for t in TEXTS]
    want_ordinary = [enc.encode_ordinary(t) for t in TEXTS]
    if native:
        assert ct.engine == "native"
        _check_ids(ct, want, want_ordinary)
    else:
        with python_pipeline():
            assert ct.engine == "python"
            _check_ids(ct, want, want_ordinary)


def _check_ids(ct, want, want_ordinary):
    assert [ct.encode(t).ids for t in TEXTS] == want
    assert [ct.encode(t, add_special_tokens=False).ids for t in TEXTS] == want
    assert [ct.encode_ordinary(t) for t in TEXTS] == want_ordinary
    assert [e.ids for e in ct.encode_batch(TEXTS, num_threads=2)] == want
    assert ct.encode_ordinary_batch(TEXTS, num_threads=2) == want_ordinary
    flat, bounds = ct.encode_ordinary_batch(TEXTS, flat=True)
    assert [flat[a:b].tolist() for a, b in zip(bounds[:-1], bounds[1:])] == want_ordinary
    assert ct(TEXTS)["input_ids"] == want
    same = [t for t in TEXTS if len(want[TEXTS.index(t)]) == len(want[0])]
    assert ct(same, return_tensors="np")["input_ids"].tolist() == [
        want[TEXTS.index(t)] for t in same
    ]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=MIXED)
def test_any_text_matches_tiktoken(pair, text):
    ct, enc = pair
    assert ct.encode_ordinary(text) == enc.encode_ordinary(text)
    native = ct.encode(text)
    with python_pipeline():
        reference = ct.encode(text)
    assert encoding_state(native) == encoding_state(reference)
    assert native.ids == enc.encode(text, allowed_special="all")


def test_offsets_index_the_callers_str(pair):
    ct, _ = pair
    text = "x\ud83d\ude00y \ud800!"
    enc = ct.encode(text)
    # U+1F600 is the two chars 1-3 of the caller's str; both its byte tokens point there.
    # U+FFFD stands for the one char 5 (with the space before it, as cl100k splits).
    assert enc.ids == ct.encode("x\U0001f600y \ufffd!").ids
    assert [o for o in enc.offsets if o[0] < 3 and o[1] > 1] == [(1, 3), (1, 3)]
    assert [o for o in enc.offsets if o[0] <= 5 < o[1]] == [(4, 6)]
    assert enc.offsets[0] == (0, 1) and enc.offsets[-1] == (6, 7)
    with python_pipeline():
        assert ct.encode(text).offsets == enc.offsets


def test_decode_gives_the_replacement(pair):
    ct, enc = pair
    for t in TEXTS:
        ids = ct.encode(t).ids
        assert ct.decode(ids, skip_special_tokens=False) == enc.decode(ids)


def test_the_policy_is_saved_with_settings(cl100k, tmp_path):
    ct = cl100k  # tokenizer_from_tiktoken of the real file (conftest), not changed here
    assert Tokenizer.from_str(ct.to_str(settings=True)).surrogates == "replace"
    assert pickle.loads(pickle.dumps(ct)).encode("a\ud800").ids == ct.encode("a\ud800").ids
    ct.save_binary(tmp_path / "cl100k.ctk")
    assert Tokenizer.from_file(tmp_path / "cl100k.ctk").surrogates == "replace"
    plain = Tokenizer.from_str(ct.to_str())  # a tokenizer.json has no such field
    assert plain.surrogates == "keep"
    assert plain.encode("a\ud800").ids != ct.encode("a\ud800").ids


def test_setting_the_policy_recompiles(cl100k_path):
    ct = tokenizer_from_tiktoken(cl100k_path)
    replaced = ct.encode("a\ud800b").ids
    ct.surrogates = "keep"
    kept = ct.encode("a\ud800b").ids
    assert kept != replaced
    with python_pipeline():
        assert ct.encode("a\ud800b").ids == kept
    ct.surrogates = "replace"
    assert ct.encode("a\ud800b").ids == replaced
    with pytest.raises(ConfigurationError, match="'keep'.*'replace'"):
        ct.surrogates = "ignore"


def test_a_bad_saved_policy_is_a_format_error(cl100k):
    import json

    data = json.loads(cl100k.to_str(settings=True))
    data["codetok"]["surrogates"] = "drop"
    with pytest.raises(FormatError, match="codetok.surrogates"):
        Tokenizer.from_str(json.dumps(data))


# ------------------------------------------------------------------ HF byte-level files


@pytest.fixture(scope="module")
def gpt2_json(gpt2_files, hf_tokenizers):
    vocab, merges = gpt2_files
    hf = hf_tokenizers.Tokenizer(hf_tokenizers.models.BPE.from_file(str(vocab), str(merges)))
    hf.pre_tokenizer = hf_tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = hf_tokenizers.decoders.ByteLevel()
    hf.post_processor = hf_tokenizers.processors.ByteLevel(trim_offsets=True)
    return hf, hf.to_str()


@pytest.fixture(scope="module")
def gpt2_json_ct(gpt2_json):
    """codetok's reading of that ``tokenizer.json`` (read once; the tests only encode)."""
    return Tokenizer.from_str(gpt2_json[1])


@pytest.mark.parametrize("text", TEXTS)
def test_gpt2_json_keeps_surrogates(gpt2_json, gpt2_json_ct, text):
    hf, _ = gpt2_json
    ct = gpt2_json_ct
    assert ct.surrogates == "keep" and ct.engine == "native"
    native = ct.encode(text)
    with python_pipeline():
        reference = ct.encode(text)
    assert encoding_state(native) == encoding_state(reference)
    assert ct.decode(native.ids) == text  # lossless: the surrogates come back
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        with pytest.raises(TypeError):
            hf.encode(text)  # HF cannot take the str at all
        # What the model saw: the bytes surrogatepass writes.
        assert b"".join(bytes(_BYTE[c] for c in t) for t in native.tokens) == text.encode(
            "utf-8", "surrogatepass"
        )
    else:
        assert native.ids == hf.encode(text).ids
