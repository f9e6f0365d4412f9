"""How far real code stays from the default parse budget, and what the budget does to a bomb.

For every file of a ``corpora/fetch_code.py`` output folder (and ``corpora/samples``), the
native parser's report (``codetok._core.parse_report``: seconds, peak bytes of its arena)
under the default :class:`~codetok.code.ParseBudget`. Printed per language: files, MB,
how many tripped the default (the target is none), the slowest parse in seconds per MB
(files over 20 KB) and the largest peak in bytes per byte of input (files over 100 KB;
below that the first 1 MiB chunk of the arena dominates). Then the inputs a hostile probe
found, under the default budget: what stopped them, when, and how much they held.

    python benchmarks/parse_budget.py CORPUS
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from codetok.code import ParseBudget, get_grammar
from codetok.engine import native as _backend

EXT = {"python": "py", "java": "java", "csharp": "cs", "javascript": "js"}
BOMBS = [
    ("java", "a<" * 40000),
    ("java", "a<" * 20000),
    ("csharp", "a<a<a>>" * 2300),
    ("javascript", "(" * 100_000 + ")" * 100_000),
    ("python", "x = [" + "[], " * 500_000 + "]\n"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    args = ap.parse_args()
    core = _backend.core()
    budget = ParseBudget()
    samples = Path(__file__).resolve().parents[1] / "corpora" / "samples"
    print(f"{'language':11} {'files':>6} {'MB':>6} {'tripped':>8} {'max s/MB':>9} {'max B/B':>8}")
    for language, ext in EXT.items():
        grammar = get_grammar(language)
        paths = sorted((args.corpus / language).rglob(f"*.{ext}"))
        paths += sorted((samples / language).rglob(f"*.{ext}"))
        files = size = tripped = 0
        slowest = densest = 0.0
        for path in paths:
            data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
            if not data:
                continue
            status, seconds, peak, _ = core.parse_report(
                grammar.capsule, data, *budget.limits(len(data))
            )
            files += 1
            size += len(data)
            tripped += status != "ok"
            if len(data) > 20_000:
                slowest = max(slowest, seconds / (len(data) / 1e6))
            if len(data) > 100_000:
                densest = max(densest, peak / len(data))
        print(
            f"{language:11} {files:6} {size / 1e6:6.1f} {tripped:8} {slowest:9.2f} {densest:8.0f}"
        )
    print()
    for language, text in BOMBS:
        data = text.encode()
        start = time.perf_counter()
        status, seconds, peak, offset = core.parse_report(
            get_grammar(language).capsule, data, *budget.limits(len(data))
        )
        wall = time.perf_counter() - start
        print(
            f"{language:11} {text[:12]!r:16} {len(data):9,} bytes: {status:6} after {wall:5.2f} s, "
            f"peak {peak / 1e6:6.0f} MB, at byte {offset:,}"
        )


if __name__ == "__main__":
    main()
