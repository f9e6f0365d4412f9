"""A model's vocabulary in the files other tools read: HF ``Model.save``'s files and names.

``BPE`` writes ``vocab.json`` (token -> id, in id order) and ``merges.txt`` (``#version:
0.2`` then one ``a b`` per merge, by rank); ``WordPiece`` writes ``vocab.txt`` (one token
per line, the line number is the id); ``WordLevel`` writes ``vocab.json``; ``Unigram``
writes ``unigram.json`` (its ``tokenizer.json`` model object, indented). With a prefix the
names are ``{prefix}-vocab.json`` and so on, as HF names them.

HF writes whatever it holds, even what its own readers then read differently; here a
vocabulary a file cannot carry is refused before anything is written (a
:class:`~codetok.errors.FormatError` naming the token): a merge of tokens holding a space, a
``vocab.txt`` token holding a line break or ending in whitespace, ids with a gap in a
``vocab.txt``, a lone surrogate in a text file. ``tokenizer.json`` (``Tokenizer.save``)
keeps all of them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..formats.vocab_files import vocab_txt_text
from ..formats.writing import atomic_output

__all__ = ["save_model"]


def _name(prefix: str | None, base: str) -> str:
    return base if prefix is None else f"{prefix}-{base}"


def _utf8(token: str, file: str) -> None:
    try:
        token.encode("utf-8")
    except UnicodeEncodeError:
        raise FormatError(
            f"cannot write {file}: the token {token!r} holds a lone surrogate, which has no "
            "UTF-8 form; save the tokenizer.json instead"
        ) from None


def _by_id(vocab: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(vocab.items(), key=lambda kv: kv[1])


def _vocab_json(vocab: dict[str, int]) -> str:
    # HF writes the object compact, in id order, non-ASCII as is.
    return json.dumps(dict(_by_id(vocab)), ensure_ascii=False, separators=(",", ":"))


def _merges_txt(merges: Iterable[tuple[str, str]], file: str) -> str:
    lines = ["#version: 0.2\n"]
    for a, b in merges:
        for t in (a, b):
            if " " in t or "\n" in t or "\r" in t or not t:
                raise FormatError(
                    f"cannot write {file}: the merge ({a!r}, {b!r}) holds a token that is "
                    "empty or holds a space or line break, which a merges.txt line cannot "
                    "carry; save the tokenizer.json instead (it keeps merges as pairs)"
                )
            _utf8(t, file)
        lines.append(f"{a} {b}\n")
    return "".join(lines)


def _contents(model: Any, prefix: str | None) -> list[tuple[str, str, bool]]:
    """``(file name, text, is JSON)`` for each file ``model`` saves as."""
    kind = model.type_name
    if kind == "BPE":
        merges = _name(prefix, "merges.txt")
        return [
            (_name(prefix, "vocab.json"), _vocab_json(model.get_vocab()), True),
            (merges, _merges_txt(model.get_merges(), merges), False),
        ]
    if kind == "WordLevel":
        return [(_name(prefix, "vocab.json"), _vocab_json(model.get_vocab()), True)]
    if kind == "WordPiece":
        name = _name(prefix, "vocab.txt")
        return [(name, vocab_txt_text(model.get_vocab(), name), False)]
    if kind == "Unigram":
        text = json.dumps(model.to_dict(), ensure_ascii=False, indent=2)
        return [(_name(prefix, "unigram.json"), text, True)]
    raise FormatError(f"a {type(model).__name__} model has no vocabulary files to save")


def save_model(model: Any, folder: str | os.PathLike[str], prefix: str | None = None) -> list[str]:
    """Write ``model``'s vocabulary files into ``folder`` (created if missing).

    Every file is checked before the first is written, and each is written whole or not at
    all (:func:`~codetok.formats.writing.atomic_output`).

    Args:
        model: a BPE, WordPiece, WordLevel or Unigram model.
        folder: the folder.
        prefix: names the files ``{prefix}-vocab.json`` ...; ``None`` for HF's plain names.

    Returns:
        The paths written, in HF's order.

    Raises:
        FormatError: the vocabulary holds what the file format cannot carry (see the module
            docstring).

    >>> import tempfile
    >>> from codetok.models import WordPiece
    >>> m = WordPiece({"[UNK]": 0, "a": 1, "##b": 2}, unk_token="[UNK]")
    >>> [os.path.basename(p) for p in save_model(m, tempfile.mkdtemp(), "bert")]
    ['bert-vocab.txt']
    """
    if prefix is not None and (not prefix or os.sep in prefix or "/" in prefix):
        raise FormatError(f"the prefix {prefix!r} must be a non-empty name, not a path")
    files = _contents(model, prefix)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text, is_json in files:
        path = str(out / name)
        with atomic_output(path, json=is_json) as f:
            f.write(text)
        written.append(path)
    return written
