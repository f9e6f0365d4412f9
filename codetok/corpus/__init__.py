"""Token shards from trees of source files: the library behind ``codetok corpus``.

One job, three ways to run it, one format::

    sources.py    list the source files of folders (skipped ones counted or failed), read one
    sharding.py   cut them into shards of about N MB: the unit of work and of resuming
    job.py        CorpusJob: mode (tokens / codebert / pairs), tokenizer, options
    encoders.py   what each mode writes per file
    shards.py     write_shard(): tokenize one shard's files, write one Parquet file
    manifest.py   _manifest.json: shards done, files, languages, tokens, failures
    engines.py    LocalEngine (every core, multiprocessing), DaskEngine (a cluster)
    pool.py       the local worker processes: a worker that dies costs one retry, not a hang
    run.py        build_corpus(): list, plan, keep finished shards, run the rest
    batches.py    BatchEncoder: the same columns inside datasets.Dataset.map(num_proc=N)

The command line, the local pool and Dask all call :func:`build_corpus` with an engine, so
their shards are byte for byte the same. Reading them needs any Parquet reader:
``pyarrow.parquet.read_table(OUT)``, ``pandas.read_parquet(OUT)``,
``datasets.load_dataset("parquet", data_files=shard_paths(OUT))``.

``pyarrow`` (the ``corpus`` extra) is imported only when shards are written or read;
``distributed`` (the ``distributed`` extra) only by :class:`DaskEngine`.
"""

from __future__ import annotations

import os

from .batches import BatchEncoder as BatchEncoder
from .engines import DaskEngine as DaskEngine
from .engines import LocalEngine as LocalEngine
from .job import MODES as MODES
from .job import CorpusJob as CorpusJob
from .manifest import MANIFEST_NAME as MANIFEST_NAME
from .manifest import read_manifest as read_manifest
from .run import RunLog as RunLog
from .run import build_corpus as build_corpus
from .sharding import plan_shards as plan_shards
from .shards import write_shard as write_shard
from .sources import list_sources as list_sources

__all__ = [
    "BatchEncoder",
    "MANIFEST_NAME",
    "MODES",
    "CorpusJob",
    "DaskEngine",
    "LocalEngine",
    "RunLog",
    "build_corpus",
    "list_sources",
    "plan_shards",
    "read_manifest",
    "shard_paths",
    "write_shard",
]


def shard_paths(out: str | os.PathLike[str]) -> list[str]:
    """The shard files of a corpus folder, in plan order (the manifest's shards).

    Args:
        out: a folder written by :func:`build_corpus` (or ``codetok corpus``).

    Returns:
        Paths of the finished shards.

    Raises:
        NotFoundError: ``out`` has no manifest.
        FormatError: its manifest cannot be read.
    """
    from ..errors import NotFoundError

    folder = os.fspath(out)
    manifest = read_manifest(folder)
    if manifest is None:
        raise NotFoundError(f"{folder}: no {MANIFEST_NAME}; pass a folder codetok corpus wrote")
    return [os.path.join(folder, e["file"]) for e in manifest["shards"]]
