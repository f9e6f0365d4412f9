"""Import time: ``import codetok`` against ``import tokenizers`` and ``import tiktoken``.

Each import runs in a fresh interpreter (``python -c``) that times it with
``time.perf_counter``; the runs of the libraries are interleaved, so a busy moment of the
machine touches them all alike, and the median of ``--runs`` is printed with the ratio to
codetok's. One warm-up run per library first writes its bytecode caches where it can (the
figures are those of an install with bytecode). The interpreter's bare start-up
(``python -c pass``, wall clock seen from here) is printed for context.

``--plain-site`` runs the interpreters without the ``.pth`` import hooks of the
environment (``python -S`` with its site-packages on ``PYTHONPATH``): an editable install
of codetok imports ``pathlib``, ``re`` and more from such a hook before any import, which
a regular install does not, so that figure is what a regular install pays.

    python benchmarks/import_bench.py [--runs 21] [--plain-site]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import site
import statistics
import subprocess
import sys
import time

LIBRARIES = ("codetok", "tokenizers", "tiktoken")

_CHILD = "import time; t = time.perf_counter(); import {0}; print(time.perf_counter() - t)"


def environment(plain_site: bool) -> tuple[list[str], dict[str, str]]:
    """The interpreter's command prefix and environment for the runs."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not plain_site:
        return [sys.executable], env
    spec = importlib.util.find_spec("codetok")
    if spec is None or spec.origin is None:
        raise SystemExit("codetok is not importable")
    codetok_root = os.path.dirname(os.path.dirname(spec.origin))
    path = [codetok_root, *site.getsitepackages(), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
    # -S skips site's .pth files; importing site then only loads it, as start-up would.
    return [sys.executable, "-S"], env


def import_seconds(command: list[str], env: dict[str, str], name: str) -> float:
    """Seconds that ``import name`` takes in a fresh interpreter."""
    code = ("import site; " if "-S" in command else "") + _CHILD.format(name)
    out = subprocess.run(
        [*command, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def startup_seconds(command: list[str], env: dict[str, str]) -> float:
    """Wall-clock seconds of ``python -c pass``."""
    t = time.perf_counter()
    subprocess.run([*command, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--plain-site", action="store_true", help="no .pth import hooks")
    args = ap.parse_args()

    command, env = environment(args.plain_site)
    names = [n for n in LIBRARIES if importlib.util.find_spec(n) is not None]
    for name in names:  # warm-up: bytecode caches written
        import_seconds(command, env, name)
    times: dict[str, list[float]] = {n: [] for n in names}
    startup: list[float] = []
    for _ in range(args.runs):
        for name in names:
            times[name].append(import_seconds(command, env, name))
        startup.append(startup_seconds(command, env))

    mode = "plain site, no .pth hooks" if args.plain_site else "this environment"
    print(f"import time, median of {args.runs} fresh interpreters ({mode}):")
    print(f"  {'library':<12} {'median ms':>9} {'min ms':>7} {'/ codetok':>9}")
    base = statistics.median(times["codetok"])
    for name in names:
        med = statistics.median(times[name])
        print(f"  {name:<12} {med * 1e3:9.1f} {min(times[name]) * 1e3:7.1f} {med / base:9.2f}")
    print(f"  python -c pass: {statistics.median(startup) * 1e3:.1f} ms (start-up, wall clock)")


if __name__ == "__main__":
    main()
