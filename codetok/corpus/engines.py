"""Where shards are written: this process, a pool of local processes, or a Dask cluster.

An engine takes the job, the shards to write and the output folder, runs
:func:`~codetok.corpus.shards.write_shard` on each, and yields the shards' manifest
entries as they finish (in any order). The driver (:mod:`codetok.corpus.run`) does the
rest, so every engine writes the same files.

- :class:`LocalEngine` uses every core of this machine: worker processes
  (:mod:`codetok.corpus.pool`; fork where the platform has it, so workers inherit the
  tokenizer the driver loaded; spawn elsewhere, where each worker loads it once). One
  worker, or one shard, runs in this process. Workers ignore Ctrl-C; the driver stops
  them, and every shard finished by then is already in the manifest. On Linux a worker
  also dies with the driver (a killed driver leaves no worker behind). A shard whose
  worker dies is tried once more, then given up (its files as failures) while the rest go
  on.
- :class:`DaskEngine` submits one task per shard to a ``dask.distributed`` client. The
  workers must see the inputs, the output folder and the tokenizer file at the same paths
  (a shared file system, or one machine); a worker that loads a different tokenizer file is
  caught by the fingerprint in each entry. A shard whose workers Dask gives up on
  (``KilledWorker``, after its own retries) is given up the same way.

Not handled here: the plan, resuming and the manifest (:mod:`codetok.corpus.run`).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from .job import CorpusJob
from .pool import run_pool
from .sharding import ShardTask
from .shards import lost_entry, write_shard

__all__ = ["Engine", "LocalEngine", "DaskEngine", "available_cores"]


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


class Engine(Protocol):
    """Runs :func:`~codetok.corpus.shards.write_shard` over shards."""

    name: str
    workers: int

    def run(
        self, job: CorpusJob, tasks: Sequence[ShardTask], out_dir: str
    ) -> Iterator[dict[str, Any]]:
        """Yield the manifest entry of each shard as it is written, or the
        :func:`~codetok.corpus.shards.lost_entry` of a shard given up (its worker died)."""
        ...


class LocalEngine:
    """Processes on this machine.

    Args:
        workers: processes to use; None: one per available core.

    Raises:
        ValueError: ``workers`` is below 1.
    """

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = available_cores() if workers is None else workers

    def run(
        self, job: CorpusJob, tasks: Sequence[ShardTask], out_dir: str
    ) -> Iterator[dict[str, Any]]:
        """Yield each shard's entry as it is written (see the module docstring)."""
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                yield write_shard(job, task, out_dir)
            return
        yield from run_pool(job, tasks, out_dir, min(self.workers, len(tasks)))


class DaskEngine:
    """Tasks on a ``dask.distributed`` cluster (one task per shard).

    Args:
        client: a ``distributed.Client`` (``Client(LocalCluster())``, or connected to a
            scheduler's address).
    """

    name = "dask"

    def __init__(self, client: Any) -> None:
        self.client = client
        self.workers = sum(
            w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()
        )

    def run(
        self, job: CorpusJob, tasks: Sequence[ShardTask], out_dir: str
    ) -> Iterator[dict[str, Any]]:
        """Yield each shard's entry as its task finishes; unfinished tasks are cancelled
        when the caller stops early (an error, Ctrl-C)."""
        from distributed import KilledWorker, as_completed

        futures = {
            self.client.submit(write_shard, job, task, out_dir, pure=False, key=_key(task)): task
            for task in tasks
        }
        try:
            for future in as_completed(futures):
                try:
                    yield future.result()
                except KilledWorker:  # the workers that ran it died, as many times as allowed
                    why = "Dask gave it up after its workers died (KilledWorker: see their logs)"
                    yield lost_entry(futures[future], why)
        finally:
            self.client.cancel([f for f in futures if not f.done()])


def _key(task: ShardTask) -> str:
    """A task key that names the shard in Dask's dashboard and logs, new on every run (a
    shard redone must be computed again, not taken from a result the cluster still holds)."""
    return f"codetok-{task.name}-{secrets.token_hex(6)}"
