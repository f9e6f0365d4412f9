"""A CodeBERT / RoBERTa-convention tokenizer built from the real GPT-2 files.

The folder (fixture ``codebert_dir`` in conftest.py) holds what ``microsoft/codebert-base``
ships. ``transformers.AutoTokenizer`` and codetok both load the folder; codetok must
equal its ``__call__`` outputs and its Rust backend's encodings; then codetok's
``save_pretrained`` folder must load in both libraries with identical encodings.
"""

from __future__ import annotations

import pytest
from formats_corpus import assert_same, corpus
from test_parity_bert import compare_call

from codetok.formats.hub import from_pretrained
from codetok.formats.pretrained import save_pretrained

TEXTS = corpus()


@pytest.fixture(scope="module")
def hf(codebert_dir, transformers_mod):
    return transformers_mod.AutoTokenizer.from_pretrained(str(codebert_dir))


@pytest.fixture(scope="module")
def ct(codebert_dir):
    return from_pretrained(codebert_dir)


def test_settings_match_transformers(ct, hf):
    assert type(hf).__name__ == "RobertaTokenizer"
    assert ct.model_max_length == hf.model_max_length
    assert ct.model_input_names == list(hf.model_input_names)
    assert ct.get_vocab() == hf.get_vocab()
    hf_added = {
        i: (str(t), t.lstrip, t.rstrip, t.special) for i, t in hf.added_tokens_decoder.items()
    }
    ct_added = {
        i: (t.content, t.lstrip, t.rstrip, t.special)
        for i, t in ct.get_added_tokens_decoder().items()
    }
    assert ct_added == hf_added


def test_matches_hf_backend(ct, hf):
    assert_same(ct, hf.backend_tokenizer, TEXTS)


def test_call_matches_transformers(ct, hf):
    batch = TEXTS[::3]
    compare_call(ct, hf, batch)
    compare_call(ct, hf, batch, batch[::-1])
    for text in batch:
        ids = hf(text)["input_ids"]
        assert ct.decode(ids) == hf.decode(ids, skip_special_tokens=True)
        assert ct.decode(ids, skip_special_tokens=False) == hf.decode(ids)


def test_save_pretrained_loads_in_both_libraries(ct, hf, tmp_path, transformers_mod, hf_tokenizers):
    out = tmp_path / "saved"
    save_pretrained(ct, out)
    again_hf = transformers_mod.AutoTokenizer.from_pretrained(str(out))
    again_fast = hf_tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    again_ct = from_pretrained(out)
    batch = TEXTS[1::4]
    assert_same(again_ct, again_fast, batch)
    compare_call(again_ct, again_hf, batch, batch[::-1])
    for text in batch:
        assert again_hf(text)["input_ids"] == hf(text)["input_ids"]


def test_pair_type_ids_without_special_tokens(ct, hf):
    """HF's RobertaProcessing zeroes the type ids of both sequences even without special
    tokens; the overflowing windows keep theirs (HF quirk, mirrored)."""
    fast = hf.backend_tokenizer
    h = fast.encode("a b c d e f", "g h i j k l", add_special_tokens=False)
    c = ct.encode("a b c d e f", "g h i j k l", add_special_tokens=False)
    assert c.type_ids == h.type_ids == [0] * len(h.ids)
    fast.enable_truncation(4, stride=1)
    ct.enable_truncation(4, stride=1)
    try:
        h = fast.encode("a b c d e f", "g h i j k l", add_special_tokens=False)
        c = ct.encode("a b c d e f", "g h i j k l", add_special_tokens=False)
    finally:
        fast.no_truncation()
        ct.no_truncation()
    assert [o.ids for o in c.overflowing] == [o.ids for o in h.overflowing]
    assert [o.type_ids for o in c.overflowing] == [o.type_ids for o in h.overflowing]
