"""Folder dispatch (``tokenizer_class``), ``from_pretrained`` (folder, fake HF cache, a
stubbed Hub) and ``save_pretrained`` round trips through ``transformers`` and HF
``tokenizers``. Never touches the network."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from formats_corpus import PROSE, assert_same, code_samples

from codetok.errors import ConfigurationError, FormatError, NotFoundError
from codetok.formats import hub
from codetok.formats.hub import cached_snapshot, from_pretrained
from codetok.formats.pretrained import load_pretrained_dir, save_pretrained, tokenizer_from_files

COMMIT = "0123456789abcdef0123456789abcdef01234567"
TEXTS = PROSE + code_samples(600)[:4] + ["[CLS] x [MASK] y [SEP]", ""]


@pytest.fixture(scope="module")
def bert_tok(bert_dir):
    return from_pretrained(bert_dir)


def _fake_cache(root, repo_id, src, *, ref="main", commit=COMMIT, files=None):
    repo = root / ("models--" + repo_id.replace("/", "--"))
    snap = repo / "snapshots" / commit
    snap.mkdir(parents=True)
    for name in files or ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(src / name, snap / name)
    (repo / "refs").mkdir()
    (repo / "refs" / ref).write_text(commit + "\n", encoding="utf-8")
    return snap


def _same_ids(a, b):
    for text in TEXTS:
        assert a.encode(text).ids == b.encode(text).ids, repr(text[:40])


# ------------------------------------------------------------------ HF cache / Hub
def test_cache_layout_by_branch_tag_and_commit(bert_dir, bert_tok, tmp_path):
    snap = _fake_cache(tmp_path, "org/bert-mini", bert_dir)
    (snap.parent.parent / "refs" / "v1.0").write_text(COMMIT, encoding="utf-8")
    assert cached_snapshot("org/bert-mini", cache_dir=tmp_path) == snap
    for rev in (None, "main", "v1.0", COMMIT):
        tok = from_pretrained(
            "org/bert-mini", revision=rev, cache_dir=tmp_path, local_files_only=True
        )
        _same_ids(tok, bert_tok)
        assert tok.model_max_length == 512


def test_cache_dir_from_environment(bert_dir, bert_tok, tmp_path, monkeypatch):
    _fake_cache(tmp_path / "hub", "org/bert-env", bert_dir)
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    assert hub.default_cache_dir() == tmp_path / "hub"
    _same_ids(from_pretrained("org/bert-env", local_files_only=True), bert_tok)


def test_offline_miss_names_files_and_places(tmp_path, monkeypatch):
    with pytest.raises(NotFoundError) as info:
        from_pretrained("org/absent", cache_dir=tmp_path, local_files_only=True)
    msg = str(info.value)
    for part in (
        "tokenizer.json",
        "vocab.txt",
        "merges.txt",
        "tokenizer_config.json",
        str(tmp_path / "models--org--absent"),
        "refs/main",
        "local_files_only=True",
    ):
        assert part in msg, part
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(NotFoundError, match="HF_HUB_OFFLINE"):
        from_pretrained("org/absent", revision="dev", cache_dir=tmp_path)


def test_hub_path_uses_huggingface_hub_lazily(bert_dir, bert_tok, tmp_path, monkeypatch):
    hfh = pytest.importorskip("huggingface_hub")
    calls = []

    def fake_snapshot_download(repo_id, **kwargs):
        calls.append((repo_id, kwargs))
        return str(_fake_cache(tmp_path / "dl", repo_id, bert_dir))

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(hfh, "snapshot_download", fake_snapshot_download)
    tok = from_pretrained("org/remote", revision="v2", cache_dir=tmp_path / "empty")
    _same_ids(tok, bert_tok)
    ((repo_id, kwargs),) = calls
    assert repo_id == "org/remote" and kwargs["revision"] == "v2"
    assert "tokenizer.json" in kwargs["allow_patterns"]


def test_import_does_not_load_optional_dependencies():
    code = (
        "import sys, codetok.formats.hub, codetok.formats.pretrained, "
        "codetok.formats.tiktoken_file, codetok.formats.vocab_files, codetok.formats.hf_json\n"
        "bad = [m for m in ('huggingface_hub', 'transformers', 'tokenizers', 'tiktoken', 'torch')"
        " if m in sys.modules]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_local_files(bert_dir, bert_tok, tmp_path):
    _same_ids(from_pretrained(bert_dir / "tokenizer.json"), bert_tok)
    with pytest.raises(NotFoundError, match="no tokenizer files"):
        load_pretrained_dir(tmp_path)


# ------------------------------------------------------------------ dispatch
def _folder(tmp_path, bert_dir, config, files=("vocab.txt",)):
    for name in files:
        shutil.copy(bert_dir / name, tmp_path / name)
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


def test_unsupported_class_and_missing_files(bert_dir, tmp_path):
    folder = _folder(tmp_path, bert_dir, {"tokenizer_class": "XLMTokenizer"})
    with pytest.raises(ConfigurationError, match="XLMTokenizer.*BertTokenizer"):
        load_pretrained_dir(folder)
    (folder / "tokenizer_config.json").write_text('{"tokenizer_class": "RobertaTokenizerFast"}')
    with pytest.raises(NotFoundError, match="vocab.json, merges.txt"):
        load_pretrained_dir(folder)
    (folder / "tokenizer_config.json").write_text('{"tokenizer_class": "T5Tokenizer"}')
    with pytest.raises(NotFoundError, match="spiece.model"):
        load_pretrained_dir(folder)
    (folder / "tokenizer_config.json").write_text('{"tokenizer_class": ')
    with pytest.raises(FormatError, match="tokenizer_config.json.*line 1"):
        load_pretrained_dir(folder)


def test_model_type_fallback_and_cased_bert(bert_dir, tmp_path, transformers_mod):
    folder = _folder(tmp_path, bert_dir, {"do_lower_case": False, "model_max_length": 128})
    (folder / "config.json").write_text('{"model_type": "bert"}', encoding="utf-8")
    ct = load_pretrained_dir(folder)
    hf = transformers_mod.AutoTokenizer.from_pretrained(str(folder))
    assert ct.model_max_length == hf.model_max_length == 128
    for text in TEXTS:
        assert ct(text)["input_ids"] == hf(text)["input_ids"], text[:40]
    assert ct.encode("Hello").tokens != load_pretrained_dir(bert_dir).encode("Hello").tokens


@pytest.mark.parametrize("prefix", [False, True])
def test_gpt2_options_match_transformers(gpt2_files, tmp_path, transformers_mod, prefix):
    vocab, merges = gpt2_files
    shutil.copy(vocab, tmp_path / "vocab.json")
    shutil.copy(merges, tmp_path / "merges.txt")
    config = {
        "tokenizer_class": "GPT2TokenizerFast",
        "add_prefix_space": prefix,
        "add_bos_token": True,
        "padding_side": "left",
        "pad_token": "<|endoftext|>",
    }
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    (tmp_path / "added_tokens.json").write_text('{"<|code|>": 50257}', encoding="utf-8")
    ct = tokenizer_from_files(tmp_path)
    hf = transformers_mod.AutoTokenizer.from_pretrained(str(tmp_path))
    assert ct.padding_side == hf.padding_side == "left"
    assert ct.token_to_id("<|code|>") == hf.convert_tokens_to_ids("<|code|>") == 50257
    batch = ["hello world", "x <|code|> y", "  two"]
    h = hf(batch, ["a", "b", "c"], padding=True, return_offsets_mapping=True)
    c = ct(batch, ["a", "b", "c"], padding=True, return_offsets_mapping=True)
    assert c["input_ids"] == h["input_ids"]
    assert c["attention_mask"] == h["attention_mask"]
    assert c["offset_mapping"] == [[tuple(o) for o in row] for row in h["offset_mapping"]]


def test_t5_and_llama_dispatch_to_sentencepiece(tmp_path):
    spm = pytest.importorskip("codetok.formats.sentencepiece_model")
    m = spm.ModelProto()
    for piece, score, kind in [
        ("<unk>", 0.0, 2),
        ("<s>", 0.0, 3),
        ("</s>", 0.0, 3),
        ("\u2581a", -1.0, 1),
        ("b", -2.0, 1),
        ("\u2581", -3.0, 1),
    ]:
        m.pieces.append(spm.SentencePiece(piece=piece, score=score, type=kind))
    spm.save_sentencepiece(m, tmp_path / "spiece.model")
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "T5Tokenizer"}')
    t5 = load_pretrained_dir(tmp_path)
    assert t5.encode("a b").tokens[-1] == "</s>"
    (tmp_path / "spiece.model").rename(tmp_path / "tokenizer.model")
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "LlamaTokenizerFast"}')
    llama = load_pretrained_dir(tmp_path)
    assert llama.encode("a b").tokens[0] == "<s>"
    assert llama.special_tokens_map["bos_token"] == "<s>"


# ------------------------------------------------------------------ save_pretrained
def test_save_pretrained_bert_round_trip(
    bert_dir, bert_tok, tmp_path, transformers_mod, hf_tokenizers
):
    paths = save_pretrained(bert_tok, tmp_path / "out")
    assert sorted(p.rsplit("/", 1)[-1] for p in paths) == [
        "special_tokens_map.json",
        "tokenizer.json",
        "tokenizer_config.json",
    ]
    original = transformers_mod.AutoTokenizer.from_pretrained(str(bert_dir))
    hf = transformers_mod.AutoTokenizer.from_pretrained(str(tmp_path / "out"))
    fast = hf_tokenizers.Tokenizer.from_file(str(tmp_path / "out" / "tokenizer.json"))
    again = from_pretrained(tmp_path / "out")
    assert hf.model_max_length == 512
    assert hf.special_tokens_map == original.special_tokens_map
    assert_same(again, fast, TEXTS)
    for kwargs in (
        {"padding": True, "truncation": True, "max_length": 12, "return_offsets_mapping": True},
        {},
    ):
        h = hf(TEXTS, TEXTS[::-1], **kwargs)
        assert h["input_ids"] == original(TEXTS, TEXTS[::-1], **kwargs)["input_ids"]
        c = again(TEXTS, TEXTS[::-1], **kwargs)
        for key in h:
            hv = h[key]
            if key == "offset_mapping":
                hv = [[tuple(o) for o in row] for row in hv]
            assert c[key] == hv, key


def test_save_pretrained_checks_special_tokens(bert_tok, tmp_path):
    bert_tok.special_tokens_map["pad_token"] = "<not-there>"
    try:
        with pytest.raises(ConfigurationError, match="not-there"):
            save_pretrained(bert_tok, tmp_path)
    finally:
        bert_tok.special_tokens_map["pad_token"] = "[PAD]"


@pytest.mark.parametrize("text", ["", "[PAD]\n[CLS]\n[SEP]\nhello\n"])
def test_bert_folder_needs_a_vocab_txt_with_its_unknown_token(text, tmp_path):
    (tmp_path / "vocab.txt").write_text(text, encoding="utf-8")
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "BertTokenizer"}')
    for load in (load_pretrained_dir, from_pretrained, tokenizer_from_files):
        with pytest.raises(FormatError) as info:
            load(tmp_path)
        assert str(info.value).startswith(f"{tmp_path / 'vocab.txt'}: ")
        assert ("empty" if not text else "'[UNK]'") in str(info.value)


@pytest.mark.parametrize("bad", ["Infinity", "NaN", "-Infinity"])
def test_model_max_length_must_be_finite(bert_dir, tmp_path, bad):
    # Python's json reads these; int() of them raised OverflowError / ValueError.
    folder = _folder(tmp_path, bert_dir, {"tokenizer_class": "BertTokenizer"})
    (folder / "tokenizer_config.json").write_text(f'{{"model_max_length": {bad}}}')
    with pytest.raises(FormatError, match="model_max_length must be a number") as info:
        load_pretrained_dir(folder)
    assert str(folder) in str(info.value)
    (folder / "tokenizer_config.json").write_text('{"model_max_length": 1e30}')
    assert load_pretrained_dir(folder).model_max_length == int(1e30)  # transformers' "none"


def test_config_errors_name_the_folder(bert_dir, tmp_path):
    # A setting of the wrong type named its key but no file (found by tests/fuzz/test_fuzz.py).
    folder = _folder(tmp_path, bert_dir, {"model_max_length": "512 tokens"})
    with pytest.raises(FormatError, match="model_max_length") as info:
        load_pretrained_dir(folder)
    assert str(folder) in str(info.value)
