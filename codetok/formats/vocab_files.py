"""Slow-tokenizer files: ``vocab.txt``, ``vocab.json`` + ``merges.txt``, and the JSON configs.

These are the files a BERT, GPT-2, RoBERTa or CodeBERT checkpoint ships next to (or
instead of) a ``tokenizer.json``. The readers follow HF ``tokenizers``' own readers, which
``transformers`` 5 uses for these files, so ids come out the same:

- ``vocab.txt``: one token per line, id = line number (from 0). Lines end at ``\\n``; a
  ``\\r\\n`` ending and trailing Unicode whitespace are dropped; an empty line is the
  empty token. A repeated token keeps its last line number.
- ``vocab.json``: a JSON object token -> non-negative integer id.
- ``merges.txt``: one merge ``a b`` per line, ranked by order; lines starting with
  ``#version`` are skipped; a ``\\r\\n`` ending is dropped; anything but exactly two
  tokens separated by one space is an error (as in HF).
- ``tokenizer_config.json`` / ``special_tokens_map.json``: JSON objects; special tokens
  are either strings or ``AddedToken`` objects (``{"content": ..., "lstrip": ...}``).

Every problem raises :class:`~codetok.errors.FormatError` naming the file and the line;
a missing file raises :class:`~codetok.errors.NotFoundError`.
Not handled here: building a pipeline from these (see :mod:`codetok.formats.pretrained`).
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import FormatError
from ..normalizers import RUST_WHITESPACE
from ..tokenizer.added_tokens import AddedToken
from .files import parse_json, read_text_file
from .ids import ID_RANGE, check_vocab_ids, is_id

__all__ = [
    "read_vocab_txt",
    "read_wordpiece_vocab",
    "write_vocab_txt",
    "vocab_txt_text",
    "read_vocab_json",
    "read_merges_txt",
    "read_json_object",
    "read_tokenizer_config",
    "read_special_tokens_map",
    "special_token_from_config",
    "SPECIAL_TOKEN_KEYS",
]

#: The named special-token attributes of ``transformers`` tokenizers, in its order.
SPECIAL_TOKEN_KEYS = (
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
)

_WS = "".join(sorted(RUST_WHITESPACE))


def _lines(text: str) -> list[str]:
    """Lines as Rust's ``BufRead::lines``: split at ``\\n``, drop a ``\\r`` before it."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def read_vocab_txt(path: str | os.PathLike[str]) -> dict[str, int]:
    """Read a BERT ``vocab.txt``: one token per line, the id is the line number.

    Args:
        path: the file.

    Returns:
        token -> id, as HF ``tokenizers.models.WordPiece.read_file`` returns it.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: the file is not UTF-8 (the message names the line).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "vocab.txt"
    >>> _ = p.write_text("[PAD]\\n[UNK]\\nhello\\n##s\\n")
    >>> read_vocab_txt(p)
    {'[PAD]': 0, '[UNK]': 1, 'hello': 2, '##s': 3}
    """
    _, text = read_text_file(path, "vocab.txt")
    return {line.rstrip(_WS): i for i, line in enumerate(_lines(text))}


def read_wordpiece_vocab(path: str | os.PathLike[str], unk_token: str) -> dict[str, int]:
    """Read a ``vocab.txt`` for a WordPiece model whose unknown token is ``unk_token``.

    WordPiece emits ``unk_token`` for every word it cannot split, so a file without that
    token (or without any token) fails at the first such word; this refuses it when it
    is loaded instead, naming the file.

    Args:
        path: the file.
        unk_token: the model's unknown token.

    Returns:
        token -> id, as :func:`read_vocab_txt`.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: the file is not UTF-8, is empty, or has no line ``unk_token``.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "vocab.txt"
    >>> _ = p.write_text("[PAD]\\nhello\\n")
    >>> read_wordpiece_vocab(p, "[UNK]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    codetok.errors.FormatError: .../vocab.txt: no line holds the unknown token '[UNK]', ...
    """
    vocab = read_vocab_txt(path)
    if not vocab:
        raise FormatError(
            "the vocab.txt is empty; it needs one token per line, the unknown token among them",
            path=os.fspath(path),
        )
    if unk_token not in vocab:
        raise FormatError(
            f"no line holds the unknown token {unk_token!r}, which WordPiece emits for words "
            "it cannot split; add that line, or name a token the file holds as unk_token "
            "(in tokenizer_config.json for a folder)",
            path=os.fspath(path),
        )
    return vocab


def vocab_txt_text(vocab: dict[str, int], path: str | None = None) -> str:
    """The text of a ``vocab.txt`` of ``vocab`` (tokens ordered by id, one per line), once
    it is sure to read back as the same vocabulary.

    Args:
        vocab: token -> id; ids must be exactly ``0 .. len(vocab) - 1``.
        path: the file it is for (only named in the messages).

    Raises:
        FormatError: ids have gaps, or a token holds a line break, ends in whitespace or
            holds a lone surrogate (none survives the format).

    >>> vocab_txt_text({"a": 0, "##b": 1})
    'a\\n##b\\n'
    """
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise FormatError(
            "vocab.txt stores ids as line numbers, so ids must be 0..n-1 without gaps",
            path=path,
        )
    for tok, i in by_id:
        if "\n" in tok or tok != tok.rstrip(_WS):
            raise FormatError(
                f"token {tok!r} (id {i}) holds a line break (newline) or trailing whitespace, "
                "which vocab.txt cannot store; save a tokenizer.json instead",
                path=path,
            )
    text = "".join(tok + "\n" for tok, _ in by_id)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise FormatError(
            f"token {e.object[max(0, e.start - 20) : e.end + 20]!r} holds a lone surrogate, "
            "which has no UTF-8 form; save a tokenizer.json instead",
            path=path,
        ) from None
    return text


def write_vocab_txt(vocab: dict[str, int], path: str | os.PathLike[str]) -> None:
    """Write a ``vocab.txt`` (tokens ordered by id, one per line; see :func:`vocab_txt_text`).

    Args:
        vocab: token -> id; ids must be exactly ``0 .. len(vocab) - 1``.
        path: the file to write.

    Raises:
        FormatError: the vocabulary does not survive the format; nothing is written.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "vocab.txt"
    >>> write_vocab_txt({"a": 0, "b": 1}, p)
    >>> p.read_text()
    'a\\nb\\n'
    """
    text = vocab_txt_text(vocab, os.fspath(path))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def read_json_object(path: str | os.PathLike[str], what: str = "JSON file") -> dict[str, Any]:
    """Read a UTF-8 JSON file that must hold an object.

    Args:
        path: the file.
        what: how to call the file in error messages.

    Returns:
        The parsed object.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: invalid JSON (the message gives line and column), JSON nested too
            deeply, or not an object.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.json"
    >>> _ = p.write_text('{"a": 1}')
    >>> read_json_object(p)
    {'a': 1}
    """
    p, text = read_text_file(path, what)
    data = parse_json(text, path=p)
    if not isinstance(data, dict):
        raise FormatError(f"a {what} must hold a JSON object, got {type(data).__name__}", path=p)
    return data


def read_vocab_json(path: str | os.PathLike[str]) -> dict[str, int]:
    """Read a GPT-2 / RoBERTa ``vocab.json`` (``encoder.json``): token -> id.

    Args:
        path: the file.

    Returns:
        token -> id.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: invalid JSON, or an id outside ``0..2**32-1`` (names the token).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "vocab.json"
    >>> _ = p.write_text('{"a": 0, "b": 1}')
    >>> read_vocab_json(p)
    {'a': 0, 'b': 1}
    """
    vocab = read_json_object(path, "vocab.json")
    check_vocab_ids(vocab, path=os.fspath(path), where="")
    return vocab


def read_merges_txt(path: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Read a GPT-2 style ``merges.txt`` (``vocab.bpe``): ranked ``a b`` pairs.

    Args:
        path: the file.

    Returns:
        The merges in rank order.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: a line is not two tokens separated by one space (names the line).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "merges.txt"
    >>> _ = p.write_text("#version: 0.2\\nĠ t\\nh e\\n")
    >>> read_merges_txt(p)
    [('Ġ', 't'), ('h', 'e')]
    """
    p, text = read_text_file(path, "merges.txt")
    out: list[tuple[str, str]] = []
    for lineno, line in enumerate(_lines(text), 1):
        if line.startswith("#version"):
            continue
        parts = line.split(" ")
        if len(parts) != 2:
            raise FormatError(
                f"expected two tokens separated by one space, got {line!r}",
                path=p,
                where=f"line {lineno}",
            )
        out.append((parts[0], parts[1]))
    return out


def read_tokenizer_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a ``tokenizer_config.json`` (``tokenizer_class``, ``model_max_length``, ...).

    Args:
        path: the file.

    Returns:
        The config object. ``added_tokens_decoder`` keys are turned into ints.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: invalid JSON, or a malformed ``added_tokens_decoder``.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tokenizer_config.json"
    >>> _ = p.write_text('{"tokenizer_class": "BertTokenizer", "do_lower_case": true}')
    >>> read_tokenizer_config(p)["tokenizer_class"]
    'BertTokenizer'
    """
    config = read_json_object(path, "tokenizer_config.json")
    decoder = config.get("added_tokens_decoder")
    if decoder is not None:
        if not isinstance(decoder, dict):
            raise FormatError(
                "expected an object id -> token", path=os.fspath(path), where="added_tokens_decoder"
            )
        fixed: dict[int, Any] = {}
        for key, value in decoder.items():
            tid = int(key) if key.isascii() and key.isdigit() else None
            if tid is None or not is_id(tid):
                raise FormatError(
                    f"key {key!r} is not an id; ids are non-negative integers ({ID_RANGE})",
                    path=os.fspath(path),
                    where="added_tokens_decoder",
                )
            fixed[tid] = value
        config["added_tokens_decoder"] = fixed
    return config


def read_special_tokens_map(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a ``special_tokens_map.json`` (``{"cls_token": "[CLS]", ...}``).

    Args:
        path: the file.

    Returns:
        The map; values are strings, ``AddedToken``-style objects, or lists of them
        (``additional_special_tokens``).

    Raises:
        NotFoundError: the file does not exist.
        FormatError: invalid JSON.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "special_tokens_map.json"
    >>> _ = p.write_text('{"pad_token": "[PAD]"}')
    >>> read_special_tokens_map(p)
    {'pad_token': '[PAD]'}
    """
    return read_json_object(path, "special_tokens_map.json")


def special_token_from_config(
    value: Any, *, path: str | None = None, where: str = ""
) -> AddedToken | None:
    """A special token given as a string or an ``AddedToken`` object, as a codetok token.

    Args:
        value: ``"[CLS]"``, ``{"content": "<mask>", "lstrip": true, ...}`` or ``None``.
        path: the file it came from, for error messages.
        where: the key it came from, for error messages.

    Returns:
        An :class:`~codetok.tokenizer.added_tokens.AddedToken` with ``special=True`` (HF's defaults:
        ``normalized=False`` unless the object says otherwise), or ``None``.

    Raises:
        FormatError: anything else.

    >>> special_token_from_config({"content": "<mask>", "lstrip": True}).lstrip
    True
    """
    if value is None:
        return None
    if isinstance(value, str):
        return AddedToken(value, special=True)
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return AddedToken(
            value["content"],
            single_word=bool(value.get("single_word", False)),
            lstrip=bool(value.get("lstrip", False)),
            rstrip=bool(value.get("rstrip", False)),
            normalized=value.get("normalized", False),
            special=True,
        )
    raise FormatError(
        f"a special token must be a string or an object with 'content', got {value!r}",
        path=path,
        where=where or None,
    )
