"""One entry point for every tokenizer file codetok reads, the format told from the content.

:func:`load` (``codetok.load``) and :meth:`codetok.Tokenizer.from_file` both run
:func:`detect_format`, then the loader of that format:

- a folder: :func:`~codetok.formats.pretrained.load_pretrained_dir`;
- codetok's binary format: its magic bytes (:mod:`codetok.formats.binary`);
- a SentencePiece ``.model``: a protobuf whose first field is a well-formed piece;
- a JSON object: ``vocab.json`` when its first value is a number (GPT-2's ``encoder.json``
  too), otherwise HF ``tokenizer.json`` (a JSON array goes to that reader too, which says
  why it is not one);
- text lines: ``.tiktoken`` when each line is ``<base64> <integer>``, ``merges.txt`` when
  it starts with ``#version`` or each line is two tokens split by one space, ``vocab.txt``
  when each line is one token.

Only the first 64 KiB and at most 32 lines are looked at. Content that matches nothing
falls back on the file name (``*.tiktoken``, ``*.model``, ``*.json``, ``vocab.txt``,
``merges.txt``), so an empty or damaged file gets its own format's error; otherwise a
:class:`~codetok.errors.FormatError` names the file and the formats tried.

A ``vocab.json`` or ``merges.txt`` given alone is loaded with its partner next to it
(``merges.txt`` / ``vocab.bpe``, ``vocab.json`` / ``encoder.json``); bare slow files get
``transformers``' class defaults (see
:func:`~codetok.formats.pretrained.tokenizer_from_vocab_files`).

Not here: the Hub and the HF cache (:func:`codetok.from_pretrained`), code tokenizer files
(:meth:`codetok.CodeTokenizer.load`).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, TypeVar

from ..errors import FormatError, NotFoundError
from .files import open_regular, read_text_file

if TYPE_CHECKING:
    from pathlib import Path

    from ..tokenizer.tokenizer import Tokenizer

__all__ = ["FORMATS", "detect_format", "load"]

T = TypeVar("T", bound="Tokenizer")

#: Every format :func:`detect_format` tells apart, with what it is.
FORMATS = {
    "folder": "a pretrained folder (tokenizer.json or slow files, and configs)",
    "binary": "codetok's binary format (Tokenizer.save_binary)",
    "sentencepiece": "a SentencePiece .model",
    "tokenizer.json": "an HF tokenizer.json",
    "vocab.json": "a GPT-2 style vocab.json (with merges.txt next to it)",
    "tiktoken": "a .tiktoken rank file",
    "merges.txt": "a GPT-2 style merges.txt (with vocab.json next to it)",
    "vocab.txt": "a BERT vocab.txt",
}

_HEAD = 64 * 1024
_LINES = 32
_TIKTOKEN_LINE = re.compile(r"[A-Za-z0-9+/]+={0,2}[ \t]+-?[0-9]+[ \t]*")
_MERGES_LINE = re.compile(r"[^ \t\r\n]+ [^ \t\r\n]+")
_ARRAY_ITEM = tuple('[{"]-0123456789')
_BY_NAME = (
    (".tiktoken", "tiktoken"),
    (".model", "sentencepiece"),
    ("vocab.txt", "vocab.txt"),
    ("merges.txt", "merges.txt"),
    (".bpe", "merges.txt"),
    (".json", "tokenizer.json"),
)
# vocab.json-like name -> merges.txt-like partner, as checkpoints name them.
_PARTNERS = (("vocab.json", "merges.txt"), ("encoder.json", "vocab.bpe"))


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of the tokenizer file or folder at ``path`` (a key of :data:`FORMATS`).

    Args:
        path: a file or a folder.

    Returns:
        ``"folder"``, ``"binary"``, ``"sentencepiece"``, ``"tokenizer.json"``,
        ``"vocab.json"``, ``"tiktoken"``, ``"merges.txt"`` or ``"vocab.txt"``.

    Raises:
        NotFoundError: nothing exists at ``path``.
        FormatError: neither the content nor the name matches a format (the message
            lists the formats tried), or ``path`` is not a regular file or folder (a named
            pipe, a device).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "ranks"
    >>> _ = p.write_text("IQ== 0\\nIg== 1\\n")
    >>> detect_format(p)
    'tiktoken'
    """
    from pathlib import Path

    p = Path(os.fspath(path))
    if p.is_dir():
        return "folder"
    try:
        with open_regular(p, "tokenizer file") as f:  # a named pipe would block: refused
            head = f.read(_HEAD)
            whole = len(head) < _HEAD or not f.read(1)
    except FileNotFoundError as e:
        raise NotFoundError(f"{p}: no such file or folder (looked for a tokenizer there)") from e
    found = _by_content(head, whole) or _by_name(p.name)
    if found is None:
        tried = "; ".join(f"{name} ({what})" for name, what in FORMATS.items())
        raise FormatError(
            f"not a tokenizer file codetok reads; tried, by content and by name: {tried}",
            path=str(p),
        )
    return found


def _by_content(head: bytes, whole: bool) -> str | None:
    from .binary import is_binary

    if is_binary(head):
        return "binary"
    if _is_sentencepiece(head):
        return "sentencepiece"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as e:
        if whole or e.start < len(head) - 3:  # not a character cut by the 64 KiB limit
            return None
        text = head[: e.start].decode("utf-8")
    text = text.removeprefix("\ufeff")
    start = text.lstrip()
    if start.startswith("{"):
        return "vocab.json" if _first_value_is_a_number(start) else "tokenizer.json"
    if start.startswith("[") and start[1:].lstrip()[:1] in _ARRAY_ITEM:
        # A JSON array (not "[PAD]", the first line of a BERT vocab.txt): not a tokenizer,
        # but the JSON reader says why, with the line.
        return "tokenizer.json"
    lines = text.splitlines()
    if not whole and lines:
        lines.pop()  # may be cut short
    lines = [ln for ln in lines if ln.strip()][:_LINES]
    if not lines:
        return None
    if all(_TIKTOKEN_LINE.fullmatch(ln) and len(ln.split()[0]) % 4 == 0 for ln in lines):
        return "tiktoken"
    if lines[0].startswith("#version") or all(_MERGES_LINE.fullmatch(ln) for ln in lines):
        return "merges.txt"
    if all(len(ln.split()) == 1 for ln in lines):
        return "vocab.txt"
    return None


def _by_name(name: str) -> str | None:
    for suffix, fmt in _BY_NAME:
        if name.endswith(suffix):
            return fmt
    return None


def _is_sentencepiece(head: bytes) -> bool:
    """Whether ``head`` starts as a SentencePiece ``ModelProto``: field 1 (a piece) holding
    a well-formed ``SentencePiece`` whose first field is its non-empty text."""
    if head[:1] != b"\n":
        return False
    from ._protobuf import DecodeError, _read_varint
    from .sentencepiece_model import SentencePiece

    try:
        size, pos = _read_varint(head, 1, len(head), "pieces")
    except DecodeError:
        return False
    end = pos + size
    if end > len(head) or head[pos : pos + 1] != b"\n":
        return False
    try:
        piece = SentencePiece.from_bytes(head[pos:end])
    except FormatError:
        return False
    return bool(piece.piece) and not piece.unknown_fields


def _first_value_is_a_number(text: str) -> bool:
    """Whether the JSON object starting ``text`` has a number as its first value."""
    import json

    pos = len(text) - len(text[1:].lstrip())
    if text[pos : pos + 1] != '"':
        return False
    try:
        _, pos = json.decoder.scanstring(text, pos + 1)
    except (ValueError, IndexError):
        return False
    rest = text[pos:].lstrip()
    if not rest.startswith(":"):
        return False
    return rest[1:].lstrip()[:1] in tuple("-0123456789")


def load(path: str | os.PathLike[str], /) -> Tokenizer:
    """Load a tokenizer from any file or folder codetok reads, told apart by content.

    Args:
        path: a ``tokenizer.json``, a ``.tiktoken`` file, a SentencePiece ``.model``, a
            ``vocab.txt``, a ``vocab.json`` or ``merges.txt`` (with its partner next to
            it), a pretrained folder, or codetok's binary format.

    Returns:
        The tokenizer.

    Raises:
        NotFoundError: nothing at ``path``, or a file's partner is missing.
        FormatError: no format matches (the message lists those tried), or the file is
            malformed (the message names the file and place).
        ConfigurationError: a ``.tiktoken`` file whose encoding its name does not tell,
            or a folder whose tokenizer class is not supported.

    >>> tok = load("cl100k_base.tiktoken")  # doctest: +SKIP
    >>> tok.encode("hello world").ids  # doctest: +SKIP
    [15339, 1917]
    """
    from ..tokenizer.tokenizer import Tokenizer

    return load_as(Tokenizer, path)


def load_as(cls: type[T], path: str | os.PathLike[str]) -> T | Tokenizer:
    """:func:`load`, building ``tokenizer.json`` and binary files as ``cls`` (what
    :meth:`Tokenizer.from_file <codetok.Tokenizer.from_file>` runs)."""
    from pathlib import Path

    p = Path(os.fspath(path))
    fmt = detect_format(p)
    if fmt == "binary":
        from .binary import load_binary

        return load_binary(cls, p)  # type: ignore[arg-type]
    if fmt == "tokenizer.json":
        name, text = read_text_file(p, "tokenizer.json")
        return cls.from_str(text, path=name)
    if fmt == "folder":
        from .pretrained import load_pretrained_dir

        return load_pretrained_dir(p)
    if fmt == "sentencepiece":
        from .sentencepiece_model import tokenizer_from_sentencepiece

        return tokenizer_from_sentencepiece(p)
    if fmt == "tiktoken":
        from .tiktoken_file import tokenizer_from_tiktoken

        return tokenizer_from_tiktoken(p)
    from .pretrained import tokenizer_from_vocab_files

    if fmt == "vocab.txt":
        return tokenizer_from_vocab_files(p)
    if fmt == "vocab.json":
        return tokenizer_from_vocab_files(p, _partner(p, 0))
    return tokenizer_from_vocab_files(_partner(p, 1), p)


def _partner(path: Path, side: int) -> Path:
    """The ``merges.txt`` of a ``vocab.json`` (``side`` 0) or the reverse (``side`` 1)."""
    names = []
    for pair in _PARTNERS:
        mine, other = pair[side], pair[1 - side]
        if path.name.endswith(mine) and path.name != mine:  # roberta-base-vocab.json
            names.append(path.name[: -len(mine)] + other)
    names += [pair[1 - side] for pair in _PARTNERS]
    for name in names:
        if (path.parent / name).is_file():
            return path.parent / name
    what = ("vocab.json", "merges.txt")
    raise NotFoundError(
        f"{path}: a {what[side]} needs its {what[1 - side]} next to it; looked for "
        f"{', '.join(names)} in {path.parent}"
    )
