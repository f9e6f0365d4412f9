"""Cutting the list of source files into shards, the unit of work and of resuming.

A shard is a run of consecutive files of the listing whose sizes add up to about
``shard_bytes`` (a file larger than that gets a shard of its own). The plan is a pure
function of the listing and the size, so every engine (the local pool, Dask) and every
rerun cuts the same shards, and shard ``i`` always holds the same files in the same order.
Each shard carries a fingerprint of its files (shown path, size, modification time): a
rerun skips a finished shard only when its fingerprint is unchanged. Adding or editing
files therefore redoes the shards they fall in and, since the cut points move, the shards
after them.

Not handled here: listing files (:mod:`codetok.corpus.sources`), writing shards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from .sources import SourceFile

__all__ = ["ShardTask", "plan_shards", "shard_name"]


def shard_name(index: int) -> str:
    """The file name of shard ``index`` (``shard-00007.parquet``)."""
    return f"shard-{index:05d}.parquet"


@dataclass(frozen=True)
class ShardTask:
    """One shard to write: its index and its files, in order.

    Attributes:
        index: position in the plan (0-based).
        files: the source files it holds.
    """

    index: int
    files: tuple[SourceFile, ...]

    @property
    def name(self) -> str:
        """The shard's file name."""
        return shard_name(self.index)

    @property
    def bytes(self) -> int:
        """Source bytes of its files, as listed."""
        return sum(f.size for f in self.files)

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the files' shown paths, sizes and modification times.

        A name that is not UTF-8 (its bytes held as lone surrogates, as ``os.listdir``
        gives them) is hashed with its surrogates kept (``surrogatepass``), so it has a
        fingerprint of its own and the same one on every run.
        """
        h = hashlib.sha256()
        for f in self.files:
            line = f"{f.shown}\t{f.language}\t{f.size}\t{f.mtime_ns}\n"
            h.update(line.encode("utf-8", "surrogatepass"))
        return h.hexdigest()


def plan_shards(files: Sequence[SourceFile], shard_bytes: int) -> list[ShardTask]:
    """Cut ``files`` into consecutive shards of about ``shard_bytes`` source bytes each.

    Args:
        files: the listing, in job order.
        shard_bytes: target source bytes per shard (at least 1).

    Returns:
        The shards, indexed from 0; none when there are no files.

    Raises:
        ValueError: ``shard_bytes`` is below 1.

    >>> fs = [SourceFile(f"/{n}", n, "python", 40, 0) for n in "abcde"]
    >>> [[f.shown for f in t.files] for t in plan_shards(fs, 100)]
    [['a', 'b', 'c'], ['d', 'e']]
    """
    if shard_bytes < 1:
        raise ValueError(f"shard_bytes must be at least 1, got {shard_bytes}")
    out: list[ShardTask] = []
    run: list[SourceFile] = []
    size = 0
    for f in files:
        run.append(f)
        size += f.size
        if size >= shard_bytes:
            out.append(ShardTask(len(out), tuple(run)))
            run, size = [], 0
    if run:
        out.append(ShardTask(len(out), tuple(run)))
    return out
