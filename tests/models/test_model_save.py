"""``model.save(folder, prefix)``: HF's vocabulary files, read back by HF as the same model.

The references are HF ``tokenizers``' own ``Model.save`` (same bytes) and its readers
(``BPE.read_file``, ``WordPiece.read_file``, ``WordLevel.read_file``, a Unigram model
object), on real files and on models trained here.
"""

from __future__ import annotations

import json
import os

import pytest

import codetok
from codetok.errors import FormatError
from codetok.formats.pretrained import tokenizer_from_vocab_files
from codetok.models import BPE, WordLevel, WordPiece

tokenizers = pytest.importorskip("tokenizers")
hf_models = tokenizers.models

TEXT = ["def tokenize(text):\n    return text.split()\n", "Hello world, hello there! ünïcödé"]


def _bytes(paths: list[str]) -> list[bytes]:
    return [open(p, "rb").read() for p in paths]


def test_gpt2_bpe_files_are_hf_bytes_and_read_back_the_same(gpt2_files, tmp_path):
    vocab, merges = gpt2_files
    model = tokenizer_from_vocab_files(vocab, merges).model
    ours = model.save(tmp_path / "ours")
    theirs = hf_models.BPE.from_file(str(vocab), str(merges)).save(str(tmp_path))
    assert [os.path.basename(p) for p in ours] == ["vocab.json", "merges.txt"]
    assert _bytes(ours) == _bytes(theirs)
    hf_vocab, hf_merges = hf_models.BPE.read_file(*ours)
    assert hf_vocab == model.get_vocab()
    assert hf_merges == model.get_merges()


def test_bert_vocab_txt_is_hf_bytes(bert_dir, tmp_path):
    model = codetok.Tokenizer.from_file(str(bert_dir / "tokenizer.json")).model
    assert isinstance(model, WordPiece)
    ours = model.save(tmp_path, "bert")
    assert [os.path.basename(p) for p in ours] == ["bert-vocab.txt"]
    theirs = hf_models.WordPiece.from_file(str(bert_dir / "vocab.txt")).save(str(tmp_path))
    assert _bytes(ours) == _bytes(theirs)
    assert hf_models.WordPiece.read_file(ours[0]) == model.get_vocab()


def test_trained_models_read_back_by_hf(tmp_path):
    bpe = codetok.train_bpe(texts=TEXT * 5, vocab_size=300).model
    paths = bpe.save(tmp_path, "t")
    assert [os.path.basename(p) for p in paths] == ["t-vocab.json", "t-merges.txt"]
    assert hf_models.BPE.read_file(*paths) == (bpe.get_vocab(), bpe.get_merges())

    wp = codetok.train_wordpiece(texts=TEXT * 5, vocab_size=200).model
    (path,) = wp.save(tmp_path)
    assert hf_models.WordPiece.read_file(path) == wp.get_vocab()

    uni = codetok.train_unigram(texts=TEXT * 20, vocab_size=40).model
    (path,) = uni.save(tmp_path)
    assert os.path.basename(path) == "unigram.json"
    text = open(path, encoding="utf-8").read()
    wrapper = {"version": "1.0", "added_tokens": [], "model": "MODEL"}
    for key in ("truncation", "padding", "normalizer", "pre_tokenizer", "post_processor"):
        wrapper[key] = None
    wrapper["decoder"] = None
    hf = tokenizers.Tokenizer.from_str(json.dumps(wrapper).replace('"MODEL"', text))
    assert hf.get_vocab() == uni.get_vocab()
    for piece in ("▁hello", "▁tokenize(text):", "ünïcödé", "▁there!▁world,"):
        assert [t.id for t in hf.model.tokenize(piece)] == uni.tokenize_ids(piece)


def test_wordlevel_vocab_json_is_hf_bytes(tmp_path):
    vocab = {"a": 0, "<unk>": 1, 'é"\\': 2, "\x01": 5}
    (ours,) = WordLevel(vocab, "<unk>").save(tmp_path / "x")
    (theirs,) = hf_models.WordLevel(vocab, unk_token="<unk>").save(str(tmp_path))
    assert _bytes([ours]) == _bytes([theirs])
    assert hf_models.WordLevel.read_file(ours) == vocab


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (BPE({"a b": 0, "c": 1, "a bc": 2}, [("a b", "c")]), "space"),
        (WordPiece({"[UNK]": 0, "x": 2}, unk_token="[UNK]"), "gap"),
        (WordPiece({"[UNK]": 0, "x\n": 1}, unk_token="[UNK]"), "line break"),
        (WordPiece({"[UNK]": 0, "x ": 1}, unk_token="[UNK]"), "whitespace"),
        (WordPiece({"[UNK]": 0, "\ud800": 1}, unk_token="[UNK]"), "surrogate"),
    ],
)
def test_what_a_file_cannot_carry_is_refused_and_nothing_is_written(model, message, tmp_path):
    with pytest.raises(FormatError, match=message):
        model.save(tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_prefix_that_is_a_path_is_refused(tmp_path):
    with pytest.raises(FormatError, match="prefix"):
        WordLevel({"a": 0}, None).save(tmp_path, "../x")
