"""``save`` and ``to_str`` of tokenizers whose tokens are lone surrogates.

A ``.ctk`` file, or a vocabulary built in Python, may hold a token such as ``"\\ud800"``,
which has no UTF-8 form: ``save`` raised a bare UnicodeEncodeError and left an empty file.
Such a token is written as the JSON escape ``\\ud800`` now (the file stays valid UTF-8 and
reads back to the same token), and a file is written whole or not at all.
"""

from __future__ import annotations

import json

import pytest

from codetok import Tokenizer
from codetok.errors import FormatError
from codetok.models import BPE

VOCAB = {"a": 0, "\ud800": 1, "b\udcff": 2, "\udbff\udbfe": 3, "\udc00\ud800x": 4}
TEXTS = ["a\ud800a", "b\udcffa", "\udbff\udbfe\udc00\ud800x", "a"]


def _tok() -> Tokenizer:
    return Tokenizer(BPE(dict(VOCAB), []))


def _same(a: Tokenizer, b: Tokenizer) -> None:
    assert a.get_vocab() == b.get_vocab()
    for text in TEXTS:
        assert a.encode(text).ids == b.encode(text).ids
        assert a.encode(text).tokens == b.encode(text).tokens


@pytest.mark.parametrize("pretty", [True, False])
def test_lone_surrogate_tokens_save_as_json_escapes_and_load_back(tmp_path, pretty):
    tok = _tok()
    path = tmp_path / "tokenizer.json"
    tok.save(str(path), pretty=pretty)
    raw = path.read_bytes()
    text = raw.decode("utf-8")  # valid UTF-8
    assert '"\\ud800"' in text and '"b\\udcff"' in text
    assert json.loads(text)["model"]["vocab"] == VOCAB
    _same(tok, Tokenizer.from_file(path))


def test_to_str_is_utf8_text_that_reads_back():
    tok = _tok()
    text = tok.to_str()
    text.encode("utf-8")
    _same(tok, Tokenizer.from_str(text))


def test_a_ctk_with_a_lone_surrogate_loads_saves_and_loads_again(tmp_path):
    _tok().save_binary(tmp_path / "t.ctk")
    loaded = Tokenizer.from_file(tmp_path / "t.ctk")
    loaded.save(str(tmp_path / "t.json"))
    _same(_tok(), Tokenizer.from_file(tmp_path / "t.json"))


def test_a_surrogate_pair_token_is_refused_and_the_old_file_kept(tmp_path):
    """High then low surrogate as two code points: JSON reads them back as one character,
    so ``save`` refuses, naming it, and leaves the file that was there."""
    path = tmp_path / "tokenizer.json"
    path.write_text("old", encoding="utf-8")
    tok = Tokenizer(BPE({"a": 0, "\ud83d\ude42": 1}, []))
    with pytest.raises(FormatError, match=r"U\+D83D U\+DE42 as two code points") as got:
        tok.save(str(path))
    assert str(path) in str(got.value) and "save_binary" in str(got.value)
    assert path.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tokenizer.json"]


def test_a_code_tokenizer_with_a_lone_surrogate_token_saves(tmp_path):
    from codetok.code import CodeTokenizer

    tok = CodeTokenizer.default()
    tok.tokenizer.add_tokens(["\ud800x"])
    path = tmp_path / "code.json"
    tok.save(path)
    path.read_bytes().decode("utf-8")
    back = CodeTokenizer.load(path)
    source = 'y = "\ud800x"\n'
    assert back.tokenizer.token_to_id("\ud800x") == tok.tokenizer.token_to_id("\ud800x")
    assert back.encode(source, "python").ids == tok.encode(source, "python").ids
