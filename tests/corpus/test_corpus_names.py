"""``codetok corpus`` on file and folder names that are not UTF-8.

Linux names are bytes; Python gives an undecodable byte as a lone surrogate
(``caf\\xe9.py`` is ``"caf\\udce9.py"``). Such a name stopped ``build_corpus`` with a
UnicodeEncodeError (the shard fingerprint, then the manifest). It must go end to end: the
file tokenized, the manifest written as valid UTF-8 JSON (the surrogate as a ``\\udcXX``
escape), and a rerun keeping the shard because it finds the same file again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from codetok.cli.app import main  # noqa: E402
from codetok.corpus import LocalEngine, build_corpus, plan_shards  # noqa: E402
from codetok.corpus.manifest import MANIFEST_NAME, read_manifest  # noqa: E402
from codetok.corpus.sources import SourceFile  # noqa: E402

pytestmark = pytest.mark.skipif(
    os.name != "posix" or os.uname().sysname == "Darwin",
    reason="needs a file system that takes any bytes as a name",
)

CODE = b"def f(x):\n    return x\n"


def _write(path: bytes, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _tree(root: Path) -> Path:
    """``src/caf\\xe9.py``, ``src/d\\xff/x.py`` and ``src/ok.py``, made by their bytes."""
    src = os.fsencode(root / "src")
    os.mkdir(src)
    os.mkdir(src + b"/d\xff")
    for name in (b"caf\xe9.py", b"d\xff/x.py", b"ok.py"):
        _write(src + b"/" + name, CODE)
    return root / "src"


def test_a_fingerprint_takes_a_name_that_is_not_utf8():
    name = os.fsdecode(b"caf\xe9.py")
    files = [SourceFile("/" + name, name, "python", 10, 1)]
    (task,) = plan_shards(files, 100)
    assert len(task.fingerprint) == 64
    other = [SourceFile("/caf\udce8.py", "caf\udce8.py", "python", 10, 1)]
    assert plan_shards(other, 100)[0].fingerprint != task.fingerprint


def test_build_corpus_lists_and_resumes_names_that_are_not_utf8(tmp_path):
    src = _tree(tmp_path)
    out = tmp_path / "out"
    manifest = build_corpus([str(src)], str(out), engine=LocalEngine(1))
    assert manifest["status"] == "complete"
    listed = {f["path"] for s in manifest["shards"] for f in s["files"]}
    names = (b"caf\xe9.py", b"d\xff/x.py", b"ok.py")
    want = {os.path.join(str(src), os.fsdecode(n)) for n in names}
    assert listed == want
    assert manifest["failures"] == []
    raw = (out / MANIFEST_NAME).read_bytes()
    assert b"caf\\udce9.py" in raw and b"d\\udcff/x.py" in raw
    assert read_manifest(str(out))["shards"] == json.loads(raw.decode("utf-8"))["shards"]
    assert {f["path"] for s in read_manifest(str(out))["shards"] for f in s["files"]} == want

    again = build_corpus([str(src)], str(out), engine=LocalEngine(1))
    assert again["runs"][-1]["shards_written"] == 0
    assert again["runs"][-1]["shards_kept"] == len(again["shards"]) == 1


def test_the_command_line_takes_an_input_folder_that_is_not_utf8(tmp_path, capsys):
    src = _tree(tmp_path)
    odd = tmp_path / os.fsdecode(b"in\xfe")
    os.rename(src, odd)
    out = tmp_path / "out"
    for _ in range(2):
        assert main(["corpus", str(odd), "-o", str(out), "-j", "1", "--quiet"]) == 0
    manifest = read_manifest(str(out))
    assert manifest["status"] == "complete"
    assert manifest["inputs"] == [str(odd)]
    assert manifest["totals"]["files"] == 3
    assert [r["shards_kept"] for r in manifest["runs"]] == [0, 1]
