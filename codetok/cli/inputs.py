"""What the ``codetok`` command line reads: source files, standard input, their language.

:func:`read_source` reads a file or standard input (``-``) with one-line errors.
:func:`choose_language` decides how ``lex`` and ``encode`` read a source when no
``--language`` is given, more strictly than the library's :func:`~codetok.code.detect_language`:

- a known extension (``.py``, ``.java``...) or a ``#!`` line decides, silently;
- an extension no grammar lists (``README.md``, ``notes.txt``) is refused: content
  detection would happily read prose as Python, so the user is asked for ``--language``;
- no extension (a script, standard input): the content decides, and a note on stderr
  names the language it chose.

Not handled here: writing (:mod:`codetok.cli.output`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import CodetokError
from .messages import note

__all__ = ["read_error", "read_source", "source_path", "check_input_files", "choose_language"]


def read_error(path: str, e: OSError) -> CodetokError:
    """The one-line error for an input file that cannot be read."""
    if isinstance(e, FileNotFoundError):
        return CodetokError(f"{path}: no such file")
    if isinstance(e, IsADirectoryError):
        return CodetokError(f"{path}: is a directory; pass a file")
    return CodetokError(f"{path}: cannot read ({e.strerror})")


def read_source(path: str) -> bytes:
    """The file's bytes; ``-`` reads standard input.

    Raises:
        CodetokError: the file is missing, a folder, or unreadable.
    """
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise read_error(path, e) from None


def source_path(path: str) -> str | None:
    """The path that tells the language, None for standard input."""
    return None if path == "-" else path


def check_input_files(paths: list[str]) -> None:
    """Raise the one-line error of the first path that is not a readable file (before a
    command starts reading any of them)."""
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise read_error(path, IsADirectoryError() if p.is_dir() else FileNotFoundError())


def _extensions() -> list[str]:
    from ..code.front.languages import grammar_specs

    return [e.lower() for spec in grammar_specs().values() for e in spec.get("extensions", [])]


def choose_language(language: str | None, data: bytes, path: str | None) -> str:
    """The language to read ``data`` as (see the module docstring for the rules).

    Args:
        language: the ``--language`` value, or None.
        data: the source.
        path: its file name, or None for standard input.

    Returns:
        A language name (``language`` itself when given).

    Raises:
        CodetokError: the file's extension belongs to no language codetok reads.
        LanguageError: a shebang names an unknown interpreter, or the content decides
            nothing.
    """
    if language is not None:
        return language
    from ..code.front.language import detect_language, language_from_path, language_from_shebang

    if path is not None:
        if language_from_path(path) is not None:  # content decides only a shared extension
            return detect_language(data, path=path)
        ext = os.path.splitext(path)[1].lower()
        known = _extensions()
        if ext and ext not in known:
            raise CodetokError(
                f"{path}: {ext} is not an extension of a language codetok reads "
                f"({', '.join(known)}); pass --language NAME to read it as code"
            )
    by_shebang = language_from_shebang(data)
    if by_shebang is not None:
        return by_shebang
    detected = detect_language(data, path=path)
    where = "standard input" if path is None else path
    note(
        f"{where}: no --language and no known extension; read as {detected} "
        "(detected from its content)"
    )
    return detected
