"""One loading entry point: ``codetok.load`` and ``Tokenizer.from_file`` tell every format
codetok reads from the file's content (real files: BERT's tokenizer.json and vocab.txt,
GPT-2's vocab.json + merges.txt, cl100k's .tiktoken, SentencePiece models trained here,
codetok's binary format, a pretrained folder), and name the file and the formats tried
when nothing matches."""

from __future__ import annotations

import json
import shutil

import pytest
from formats_corpus import PROSE, code_samples

import codetok
from codetok import Tokenizer
from codetok.errors import FormatError, NotFoundError
from codetok.formats.detect import FORMATS, detect_format
from codetok.formats.pretrained import load_pretrained_dir

TEXTS = PROSE[:4] + code_samples(400)[:3] + ["[CLS] x <|endoftext|> y", ""]
ENTRY_POINTS = {"codetok.load": codetok.load, "Tokenizer.from_file": Tokenizer.from_file}


def _same_ids(a, b):
    for text in TEXTS:
        assert a.encode(text).ids == b.encode(text).ids, repr(text[:40])


def _class_folder(tmp_path, files, tokenizer_class):
    """The folder transformers would load with ``tokenizer_class``: the reference."""
    folder = tmp_path / f"ref-{tokenizer_class}"
    folder.mkdir()
    for src, name in files:
        shutil.copy(src, folder / name)
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": tokenizer_class}), encoding="utf-8"
    )
    return load_pretrained_dir(folder)


@pytest.fixture(params=list(ENTRY_POINTS))
def load(request):
    return ENTRY_POINTS[request.param]


def test_tokenizer_json_by_content(load, bert_dir, tmp_path):
    odd = tmp_path / "bert.data"
    shutil.copy(bert_dir / "tokenizer.json", odd)
    assert detect_format(odd) == "tokenizer.json"
    _same_ids(load(odd), load_pretrained_dir(bert_dir))


def test_tiktoken_by_content(load, cl100k, cl100k_file, tmp_path):
    odd = tmp_path / "cl100k_base"  # no extension: the encoding comes from the name
    shutil.copy(cl100k_file, odd)
    for path in (cl100k_file, odd):
        assert detect_format(path) == "tiktoken"
        _same_ids(load(path), cl100k)


def test_binary_by_content(load, cl100k, tmp_path):
    path = tmp_path / "cl100k.json"  # the extension lies; the magic bytes decide
    cl100k.save_binary(path)
    assert detect_format(path) == "binary"
    _same_ids(load(path), cl100k)


def test_sentencepiece_by_content(load, tmp_path_factory):
    from _sentencepiece_helpers import train_models

    from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

    for kind, model in train_models(tmp_path_factory.mktemp("spm")).items():
        odd = tmp_path_factory.mktemp("odd") / f"{kind}.bin"
        shutil.copy(model, odd)
        for path in (model, odd):
            assert detect_format(path) == "sentencepiece", path
            _same_ids(load(path), tokenizer_from_sentencepiece(model))


def test_vocab_txt_by_content(load, bert_dir, tmp_path):
    odd = tmp_path / "words.lst"
    shutil.copy(bert_dir / "vocab.txt", odd)
    assert detect_format(odd) == "vocab.txt"
    want = _class_folder(tmp_path, [(bert_dir / "vocab.txt", "vocab.txt")], "BertTokenizer")
    _same_ids(load(odd), want)
    _same_ids(load(bert_dir / "vocab.txt"), want)  # the configs next to it are not read
    folder = tmp_path / "only-vocab"  # no config: the vocab.txt makes it a BertTokenizer
    folder.mkdir()
    shutil.copy(bert_dir / "vocab.txt", folder / "vocab.txt")
    _same_ids(load(folder), want)


def test_vocab_json_and_merges_txt_given_either_file_or_the_folder(load, gpt2_files, tmp_path):
    encoder, bpe = gpt2_files  # GPT-2's own names: encoder.json and vocab.bpe
    folder = tmp_path / "gpt2"
    folder.mkdir()
    shutil.copy(encoder, folder / "vocab.json")
    shutil.copy(bpe, folder / "merges.txt")
    want = _class_folder(tmp_path, [(encoder, "vocab.json"), (bpe, "merges.txt")], "GPT2Tokenizer")
    assert detect_format(folder / "vocab.json") == "vocab.json"
    assert detect_format(folder / "merges.txt") == "merges.txt"
    assert detect_format(folder) == "folder"
    for path in (folder / "vocab.json", folder / "merges.txt", folder, encoder, bpe):
        _same_ids(load(path), want)
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(encoder, alone / "vocab.json")
    with pytest.raises(NotFoundError) as info:
        load(alone / "vocab.json")
    assert str(alone / "vocab.json") in str(info.value) and "merges.txt" in str(info.value)


def test_pretrained_folder(load, bert_dir):
    assert detect_format(bert_dir) == "folder"
    tok = load(bert_dir)
    _same_ids(tok, load_pretrained_dir(bert_dir))
    assert tok.model_max_length == 512


@pytest.mark.parametrize(
    "content",
    [b"def f(x):\n    return x + 1\n", b"\x00\x01\x02garbage\xff\xfe" * 10, b"plain words here"],
)
def test_nothing_matches(load, content, tmp_path):
    path = tmp_path / "notes.dat"
    path.write_bytes(content)
    with pytest.raises(FormatError) as info:
        load(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: ")
    for name in FORMATS:
        assert name in msg, name


def test_missing_path(load, tmp_path):
    with pytest.raises(NotFoundError, match="nope.json"):
        load(tmp_path / "nope.json")


@pytest.mark.parametrize("text", ["", "[PAD]\n[CLS]\nhello\n"])
def test_vocab_txt_without_its_unknown_token(load, text, tmp_path):
    """Refused when loaded (item 6), whichever entry point reads the vocab.txt."""
    path = tmp_path / "vocab.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: ")
    assert ("empty" if not text else "'[UNK]'") in str(info.value)
