"""Hostile source trees in the fuzzing harness (not a test module): ``path:corpus``.

Each case builds a random tree: folders (hidden ones, odd names: spaces, a newline,
unicode, bytes that are not UTF-8, 200 chars, a folder named ``x.py``), source files of
every language (real code, empty, binary, invalid UTF-8, larger than the case's
``max_file_bytes``, now and then a parse bomb), FIFOs, and symlinks: to files, to
folders (a sibling, an ancestor: a loop, the tree's root, itself), chains, dangling ones,
pairs that point at each other, to ``/dev/null`` and ``/dev/zero``, and to a folder
outside the tree. It runs ``build_corpus`` (in a thread with a timeout; the FIFOs are
opened for writing if it is still running) on the tree, or overlapping inputs, a file
named directly, a missing path, with symlinks followed or not, a size cap, a shard size
and languages drawn; now and then the ``codetok corpus`` command with two worker
processes instead.

The property: it finishes with a complete manifest; every source file reachable from the
inputs is accounted for: in a shard (its tokens decode back to the file's bytes), in the
failures with a reason, below a folder listed in the failures, below a hidden folder, or
listed under another path to the same file; the totals agree with the shards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from fuzz_generators import code_samples
from fuzz_hub import build_tree, unblock

CORPUS_SECONDS = 60.0
CLI_SECONDS = 180.0
CODE_EXTS = {".py": "python", ".java": "java", ".cs": "csharp", ".js": "javascript"}
_NAMES = [
    "a", "b", "src", "lib", "sub dir", "ünï", "日本", "-rf", "x.py", "a\nb", "\udcff\udcfe",
    "n" * 200, "dup", "tests", "node_modules", " lead", "trail ", "UPPER",
]  # fmt: skip
_EXTS = [".py", ".java", ".cs", ".js", ".py", ".js", ".PY", ".Java", ".md", ".txt", "", ".pyc"]


@dataclass
class CorpusCase:
    """A tree (``fuzz_hub.build_tree`` entries under ``tree/``; ``{root}`` is the case's
    folder), the inputs (relative to the case's folder) and the job's options."""

    entries: list[tuple[str, str, Any]]
    inputs: list[str]
    follow_symlinks: bool
    max_file_bytes: int
    shard_bytes: int
    languages: tuple[str, ...] | None
    cli: bool = False


def _content(rng: Random, ext: str, cap: int) -> bytes:
    op = rng.randrange(14)
    if op < 7:
        lang = CODE_EXTS.get(ext.lower())
        pool = [s for la, s in code_samples() if la == lang] or [s for _, s in code_samples()]
        src = rng.choice(pool)
        a = rng.randrange(len(src) + 1)
        return src[a : a + rng.choice([10, 100, 600])].encode("utf-8", "surrogatepass")
    if op == 7:
        return b""
    if op == 8:  # binary: a NUL byte before or after git's 8,000-byte probe
        at = rng.choice([0, 10, 7999, 8000, 9000])
        return b"x" * at + b"\0" + b"y" * 10
    if op == 9:
        return b"x = '\xff\xfe\xed\xa0\x80'\n"
    if op == 10:  # over the size cap, or just at it
        return b"#" * (cap + rng.choice([1, 1, 0, 1000]))
    if op == 11 and rng.random() < 0.1:  # a parse bomb: the file becomes a failure
        return b"a<" * 15000
    if op == 12:
        return b"\xef\xbb\xbf" + b"x = 1\r\n" * rng.randint(1, 20)
    return b"def f(:\n  ((((\n" * rng.randint(1, 30)


def gen_corpus(rng: Random) -> CorpusCase:
    """A hostile tree, the inputs and the options."""
    cap = rng.choice([64, 512, 4096, 1 << 20])
    folders = ["tree"]
    entries: list[tuple[str, str, Any]] = []
    for _ in range(rng.randint(1, 6)):
        parent = rng.choice(folders)
        name = rng.choice(_NAMES)
        if rng.random() < 0.15:
            name = "." + name
        path = f"{parent}/{name}"
        if path not in folders and len(path) < 800:
            folders.append(path)
            entries.append((path, "dir", None))
    files = []
    for _ in range(rng.randint(1, 14)):
        parent = rng.choice(folders)
        ext = rng.choice(_EXTS)
        path = f"{parent}/{rng.choice(_NAMES)}{ext}"
        files.append(path)
        if rng.random() < 0.08:
            entries.append((path, "fifo", None))
        else:
            entries.append((path, "file", _content(rng, ext, cap)))
    for _ in range(rng.randint(0, 6)):
        parent = rng.choice(folders)
        path = f"{parent}/{rng.choice(_NAMES)}{rng.choice(['', '', '.py', '.js'])}"
        depth = parent.count("/")
        target = rng.choice(
            [
                "." if not files else os.path.relpath(rng.choice(files), parent),
                os.path.relpath(rng.choice(folders), parent),
                "../" * depth + "tree",
                ".",
                "..",
                "{root}/" + rng.choice(folders),
                "{root}/outside",
                "{root}/outside/o.py",
                "nowhere",
                "/dev/null",
                "/dev/zero",
                os.path.basename(path),  # itself
                "loop2",
            ]
        )
        entries.append((path, "link", target))
        if target == "loop2":
            entries.append((f"{parent}/loop2", "link", os.path.basename(path)))
    entries += [("outside/o.py", "file", b"o = 1\n"), ("outside/o.java", "file", b"class O {}\n")]
    inputs = ["tree"]
    op = rng.randrange(10)
    if op == 0 and len(folders) > 1:
        inputs.append(rng.choice(folders[1:]))
    elif op == 1 and files:
        inputs = [rng.choice(files)] + (["tree"] if rng.random() < 0.5 else [])
    elif op == 2:
        inputs.append("tree/missing.py")
    elif op == 3:
        inputs = ["tree", "tree"]
    elif op == 4:
        inputs = ["tree/"]
    languages = rng.choice([None, None, None, ("python",), ("java", "csharp", "javascript")])
    return CorpusCase(
        sorted(entries, key=lambda e: e[0].count("/")),
        inputs,
        rng.random() < 0.8,
        cap,
        rng.choice([50, 500, 4000, 1 << 20]),
        languages,
        rng.random() < 0.03,
    )


# ------------------------------------------------------------------------ checking


def _reachable(root: Path, given: str, wanted: dict[str, str]) -> list[tuple[str, str]]:
    """``(shown path, real path)`` of every source file reachable from the input ``given``
    (symlinked folders followed, each loop entered once; shown as ``list_sources`` shows
    it). Dangling links and FIFOs are in too (their real path is their own)."""
    out: list[tuple[str, str]] = []
    start = root / given

    def walk(folder: Path, shown: str, chain: frozenset[str]) -> None:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return
        for name in names:
            full = folder / name
            sub = os.path.normpath(os.path.join(shown, name))
            if full.is_dir():
                real = os.path.realpath(full)
                if real not in chain and not name.startswith("."):
                    walk(full, sub, chain | {real})
            elif os.path.splitext(name)[1].lower() in wanted:
                out.append((sub, os.path.realpath(full)))

    if start.is_dir():
        walk(start, given, frozenset([os.path.realpath(start)]))
    else:
        out.append((given, os.path.realpath(start)))
    return out


def _ancestors(shown: str) -> list[str]:
    parts = []
    head = os.path.dirname(shown)
    while head and head not in parts:
        parts.append(head)
        head = os.path.dirname(head)
    return parts


def _run_inprocess(root: Path, out: Path, case: CorpusCase, job: Any) -> Any:
    from codetok.corpus import LocalEngine, build_corpus

    result: list[Any] = []

    def run() -> None:
        try:
            inputs = [os.path.join(root, p) for p in case.inputs]
            result.append(build_corpus(inputs, str(out), job, engine=LocalEngine(1)))
        except BaseException as e:  # noqa: BLE001 - judged by the caller
            result.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(CORPUS_SECONDS)
    return result[0] if result else None


def _run_cli(root: Path, out: Path, case: CorpusCase) -> Any:
    run = "import sys; from codetok.cli.app import main; sys.exit(main())"
    cmd = [sys.executable, "-c", run, "corpus", *case.inputs, "-o", str(out), "-j", "2"]
    cmd += ["--shard-mb", str(max(case.shard_bytes / 1e6, 1e-6)), "--quiet"]
    cmd += ["--max-file-mb", str(case.max_file_bytes / 2**20)]
    if not case.follow_symlinks:
        cmd.append("--no-follow-symlinks")
    if case.languages:
        cmd += ["--languages", *case.languages]
    tree = str(Path(__file__).resolve().parents[2])  # the codetok under test, not an installed one
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [tree, os.environ.get("PYTHONPATH")])))  # fmt: skip
    try:
        got = subprocess.run(
            cmd, cwd=root, capture_output=True, text=True, timeout=CLI_SECONDS, env=env
        )
    except subprocess.TimeoutExpired:
        return None
    missing = [p for p in case.inputs if not os.path.lexists(root / p)]
    refused = f"codetok: error: {missing[0]}: no such file or folder" if missing else None
    if got.returncode == 2 and refused and got.stderr.strip() == refused:
        return False  # the command names a missing input before it starts: its choice
    if got.returncode != 0:
        return RuntimeError(f"codetok corpus exited {got.returncode}: {got.stderr[-600:]}")
    return True


def check_corpus_case(workdir: Path, case: CorpusCase, code_tokenizer: Any) -> tuple[str, str] | None:  # fmt: skip
    """``None`` when the property holds, else ``(kind, detail)``."""
    from fuzz_checks import _describe

    from codetok.corpus import CorpusJob
    from codetok.corpus.sources import _extension_table

    root = workdir / "corpus"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    out = root / "out"
    fifos = build_tree(root, case.entries)
    if case.cli and case.max_file_bytes < 1 << 20:
        case = CorpusCase(**{**case.__dict__, "max_file_bytes": 1 << 20})  # --max-file-mb
    job = CorpusJob(
        languages=case.languages,
        shard_bytes=case.shard_bytes,
        follow_symlinks=case.follow_symlinks,
        max_file_bytes=case.max_file_bytes,
    )
    got = _run_cli(root, out, case) if case.cli else _run_inprocess(root, out, case, job)
    if got is None:
        unblock(fifos)
        return "error", f"the corpus run still went on after {CORPUS_SECONDS:.0f} s"
    if isinstance(got, BaseException):
        return "error", f"build_corpus raised {_describe(got)}"
    if got is False:
        return None
    try:  # what the user reads: the manifest file
        manifest = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return "error", f"the manifest cannot be read: {_describe(e)}"
    if manifest.get("status") != "complete":
        return "error", f"the manifest's status is {manifest.get('status')!r}"
    listed: dict[str, dict[str, Any]] = {}
    for shard in manifest["shards"]:
        for f in shard["files"]:
            listed[f["path"]] = f
    failed = {f["path"]: f["reason"] for f in manifest["failures"]}
    bad = [f for f in manifest["failures"] if not isinstance(f.get("reason"), str) or not f["reason"]]  # fmt: skip
    if bad:
        return "error", f"a failure without a reason: {bad[0]!r:.200}"
    totals = manifest["totals"]
    if totals["files"] != len(listed) or totals["failures"] != len(manifest["failures"]):
        return "error", f"totals {totals!r:.200} disagree with the shards and failures"
    wanted = _extension_table(case.languages)
    reals = {os.path.realpath(root / p) for p in [*listed, *failed]}
    inputs = case.inputs if case.cli else [os.path.join(root, p) for p in case.inputs]
    for given in dict.fromkeys(inputs):
        for shown, real in _reachable(root, given, wanted):
            if shown in listed or shown in failed or real in reals:
                continue
            if any(a in failed for a in _ancestors(shown)):
                continue
            return "loss", f"{shown!r} is in no shard and no failure (inputs {case.inputs!r})"
    return _check_shards(root, out, manifest, listed, code_tokenizer)


def _check_shards(root: Path, out: Path, manifest: dict[str, Any], listed: dict[str, Any], tok: Any) -> tuple[str, str] | None:  # fmt: skip
    import pyarrow.parquet as pq

    rows = 0
    for shard in manifest["shards"]:
        table = pq.read_table(out / shard["file"])
        rows += table.num_rows
        for path, size, ids in zip(
            table.column("path").to_pylist(),
            table.column("bytes").to_pylist(),
            table.column("ids").to_pylist(),
        ):
            if path not in listed and not any(
                p.encode("utf-8", "surrogatepass").decode("utf-8", "replace") == path
                for p in listed
            ):
                return "error", f"shard row {path!r} is not in the manifest"
            try:
                data = (root / path).read_bytes()
            except OSError:
                continue  # a name the shard had to rewrite (not UTF-8): checked by the manifest
            if size != len(data) or tok.decode(ids, as_bytes=True) != data:
                return "loss", f"{path!r}: the shard's tokens do not give the file's bytes back"
    if rows != len(listed):
        return "error", f"{rows} shard rows for {len(listed)} files in the manifest"
    return None


__all__ = ["CorpusCase", "gen_corpus", "check_corpus_case"]
