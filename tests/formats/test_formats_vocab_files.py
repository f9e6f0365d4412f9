"""Slow-tokenizer file readers: same results as HF ``tokenizers``' own readers, and
errors that name the file and the line."""

from __future__ import annotations

import json

import pytest

from codetok.errors import FormatError, NotFoundError
from codetok.formats.vocab_files import (
    read_merges_txt,
    read_special_tokens_map,
    read_tokenizer_config,
    read_vocab_json,
    read_vocab_txt,
    special_token_from_config,
    write_vocab_txt,
)
from codetok.models import WordPiece

TRICKY_VOCAB = "[PAD]\r\n[UNK]\ntrailing  \n\nc\rd\n\x85lead\n##s\u3000\ndup\ndup\nlast"


def test_vocab_txt_matches_hf_reader(tmp_path, hf_tokenizers):
    path = tmp_path / "vocab.txt"
    path.write_bytes(TRICKY_VOCAB.encode("utf-8"))
    assert read_vocab_txt(path) == hf_tokenizers.models.WordPiece.read_file(str(path))


def test_real_bert_vocab(bert_dir, hf_tokenizers):
    path = bert_dir / "vocab.txt"
    vocab = read_vocab_txt(path)
    assert vocab == hf_tokenizers.models.WordPiece.read_file(str(path))
    assert len(vocab) == 30522 and vocab["[CLS]"] == 101
    assert WordPiece.from_file(str(path)).token_to_id("##ing") == vocab["##ing"]


def test_vocab_txt_round_trip_and_errors(tmp_path):
    path = tmp_path / "vocab.txt"
    write_vocab_txt({"a": 0, "##b": 1, "[UNK]": 2}, path)
    assert read_vocab_txt(path) == {"a": 0, "##b": 1, "[UNK]": 2}
    with pytest.raises(FormatError, match="0..n-1"):
        write_vocab_txt({"a": 0, "b": 2}, path)
    with pytest.raises(FormatError, match="trailing whitespace"):
        write_vocab_txt({"a ": 0}, path)
    path.write_bytes(b"ok\nbad \xff byte\n")
    with pytest.raises(FormatError, match=r"vocab.txt: at line 2: not UTF-8"):
        read_vocab_txt(path)
    with pytest.raises(NotFoundError, match="missing.txt"):
        read_vocab_txt(tmp_path / "missing.txt")


def test_real_gpt2_vocab_and_merges(gpt2_files, hf_tokenizers):
    vocab_path, merges_path = gpt2_files
    vocab = read_vocab_json(vocab_path)
    merges = read_merges_txt(merges_path)
    want_vocab, want_merges = hf_tokenizers.models.BPE.read_file(str(vocab_path), str(merges_path))
    assert vocab == want_vocab
    assert merges == want_merges
    assert len(merges) == 50000 and merges[0] == ("Ġ", "t")


def test_merges_errors_name_file_and_line(tmp_path):
    path = tmp_path / "merges.txt"
    path.write_text("#version: 0.2\na b\r\nc  d\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_merges_txt(path)
    assert str(path) in str(info.value) and "line 3" in str(info.value)
    path.write_text("a b\n\n", encoding="utf-8")
    with pytest.raises(FormatError, match="line 2"):
        read_merges_txt(path)


def test_vocab_json_errors(tmp_path):
    path = tmp_path / "vocab.json"
    path.write_text('{"a": 0,\n "b": }', encoding="utf-8")
    with pytest.raises(FormatError, match="line 2"):
        read_vocab_json(path)
    path.write_text('{"a": -1}', encoding="utf-8")
    with pytest.raises(FormatError, match="non-negative"):
        read_vocab_json(path)
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FormatError, match="JSON object"):
        read_vocab_json(path)


def test_configs(bert_dir, tmp_path):
    config = read_tokenizer_config(bert_dir / "tokenizer_config.json")
    assert config["tokenizer_class"] == "BertTokenizer" and config["do_lower_case"] is True
    assert read_special_tokens_map(bert_dir / "special_tokens_map.json")["mask_token"] == "[MASK]"
    path = tmp_path / "tokenizer_config.json"
    path.write_text(
        json.dumps({"added_tokens_decoder": {"5": {"content": "<x>", "lstrip": True}}}),
        encoding="utf-8",
    )
    assert read_tokenizer_config(path)["added_tokens_decoder"][5]["content"] == "<x>"
    path.write_text('{"added_tokens_decoder": {"five": {}}}', encoding="utf-8")
    with pytest.raises(FormatError, match="added_tokens_decoder"):
        read_tokenizer_config(path)


def test_special_token_from_config():
    tok = special_token_from_config("[CLS]")
    assert tok.special and not tok.normalized and not tok.lstrip
    mask = special_token_from_config({"content": "<mask>", "lstrip": True, "__type": "AddedToken"})
    assert mask.content == "<mask>" and mask.lstrip and mask.special
    assert special_token_from_config(None) is None
    with pytest.raises(FormatError, match="mask_token"):
        special_token_from_config(3, where="mask_token")


def test_ids_outside_u32_are_refused(tmp_path):
    """vocab.json ids and added_tokens_decoder keys hold u32 ids, as HF reads them."""
    path = tmp_path / "vocab.json"
    path.write_text(json.dumps({"a": 0, "abc": 2**32}), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_vocab_json(path)
    assert str(info.value).startswith(f"{path}: at ['abc']: ") and "0..4294967295" in str(
        info.value
    )
    path.write_text(json.dumps({"a": 0, "abc": 2**32 - 1}), encoding="utf-8")
    assert read_vocab_json(path)["abc"] == 2**32 - 1
    config = tmp_path / "tokenizer_config.json"
    for key in ("-1", str(2**32), "1e3"):
        config.write_text(json.dumps({"added_tokens_decoder": {key: {"content": "<x>"}}}))
        with pytest.raises(FormatError, match=r"at added_tokens_decoder: .*0\.\.4294967295"):
            read_tokenizer_config(config)


@pytest.mark.parametrize(
    "text, unk, what",
    [("", "[UNK]", "empty"), ("\n", "[UNK]", "[UNK]"), ("[PAD]\nhello\n", "[UNK]", "[UNK]")]
    + [("[UNK]\nhello\n", "<unk>", "<unk>")],
)
def test_wordpiece_from_file_needs_tokens_and_its_unknown_token(text, unk, what, tmp_path):
    """Refused when loaded, naming the file, not at the first encode of an unknown word."""
    path = tmp_path / "vocab.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        WordPiece.from_file(str(path), unk_token=unk)
    assert str(info.value).startswith(f"{path}: ") and what in str(info.value)
    path.write_text(f"{unk}\nhello\n", encoding="utf-8")
    assert WordPiece.from_file(str(path), unk_token=unk).token_to_id(unk) == 0
