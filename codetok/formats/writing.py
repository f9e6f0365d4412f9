"""Writing the files codetok saves: whole or not at all, always valid UTF-8.

:func:`atomic_output` writes to a temporary file next to the target and renames it over the
target only when everything was written, so an error or Ctrl-C leaves the old file (or
none), never a half-written one. Text that holds lone surrogates (the undecodable bytes of a
source read with ``surrogateescape``, or a lone-surrogate token) has no UTF-8 form; two
codec error handlers write it anyway, once the UTF-8 encoder calls back at a surrogate:
``codetok-json`` as the JSON escape ``\\uXXXX`` (it reads back as the same character) and
``codetok-visible`` as ``\\xNN`` for an undecodable byte (``\\uXXXX`` for any other).
The ``tokenizer.json`` writer and the command line's ``-o`` files both go through here.
"""

from __future__ import annotations

import codecs
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..errors import CodetokError

__all__ = ["atomic_output"]


def _surrogates(exc: UnicodeError) -> tuple[str, int]:
    """The characters UTF-8 could not encode (lone surrogates) and where to resume."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return exc.object[exc.start : exc.end], exc.end


def _visible(exc: UnicodeError) -> tuple[str, int]:
    """``codetok-visible``: an undecodable byte (U+DC80-U+DCFF) as ``\\xNN``, any other
    lone surrogate as ``\\uXXXX``."""
    chars, end = _surrogates(exc)
    out = [
        f"\\x{ord(c) - 0xDC00:02X}" if 0xDC80 <= ord(c) <= 0xDCFF else f"\\u{ord(c):04x}"
        for c in chars
    ]
    return "".join(out), end


def _json_escape(exc: UnicodeError) -> tuple[str, int]:
    """``codetok-json``: a lone surrogate as the JSON escape ``\\uXXXX`` (it only occurs
    inside JSON strings, where the escape reads back as the same character)."""
    chars, end = _surrogates(exc)
    return "".join(f"\\u{ord(c):04x}" for c in chars), end


codecs.register_error("codetok-visible", _visible)
codecs.register_error("codetok-json", _json_escape)


@contextmanager
def atomic_output(path: str, *, json: bool = False) -> Iterator[IO[str]]:
    """A UTF-8 text file that replaces ``path`` when the block ends without an error.

    The text goes to a hidden temporary file in the same folder (so the final rename
    cannot cross file systems); on any exception, Ctrl-C included, the temporary file is
    removed and ``path`` is left as it was. A symlink at ``path`` is followed. A path that
    is not a regular file (``/dev/null``, a named pipe) is written in place: replacing it
    would destroy it.

    Args:
        path: the file to write.
        json: the text is JSON (lone surrogates become ``\\uXXXX``, not ``\\xNN``).

    Raises:
        CodetokError: the temporary file cannot be created (the message gives the reason);
            the exception of the block otherwise.

    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> with atomic_output(out) as f:
    ...     _ = f.write("hi\\n")
    >>> open(out).read()
    'hi\\n'
    """
    target = Path(os.path.realpath(path))
    errors = "codetok-json" if json else "codetok-visible"
    if target.exists() and not target.is_file():
        with open(target, "w", encoding="utf-8", errors=errors, newline="") as f:
            yield f
        return
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        raise CodetokError(f"{path}: cannot write ({e.strerror}); write elsewhere") from None
    try:
        with open(fd, "w", encoding="utf-8", errors=errors, newline="") as f:
            yield f
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
