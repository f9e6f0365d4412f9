"""Where the ``codetok`` command line writes, and how.

- An output path given with ``-o`` is checked before any work (:func:`check_output_path`),
  so a typo costs a second, not a training run.
- Files are replaced atomically (:func:`atomic_output`): the text goes to a temporary file
  next to the target, which is renamed over it only when everything was written. An error
  or Ctrl-C leaves the old file (or none), never a half-written or empty one.
- What is written is always valid UTF-8. Source files that are not UTF-8 (a Latin-1 file,
  say) are read with ``surrogateescape``, so their undecodable bytes arrive here as lone
  surrogates (U+DC80-U+DCFF). JSON writes them as ``\\udcXX`` escapes (:func:`json_text`:
  ASCII text that ``json.loads`` turns back into the same surrogate, so the bytes round-trip),
  and every other format shows the byte as ``\\xE9`` (:func:`visible_text`). The token ids
  never change: decoding them gives back the original bytes.

Not handled here: reading inputs and choosing languages (:mod:`codetok.cli`).
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .errors import CodetokError

__all__ = [
    "check_output_path",
    "atomic_output",
    "open_output",
    "write_output",
    "json_text",
    "visible_text",
]

_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_byte(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02X}"
    return f"\\u{code:04x}"  # a lone surrogate that came in as text


def visible_text(text: str) -> str:
    """``text`` with every lone surrogate written out, so it encodes as UTF-8.

    An undecodable byte (U+DC80-U+DCFF from ``surrogateescape``) becomes ``\\xNN`` with the
    byte in hex; any other lone surrogate becomes ``\\uXXXX``.

    >>> visible_text("caf\\udce9")
    'caf\\\\xE9'
    """
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(_escape_byte, text)


def json_text(obj: Any) -> str:
    """``obj`` as one line of JSON: non-ASCII text as is, lone surrogates as ``\\uXXXX``.

    ``json.dumps(..., ensure_ascii=False)`` would write a lone surrogate raw, which no
    UTF-8 file can hold; the escape is ASCII and ``json.loads`` reads back the same string.

    >>> json_text({"text": "é\\udce9"})
    '{"text": "é\\\\udce9"}'
    """
    out = json.dumps(obj, ensure_ascii=False)
    if out.isascii():
        return out
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def check_output_path(path: str, flag: str = "-o") -> None:
    """Raise unless ``path`` names a file codetok can create or replace.

    Args:
        path: the output path (``-`` means standard output and always passes).
        flag: the option that gave it, for the message.

    Raises:
        CodetokError: the path is a folder, its folder is missing or not a folder, or the
            folder is not writable; the message names the path and what would work.
    """
    if path == "-":
        return
    p = Path(path)
    parent = p.parent
    if p.is_dir():
        raise CodetokError(
            f"{flag} {path}: is a directory; pass a file path (e.g. {p / 'out.txt'})"
        )
    if not parent.exists():
        raise CodetokError(
            f"{flag} {path}: the folder {parent} does not exist; create it or write elsewhere"
        )
    if not parent.is_dir():
        raise CodetokError(f"{flag} {path}: {parent} is not a folder; pass a path inside one")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CodetokError(
            f"{flag} {path}: cannot write into the folder {parent} (permission denied); "
            "write elsewhere"
        )


@contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A UTF-8 text file that replaces ``path`` when the block ends without an error.

    The text goes to a hidden temporary file in the same folder (so the final rename
    cannot cross file systems); on any exception, Ctrl-C included, the temporary file is
    removed and ``path`` is left as it was. A symlink at ``path`` is followed.

    Args:
        path: the file to write.

    Raises:
        CodetokError: the temporary file cannot be created or written (the message gives
            the reason); the exception of the block otherwise.

    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> with atomic_output(out) as f:
    ...     _ = f.write("hi\\n")
    >>> open(out).read()
    'hi\\n'
    """
    target = Path(os.path.realpath(path))
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        raise CodetokError(f"{path}: cannot write ({e.strerror}); write elsewhere") from None
    try:
        with open(fd, "w", encoding="utf-8", newline="") as f:
            yield f
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def open_output(path: str | None) -> Iterator[IO[str]]:
    """A UTF-8 text stream to the file ``path`` (see :func:`atomic_output`) or, for None or
    ``-``, to standard output (UTF-8 whatever the locale says).

    Args:
        path: the output file, or None / ``-`` for standard output.

    Raises:
        CodetokError: the file cannot be created.
    """
    if path is not None and path != "-":
        with atomic_output(path) as f:
            yield f
        return
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a stream without bytes underneath (a StringIO, say)
        yield sys.stdout
        return
    sys.stdout.flush()
    stream = io.TextIOWrapper(buffer, encoding="utf-8", newline="")
    try:
        yield stream
    finally:
        stream.detach()  # flushes, and leaves sys.stdout's buffer open


def write_output(path: str | None, text: str) -> None:
    """Write ``text`` to the file ``path`` (atomically) or, for None / ``-``, to standard
    output, as UTF-8 with lone surrogates escaped by :func:`visible_text`.

    Args:
        path: the output file, or None / ``-`` for standard output.
        text: what to write.

    Raises:
        CodetokError: the file cannot be written (the message gives the reason).
    """
    try:
        with open_output(path) as f:
            f.write(visible_text(text))
    except OSError as e:
        if isinstance(e, BrokenPipeError) or path is None or path == "-":
            raise
        raise CodetokError(f"{path}: cannot write ({e.strerror}); write elsewhere") from None
