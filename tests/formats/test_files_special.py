"""Loading a tokenizer from a path that is not a regular file (``codetok.formats.files``).

``codetok.load`` and ``Tokenizer.from_file`` on a named pipe (FIFO) waited forever for a
writer. Every loader refuses it now, at once, with a FormatError that says what the path is.
"""

from __future__ import annotations

import os
import threading

import pytest

import codetok
from codetok import Tokenizer
from codetok.errors import FormatError, NotFoundError
from codetok.formats.detect import detect_format
from codetok.formats.files import read_text_file

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def _code_load(path):
    from codetok.code import CodeTokenizer

    return CodeTokenizer.load(path)


LOADERS = {
    "codetok.load": codetok.load,
    "Tokenizer.from_file": Tokenizer.from_file,
    "CodeTokenizer.load": _code_load,
    "detect_format": detect_format,
    "read_text_file": lambda p: read_text_file(p, "tokenizer.json"),
}


def _within(seconds: float, call, fifo) -> BaseException | None:
    """What ``call()`` raised, run in a thread; a call still blocked after ``seconds`` is
    let go (the FIFO opened for writing) and fails the test."""
    got: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            got.append(None)
        except BaseException as e:  # noqa: BLE001 - returned to the test
            got.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # the reader is there: it ends
        os.close(fd)
        thread.join(5)
        pytest.fail(f"still blocked on the named pipe {fifo} after {seconds} s")
    return got[0]


@pytest.mark.parametrize("name", ["tokenizer.json", "t.ctk", "ranks"])
@pytest.mark.parametrize("loader", list(LOADERS))
def test_a_named_pipe_is_refused_at_once(tmp_path, loader, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    got = _within(10, lambda: LOADERS[loader](fifo), fifo)
    assert isinstance(got, FormatError), repr(got)
    assert str(fifo) in str(got) and "a named pipe (FIFO)" in str(got)


def test_a_device_is_refused():
    with pytest.raises(FormatError, match="a character device"):
        codetok.load("/dev/zero")


def test_a_folder_and_a_missing_file_keep_their_errors(tmp_path):
    from codetok.formats.files import open_regular

    with pytest.raises(IsADirectoryError):
        open_regular(tmp_path, "tokenizer.json")
    with pytest.raises(NotFoundError, match="is a directory"):
        read_text_file(tmp_path, "tokenizer.json")
    with pytest.raises(NotFoundError, match="no such file"):
        codetok.load(tmp_path / "missing.json")
