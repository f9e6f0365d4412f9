"""The local engine's worker processes: shards out, entries back, and no shard lost to a
worker that dies.

:func:`run_pool` keeps ``workers`` processes, each writing one shard at a time
(:func:`~codetok.corpus.shards.write_shard`) and sending its entry back over its own pipe,
so the driver always knows which shard each worker holds. A worker that dies (SIGKILL from
the out-of-memory killer, a native abort, a segfault) is seen at once by its process
sentinel: its shard is tried again once in a new worker, and if that worker dies too, the
shard is given up with :func:`~codetok.corpus.shards.lost_entry` (its files as failures
with the reason) while the other shards go on. ``multiprocessing.Pool`` cannot do this: it
replaces a dead worker but never returns its task, so the driver waited forever.

An error raised in a worker (a shard that cannot be written) stops the run and is raised
in the driver, with the worker's traceback as its cause. Workers ignore Ctrl-C (the driver
stops them) and, on Linux, die with the driver.

Not handled here: choosing between this pool and one process, Dask
(:mod:`codetok.corpus.engines`).
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .job import CorpusJob
from .sharding import ShardTask
from .shards import lost_entry, prepare, write_shard

__all__ = ["run_pool", "TRIES"]

#: How many workers may die on one shard before it is given up.
TRIES = 2


def _worker_init(parent: int) -> None:
    """A pool worker ignores Ctrl-C (the driver stops the pool) and, on Linux, dies with
    the driver: killed with SIGKILL, the driver cannot stop its pool, and a worker blocked
    on its pipe would otherwise wait forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the driver stops workers with it
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:  # the driver died before prctl took effect
            os._exit(1)


def _serve(conn: Any, job: CorpusJob, out_dir: str, parent: int) -> None:
    """A worker's loop: a shard in, its entry (or the error) out, until ``None``."""
    _worker_init(parent)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply: tuple[Any, ...] = ("done", write_shard(job, task, out_dir))
        except BaseException as e:
            reply = ("error", e, traceback.format_exc())
        try:
            conn.send(reply)
        except Exception:  # the error does not pickle: send its text
            conn.send(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}"), reply[2]))


class _RemoteTraceback(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return f"\n\nin the worker process:\n{self.text}"


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: ShardTask | None = None


def _death(process: Any) -> str:
    """How a worker process ended, for the manifest."""
    process.join(5)
    code = process.exitcode
    if code is None:
        return "it stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = {
            "SIGKILL": ", as the out-of-memory killer does",
            "SIGABRT": ": a native abort",
            "SIGSEGV": ": a native crash",
        }.get(name, "")
        return f"killed by {name}{hint}"
    return f"exited with status {code}"


@dataclass
class _Pool:
    """The workers of one :func:`run_pool` call and the shards still to write."""

    ctx: Any  # the multiprocessing context workers are started in
    job: CorpusJob
    out_dir: str
    workers: int
    pending: deque[ShardTask]
    deaths: Counter[int] = field(default_factory=Counter)  # shard index -> workers died on it
    idle: list[_Worker] = field(default_factory=list)
    busy: list[_Worker] = field(default_factory=list)
    every: list[_Worker] = field(default_factory=list)  # all ever started: each is stopped


def _start(pool: _Pool) -> _Worker:
    """Start a worker with its own pipe, so the driver always knows which shard it holds."""
    mine, theirs = pool.ctx.Pipe()
    process = pool.ctx.Process(
        target=_serve, args=(theirs, pool.job, pool.out_dir, os.getpid()), daemon=True
    )
    process.start()
    theirs.close()  # only the worker holds its end (later workers do not inherit it)
    w = _Worker(process, mine)
    pool.every.append(w)
    return w


def _hand_out(pool: _Pool) -> None:
    """Give pending shards to idle (or new) workers until ``workers`` of them are busy."""
    while pool.pending and len(pool.busy) < pool.workers:
        while pool.idle and not pool.idle[-1].process.is_alive():  # killed while it waited
            pool.idle.pop().conn.close()
        w = pool.idle.pop() if pool.idle else _start(pool)
        w.task = pool.pending.popleft()
        pool.busy.append(w)
        try:
            w.conn.send(w.task)
        except OSError:  # it died already: its sentinel tells below
            pass


def _reply(w: _Worker) -> tuple[Any, ...] | None:
    """What a woken worker sent (its entry or its error), or None when nothing came whole:
    it died, or its reply is only half sent."""
    reply = None
    try:
        if w.conn.poll():
            reply = w.conn.recv()
    except (EOFError, OSError):
        reply = None
    except Exception as e:  # a reply that does not unpickle
        reply = ("error", RuntimeError(f"{type(e).__name__}: {e}"), "")
    return reply


def _died(pool: _Pool, w: _Worker, task: ShardTask) -> dict[str, Any] | None:
    """After a worker died on ``task``: queue the shard again, or give it up (its lost entry)
    once :data:`TRIES` workers died on it, so one bad shard cannot stop the run."""
    why = _death(w.process)
    w.conn.close()
    pool.deaths[task.index] += 1
    if pool.deaths[task.index] < TRIES:
        pool.pending.appendleft(task)
        return None
    return lost_entry(
        task,
        f"the worker process died on this shard {TRIES} times (the last one {why})",
    )


def _stop(every: list[_Worker], finished: bool) -> None:
    """Stop every worker: asked to exit after a finished run, terminated otherwise (an error,
    Ctrl-C, a consumer that stopped early), killed if it does not; no process is left."""
    for w in every:
        if w.process.is_alive():
            try:
                if finished:
                    w.conn.send(None)
                else:
                    w.process.terminate()
            except OSError:
                w.process.terminate()
    for w in every:
        w.process.join(5)
        if w.process.is_alive():
            w.process.kill()
            w.process.join()
        w.conn.close()


def run_pool(
    job: CorpusJob, tasks: Sequence[ShardTask], out_dir: str, workers: int
) -> Iterator[dict[str, Any]]:
    """Write ``tasks`` on ``workers`` processes; yield each shard's entry as it is written,
    or its :func:`~codetok.corpus.shards.lost_entry` when workers died on it :data:`TRIES`
    times.

    Args:
        job: the job (its encoder is loaded here first, so forked workers inherit it).
        tasks: the shards, in the order to start them.
        out_dir: the output folder.
        workers: processes to run at once (at least 1).

    Raises:
        Exception: what :func:`~codetok.corpus.shards.write_shard` raised in a worker.
    """
    import multiprocessing
    from multiprocessing.connection import wait

    method = "fork" if sys.platform.startswith("linux") else "spawn"
    ctx = multiprocessing.get_context(method)
    prepare(job)  # the tokenizer and pyarrow, loaded before forking: workers inherit them
    pool = _Pool(ctx, job, out_dir, workers, deque(tasks))
    finished = False
    try:
        while pool.pending or pool.busy:
            _hand_out(pool)
            busy = pool.busy
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for w in [w for w in busy if w.conn in ready or w.process.sentinel in ready]:
                reply = _reply(w)
                if reply is None and w.process.is_alive():
                    continue  # woken by a half-sent reply: wait for the rest
                pool.busy.remove(w)
                task, w.task = w.task, None
                assert task is not None
                if reply is None:  # the worker died on this shard
                    lost = _died(pool, w, task)
                    if lost is not None:
                        yield lost
                    continue
                if reply[0] == "error":
                    raise reply[1] from _RemoteTraceback(reply[2])
                pool.idle.append(w)
                yield reply[1]
        finished = True
    finally:
        _stop(pool.every, finished)
