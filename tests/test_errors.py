"""Bad arguments and malformed files raise codetok errors that say what would work."""

from __future__ import annotations

import json

import pytest

from codetok import Tokenizer
from codetok.errors import (
    CodetokError,
    ConfigurationError,
    FormatError,
    NotFoundError,
    TruncationError,
    UnknownComponentError,
)
from codetok.models import WordLevel
from codetok.pre_tokenizers import WhitespaceSplit


def _tok() -> Tokenizer:
    return Tokenizer(
        WordLevel({"a": 0, "b": 1, "[UNK]": 2, "[PAD]": 3}, "[UNK]"),
        pre_tokenizer=WhitespaceSplit(),
    )


def test_errors_subclass_builtins():
    assert issubclass(FormatError, ValueError)
    assert issubclass(NotFoundError, FileNotFoundError)
    assert issubclass(UnknownComponentError, FormatError)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda t: t.enable_truncation(8, strategy="middle_out"), "longest_first"),
        (lambda t: t.enable_truncation(-1), "max_length"),
        (lambda t: t.enable_padding(direction="up"), "right"),
        (lambda t: t(["a"], padding="sideways"), "padding must be"),
        (lambda t: t(["a"], truncation="sometimes"), "truncation must be"),
        (lambda t: t(["a"], padding=True), "pad token"),
        (lambda t: t(["a", "b"], ["a"]), "must match"),
        (lambda t: t.encode_batch("a b"), "list of inputs"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ConfigurationError, match=match):
        call(_tok())


def test_truncation_that_cannot_be_met():
    tok = _tok()
    tok.enable_truncation(1, strategy="only_second")
    with pytest.raises(TruncationError, match="pair"):
        tok.encode("a b")
    tok.enable_truncation(3, stride=3)
    with pytest.raises(TruncationError, match="stride"):
        tok.encode("a " * 10)


def test_missing_directory_and_binary_files(tmp_path):
    with pytest.raises(NotFoundError, match="no such file"):
        Tokenizer.from_file(tmp_path / "nope.json")
    with pytest.raises(NotFoundError, match="no tokenizer files"):  # a folder loads as one
        Tokenizer.from_file(tmp_path)
    bad = tmp_path / "bin.json"
    bad.write_bytes(b'{"model": "\xff\xfe"}')
    with pytest.raises(FormatError, match=r"bin\.json.*UTF-8"):
        Tokenizer.from_file(bad)


def test_malformed_json_names_file_and_line(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text('{\n  "model": {\n    "type": "WordLevel",,\n  }\n}', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        Tokenizer.from_file(path)
    assert "tokenizer.json" in str(info.value) and "line 3" in str(info.value)


def test_unknown_component_names_type_json_path_and_file(tmp_path):
    data = _tok().to_dict()
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [{"type": "Teleport"}]}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(UnknownComponentError) as info:
        Tokenizer.from_file(path)
    msg = str(info.value)
    assert "Teleport" in msg and "pre_tokenizer.pretokenizers[0]" in msg and str(path) in msg


def test_malformed_sections(tmp_path):
    good = _tok().to_dict()
    for key, value, where in [
        ("model", {"type": "WordLevel", "vocab": [1, 2]}, "model.vocab"),
        ("added_tokens", [{"content": "x"}], "added_tokens[0]"),
        ("truncation", {"stride": 1}, "truncation"),
    ]:
        data = dict(good, **{key: value})
        with pytest.raises(FormatError, match=where.replace("[", r"\[").replace("]", r"\]")):
            Tokenizer.from_dict(data, path="t.json")


def test_model_without_unknown_token_says_so():
    tok = Tokenizer(WordLevel({"a": 0}, None))
    with pytest.raises(CodetokError, match="unk"):
        tok.encode("zzz")


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[" * 3000 + "]" * 3000])
def test_deeply_nested_json_names_the_file(text, tmp_path):
    """Python's parser gives up on deep nesting with a RecursionError; codetok says which
    file (HF tokenizers itself reads at most 128 levels)."""
    from codetok.code import CodeTokenizer
    from codetok.formats.vocab_files import read_vocab_json

    path = tmp_path / "tokenizer.json"
    path.write_text(text, encoding="utf-8")
    for load in (Tokenizer.from_file, read_vocab_json, CodeTokenizer.load):
        with pytest.raises(FormatError) as info:
            load(path)
        assert str(info.value).startswith(f"{path}: ") and "nested" in str(info.value)


def test_invalid_json_says_its_line_once(tmp_path):
    from codetok.formats.vocab_files import read_vocab_json

    path = tmp_path / "tokenizer.json"
    path.write_text('{"model": {"vocab": {"a": 1,, "b": 2}}}', encoding="utf-8")
    for load in (Tokenizer.from_file, read_vocab_json):
        with pytest.raises(FormatError) as info:
            load(path)
        msg = str(info.value)
        assert msg.startswith(f"{path}: at line 1, column 29: invalid JSON: "), msg
        assert msg.count("line") == 1 and msg.count("column") == 1, msg
