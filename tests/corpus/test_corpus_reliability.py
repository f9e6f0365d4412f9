"""codetok corpus loses nothing and never hangs (issue 28): symlinked folders, loops,
workers that die, files that turn into named pipes, and the per-file size cap.

The runs that could hang (a worker killed, a file that becomes a FIFO) go through a
subprocess with a timeout, so a regression fails the test instead of stopping the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from codetok.cli.app import main  # noqa: E402
from codetok.cli.corpus import MAX_FILE_MB  # noqa: E402
from codetok.corpus import (  # noqa: E402
    CorpusJob,
    LocalEngine,
    build_corpus,
    plan_shards,
    read_manifest,
    write_shard,
)
from codetok.corpus.sources import DEFAULT_MAX_FILE_BYTES, SourceFile, read_source  # noqa: E402
from codetok.errors import ConfigurationError  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX files and signals")

#: the local pool forks only on Linux: a patch made in the driver reaches its workers there
forks = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked")

NOT_FOLLOWED = "a symlink, not followed (follow_symlinks is off: --no-follow-symlinks)"


def _run(script: str, *args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a fresh Python; a hang fails the test after ``timeout`` seconds."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _in_shards(manifest: dict) -> list[str]:
    return sorted(f["path"] for e in manifest["shards"] for f in e["files"])


def _failed(manifest: dict) -> dict[str, str]:
    return {f["path"]: f["reason"] for f in manifest["failures"]}


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """``src/`` with its own file, a symlink to a folder outside it (twice), a symlinked
    file, and two loops (a link to itself, a link to its parent)."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.py").write_text("a = 1\n", encoding="utf-8")
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "own.py").write_text("own = 1\n", encoding="utf-8")
    (src / "linked").symlink_to("../real")
    (src / "zagain").symlink_to("../real")
    (src / "link.py").symlink_to("own.py")
    (src / "self").symlink_to(".")
    (src / "sub" / "up").symlink_to("..")
    return src


def test_symlinked_folders_are_followed_once_and_loops_reported(linked, tmp_path):
    m = build_corpus([str(linked)], str(tmp_path / "out"))
    s = str(linked)
    assert _in_shards(m) == [f"{s}/link.py", f"{s}/linked/a.py", f"{s}/own.py"]
    assert _failed(m) == {
        f"{s}/self": f"a symlink loop: it leads back to {s}, which holds it",
        f"{s}/sub/up": f"a symlink loop: it leads back to {s}, which holds it",
        f"{s}/zagain": f"the same folder as {s}/linked, whose files are listed there",
    }
    assert m["status"] == "complete" and m["totals"]["failures"] == 3


def test_no_follow_symlinks_lists_every_symlink_as_skipped(linked, tmp_path, capsys):
    job = CorpusJob(follow_symlinks=False)
    m = build_corpus([str(linked)], str(tmp_path / "out"), job)
    s = str(linked)
    assert _in_shards(m) == [f"{s}/own.py"]
    assert _failed(m) == {
        f"{s}/{name}": NOT_FOLLOWED for name in ("link.py", "linked", "self", "sub/up", "zagain")
    }
    assert m["job"]["follow_symlinks"] is False
    # the command line's flag, and a file that became a symlink after listing
    assert main(["corpus", s, "-o", str(tmp_path / "cli"), "--no-follow-symlinks", "-q"]) == 0
    assert _failed(read_manifest(str(tmp_path / "cli"))) == _failed(m)
    assert read_source(str(linked / "link.py"), follow_symlinks=False) == (None, NOT_FOLLOWED)


_SWAP_FOR_A_FIFO = """
    import json, os, sys
    from codetok.corpus import CorpusJob, LocalEngine, RunLog, build_corpus

    src, out = sys.argv[1:3]

    class SwapAfterListing(RunLog):
        def started(self, **counts):
            target = os.path.join(src, "b.py")
            os.unlink(target)
            os.mkfifo(target)  # nobody will ever write to it

    m = build_corpus([src], out, CorpusJob(), engine=LocalEngine(1), log=SwapAfterListing())
    print(json.dumps(m["failures"]))
"""


def test_a_file_that_becomes_a_named_pipe_after_listing_is_skipped(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.py", "b.py", "c.py"):
        (src / name).write_text(f"{name[0]} = 1\n", encoding="utf-8")
    done = _run(_SWAP_FOR_A_FIFO, str(src), str(tmp_path / "out"), timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        {"path": str(src / "b.py"), "reason": "not a regular file: a named pipe (FIFO)", "shard": 0}
    ]
    assert _in_shards(read_manifest(str(tmp_path / "out"))) == [
        str(src / "a.py"),
        str(src / "c.py"),
    ]


def test_devices_and_folders_are_not_read():
    assert read_source("/dev/null") == (None, "not a regular file: a character device")
    assert read_source("/") == (None, "not a regular file: a folder")


_DYING_WORKERS = """
    import os, signal, sys
    from codetok.corpus.encoders import CodeFileEncoder

    encode_file = CodeFileEncoder.encode_file

    def dying(self, data, file):  # a worker killed as the out-of-memory killer kills
        marker = file.path + ".kill"
        if os.path.exists(marker):
            if b"ONCE" in data:
                os.unlink(marker)
            os.kill(os.getpid(), signal.SIGKILL)
        return encode_file(self, data, file)

    CodeFileEncoder.encode_file = dying  # forked workers inherit it
    from codetok.cli.app import main

    sys.exit(main(sys.argv[1:]))
"""


@forks
def test_a_worker_that_dies_is_retried_once_then_its_files_are_failures(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in "abcde":
        (src / f"{name}.py").write_text(f"{name} = 1\n", encoding="utf-8")
    (src / "once.py").write_text("# ONCE\nx = 1\n", encoding="utf-8")
    (src / "always.py").write_text("# ALWAYS\nx = 2\n", encoding="utf-8")
    for name in ("once.py", "always.py"):
        (src / f"{name}.kill").write_text("", encoding="utf-8")
    out = tmp_path / "out"
    args = [str(src), "-o", str(out), "-j", "2", "--shard-mb", "0.000001"]  # a file a shard
    done = _run(_DYING_WORKERS, "corpus", *args)
    assert done.returncode == 2, done.stderr
    assert "1 shard not written (shard-" in done.stderr
    assert "died on this shard 2 times (the last one killed by SIGKILL" in done.stderr
    m = read_manifest(str(out))
    assert m["status"] == "partial" and m["totals"]["shards_done"] == 6
    assert _in_shards(m) == sorted(str(src / f"{n}.py") for n in [*"abcde", "once"])
    (failure,) = m["failures"]
    assert failure["path"] == str(src / "always.py") and isinstance(failure["shard"], int)
    assert failure["reason"].startswith("not tokenized: the worker process died on this shard")
    assert not (src / "once.py.kill").exists()  # it died once there, and the retry wrote it
    # a rerun tries the missing shard again, and keeps the others
    (src / "always.py.kill").unlink()
    again = _run(_DYING_WORKERS, "corpus", *args)
    assert again.returncode == 0, again.stderr
    assert "6 of 7 shards already written; writing the rest" in again.stderr
    m = read_manifest(str(out))
    assert m["status"] == "complete" and m["failures"] == [] and m["totals"]["files"] == 7


@forks
def test_an_error_in_a_worker_stops_the_run_and_names_it(tmp_path, monkeypatch):
    from codetok.corpus import pool

    for name in "abc":
        (tmp_path / f"{name}.py").write_text(f"{name} = 1\n", encoding="utf-8")

    def full(job, task, out_dir):
        if task.index == 1:
            raise OSError(28, "No space left on device", os.path.join(out_dir, task.name))
        return write_shard(job, task, out_dir)

    monkeypatch.setattr(pool, "write_shard", full)  # forked workers inherit it
    with pytest.raises(OSError, match="No space left on device") as e:
        build_corpus(
            [str(tmp_path)], str(tmp_path / "out"), CorpusJob(shard_bytes=1), engine=LocalEngine(2)
        )
    assert "shard-00001.parquet" in str(e.value) and "in the worker process" in str(
        e.value.__cause__
    )


def test_files_over_the_size_cap_are_listed_with_their_size(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "small.py").write_text("x = 1\n", encoding="utf-8")
    (src / "big.py").write_text("x = 1\n" * 400, encoding="utf-8")  # 2,400 bytes
    m = build_corpus([str(src)], str(tmp_path / "out"), CorpusJob(max_file_bytes=1024))
    assert _in_shards(m) == [str(src / "small.py")]
    cap = "the cap is 1,024 bytes: --max-file-mb, max_file_bytes)"
    assert _failed(m) == {str(src / "big.py"): f"too large (2,400 bytes; {cap}"}
    assert m["failures"][0]["shard"] is None
    # a file that grew after listing is refused by the worker, which never reads it whole
    grown = SourceFile(str(src / "big.py"), "big.py", "python", 6, 0)
    (tmp_path / "shard").mkdir()
    job = CorpusJob(max_file_bytes=1024)
    entry = write_shard(job, plan_shards([grown], 1 << 20)[0], str(tmp_path / "shard"))
    assert entry["failures"] == [{"path": "big.py", "reason": f"too large (2,400 bytes; {cap}"}]
    # the command line: --max-file-mb, its default, and its limits
    args = ["corpus", str(src), "-o", str(tmp_path / "cli"), "-q", "--max-file-mb", "0.001"]
    assert main(args) == 0
    assert str(src / "big.py") in _failed(read_manifest(str(tmp_path / "cli")))
    assert MAX_FILE_MB * (1 << 20) == DEFAULT_MAX_FILE_BYTES == CorpusJob().max_file_bytes
    assert main([*args[:-1], "0"]) == 2
    assert "--max-file-mb must be above 0 and at most 1024 (got 0)" in capsys.readouterr().err
    with pytest.raises(ConfigurationError, match="max_file_bytes must be from 1 to"):
        CorpusJob(max_file_bytes=0)


def test_a_manifest_from_before_these_settings_resumes(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("x = 1\n", encoding="utf-8")
    out = tmp_path / "out"
    build_corpus([str(src)], str(out))
    path = out / "_manifest.json"
    old = json.loads(path.read_text(encoding="utf-8"))
    for key in ("follow_symlinks", "max_file_bytes"):
        del old["job"][key]
    path.write_text(json.dumps(old), encoding="utf-8")
    m = build_corpus([str(src)], str(out))
    assert m["runs"][-1]["shards_kept"] == 1


def _kill_on_marker() -> None:
    """Run in each Dask worker: a file holding KILL kills the worker's process."""
    import signal

    from codetok.corpus.encoders import CodeFileEncoder

    encode_file = CodeFileEncoder.encode_file

    def dying(self, data, file):
        if b"KILL" in data:
            os.kill(os.getpid(), signal.SIGKILL)
        return encode_file(self, data, file)

    CodeFileEncoder.encode_file = dying


def test_a_shard_dask_gives_up_is_recorded(tmp_path):
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    from codetok.corpus import DaskEngine
    from codetok.errors import WorkerError

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("a = 1\n", encoding="utf-8")
    (src / "k.py").write_text("# KILL\n", encoding="utf-8")
    out = tmp_path / "out"
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.run(_kill_on_marker)
        with pytest.raises(WorkerError, match=r"not written \(.*shard-00001.parquet\)"):
            build_corpus([str(src)], str(out), CorpusJob(shard_bytes=1), engine=DaskEngine(client))
    m = read_manifest(str(out))
    # Dask blames every task queued on the dead worker: a.py may be given up with k.py
    failed = _failed(m)
    assert m["status"] == "partial" and sorted([*_in_shards(m), *failed]) == [
        str(src / "a.py"),
        str(src / "k.py"),
    ]
    assert failed[str(src / "k.py")] == (
        "not tokenized: Dask gave it up after its workers died (KilledWorker: see their logs)"
    )
