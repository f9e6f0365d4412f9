"""``_manifest.json``: what a corpus folder holds, and what a rerun may keep.

The driver rewrites the manifest (atomically) after every finished shard, so an interrupted
job leaves a manifest that lists exactly the shards written so far; a rerun of the same
job keeps each listed shard whose inputs are unchanged (its fingerprint) and whose file is
intact (its SHA-256), and writes the rest.

Layout (JSON, version 1)::

    format, version      "codetok-corpus", 1
    status               "partial" while shards are missing, then "complete"
    job                  the CorpusJob settings (a rerun must pass the same ones)
    tokenizer            name ("default" or the path), sha256, type, vocab_size, id_type
    inputs               the folders and files as given
    columns              the shards' column names
    shards               one entry per finished shard, by index: file, fingerprint, sha256,
                         rows, tokens, bytes, files [path, language, bytes, tokens(, pairs)],
                         failures [path, reason]
    failures             every file or folder left out, with its reason and shard (null when
                         found while listing); a shard whose worker died lists all its files
                         here and stays missing (status "partial"; a rerun tries it again)
    ignored              counts of files of other extensions and of hidden folders
    totals               shards (planned), shards_done, files, bytes, tokens, rows, failures,
                         and per language files, bytes, tokens
    runs                 one record per invocation: engine, workers, shards written and kept,
                         seconds, MB/s

Not handled here: running shards (:mod:`codetok.corpus.run`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from collections.abc import Iterable
from typing import Any

from ..errors import ConfigurationError, FormatError

__all__ = [
    "MANIFEST_NAME",
    "FORMAT",
    "VERSION",
    "read_manifest",
    "write_manifest",
    "kept_shards",
    "check_same_job",
    "totals",
]

MANIFEST_NAME = "_manifest.json"
FORMAT = "codetok-corpus"
VERSION = 1


def read_manifest(out_dir: str) -> dict[str, Any] | None:
    """The manifest of ``out_dir``, or None when there is none.

    Raises:
        FormatError: the file is not a codetok corpus manifest (the message names it).
    """
    path = os.path.join(out_dir, MANIFEST_NAME)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(
            f"{path}: not JSON ({e.msg} at line {e.lineno}); delete it to start over"
        ) from e
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FormatError(f"{path}: not a codetok corpus manifest (no format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise FormatError(
            f"{path}: manifest version {data.get('version')!r}; this codetok writes {VERSION}"
        )
    return data


def write_manifest(out_dir: str, manifest: dict[str, Any]) -> None:
    """Replace ``out_dir/_manifest.json`` atomically (a reader never sees half a file)."""
    path = os.path.join(out_dir, MANIFEST_NAME)
    tmp = os.path.join(out_dir, f".{MANIFEST_NAME}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(_dumps(manifest))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


#: A lone surrogate: a byte of a file or folder name that is not UTF-8, as ``os.listdir``
#: gives it (``caf\xe9.py`` is ``"caf\udce9.py"``); UTF-8 has no form for it.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _dumps(manifest: dict[str, Any]) -> str:
    """The manifest as JSON with one top-level key per line and one shard, failure or run
    per line: readable with ``less`` and ``grep``, and written by the C encoder (an indented
    dump goes through the pure-Python one, rewritten after every shard).

    A lone surrogate (a path whose name is not UTF-8) is written as a JSON escape
    (``"caf\\udce9.py"``): the file stays valid UTF-8, and ``json.loads`` gives the same
    str back, so a rerun recognises the path.
    """

    def one(value: Any) -> str:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

    lines = []
    for key, value in manifest.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            body = ",\n  ".join(one(v) for v in value)
            lines.append(f"{one(key)}: [\n  {body}\n ]")
        else:
            lines.append(f"{one(key)}: {one(value)}")
    return "{\n " + ",\n ".join(lines) + "\n}\n"


def check_same_job(old: dict[str, Any], new: dict[str, Any], out_dir: str) -> None:
    """Refuse to resume into a folder made by another job.

    Raises:
        ConfigurationError: the settings, tokenizer or inputs differ (the message says which
            and what to do).
    """
    from .job import CorpusJob

    diffs = []
    for key, sub in (("job", None), ("tokenizer", "sha256"), ("inputs", None)):
        a, b = old.get(key), new.get(key)
        if key == "job" and isinstance(a, dict):  # settings added since: their defaults
            a = CorpusJob().settings() | a
        if sub is not None:
            a, b = (a or {}).get(sub), (b or {}).get(sub)
        if a != b:
            if key == "job":
                names = sorted(
                    k for k in set(a or {}) | set(b or {}) if (a or {}).get(k) != b.get(k)
                )
                diffs.append("settings " + ", ".join(names))
            else:
                diffs.append("the tokenizer" if key == "tokenizer" else "the inputs")
    if diffs:
        raise ConfigurationError(
            f"{out_dir} holds shards of another job ({' and '.join(diffs)} differ); rerun "
            "with the same inputs and options to resume, or write to a new folder"
        )


def _sha256(path: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def kept_shards(
    old: dict[str, Any] | None, fingerprints: list[str], out_dir: str
) -> dict[int, dict[str, Any]]:
    """The finished shards of ``old`` that a rerun keeps, by index: same index in the
    plan, same input fingerprint, and the file on disk has the recorded SHA-256."""
    kept: dict[int, dict[str, Any]] = {}
    for entry in (old or {}).get("shards", []):
        i = entry.get("index")
        if not isinstance(i, int) or not 0 <= i < len(fingerprints):
            continue
        if entry.get("fingerprint") != fingerprints[i]:
            continue
        if _sha256(os.path.join(out_dir, entry.get("file", ""))) != entry.get("sha256"):
            continue
        kept[i] = entry
    return kept


def totals(planned: int, entries: Iterable[dict[str, Any]], failures: int) -> dict[str, Any]:
    """The manifest's ``totals`` over the finished shards' entries."""
    out: dict[str, Any] = {"shards": planned, "shards_done": 0, "files": 0, "bytes": 0}
    out |= {"tokens": 0, "rows": 0, "failures": failures}
    languages: dict[str, dict[str, int]] = {}
    for e in entries:
        out["shards_done"] += 1
        out["rows"] += e["rows"]
        for f in e["files"]:
            lang = languages.setdefault(f["language"], {"files": 0, "bytes": 0, "tokens": 0})
            for k in ("bytes", "tokens"):
                lang[k] += f[k]
                out[k] += f[k]
            lang["files"] += 1
            out["files"] += 1
    out["languages"] = dict(sorted(languages.items()))
    return out
