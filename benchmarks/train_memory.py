"""Train byte-level BPE on a generated corpus and report time and peak RSS.

The corpus is pseudo-code built from a fixed vocabulary of identifiers (Zipf-distributed,
seeded), written to a temporary directory as many files; training streams it line by line.
The acceptance target is a peak RSS under 2 GB for 200 MB.

    python benchmarks/train_memory.py --mb 200 --vocab-size 32000 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import resource
import shutil
import sys
import tempfile
import time


def generate(directory: str, megabytes: float, seed: int = 0) -> int:
    """Write about ``megabytes`` of code-like text into ``directory``; returns bytes written."""
    rng = random.Random(seed)
    # ~400k distinct pseudo-words (consonant-vowel syllables, some camelCase), so the
    # number of unique pre-tokenized words, which drives trainer memory, is realistic.
    cons, vows = "bcdfghjklmnprstvwz", "aeiou"

    def word() -> str:
        parts = [
            "".join(rng.choice(cons) + rng.choice(vows) for _ in range(rng.randint(1, 4)))
            for _ in range(rng.randint(1, 2))
        ]
        return parts[0] + "".join(p.capitalize() for p in parts[1:])

    words = sorted({word() for _ in range(400_000)})
    rng.shuffle(words)
    cum = list(itertools.accumulate(1.0 / (i + 1) for i in range(len(words))))
    templates = [
        "{i}def {a}({b}, {c}):\n",
        "{i}{a} = {b}.{c}({d})\n",
        "{i}if {a} is not None and {b} > {n}:\n",
        "{i}return {a}[{n}] + {b}\n",
        "{i}# {a} {b} {c} {d}\n",
        "{i}for {a} in range({n}):\n",
        "{i}self.{a} = {b}\n",
        '{i}raise ValueError("{a} {b}: %r" % {c})\n',
    ]
    target = int(megabytes * 1_000_000)
    written = 0
    n_file = 0
    while written < target:
        lines = []
        for _ in range(5000):
            t = rng.choice(templates)
            a, b, c, d = rng.choices(words, cum_weights=cum, k=4)
            lines.append(
                t.format(i="    " * rng.randint(0, 3), a=a, b=b, c=c, d=d, n=rng.randint(0, 1000))
            )
        chunk = "".join(lines).encode("utf-8")
        with open(os.path.join(directory, f"f{n_file:05d}.py"), "wb") as fh:
            fh.write(chunk)
        written += len(chunk)
        n_file += 1
    return written


def peak_rss_mb() -> tuple[float, float]:
    """Peak RSS of this process and of its finished children, in MB (Linux: KB units)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, kids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=200.0)
    ap.add_argument("--vocab-size", type=int, default=32000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="keep the generated corpus")
    args = ap.parse_args()

    from codetok.trainers import train_bpe

    tmp = tempfile.mkdtemp(prefix="codetok-train-mem-")
    try:
        t0 = time.perf_counter()
        size = generate(tmp, args.mb)
        t1 = time.perf_counter()
        print(f"generated {size / 1e6:.1f} MB in {t1 - t0:.1f}s under {tmp}", file=sys.stderr)
        tok = train_bpe(
            tmp, vocab_size=args.vocab_size, show_progress=True, num_workers=args.workers
        )
        t2 = time.perf_counter()
        own, kids = peak_rss_mb()
        print(f"corpus: {size / 1e6:.1f} MB, vocab: {tok.get_vocab_size()}")
        print(f"train time: {t2 - t1:.1f}s ({size / 1e6 / (t2 - t1):.2f} MB/s)")
        print(f"peak RSS: main process {own:.0f} MB, largest worker {kids:.0f} MB")
        print("PASS" if max(own, kids) < 2048 else "FAIL", "(limit 2048 MB)")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
