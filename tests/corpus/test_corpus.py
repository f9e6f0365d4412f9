"""codetok corpus: shards, manifest, resume, skipped files, modes, Dask and datasets.

The tree is real code: the Java and C# samples of ``corpora/samples`` and the standard
library's ``json`` package, plus the odd files a real tree has (binary, Latin-1, notes).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sysconfig
from pathlib import Path

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from codetok.cli.app import main  # noqa: E402
from codetok.code import CodeTokenizer  # noqa: E402
from codetok.corpus import (  # noqa: E402
    BatchEncoder,
    CorpusJob,
    LocalEngine,
    RunLog,
    build_corpus,
    list_sources,
    plan_shards,
    read_manifest,
    shard_paths,
    write_shard,
)
from codetok.corpus.sources import SourceFile  # noqa: E402
from codetok.errors import ConfigurationError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "corpora" / "samples"
STDLIB_JSON = Path(sysconfig.get_paths()["stdlib"]) / "json"
SHARD = 30_000  # bytes per shard: the tree below makes 5 shards


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """Real source files, a binary .py, a Latin-1 .py, a note and a hidden folder."""
    root = tmp_path_factory.mktemp("tree") / "src"
    for lang in ("java", "csharp"):  # the polyglot tree is tests/corpus/test_corpus_polyglot.py
        shutil.copytree(SAMPLES / lang, root / "samples" / lang)
    shutil.copy(SAMPLES / "README.md", root / "samples" / "README.md")
    shutil.copytree(STDLIB_JSON, root / "json", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "json" / "blob.py").write_bytes(b"x = 1\n\0\1\2 compiled junk\n")
    (root / "latin.py").write_bytes("s = 'caf\xe9'  # Latin-1\n".encode("latin-1"))
    (root / "NOTES.txt").write_text("not code\n", encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "hook.py").write_text("x = 1\n", encoding="utf-8")
    return root


def _shards(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("shard-*.parquet"))}


def _table(out: Path):
    return pa.concat_tables([pq.read_table(p) for p in shard_paths(out)])


def test_listing_keeps_sources_and_counts_the_rest(tree):
    found = list_sources([str(tree)])
    shown = [f.shown for f in found.files]
    assert str(tree / "latin.py") in shown and str(tree / "json" / "blob.py") in shown
    assert not any(".git" in s for s in shown)
    assert found.ignored == {".md": 1, ".txt": 1, "hidden folders": 1}
    assert {f.language for f in found.files} == {"python", "java", "csharp"}
    again = list_sources([str(tree), str(tree / "json")])  # overlapping inputs: once each
    assert [f.shown for f in again.files] == shown


def test_plan_is_stable_and_cut_by_size(tree):
    files = list_sources([str(tree)]).files
    plan = plan_shards(files, SHARD)
    assert [f for t in plan for f in t.files] == files
    assert all(t.bytes >= SHARD for t in plan[:-1])
    assert [t.fingerprint for t in plan] == [t.fingerprint for t in plan_shards(files, SHARD)]


def test_shards_hold_every_file_losslessly(tree, tmp_path):
    out = tmp_path / "out"
    manifest = build_corpus([str(tree)], str(out), CorpusJob(shard_bytes=SHARD))
    assert manifest["status"] == "complete"
    assert manifest == read_manifest(str(out))
    table = _table(out)
    assert table.schema.field("ids").type == pa.list_(pa.uint16())
    ct = CodeTokenizer.default()
    for row in table.to_pylist():
        data = Path(row["path"]).read_bytes()
        enc = ct.encode(data, row["language"])
        assert row["ids"] == enc.ids and row["kinds"] == enc.kinds.tolist()
        assert ct.decode(row["ids"], as_bytes=True) == data
        assert row["bytes"] == len(data)
    # the manifest accounts for every file: in a shard, or failed with its reason
    listed = list_sources([str(tree)]).files
    in_shards = [f["path"] for e in manifest["shards"] for f in e["files"]]
    failed = {f["path"]: f["reason"] for f in manifest["failures"]}
    assert sorted(in_shards + list(failed)) == sorted(f.shown for f in listed)
    assert failed == {str(tree / "json" / "blob.py"): "binary (a NUL byte at offset 6)"}
    assert str(tree / "latin.py") in in_shards  # not UTF-8, still code: kept as bytes
    t = manifest["totals"]
    assert t["files"] == table.num_rows == len(in_shards)
    assert t["tokens"] == sum(len(r) for r in table.column("ids").to_pylist())
    assert t["languages"]["java"]["files"] == 5 and t["shards"] == t["shards_done"] == 5
    assert manifest["ignored"] == {".md": 1, ".txt": 1, "hidden folders": 1}
    for e in manifest["shards"]:
        assert e["sha256"] == hashlib.sha256((out / e["file"]).read_bytes()).hexdigest()


def test_all_cores_write_the_same_bytes_as_one(tree, tmp_path):
    job = CorpusJob(shard_bytes=SHARD)
    build_corpus([str(tree)], str(tmp_path / "one"), job, engine=LocalEngine(1))
    m = build_corpus([str(tree)], str(tmp_path / "two"), job, engine=LocalEngine(2))
    assert m["runs"][-1]["workers"] == 2
    assert _shards(tmp_path / "one") == _shards(tmp_path / "two")


class _Interrupted(LocalEngine):
    """One worker that is interrupted (Ctrl-C) after ``after`` shards."""

    def __init__(self, after: int) -> None:
        super().__init__(1)
        self.after = after

    def run(self, job, tasks, out_dir):
        for n, entry in enumerate(super().run(job, tasks, out_dir)):
            if n == self.after:
                raise KeyboardInterrupt
            yield entry


class _Counting(LocalEngine):
    def __init__(self) -> None:
        super().__init__(1)
        self.written: list[int] = []

    def run(self, job, tasks, out_dir):
        self.written += [t.index for t in tasks]
        yield from super().run(job, tasks, out_dir)


def test_resume_after_an_interruption_redoes_only_missing_shards(tree, tmp_path):
    job = CorpusJob(shard_bytes=SHARD)
    clean = tmp_path / "clean"
    build_corpus([str(tree)], str(clean), job, engine=LocalEngine(1))
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        build_corpus([str(tree)], str(out), job, engine=_Interrupted(after=2))
    partial = read_manifest(str(out))
    recorded = {e["index"] for e in partial["shards"]}
    assert partial["status"] == "partial" and len(recorded) == 2
    (out / ".shard-00002.parquet.0badc0de.tmp").write_bytes(b"half a shard")  # killed mid-write
    # a third shard was written but not recorded when the interruption came: it is redone
    before = {e["file"]: (out / e["file"]).stat().st_mtime_ns for e in partial["shards"]}
    engine = _Counting()
    manifest = build_corpus([str(tree)], str(out), job, engine=engine)
    assert sorted(engine.written) == sorted(set(range(5)) - recorded)
    assert {p: (out / p).stat().st_mtime_ns for p in before} == before  # kept, not rewritten
    assert manifest["status"] == "complete"
    assert [r["shards_kept"] for r in manifest["runs"]] == [0, 2]
    assert _shards(out) == _shards(clean)
    assert not list(out.glob(".*.tmp"))
    # nothing left: a third run writes nothing; a damaged shard is written again
    engine = _Counting()
    build_corpus([str(tree)], str(out), job, engine=engine)
    assert engine.written == []
    (out / "shard-00003.parquet").write_bytes(b"damaged")
    engine = _Counting()
    build_corpus([str(tree)], str(out), job, engine=engine)
    assert engine.written == [3] and _shards(out) == _shards(clean)


def test_a_changed_file_redoes_its_shard(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(SAMPLES / "java", src)
    job = CorpusJob(shard_bytes=SHARD)
    out = str(tmp_path / "out")
    build_corpus([str(src)], out, job, engine=LocalEngine(1))
    target = sorted(src.rglob("*.java"))[-1]
    target.write_text(target.read_text(encoding="utf-8") + "\n// more\n", encoding="utf-8")
    engine = _Counting()
    build_corpus([str(src)], out, job, engine=engine)
    assert engine.written == [len(read_manifest(out)["shards"]) - 1]


def test_another_job_or_a_foreign_folder_is_refused(tree, tmp_path):
    out = tmp_path / "out"
    build_corpus([str(tree / "json")], str(out), CorpusJob(shard_bytes=SHARD))
    with pytest.raises(ConfigurationError, match="settings shard_bytes differ"):
        build_corpus([str(tree / "json")], str(out), CorpusJob(shard_bytes=SHARD * 2))
    with pytest.raises(ConfigurationError, match="the inputs differ"):
        build_corpus([str(tree)], str(out), CorpusJob(shard_bytes=SHARD))
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="holds no _manifest.json"):
        build_corpus([str(tree / "json")], str(foreign))
    assert (foreign / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_unreadable_files_are_skipped_with_the_reason(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "README.md").write_text("# notes\n", encoding="utf-8")
    found = list_sources([str(tmp_path), str(tmp_path / "README.md"), str(tmp_path / "no")])
    reasons = {Path(f["path"]).name: f["reason"] for f in found.failures}
    assert reasons["gone.py"] == "unreadable (No such file or directory)"
    assert reasons["pipe.py"] == "not a regular file: a named pipe (FIFO)"
    assert reasons["no"] == "no such file or folder"
    assert reasons["README.md"].startswith("no wanted language has the extension .md")
    # read failures in a worker: the file vanished, or it is a folder by now
    folder = tmp_path / "dir.py"
    folder.mkdir()
    files = (
        SourceFile(str(tmp_path / "ok.py"), "ok.py", "python", 6, 0),
        SourceFile(str(tmp_path / "vanished.py"), "vanished.py", "python", 6, 0),
        SourceFile(str(folder), "dir.py", "python", 0, 0),
    )
    out = tmp_path / "out"
    out.mkdir()
    entry = write_shard(CorpusJob(), plan_shards(files, 1 << 20)[0], str(out))
    assert [f["path"] for f in entry["files"]] == ["ok.py"]
    assert [(f["path"], f["reason"]) for f in entry["failures"]] == [
        ("vanished.py", "unreadable (No such file or directory)"),
        ("dir.py", "not a regular file: a folder"),
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_file_without_read_permission_is_skipped(tmp_path):
    locked = tmp_path / "locked.py"
    locked.write_text("x = 1\n", encoding="utf-8")
    locked.chmod(0)
    m = build_corpus([str(tmp_path)], str(tmp_path / "out"))
    assert m["failures"][0]["reason"] == "unreadable (Permission denied)"


def test_codebert_mode_gives_the_pretrained_ids_with_kinds(tree, codebert_dir, tmp_path):
    from codetok.code.applications.codebert import CodeBertTokenizer

    out = tmp_path / "cb"
    job = CorpusJob(mode="codebert", tokenizer=str(codebert_dir), shard_bytes=SHARD)
    m = build_corpus([str(tree / "samples" / "csharp"), str(tree / "latin.py")], str(out), job)
    cb = CodeBertTokenizer(str(codebert_dir))
    rows = _table(out).to_pylist()
    assert len(rows) == 5
    for row in rows:
        enc = cb.encode(Path(row["path"]).read_bytes(), row["language"])
        assert row["ids"] == enc.input_ids and row["ids"][0] == 0 and row["ids"][-1] == 2
        assert row["kinds"] == enc.kinds.tolist() and row["kinds"][0] == 255
    assert m["tokenizer"]["type"] == "CodeBertTokenizer"
    (failure,) = m["failures"]
    assert failure["path"].endswith("latin.py")
    assert failure["reason"].startswith("not tokenized (ConfigurationError:")


def test_pairs_mode_writes_one_row_per_documented_function(tree, tmp_path):
    from codetok.code.applications.pairs import PairEncoder, extract_pairs

    src = tree / "samples" / "java"
    job = CorpusJob(mode="pairs", max_tokens=64, shard_bytes=SHARD)
    m = build_corpus([str(src)], str(tmp_path / "pairs"), job)
    rows = _table(tmp_path / "pairs").to_pylist()
    encoder = PairEncoder(CodeTokenizer.default(), max_code_tokens=64)
    expected = [
        encoder.encode(p)
        for f in sorted(src.rglob("*.java"))
        for p in extract_pairs(f.read_bytes(), "java", path=str(f))
    ]
    assert len(rows) == len(expected) == m["totals"]["rows"] > 20
    for row, rec in zip(rows, expected):
        assert (row["name"], row["docstring"], row["code"]) == (
            rec["name"],
            rec["docstring"],
            rec["code"],
        )
        assert row["code_ids"] == rec["code_ids"] and len(row["code_ids"]) <= 64
        assert row["docstring_ids"] == rec["docstring_ids"]
        assert row["truncated"] == rec["truncation"]["truncated"]
    assert any(r["truncated"] for r in rows)


def test_a_text_tokenizer_file_encodes_whole_files(tree, bert_dir, tmp_path):
    job = CorpusJob(tokenizer=str(bert_dir / "tokenizer.json"), shard_bytes=SHARD)
    assert job.encoder().dropped == ["padding", "truncation"]  # the file pads to 128
    build_corpus([str(tree / "json")], str(tmp_path / "bert"), job)
    table = _table(tmp_path / "bert")
    assert "kinds" not in table.column_names
    assert max(len(ids) for ids in table.column("ids").to_pylist()) > 128


def test_without_pyarrow_the_error_says_what_to_install(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"pip install 'codetok\[corpus\]'"):
        build_corpus([str(tmp_path)], str(tmp_path / "out"))


def test_job_options_are_checked():
    with pytest.raises(ConfigurationError, match="CodeBERT mode needs tokenizer="):
        CorpusJob(mode="codebert")
    with pytest.raises(ConfigurationError, match="pairs-mode budget"):
        CorpusJob(max_tokens=10)
    with pytest.raises(ConfigurationError, match="shard_bytes must be"):
        CorpusJob(shard_bytes=0)


def test_cli(tree, tmp_path, capsys):
    out = tmp_path / "out"
    args = ["corpus", str(tree), "-o", str(out), "--shard-mb", str(SHARD / (1 << 20))]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"skipped {tree / 'json' / 'blob.py'}: binary (a NUL byte at offset 6)" in err
    assert "-> 5 shards" in err and "(5 written, 0 kept)" in err and "1 skipped" in err
    assert main(args) == 0
    assert "5 of 5 shards already written; nothing left to do" in capsys.readouterr().err
    assert main([*args, "--languages", "java"]) == 2
    assert "holds shards of another job (settings languages differ)" in capsys.readouterr().err
    for extra, message in (
        (["--codebert"], "--codebert needs --tokenizer FOLDER"),
        (["--max-tokens", "5"], "--max-tokens is an option of --pairs"),
        (["--pairs", "--max-tokens", "0"], "--max-tokens must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
    ):
        assert main([*args, *extra]) == 2
        assert message in capsys.readouterr().err
    assert main(["corpus", str(tmp_path / "nope"), "-o", str(tmp_path / "x")]) == 2
    assert "nope: no such file or folder" in capsys.readouterr().err


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_dask_local_cluster_writes_identical_shards(tree, tmp_path, dask_client, capsys):
    from codetok.corpus import DaskEngine

    job = CorpusJob(shard_bytes=SHARD)
    local = build_corpus([str(tree)], str(tmp_path / "local"), job, engine=LocalEngine(2))
    on_dask = build_corpus([str(tree)], str(tmp_path / "dask"), job, engine=DaskEngine(dask_client))
    assert on_dask["runs"][-1]["engine"] == "dask" and on_dask["runs"][-1]["workers"] == 2
    assert _shards(tmp_path / "dask") == _shards(tmp_path / "local")
    for key in ("shards", "failures", "totals", "tokenizer", "columns"):
        assert on_dask[key] == local[key]
    # the command line on the same cluster, by its scheduler's address
    out = tmp_path / "cli"
    args = ["corpus", str(tree), "-o", str(out), "--shard-mb", str(SHARD / (1 << 20))]
    assert main([*args, "--dask", dask_client.scheduler.address]) == 0
    assert "on 2 dask workers" in capsys.readouterr().err
    assert _shards(out) == _shards(tmp_path / "local")


def test_datasets_map_with_two_processes_gives_the_shard_ids(tree, tmp_path):
    datasets = pytest.importorskip("datasets")
    files = list_sources([str(tree)]).files
    ds = datasets.Dataset.from_dict(
        {"path": [f.path for f in files], "language": [f.language for f in files]}
    )
    job = CorpusJob(shard_bytes=SHARD)
    mapped = ds.map(BatchEncoder(job), batched=True, batch_size=4, num_proc=2)
    out = tmp_path / "out"
    build_corpus([str(tree)], str(out), job)
    table = _table(out)
    kept = [e is None for e in mapped["error"]]
    assert mapped["ids"][kept.index(False)] == [] and kept.count(False) == 1  # the binary one
    assert [i for i, k in zip(mapped["ids"], kept) if k] == table.column("ids").to_pylist()
    assert [i for i, k in zip(mapped["kinds"], kept) if k] == table.column("kinds").to_pylist()
    shards = datasets.Dataset.from_parquet(shard_paths(out), cache_dir=str(tmp_path / "cache"))
    assert shards["ids"] == table.column("ids").to_pylist()
    with pytest.raises(ConfigurationError, match="one row per file"):
        BatchEncoder(CorpusJob(mode="pairs"))


def test_run_log_hears_every_skip_and_shard(tree, tmp_path):
    class Log(RunLog):
        def __init__(self) -> None:
            self.events: list[tuple] = []

        def started(self, *, shards, kept, todo_bytes):
            self.events.append(("started", shards, kept))

        def shard_done(self, entry):
            self.events.append(("shard", entry["index"]))

        def skipped(self, path, reason):
            self.events.append(("skipped", Path(path).name))

    log = Log()
    build_corpus([str(tree)], str(tmp_path / "out"), CorpusJob(shard_bytes=SHARD), log=log)
    assert log.events[0] == ("started", 5, 0)
    assert sorted(e for e in log.events if e[0] == "shard") == [("shard", i) for i in range(5)]
    assert ("skipped", "blob.py") in log.events


def test_shards_read_back_as_numpy(tree, tmp_path):
    out = tmp_path / "out"
    build_corpus([str(tree / "json")], str(out), CorpusJob(shard_bytes=SHARD))
    ids = _table(out).column("ids").combine_chunks().flatten().to_numpy()
    assert ids.dtype == np.uint16 and ids.size == read_manifest(str(out))["totals"]["tokens"]
    manifest = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
    assert manifest["tokenizer"]["id_type"] == "uint16"


def test_cli_error_for_an_output_file(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("", encoding="utf-8")
    assert main(["corpus", str(SAMPLES), "-o", str(target)]) == 2
    assert "is a file; pass a folder" in capsys.readouterr().err


@pytest.mark.parametrize("fim", [None, ("mixed", "ast"), ("psm", "random")])
def test_packed_sequences_hold_every_token_once(tree, tmp_path, fim):
    """``pack``: fixed-length sequences; every id of every file (FIM laid out or not, then
    its EOS) in exactly one of them, in order; the files decode back from them (FIM
    undone); ``doc_index`` names each id's file; only each shard's last one is partial."""
    from codetok.code.fim import undo_fim

    mode, spans = fim or ("psm", "ast")
    job = CorpusJob(shard_bytes=SHARD, pack=64, fim_rate=0.5 if fim else 0.0,
                    fim_mode=mode, fim_spans=spans, fim_seed=11)  # fmt: skip
    out = tmp_path / "packed"
    manifest = build_corpus([str(tree)], str(out), job, engine=LocalEngine(2))
    assert manifest["job"]["pack"] == 64 and manifest["job"]["fim_rate"] == job.fim_rate
    ct = CodeTokenizer.default()
    eos = ct.control_id("eos")
    fim_seen = 0
    for entry in manifest["shards"]:
        rows = pq.read_table(out / entry["file"]).to_pylist()
        assert all(len(r["ids"]) == 64 and not r["partial"] for r in rows[:-1])
        assert rows[-1]["partial"] == (len(rows[-1]["ids"]) < 64)
        stream = [i for r in rows for i in r["ids"]]
        docs = [d for r in rows for d in r["doc_index"]]
        assert len(stream) == entry["tokens"] == sum(f["tokens"] for f in entry["files"])
        at = 0
        for k, f in enumerate(entry["files"]):
            ids = stream[at : at + f["tokens"]]
            assert docs[at : at + f["tokens"]] == [k] * f["tokens"]
            assert ids[-1] == eos and eos not in ids[:-1]
            data = Path(f["path"]).read_bytes()
            if ids[0] == ct.control_id("fim_prefix"):
                fim_seen += 1
                assert undo_fim(ct, ids[:-1]).encode("utf-8") == data
            else:
                assert ct.decode(ids[:-1], as_bytes=True) == data
            at += f["tokens"]
        assert at == len(stream)
    assert (fim_seen > 0) == bool(fim)
    again = tmp_path / "again"
    build_corpus([str(tree)], str(again), job, engine=LocalEngine(1))
    assert _shards(again) == _shards(out)  # the same choices on any engine


def test_packing_settings_are_checked(bert_dir):
    for kwargs in ({"pack": 0}, {"mode": "pairs", "pack": 8}, {"fim_rate": 0.5},
                   {"pack": 8, "fim_rate": 2.0}, {"pack": 8, "fim_mode": "pms"}):  # fmt: skip
        with pytest.raises(ConfigurationError):
            CorpusJob(**kwargs)
    with pytest.raises(ConfigurationError, match="code tokenizer"):
        CorpusJob(pack=8, tokenizer=str(bert_dir / "tokenizer.json")).encoder()


def test_the_command_packs_with_fim(tree, tmp_path, capsys):
    out = tmp_path / "cli"
    args = ["corpus", str(tree / "json"), "-o", str(out), "-q", "--pack", "128",
            "--fim-rate", "0.5", "--fim-mode", "spm", "--fim", "random", "--fim-seed", "5"]  # fmt: skip
    assert main(args) == 0
    m = read_manifest(str(out))
    assert (m["job"]["pack"], m["job"]["fim_mode"], m["job"]["fim_spans"]) == (128, "spm", "random")
    table = _table(out)
    assert table.column_names == ["ids", "doc_index", "partial"]
    assert sum(len(r) for r in table.column("ids").to_pylist()) == m["totals"]["tokens"]
    assert main(["corpus", str(tree / "json"), "-o", str(tmp_path / "x"), "--fim-rate", "0.5"]) == 2
    assert "pack" in capsys.readouterr().err


def test_repository_packing_follows_starcoder2(tree, tmp_path):
    """``repo_packing``: each input a repository, ``<repo_name>`` and its name before its
    files, ``<file_sep>`` and each file's path and a newline before the file, the EOS
    after the repository's last file in the shard; every id in one sequence."""
    inputs = [str(tree / "json"), str(tree / "samples" / "java")]
    job = CorpusJob(shard_bytes=SHARD, pack=100, repo_packing=True)
    out = tmp_path / "repos"
    manifest = build_corpus(inputs, str(out), job)
    ct = CodeTokenizer.default()
    names = {str(tree / "json"): "json", str(tree / "samples" / "java"): "java"}
    for entry in manifest["shards"]:
        rows = pq.read_table(out / entry["file"]).to_pylist()
        stream = [i for r in rows for i in r["ids"]]
        assert len(stream) == sum(f["tokens"] for f in entry["files"])
        want, last = [], None
        for f in entry["files"]:
            root = next(r for r in names if f["path"].startswith(r + os.sep))
            if root != last:
                if last is not None:
                    want.append("<|endoftext|>")
                want.append(f"<repo_name>{names[root]}")
                last = root
            below = f["path"][len(root) + 1 :]
            want.append(f"<file_sep>{below}\n{Path(f['path']).read_text(encoding='utf-8')}")
        want.append("<|endoftext|>")
        assert ct.decode(stream, skip_special_tokens=False) == "".join(want)
    with pytest.raises(ConfigurationError, match="pack"):
        CorpusJob(repo_packing=True)
    fim = CorpusJob(shard_bytes=SHARD, pack=100, repo_packing=True, fim_rate=1.0)
    m = build_corpus(inputs, str(tmp_path / "repos-fim"), fim)
    streams = [
        [i for r in pq.read_table(tmp_path / "repos-fim" / e["file"]).to_pylist() for i in r["ids"]]
        for e in m["shards"]
    ]
    assert [len(s) for s in streams] == [sum(f["tokens"] for f in e["files"]) for e in m["shards"]]
    assert all(ct.control_id("fim_prefix") in s for s in streams)  # every file laid out for FIM
    assert all(s[-1] == ct.control_id("eos") for s in streams)
