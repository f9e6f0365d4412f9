"""Where the ``codetok`` command line writes, and how.

- An output path given with ``-o`` is checked before any work (:func:`check_output_path`),
  so a typo costs a second, not a training run.
- Files are replaced atomically (:func:`atomic_output`): the text goes to a temporary file
  next to the target, which is renamed over it only when everything was written. An error
  or Ctrl-C leaves the old file (or none), never a half-written or empty one.
- What is written is always valid UTF-8. Source files that are not UTF-8 (a Latin-1 file,
  say) are read with ``surrogateescape``, so their undecodable bytes arrive here as lone
  surrogates (U+DC80-U+DCFF), which no UTF-8 file can hold. JSON output writes them as
  ``\\udcXX`` escapes (ASCII text that ``json.loads`` turns back into the same surrogate, so
  the bytes round-trip; ``json=True``), every other output shows the byte as ``\\xE9``
  (:mod:`codetok.formats.writing` registers the two codec error handlers that do it). The
  token ids never change: decoding them gives back the original bytes.

Not handled here: reading inputs and choosing languages (:mod:`codetok.cli.inputs`).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..errors import CodetokError
from ..formats.writing import atomic_output

__all__ = ["check_output_path", "atomic_output", "open_output", "write_output"]


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
def open_output(path: str | None, *, json: bool = False) -> Iterator[IO[str]]:
    """A UTF-8 text stream to the file ``path`` (see :func:`atomic_output`) or, for None or
    ``-``, to standard output (UTF-8 whatever the locale says); lone surrogates are escaped.

    Args:
        path: the output file, or None / ``-`` for standard output.
        json: the text is JSON (lone surrogates become ``\\uXXXX``, not ``\\xNN``).

    Raises:
        CodetokError: the file cannot be created.

    >>> with open_output(None) as out:
    ...     _ = out.write("caf\\udce9\\n")
    caf\\xE9
    """
    if path is not None and path != "-":
        with atomic_output(path, json=json) as f:
            yield f
        return
    errors = "codetok-json" if json else "codetok-visible"
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a stream without bytes underneath (doctest's, say)
        yield _Escaping(sys.stdout, errors)
        return
    sys.stdout.flush()
    stream = io.TextIOWrapper(buffer, encoding="utf-8", errors=errors, newline="")
    try:
        yield stream
    finally:
        stream.detach()  # flushes, and leaves sys.stdout's buffer open


class _Escaping:
    """A text stream that escapes lone surrogates before writing them to ``stream``."""

    def __init__(self, stream: IO[str], errors: str) -> None:
        self.stream, self.errors = stream, errors

    def write(self, text: str) -> int:
        return self.stream.write(text.encode("utf-8", self.errors).decode("utf-8"))


def write_output(path: str | None, text: str, *, json: bool = False) -> None:
    """Write ``text`` to the file ``path`` (atomically) or, for None / ``-``, to standard
    output, as UTF-8 with lone surrogates escaped.

    Args:
        path: the output file, or None / ``-`` for standard output.
        text: what to write.
        json: the text is JSON (lone surrogates become ``\\uXXXX``, not ``\\xNN``).

    Raises:
        CodetokError: the file cannot be written (the message gives the reason).
    """
    try:
        with open_output(path, json=json) as f:
            f.write(text)
    except OSError as e:
        if isinstance(e, BrokenPipeError) or path is None or path == "-":
            raise
        raise CodetokError(f"{path}: cannot write ({e.strerror}); write elsewhere") from None
