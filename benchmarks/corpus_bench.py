"""Throughput of ``codetok corpus`` on 1 and N workers, next to a plain loop of encode.

On ``--mb`` MB of real code (the source files under the given folders, in listing order;
repeated through symlinks when the folders hold less), measures, in MB of source per second
of wall time:

* ``plain loop``: one process reads each file and calls ``CodeTokenizer.encode(data,
  language).ids_array``: the single-core speed of the tokenizer itself, nothing written;
* ``codetok corpus -j N``: the command as a user runs it (a fresh process: start-up,
  tokenizer load, listing, shards written as Parquet, the manifest), for each ``--workers``.

Next to the wall time, the CPU time of each row (the command's processes together): on a
shared machine the wall time depends on what else runs, while MB per CPU second is the
work each row does per MB, so it shows what the cores of a quiet machine would give.

Every run's per-file token counts (from its manifest) are checked equal to the plain
loop's. The files are read once first so that every run finds them in the page cache; with
``--repeat N`` the rows run in turn N times and the best time of each counts.

    python corpora/fetch_code.py CORPUS --max-mb 12
    python benchmarks/corpus_bench.py CORPUS --mb 200 --workers 1 2 --repeat 2

With ``--pack N`` each worker count also runs with ``--pack N --fim-rate R --fim ast|random``,
and the ratio of its time to the unpacked run's is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path


def select(inputs: list[str], mb: float) -> list:
    """The listing's files, cycled until their sizes reach ``mb`` MB."""
    from codetok.corpus import list_sources

    files = [f for f in list_sources(inputs).files if f.size > 0]
    if not files:
        raise SystemExit(f"no source files under {' '.join(inputs)}")
    out, size, k = [], 0, 0
    while size < mb * 1e6:
        f = files[k % len(files)]
        out.append((k // len(files), f))
        size += f.size
        k += 1
    return out


def build_tree(chosen: list, root: Path) -> None:
    """Symlinks to the chosen files: ``root/copy-R/<index>-<name>`` (R counts repeats)."""
    for i, (rep, f) in enumerate(chosen):
        folder = root / f"copy-{rep:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{i:07d}-{Path(f.path).name}").symlink_to(f.path)


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", help="folders of source code")
    parser.add_argument("--mb", type=float, default=200.0, help="MB of source to process")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--shard-mb", type=float, default=8.0)
    parser.add_argument("--repeat", type=int, default=1, help="best of N interleaved runs")
    parser.add_argument(
        "--pack", type=int, help="also run each worker count with --pack N (and the FIM below)"
    )
    parser.add_argument("--fim-rate", type=float, default=0.5, help="with --pack (0.5)")
    parser.add_argument("--fim", choices=("ast", "random"), default="ast", help="with --pack")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="corpus_bench_"))
    try:
        return _run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the symlink tree and every run's shards


def _run(args: argparse.Namespace, work: Path) -> int:
    from codetok.code import CodeTokenizer
    from codetok.corpus import list_sources

    chosen = select(args.inputs, args.mb)
    build_tree(chosen, work / "tree")
    files = list_sources([str(work / "tree")]).files
    total = sum(f.size for f in files)
    distinct = len({f.path for _, f in chosen})
    print(
        f"{total / 1e6:.1f} MB in {len(files)} files ({distinct} distinct files, "
        f"{len({r for r, _ in chosen})} passes over them), on {os.cpu_count()} cores",
        flush=True,
    )
    for f in files:  # into the page cache
        Path(f.path).read_bytes()

    ct = CodeTokenizer.default()
    counts: dict[str, int] = {}

    def plain_loop() -> tuple[float, float]:
        t0, c0 = time.perf_counter(), time.process_time()
        for f in files:
            counts[f.shown] = len(ct.encode(Path(f.path).read_bytes(), f.language).ids_array)
        return time.perf_counter() - t0, time.process_time() - c0

    def command(workers: int, pack: int | None = None) -> tuple[float, float]:
        out = work / f"out-{workers}-{pack}"
        shutil.rmtree(out, ignore_errors=True)
        cmd = [
            sys.executable,
            "-c",  # not ``-m codetok.cli.app``: the package imports it first, and runpy warns
            "import sys; from codetok.cli.app import main; sys.exit(main())",
            "corpus",
            str(work / "tree"),
            "-o",
            str(out),
        ]
        cmd += ["-j", str(workers), "--shard-mb", str(args.shard_mb), "-q"]
        if pack is not None:
            cmd += ["--pack", str(pack), "--fim-rate", str(args.fim_rate), "--fim", args.fim]
        t0, c0 = time.perf_counter(), _children_cpu()
        subprocess.run(cmd, check=True)
        seconds, cpu = time.perf_counter() - t0, _children_cpu() - c0
        manifest = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
        got = {f["path"]: f["tokens"] for e in manifest["shards"] for f in e["files"]}
        if manifest["failures"] or (pack is None and got != counts) or set(got) != set(counts):
            raise SystemExit(f"-j {workers}: token counts differ from the plain loop's")
        shards[workers] = manifest["totals"]["shards"]
        return seconds, cpu

    best: dict[object, tuple[float, float]] = {}
    shards: dict[int, int] = {}
    runs: list[tuple[object, Callable[[], tuple[float, float]]]] = [("plain", plain_loop)]
    runs += [(w, partial(command, w)) for w in args.workers]
    if args.pack:
        runs += [((w, "pack"), partial(command, w, args.pack)) for w in args.workers]
    for _ in range(args.repeat):  # interleaved, so a busy moment hits every row alike
        for name, run in runs:
            best[name] = min(best.get(name, (float("inf"), 0.0)), run())
    plain = best["plain"][0]
    rows = [("plain loop of `CodeTokenizer.encode` (1 process)", *best["plain"])]
    rows += [(f"`codetok corpus -j {w}` ({shards[w]} shards)", *best[w]) for w in args.workers]
    if args.pack:
        flags = f"--pack {args.pack} --fim-rate {args.fim_rate:g} --fim {args.fim}"
        rows += [(f"`codetok corpus -j {w} {flags}`", *best[(w, "pack")]) for w in args.workers]

    mb = total / 1e6
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    print("\n| run | s | MB/s | vs plain loop | CPU s | MB per CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, seconds, cpu in rows:
        print(
            f"| {name} | {seconds:.1f} | {mb / seconds:.2f} | {plain / seconds:.2f}x "
            f"| {cpu:.1f} | {mb / cpu:.2f} |"
        )
    for w in args.workers:
        if w != 1 and 1 in best:
            print(f"\n-j {w} over -j 1: {best[1][0] / best[w][0]:.2f}x")
        if args.pack:
            ratio = best[w][0] / best[(w, "pack")][0]
            print(f"-j {w}: packed with FIM over unpacked: {ratio:.2f}x (issue 31: >= 0.85)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
