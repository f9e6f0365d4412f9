"""Reading the text and JSON files codetok loads, with errors that name the file and place.

Every JSON file (``tokenizer.json``, ``vocab.json``, the configs, code tokenizer files) is
parsed by :func:`parse_json`, so invalid JSON and JSON nested too deeply for Python's
parser (which raises ``RecursionError``) give the same :class:`~codetok.errors.FormatError`
everywhere.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

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
