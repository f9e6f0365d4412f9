"""One shard: tokenize its files and write them as one Parquet file.

:func:`write_shard` is the unit of work every engine runs (the local pool, a Dask worker,
a plain loop): it reads the shard's files, tokenizes each with the job's encoder, and
writes ``shard-NNNNN.parquet`` atomically (a hidden temporary file renamed over the
target), then returns the shard's manifest entry: what each file gave, which files could
not be used and why, and the SHA-256 of the bytes written. The same job and files give the
same bytes on every engine: the rows follow the plan's order and nothing in the file
depends on the process that wrote it.

Columns (one Parquet row group, zstd; dictionary-encoded ``language`` and ``doc_style``):

- a row per file (``tokens`` and ``codebert`` modes): ``path``, ``language``, ``bytes``
  (of source), ``ids`` (a list of ``uint16`` when every id fits, else ``uint32``) and, for
  the code tokenizers and CodeBERT mode, ``kinds`` (a list of ``uint8``
  :class:`~codetok.code.LexemeKind` values, 255 for ``<s>``/``</s>``);
- with ``pack`` N (tokens mode): a row per sequence of N ids: ``ids``, ``doc_index`` (per
  id, the file it comes from: its place in the shard entry's ``files``, so a trainer can
  reset attention and positions at document starts) and ``partial`` (the shard's last
  sequence, shorter than N); files run on from one sequence into the next, each ended by
  ``<|endoftext|>`` (with ``repo_packing``, StarCoder2's ``<repo_name>`` / ``<file_sep>``
  layout), every id in exactly one sequence of its shard;
- a row per function in ``pairs`` mode: ``path``, ``language``, ``name``, ``docstring``,
  ``code``, ``doc_style``, ``function_start``/``function_end`` (bytes),
  ``line_start``/``line_end``, ``docstring_ids``, ``code_ids``, ``truncated``,
  ``code_tokens_before``, ``docstring_truncated``.

Text columns must be valid UTF-8, so the undecodable bytes of a non-UTF-8 source show as
U+FFFD there; the ids keep them. Reading needs only ``pyarrow``, ``pandas``, ``datasets``
or any Parquet reader; the manifest is named ``_manifest.json`` so that readers of the
whole folder (``pyarrow.parquet.read_table(OUT)``, ``dask.dataframe.read_parquet(OUT)``)
pass over it.

Not handled here: which shards to write and the manifest (:mod:`codetok.corpus.run`).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from typing import Any

import numpy as np

from ..errors import ConfigurationError
from .job import CorpusJob
from .sharding import ShardTask
from .sources import read_source

__all__ = ["write_shard", "lost_entry", "prepare", "id_type", "packed_rows", "shard_schema"]


def _pyarrow() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, or an error that says how to install them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as e:
        raise ConfigurationError(
            "token shards are Parquet files written with pyarrow, which is not installed: "
            "pip install 'codetok[corpus]'"
        ) from e
    return pyarrow, pyarrow.parquet


def id_type(vocab_size: int) -> str:
    """The numpy name of the id type for a vocabulary: ``"uint16"`` or ``"uint32"``.

    >>> id_type(50265), id_type(100277)
    ('uint16', 'uint32')
    """
    return "uint16" if vocab_size <= 1 << 16 else "uint32"


def shard_schema(job: CorpusJob) -> Any:
    """The ``pyarrow`` schema of the job's shards (this process loads its encoder).

    Raises:
        ConfigurationError: ``pyarrow`` is not installed.
    """
    pa, _ = _pyarrow()

    enc = job.encoder()
    ids = pa.list_(pa.from_numpy_dtype(np.dtype(id_type(enc.vocab_size))))
    meta = {"codetok.corpus": json.dumps({"version": 1, "mode": job.mode})}
    if enc.rows_per_file == "pairs":
        fields = [
            ("path", pa.string()),
            ("language", pa.string()),
            ("name", pa.string()),
            ("docstring", pa.string()),
            ("code", pa.string()),
            ("doc_style", pa.string()),
            ("function_start", pa.int64()),
            ("function_end", pa.int64()),
            ("line_start", pa.int64()),
            ("line_end", pa.int64()),
            ("docstring_ids", ids),
            ("code_ids", ids),
            ("truncated", pa.bool_()),
            ("code_tokens_before", pa.int64()),
            ("docstring_truncated", pa.bool_()),
        ]
    elif enc.rows_per_file == "packed":
        fields = [("ids", ids), ("doc_index", pa.list_(pa.uint32())), ("partial", pa.bool_())]
        meta["codetok.corpus"] = json.dumps({"version": 1, "mode": job.mode, "pack": job.pack})
    else:
        fields = [("path", pa.string()), ("language", pa.string()), ("bytes", pa.int64())]
        fields.append(("ids", ids))
        if enc.has_kinds:
            fields.append(("kinds", pa.list_(pa.uint8())))
    return pa.schema(fields, metadata=meta)


def _utf8(text: str) -> str:
    """``text`` with any lone surrogate (an undecodable source byte) as U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _numpy_types() -> dict[int, Any]:
    """Arrow type id -> numpy type of the list values shards hold (without pandas, which
    ``to_pandas_dtype`` would import)."""
    pa, _ = _pyarrow()
    return {pa.uint8().id: np.uint8, pa.uint16().id: np.uint16, pa.uint32().id: np.uint32}


def packed_rows(arrays: list[np.ndarray], length: int) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """The files' id arrays, in order, as sequences of ``length`` ids: ``(ids, doc_index,
    partial)`` each, ``doc_index`` the file (its place in ``arrays``) of every id. Every id
    is in exactly one sequence; only the last may be shorter (``partial``).

    >>> [(r[0].tolist(), r[1].tolist(), r[2]) for r in packed_rows([np.arange(3), np.arange(2)], 2)]
    [([0, 1], [0, 0], False), ([2, 0], [0, 1], False), ([1], [1], True)]
    """
    if not arrays:
        return []
    stream = np.concatenate(arrays)
    docs = np.repeat(np.arange(len(arrays), dtype=np.uint32), [len(a) for a in arrays])
    return [
        (stream[at : at + length], docs[at : at + length], at + length > stream.size)
        for at in range(0, stream.size, length)
    ]


def _lists(arrays: list[np.ndarray], type_: Any) -> Any:
    """One Arrow list column from per-row numpy arrays, without per-value Python objects."""
    pa, _ = _pyarrow()
    dtype = _numpy_types()[type_.value_type.id]
    offsets = np.zeros(len(arrays) + 1, np.int32)
    if arrays:
        np.cumsum([len(a) for a in arrays], out=offsets[1:])
    values = np.concatenate(arrays) if arrays else np.zeros(0, dtype)
    if values.size and (values.min() < 0 or values.max() > np.iinfo(dtype).max):
        raise ValueError(f"an id outside {np.dtype(dtype).name}: the vocabulary size is wrong")
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values.astype(dtype, copy=False)))


def _table(job: CorpusJob, rows: list[Any]) -> Any:
    pa, _ = _pyarrow()

    schema = shard_schema(job)
    cols: dict[str, Any] = {}
    if job.encoder().rows_per_file == "pairs":
        for name in ("path", "language", "name", "docstring", "code", "doc_style"):
            cols[name] = pa.array([_utf8(r[name]) for r in rows], pa.string())
        spans = [r["spans"] for r in rows]
        for name, key, i in (
            ("function_start", "function", 0),
            ("function_end", "function", 1),
            ("line_start", "lines", 0),
            ("line_end", "lines", 1),
        ):
            cols[name] = pa.array([s[key][i] for s in spans], pa.int64())
        for name in ("docstring_ids", "code_ids"):
            arrays = [np.asarray(r[name], np.int64) for r in rows]
            cols[name] = _lists(arrays, schema.field(name).type)
        cols["truncated"] = pa.array([r["truncation"]["truncated"] for r in rows], pa.bool_())
        cols["code_tokens_before"] = pa.array(
            [r["truncation"]["tokens_before"] for r in rows], pa.int64()
        )
        cols["docstring_truncated"] = pa.array(
            [r["truncation"]["docstring_truncated"] for r in rows], pa.bool_()
        )
    elif job.encoder().rows_per_file == "packed":
        cols["ids"] = _lists([r[0] for r in rows], schema.field("ids").type)
        cols["doc_index"] = _lists([r[1] for r in rows], schema.field("doc_index").type)
        cols["partial"] = pa.array([r[2] for r in rows], pa.bool_())
    else:
        cols["path"] = pa.array([_utf8(r[0]) for r in rows], pa.string())
        cols["language"] = pa.array([r[1] for r in rows], pa.string())
        cols["bytes"] = pa.array([r[2] for r in rows], pa.int64())
        cols["ids"] = _lists([r[3] for r in rows], schema.field("ids").type)
        if "kinds" in schema.names:
            cols["kinds"] = _lists([r[4] for r in rows], schema.field("kinds").type)
    return pa.table(cols, schema=schema)


def prepare(job: CorpusJob) -> None:
    """Load the job's encoder and build an empty shard table in this process, so that pool
    workers forked after it inherit both (pyarrow imports pandas on its first array, about
    half a second per process otherwise)."""
    _table(job, [])


def _write_atomically(path: str, data: bytes) -> None:
    tmp = os.path.join(
        os.path.dirname(path), f".{os.path.basename(path)}.{secrets.token_hex(4)}.tmp"
    )
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_shard(job: CorpusJob, task: ShardTask, out_dir: str) -> dict[str, Any]:
    """Tokenize the shard's files and write ``out_dir/<task.name>``.

    A file that cannot be used (unreadable, not a regular file, over the size cap, binary,
    or refused by the tokenizer: a non-UTF-8 file in CodeBERT mode) is left out of the shard and listed in the entry's
    ``failures`` with the reason; the shard is written even when every file failed.

    Args:
        job: the job's settings (this process loads its encoder once).
        task: the shard: its index and files.
        out_dir: the output folder (it exists).

    Returns:
        The shard's manifest entry: ``index``, ``file``, ``fingerprint`` (of its inputs),
        ``sha256`` (of the Parquet file), ``tokenizer_sha256``, ``rows``, ``tokens``,
        ``bytes`` (source bytes of the files kept), ``files`` (``path``, ``language``,
        ``bytes``, ``tokens``, and ``pairs`` in pairs mode) and ``failures``
        (``path``, ``reason``).

    Raises:
        OSError: the shard cannot be written.
        ConfigurationError: ``pyarrow`` is not installed.
    """
    pa, pq = _pyarrow()

    enc = job.encoder()
    rows: list[Any] = []
    files: list[dict[str, Any]] = []
    failures: list[dict[str, str]] = []
    kept: list[Any] = []  # the files of ``rows``, one row per file
    for f in task.files:
        data, reason = read_source(
            f.path, max_bytes=job.max_file_bytes, follow_symlinks=job.follow_symlinks
        )
        if data is None:
            failures.append({"path": f.shown, "reason": reason or "unreadable"})
            continue
        try:
            got = enc.encode_file(data, f)
        except Exception as e:  # recorded with its reason: the job goes on without the file
            failures.append({"path": f.shown, "reason": f"not tokenized ({type(e).__name__}: {e})"})
            continue
        entry: dict[str, Any] = {"path": f.shown, "language": f.language, "bytes": len(data)}
        if enc.rows_per_file == "pairs":
            rows.extend(got)
            entry["pairs"] = len(got)
            entry["tokens"] = sum(len(r["code_ids"]) + len(r["docstring_ids"]) for r in got)
        else:
            ids, kinds = got
            rows.append((f.shown, f.language, len(data), np.asarray(ids), kinds))
            kept.append(f)
            entry["tokens"] = len(ids)
        files.append(entry)
    if enc.rows_per_file == "packed":
        assert job.pack is not None
        arrays = [r[3] for r in rows]
        if job.repo_packing:
            arrays = enc.repository(kept, arrays)  # type: ignore[attr-defined]
            for entry, ids in zip(files, arrays, strict=True):
                entry["tokens"] = len(ids)
        rows = packed_rows(arrays, job.pack)
    sink = pa.BufferOutputStream()
    table = _table(job, rows)
    # a dictionary for the repetitive text columns only: on id lists it costs time and size
    wanted = [n for n in ("language", "doc_style") if n in table.column_names]
    pq.write_table(table, sink, compression="zstd", use_dictionary=wanted)
    data = sink.getvalue().to_pybytes()
    _write_atomically(os.path.join(out_dir, task.name), data)
    return {
        "index": task.index,
        "file": task.name,
        "fingerprint": task.fingerprint,
        "sha256": hashlib.sha256(data).hexdigest(),
        "tokenizer_sha256": job.tokenizer_sha256(),
        "rows": len(rows),
        "tokens": sum(e["tokens"] for e in files),
        "bytes": sum(e["bytes"] for e in files),
        "files": files,
        "failures": failures,
    }


def lost_entry(task: ShardTask, why: str) -> dict[str, Any]:
    """The entry an engine gives for a shard it could not write because its worker died:
    no file is written, and each of its files is a failure with the reason.

    Args:
        task: the shard.
        why: what happened (``"its worker died twice (killed by SIGKILL)"``).

    Returns:
        ``index``, ``file``, ``fingerprint``, ``lost`` (``why``), ``files`` (empty) and
        ``failures`` (every file of the shard).

    >>> from codetok.corpus.sources import SourceFile
    >>> lost_entry(ShardTask(3, (SourceFile("/a.py", "a.py", "python", 1, 0),)), "gone")["failures"]
    [{'path': 'a.py', 'reason': 'not tokenized: gone'}]
    """
    reason = f"not tokenized: {why}"
    return {
        "index": task.index,
        "file": task.name,
        "fingerprint": task.fingerprint,
        "lost": why,
        "files": [],
        "failures": [{"path": f.shown, "reason": reason} for f in task.files],
    }
