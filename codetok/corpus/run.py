"""The driver of a corpus job: list, plan, keep what is done, run the rest, record.

:func:`build_corpus` is what ``codetok corpus`` runs, on any engine:

1. list the source files (:func:`~codetok.corpus.sources.list_sources`) and cut them into
   shards (:func:`~codetok.corpus.sharding.plan_shards`);
2. read the folder's manifest, if any: a folder made by another job is refused; the
   shards it lists whose inputs are unchanged and whose file is intact are kept;
3. run the remaining shards on the engine, rewriting the manifest after each one, so an
   interruption loses at most the shards in flight;
4. remove shard files the plan no longer has, and mark the manifest complete; or, when an
   engine gave a shard up because its worker died, record its files as failures, leave
   the manifest partial (a rerun tries that shard again) and raise :class:`WorkerError`
   once every other shard is written.

It reports through a :class:`RunLog` (the command line draws a progress line and prints
each skipped file); the default one is silent.

Not handled here: what a shard holds (:mod:`codetok.corpus.shards`), the engines
(:mod:`codetok.corpus.engines`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError, WorkerError
from .engines import Engine, LocalEngine
from .job import CorpusJob
from .manifest import (
    FORMAT,
    MANIFEST_NAME,
    VERSION,
    check_same_job,
    kept_shards,
    read_manifest,
    totals,
    write_manifest,
)
from .sharding import ShardTask, plan_shards
from .shards import id_type, shard_schema
from .sources import Listing, list_sources

__all__ = ["build_corpus", "RunLog"]

_SHARD_FILE = re.compile(r"shard-(\d{5,})\.parquet")
_TEMP_FILE = re.compile(r"\.(shard-\d{5,}\.parquet|_manifest\.json)\.[0-9a-f]+\.tmp")


class RunLog:
    """What the driver reports while it runs; this base class ignores it all."""

    def started(self, *, shards: int, kept: int, todo_bytes: int) -> None:
        """The plan is made: ``shards`` in all, ``kept`` from an earlier run, and
        ``todo_bytes`` of source left to tokenize."""

    def shard_done(self, entry: dict[str, Any]) -> None:
        """A shard was written (its manifest entry)."""

    def skipped(self, path: str, reason: str) -> None:
        """A file or folder is left out, and why."""


def _prepare_folder(out: str, old: dict[str, Any] | None) -> None:
    """Create ``out`` or check it is a corpus folder; drop temporary files of a killed run."""
    os.makedirs(out, exist_ok=True)
    names = os.listdir(out)
    if old is None:
        foreign = [n for n in names if not _TEMP_FILE.fullmatch(n)]
        if foreign:
            raise ConfigurationError(
                f"{out} is not empty ({foreign[0]}, ...) and holds no {MANIFEST_NAME}: "
                "write the shards to a new or empty folder"
            )
    for name in names:
        if _TEMP_FILE.fullmatch(name):
            os.unlink(os.path.join(out, name))


def _new_manifest(job: CorpusJob, inputs: Sequence[str]) -> dict[str, Any]:
    """The manifest of this job before any shard is written: what a rerun must match."""
    enc = job.encoder()
    return {
        "format": FORMAT,
        "version": VERSION,
        "status": "partial",
        "job": job.settings(),
        "tokenizer": {
            "name": "default" if job.tokenizer is None else job.tokenizer,
            "sha256": job.tokenizer_sha256(),
            **enc.description,
            "id_type": id_type(enc.vocab_size),
        },
        "inputs": list(inputs),
        "columns": shard_schema(job).names,
    }


@dataclass
class _Run:
    """What one :func:`build_corpus` call has done so far, which each manifest rewrite
    records."""

    out: str
    engine: Engine
    manifest: dict[str, Any]
    listing: Listing
    plan: list[ShardTask]
    start: float
    runs: list[dict[str, Any]]  # the earlier runs' records, from the old manifest
    done: dict[int, dict[str, Any]]  # index -> entry of every finished shard
    kept: set[int]  # the indexes of the shards kept from an earlier run
    fresh: set[int] = field(default_factory=set)  # the indexes of the shards written now
    lost: dict[int, dict[str, Any]] = field(default_factory=dict)  # given up: index -> entry


def _record(state: _Run, status: str, written: int) -> None:
    """Rewrite the manifest with every shard finished so far, so an interruption loses at
    most the shards in flight."""
    manifest, listing, done, lost = state.manifest, state.listing, state.done, state.lost
    entries = [done[i] for i in sorted(done)]
    failures = [dict(f, shard=None) for f in listing.failures]
    failures += [dict(f, shard=e["index"]) for e in entries for f in e["failures"]]
    failures += [dict(f, shard=i) for i in sorted(lost) for f in lost[i]["failures"]]
    manifest["status"] = status
    manifest["shards"] = entries
    manifest["failures"] = failures
    manifest["ignored"] = listing.ignored
    manifest["totals"] = totals(len(state.plan), entries, len(failures))
    seconds = time.perf_counter() - state.start
    written_bytes = sum(e["bytes"] for e in entries if e["index"] in state.fresh)
    run = {"engine": state.engine.name, "workers": state.engine.workers, "shards_written": written}
    run |= {"shards_kept": len(state.kept), "seconds": round(seconds, 3)}
    run["mb_per_s"] = round(written_bytes / 1e6 / seconds, 3) if seconds > 0 else None
    manifest["runs"] = [*state.runs, run]
    write_manifest(state.out, manifest)


def _take_entry(state: _Run, entry: dict[str, Any], log: RunLog) -> None:
    """Take in what the engine sent for one shard (written, or lost with its worker) and
    record it in the manifest at once."""
    manifest = state.manifest
    if "lost" in entry:  # its worker died: the files are failures, the shard is missing
        state.lost[entry["index"]] = entry
        for f in entry["failures"]:
            log.skipped(f["path"], f["reason"])
        _record(state, "partial", len(state.fresh))
        return
    if entry["tokenizer_sha256"] != manifest["tokenizer"]["sha256"]:
        raise ConfigurationError(
            f"shard {entry['file']} was written with another tokenizer file than "
            f"{manifest['tokenizer']['name']} (SHA-256 differs): every worker must see "
            "the same file at that path"
        )
    state.done[entry["index"]] = entry
    state.fresh.add(entry["index"])
    for f in entry["failures"]:
        log.skipped(f["path"], f["reason"])
    _record(state, "partial", len(state.fresh))
    log.shard_done(entry)


def _remove_unplanned_shards(out: str, planned: int) -> None:
    """Remove the shard files past the plan's end, left by an earlier run with more shards."""
    for name in os.listdir(out):
        m = _SHARD_FILE.fullmatch(name)
        if m and int(m.group(1)) >= planned:
            os.unlink(os.path.join(out, name))


def _lost_error(lost: dict[int, dict[str, Any]], out: str) -> WorkerError:
    """The error for the shards given up, saying where their files are listed and what to do."""
    first = lost[min(lost)]
    files = sum(len(e["failures"]) for e in lost.values())
    return WorkerError(
        f"{len(lost)} shard{'s' if len(lost) != 1 else ''} not written "
        f"({', '.join(lost[i]['file'] for i in sorted(lost))}): {first['lost']}. Their "
        f"files ({files}) are failures in {os.path.join(out, MANIFEST_NAME)} and every "
        "other shard is written; run the same job again to retry. A file too large for "
        "memory, or one that crashes the tokenizer, is the usual cause (--max-file-mb, "
        "max_file_bytes, lowers the size cap)"
    )


def build_corpus(
    inputs: Sequence[str],
    out: str,
    job: CorpusJob | None = None,
    *,
    engine: Engine | None = None,
    log: RunLog | None = None,
) -> dict[str, Any]:
    """Turn a tree of source files into token shards and a manifest in ``out``.

    Rerunning the same call after an interruption keeps the finished shards and writes
    only the others.

    Args:
        inputs: folders and files of source code.
        out: the output folder (created if missing; an existing one must be empty or hold
            the shards of this same job).
        job: what to make of each file (default: :class:`CorpusJob`, the default code
            tokenizer's ids and kinds).
        engine: where shards are written (default: :class:`LocalEngine` on every core).
        log: progress and skipped-file reports (default: none).

    Returns:
        The manifest (also written to ``out/_manifest.json``).

    Raises:
        ConfigurationError: ``out`` holds something else, or another job's shards; or a
            worker loaded another tokenizer file than the driver.
        WorkerError: worker processes died on a shard, which is not written (the manifest,
            written first, lists its files as failures with the reason).
        FormatError: ``out`` has a manifest codetok cannot read.
        NotFoundError: the tokenizer cannot be found.
        OSError: a shard or the manifest cannot be written.

    >>> import os, tempfile
    >>> src = tempfile.mkdtemp()
    >>> _ = open(os.path.join(src, "a.py"), "w").write("def f(x):\\n    return x\\n")
    >>> m = build_corpus([src], os.path.join(tempfile.mkdtemp(), "out"))
    >>> m["status"], m["totals"]["files"], m["totals"]["tokens"] > 0
    ('complete', 1, True)
    """
    job = CorpusJob() if job is None else job
    engine = LocalEngine() if engine is None else engine
    log = RunLog() if log is None else log
    start = time.perf_counter()
    listing = list_sources(
        inputs,
        job.languages,
        follow_symlinks=job.follow_symlinks,
        max_file_bytes=job.max_file_bytes,
    )
    plan = plan_shards(listing.files, job.shard_bytes)
    manifest = _new_manifest(job, inputs)
    old = read_manifest(out) if os.path.isdir(out) else None
    if old is not None:
        check_same_job(old, manifest, out)
    _prepare_folder(out, old)
    done = kept_shards(old, [t.fingerprint for t in plan], out)
    runs = list((old or {}).get("runs", []))
    for f in listing.failures:
        log.skipped(f["path"], f["reason"])
    state = _Run(out, engine, manifest, listing, plan, start, runs, done, kept=set(done))
    # largest first: the last shards to start are the small ones, so the workers finish
    # together (the shards' files and names stay in plan order)
    todo = sorted((t for t in plan if t.index not in done), key=lambda t: -t.bytes)
    log.started(shards=len(plan), kept=len(state.kept), todo_bytes=sum(t.bytes for t in todo))
    _record(state, "partial", 0)
    for entry in engine.run(job, todo, out):
        _take_entry(state, entry, log)
    _remove_unplanned_shards(out, len(plan))
    _record(state, "partial" if state.lost else "complete", len(state.fresh))
    if state.lost:
        raise _lost_error(state.lost, out)
    return manifest
