"""Reading the text and JSON files codetok loads, with errors that name the file and place.

Every JSON file (``tokenizer.json``, ``vocab.json``, the configs, code tokenizer files) is
parsed by :func:`parse_json`, so invalid JSON and JSON nested too deeply for Python's
parser (which raises ``RecursionError``) give the same :class:`~codetok.errors.FormatError`
everywhere.

:func:`read_text_file` and format detection open files with :func:`open_regular`, which
refuses what is not a regular file: a named pipe (FIFO) would block the reader until a
writer came, forever if none does, and a device such as ``/dev/zero`` never ends.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from typing import Any, BinaryIO

from ..errors import FormatError, NotFoundError

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def open_regular(path: str | os.PathLike[str], what: str) -> BinaryIO:
    """Open ``path`` to read bytes, if it is a regular file.

    It is opened without blocking (``O_NONBLOCK``: a named pipe with no writer would
    block ``open`` itself), checked with ``fstat`` (what was opened, not what the name
    pointed to a moment before), then read as usual.

    Args:
        path: the file.
        what: what the file should be (``"tokenizer.json"``), for the messages.

    Returns:
        The file, open in binary mode.

    Raises:
        FileNotFoundError, IsADirectoryError, OSError: as :func:`open` raises them (a
            folder is an ``IsADirectoryError``).
        FormatError: ``path`` is a named pipe, a device or a socket (the message says
            which).

    >>> open_regular("/dev/null", "tokenizer.json")
    Traceback (most recent call last):
    ...
    codetok.errors.FormatError: /dev/null: not a regular file but a character device; a tokenizer.json is read from a regular file (pass its path, or read the stream yourself and pass the text to from_str)
    """
    p = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(p, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), p)
        if not stat.S_ISREG(mode):
            kind = next((k for test, k in _KINDS if test(mode)), "a special file")
            raise FormatError(
                f"not a regular file but {kind}; a {what} is read from a regular file (pass "
                "its path, or read the stream yourself and pass the text to from_str)",
                path=p,
            )
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text_file(path: str | os.PathLike[str], what: str) -> tuple[str, str]:
    """Read a UTF-8 file; returns ``(path as str, text)``.

    Args:
        path: the file.
        what: what the file should be (``"tokenizer.json"``), for the messages.

    Raises:
        NotFoundError: the file is missing or is a directory.
        FormatError: the file is not UTF-8 (the message gives the byte and line), or is not
            a regular file (a named pipe, a device; see :func:`open_regular`).
    """
    p = os.fspath(path)
    try:
        with open_regular(p, what) as f:
            raw = f.read()
    except FileNotFoundError as e:
        raise NotFoundError(f"{p}: no such file (looked for the {what} there)") from e
    except IsADirectoryError as e:
        raise NotFoundError(f"{p}: is a directory; pass the path of the {what}") from e
    try:
        return p, raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise FormatError(
            f"not UTF-8 text (byte {e.start}); a {what} is UTF-8", path=p, where=f"line {line}"
        ) from e


#: How deep HF ``tokenizers`` (serde_json's recursion limit) reads JSON; tokenizer files
#: nest a few levels.
HF_MAX_NESTING = 128


def parse_json(
    text: str, *, path: str | None, parse_float: Callable[[str], Any] | None = None
) -> Any:
    """``json.loads(text)`` with codetok's errors.

    Args:
        text: the JSON text.
        path: the file it came from, for the messages.
        parse_float: as in :func:`json.loads`.

    Raises:
        FormatError: invalid JSON (``where`` is ``"line L, column C"``, said once) or JSON
            nested too deeply to parse.

    >>> parse_json('{"a": [1, 2]}', path=None)
    {'a': [1, 2]}
    >>> parse_json('{"a": 1,,}', path="t.json")
    Traceback (most recent call last):
    ...
    codetok.errors.FormatError: t.json: at line 1, column 9: invalid JSON: Expecting property name enclosed in double quotes
    """
    import json

    try:
        return json.loads(text, parse_float=parse_float)
    except json.JSONDecodeError as e:
        raise FormatError(
            f"invalid JSON: {e.msg}", path=path, where=f"line {e.lineno}, column {e.colno}"
        ) from e
    except RecursionError as e:
        raise FormatError(
            "JSON nested too deeply to parse; tokenizer files nest a few levels (HF "
            f"tokenizers reads at most {HF_MAX_NESTING}), so this is not one",
            path=path,
        ) from e
