"""Reading the text files codetok loads, with errors that name the file and the line."""

from __future__ import annotations

import os

from .errors import FormatError, NotFoundError


def read_text_file(path: str | os.PathLike[str], what: str) -> tuple[str, str]:
    """Read a UTF-8 file; returns ``(path as str, text)``.

    Args:
        path: the file.
        what: what the file should be (``"tokenizer.json"``), for the messages.

    Raises:
        NotFoundError: the file is missing or is a directory.
        FormatError: the file is not UTF-8 (the message gives the byte and line).
    """
    p = os.fspath(path)
    try:
        with open(p, "rb") as f:
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
