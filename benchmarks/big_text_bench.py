"""One big text: cl100k ``encode(t).ids`` against ``encode_ordinary`` and quicktok, and the byte
and character tokenizers against ``list(text.encode())``, in one run.

The text: ``--mb`` megabytes of the running interpreter's standard library (``*.py``) as one
str (``--byte-mb`` for the byte and char rows). Each figure is the median of ``--repeat``
runs in this process with the garbage collector on (the rows of each part timed in turn
within each round, with the best run too); quicktok's ids are checked equal to
codetok's first. The last column says what reading a second view costs: ``ids_array``
after ``ids`` (it is the native result's view, not a second conversion).

    python benchmarks/big_text_bench.py --mb 4 --byte-mb 1 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from train_bench import build_corpus  # noqa: E402


def median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def interleaved(rows: dict, repeat: int) -> dict[str, tuple[float, float]]:
    """``(median, min)`` seconds of each row, the rows timed in turn within each round (a
    busy machine then slows them alike)."""
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(repeat):
        for name, fn in rows.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return {name: (statistics.median(ts), min(ts)) for name, ts in times.items()}


def read_text(mb: float) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "text.py.txt")
        build_corpus(path, mb)
        with open(path, encoding="utf-8") as fh:
            return fh.read()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=4.0)
    ap.add_argument("--byte-mb", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    import tiktoken_ext

    from codetok.formats.tiktoken_file import tokenizer_from_tiktoken
    from codetok.text import byte_tokenizer, char_tokenizer

    text = read_text(args.mb)
    mb = len(text.encode("utf-8")) / 1e6
    ranks = os.path.join(list(tiktoken_ext.__path__)[0], "data", "cl100k_base.tiktoken")
    cl100k = tokenizer_from_tiktoken(ranks)
    rows = {
        "encode_ordinary(t)": lambda: cl100k.encode_ordinary(text),
        "encode(t).ids": lambda: cl100k.encode(text).ids,
    }
    try:
        import quicktok

        quick = quicktok.Tokenizer("cl100k_base", "")
        assert quick.encode(text) == cl100k.encode_ordinary(text), "quicktok's ids differ"
        rows["quicktok encode(t)"] = lambda: quick.encode(text)
    except ImportError:
        print("quicktok is not installed: its row is left out")
    print(f"cl100k, one text of {mb:.2f} MB:")
    timed = interleaved(rows, args.repeat)
    for name, (med, best) in timed.items():
        print(f"  {name:22s} {mb / med:8.1f} MB/s (best run {mb / best:.1f})")
    for k, what in ((0, "median"), (1, "best run")):
        ratio = timed["encode(t).ids"][k] / timed["encode_ordinary(t)"][k]
        line = f"  {what}: encode(t).ids takes x{ratio:.2f} the time of encode_ordinary(t)"
        if "quicktok encode(t)" in timed:
            line += f", runs x{timed['quicktok encode(t)'][k] / timed['encode(t).ids'][k]:.2f}"
            line += " quicktok's speed"
        print(line)

    small = read_text(args.byte_mb)
    smb = len(small.encode("utf-8")) / 1e6
    tokenizers = {
        "byte_tokenizer()": byte_tokenizer(),
        "char_tokenizer() (NFC)": char_tokenizer(corpus=[small]),
    }
    base = "list(text.encode())"
    rows = {base: lambda: list(small.encode())}
    rows.update({name: (lambda t=tok: t.encode(small).ids) for name, tok in tokenizers.items()})
    timed = interleaved(rows, args.repeat)
    print(
        f"byte and char tokenizers, one text of {smb:.2f} MB, encode(t).ids against "
        f"{base} ({timed[base][0] * 1e3:.1f} ms), timed in turn:"
    )
    for name, tok in tokenizers.items():
        (med, best), (base_med, base_best) = timed[name], timed[base]

        def both(t=tok):
            enc = t.encode(small)
            _ = enc.ids  # the first view
            return enc

        second = median_seconds(lambda: both().ids_array, args.repeat) - med
        print(
            f"  {name:24s} {med * 1e3:6.1f} ms: x{base_med / med:.2f} the speed of {base} "
            f"(best runs x{base_best / best:.2f}); ids_array after ids "
            f"{max(second, 0) * 1e3:5.1f} ms more"
        )


if __name__ == "__main__":
    main()
