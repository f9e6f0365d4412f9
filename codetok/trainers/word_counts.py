"""Streaming word counts: texts, files and directories in, ``{piece: count}`` out.

Files are read line by line in binary mode and split on ``b"\\n"`` only, each line keeping
its ending, exactly as HF ``tokenizers`` feeds files to its trainers, so both libraries
count the same pieces. Lines are processed in batches; a batch's identical lines (blank
lines, ``return None``...) are pre-tokenized once. Memory grows with the number of distinct
pieces, not with the corpus.

``num_workers=2`` (or more) counts in worker processes. The design is fork-safe: the pool is
created before any progress bar or other thread, workers only run the pure pre-tokenize
function they inherited (or received pickled under ``spawn``) and send back plain dicts, and
the reader keeps at most ``2 * num_workers`` batches in flight.

Not handled here: what a piece is (the tokenizer's ``pre_tokenize`` decides) and training.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from codetok.errors import ConfigurationError, NotFoundError, TrainingError
from codetok.trainers.base import progress

__all__ = ["folder_files", "resolve_files", "iter_file_lines", "count_words", "PieceFunction"]

#: Turns one text into the pieces to count.
PieceFunction = Callable[[str], Iterable[str]]

DEFAULT_BATCH_LINES = 4096


def folder_files(folder: str) -> Iterator[str]:
    """Every file under ``folder``, sorted, hidden files and folders left out."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        yield from (os.path.join(root, n) for n in sorted(names) if not n.startswith("."))


def resolve_files(files: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """Expand files and directories (recursively, sorted) into a list of file paths.

    Args:
        files: a path or an iterable of paths; a directory stands for every file under it
            (hidden files and directories skipped).

    Returns:
        The file paths, in the order given (directory contents sorted).

    Raises:
        NotFoundError: some paths do not exist (all of them are listed).
        TrainingError: no files at all.

    >>> resolve_files([])
    Traceback (most recent call last):
    ...
    codetok.errors.TrainingError: no training files were given; pass file or directory paths
    """
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    out: list[str] = []
    missing: list[str] = []
    for f in files:
        path = os.fspath(f)
        if os.path.isdir(path):
            out.extend(folder_files(path))
        elif os.path.exists(path):
            out.append(path)
        else:
            missing.append(path)
    if missing:
        raise NotFoundError(
            "training file(s) not found: "
            + ", ".join(repr(m) for m in missing)
            + f" (working directory {os.getcwd()!r})"
        )
    if not out:
        raise TrainingError("no training files were given; pass file or directory paths")
    return out


def iter_file_lines(paths: Iterable[str]) -> Iterator[str]:
    """Yield the lines of each file, endings kept, decoded as UTF-8; never reads a file whole.

    Args:
        paths: files to read, in order.

    Raises:
        TrainingError: a file cannot be opened or read, or is not UTF-8; the message names
            the file (and the line).

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "a.txt")
    >>> _ = open(p, "wb").write(b"one\\r\\ntwo")
    >>> list(iter_file_lines([p]))
    ['one\\r\\n', 'two']
    """
    for path in paths:
        try:
            fh = open(path, "rb")
        except OSError as e:
            raise TrainingError(f"cannot read training file {path!r}: {e.strerror or e}") from e
        with fh:
            lineno = 0
            try:
                for raw in fh:
                    lineno += 1
                    try:
                        yield raw.decode("utf-8")
                    except UnicodeDecodeError as e:
                        raise TrainingError(
                            f"training file {path!r}, line {lineno}: not valid UTF-8 ({e.reason} "
                            f"at byte {e.start}); convert the file to UTF-8 or leave it out"
                        ) from e
            except OSError as e:
                raise TrainingError(
                    f"cannot read training file {path!r} (line {lineno}): {e.strerror or e}"
                ) from e


def _count_batch(fn: PieceFunction, lines: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    get = counts.get
    for line, n in Counter(lines).items():
        for piece in fn(line):
            counts[piece] = get(piece, 0) + n
    return counts


_WORKER_FN: PieceFunction | None = None


def _worker_init(fn: PieceFunction) -> None:
    global _WORKER_FN
    _WORKER_FN = fn


def _worker_count(lines: list[str]) -> dict[str, int]:
    assert _WORKER_FN is not None  # set by _worker_init in this process
    return _count_batch(_WORKER_FN, lines)


def _batches(texts: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for t in texts:
        if not isinstance(t, str):
            raise TrainingError(
                f"training texts must be str, got {type(t).__name__}; decode bytes first or "
                f"pass file paths to train(...)"
            )
        batch.append(t)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _add(total: dict[str, int], part: dict[str, int]) -> None:
    get = total.get
    for k, v in part.items():
        total[k] = get(k, 0) + v


def count_words(
    texts: Iterable[str],
    pieces: PieceFunction,
    *,
    num_workers: int = 1,
    batch_lines: int = DEFAULT_BATCH_LINES,
    show_progress: bool = False,
    mp_context: str | None = None,
    progress_total: int | None = None,
    progress_chars: bool = False,
) -> dict[str, int]:
    """Count the pieces of every text.

    Args:
        texts: an iterable of strings (lines, documents...), consumed once.
        pieces: turns a text into the pieces to count (e.g. a tokenizer's pre-tokenization).
            When it has a ``native_counter()`` that returns a counter (not None), that
            counter counts instead, natively (``codetok.engine.plan.compile_counter``).
        num_workers: processes counting in parallel (1: in this process); threads for a
            native counter.
        batch_lines: texts per batch sent to a worker.
        show_progress: show a progress bar on stderr.
        mp_context: multiprocessing start method; default ``"fork"`` where available, else
            ``"spawn"`` (then ``pieces`` must be picklable).
        progress_total: the bar's total (texts, or chars with ``progress_chars``).
        progress_chars: advance the bar by chars (about bytes for files) instead of texts.

    Returns:
        ``{piece: count}``.

    Raises:
        ConfigurationError: ``num_workers`` or ``batch_lines`` below 1.
        TrainingError: a text is not a str.

    >>> count_words(["a b a", "b"], str.split)
    {'a': 2, 'b': 2}
    """
    if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 1:
        raise ConfigurationError(f"num_workers must be an integer >= 1, got {num_workers!r}")
    if isinstance(batch_lines, bool) or not isinstance(batch_lines, int) or batch_lines < 1:
        raise ConfigurationError(f"batch_lines must be an integer >= 1, got {batch_lines!r}")
    total: dict[str, int] = {}
    unit = "B" if progress_chars else "text"

    def size(batch: list[str]) -> int:
        return sum(map(len, batch)) if progress_chars else len(batch)

    make_native = getattr(pieces, "native_counter", None)
    counter = make_native() if make_native is not None else None
    if counter is not None:  # natively, on num_workers threads
        with progress(show_progress, "Count words", progress_total, unit) as bar:
            for batch in _batches(texts, batch_lines):
                counter.count(batch, None, num_workers)
                bar.update(size(batch))
        return counter.counts()

    if num_workers == 1:
        with progress(show_progress, "Count words", progress_total, unit) as bar:
            for batch in _batches(texts, batch_lines):
                _add(total, _count_batch(pieces, batch))
                bar.update(size(batch))
        return total
    import multiprocessing  # worker processes only

    if mp_context is None:
        mp_context = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(mp_context)
    # The pool is created before the progress bar starts its monitor thread.
    with ctx.Pool(num_workers, initializer=_worker_init, initargs=(pieces,)) as pool:
        with progress(show_progress, "Count words", progress_total, unit) as bar:
            pending: list[Any] = []
            for batch in _batches(texts, batch_lines):
                pending.append((pool.apply_async(_worker_count, (batch,)), size(batch)))
                while len(pending) >= 2 * num_workers:
                    res, n = pending.pop(0)
                    _add(total, res.get())
                    bar.update(n)
            for res, n in pending:
                _add(total, res.get())
                bar.update(n)
    return total
