"""Peak memory and time of the code tokenizer against tree-sitter's own parse of the same input.

Each case runs in fresh processes, one per engine, so each peak is its own:

- ``tree-sitter``: the ``tree-sitter`` bindings parse the bytes and hold the tree (the
  floor: codetok cannot hold less than the tree while it walks it);
- ``codetok``: ``CodeTokenizer.default().encode(data, language)`` with its ids read as an
  array (``ids_array``; the list ``ids`` adds a Python int object per token on top).

A process first loads what it needs and encodes (or parses) a small file, so the baseline
holds the imports, the vocabulary and the input; the figure is the peak resident memory
(``VmHWM``) above that baseline, over the call. Printed per case: both peaks, their ratio
(the target is at most 1.3), both times and their ratio.

Cases: a large Java file made of real files (``--java-mb`` MB from ``CORPUS/java``), the
same for C#, dense punctuation (2 MB of nested brackets in JavaScript and Python), and
Java and C# made of the same real files with syntax errors (every 40th line cut in half),
whose time is compared with the valid file's (target: within 3x).

    python benchmarks/code_memory.py CORPUS [--java-mb 20] [--repeat 1]

``CORPUS`` is a ``corpora/fetch_code.py`` output folder.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXT = {"java": "java", "csharp": "cs", "python": "py", "javascript": "js"}


def status(field: str) -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return float("nan")


def reset_peak() -> None:
    """Start ``VmHWM`` again from the current resident size (Linux 4.0+)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def child(engine: str, path: str, language: str) -> None:
    data = Path(path).read_bytes()
    if engine == "tree-sitter":
        import importlib

        from tree_sitter import Language, Parser

        module = {"csharp": "tree_sitter_c_sharp"}.get(language, f"tree_sitter_{language}")
        parser = Parser(Language(importlib.import_module(module).language()))
        parser.parse(b"class A {}\n")

        def run() -> int:
            tree = parser.parse(data)
            return tree.root_node.end_byte

    else:
        from codetok.code import CodeTokenizer

        tok = CodeTokenizer.default()
        tok.encode(b"class A {}\n", language)

        def run() -> int:
            return len(tok.encode(data, language).ids_array)

    reset_peak()
    base = status("VmRSS")
    start = time.perf_counter()
    out = run()
    seconds = time.perf_counter() - start
    print(json.dumps({"peak": status("VmHWM") - base, "seconds": seconds, "out": out}))


def measure(engine: str, path: Path, language: str) -> dict[str, float]:
    got = subprocess.run(
        [sys.executable, __file__, "--child", engine, str(path), language],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(got.stdout.strip().splitlines()[-1])


def real_code(corpus: Path, language: str, mb: float) -> bytes:
    """``mb`` MB of the corpus's files of ``language`` one after the other (from the first
    again when they run out)."""
    files = [
        path.read_bytes().removeprefix(b"\xef\xbb\xbf")
        for path in sorted((corpus / language).rglob(f"*.{EXT[language]}"))
    ]
    parts, size = [], 0
    while size < mb * 1e6:
        for data in files:
            parts.append(data)
            size += len(data) + 1
            if size >= mb * 1e6:
                break
    return b"\n".join(parts)


def broken(data: bytes) -> bytes:
    lines = data.split(b"\n")
    return b"\n".join(
        line[: len(line) // 2] if i % 40 == 39 else line for i, line in enumerate(lines)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--java-mb", type=float, default=20.0)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    java = real_code(args.corpus, "java", args.java_mb)
    csharp = real_code(args.corpus, "csharp", args.java_mb / 4)
    cases = [
        ("Java, real files", "java", java),
        ("C#, real files", "csharp", csharp),
        ("Java, syntax errors", "java", broken(java)),
        ("C#, syntax errors", "csharp", broken(csharp)),
        ("JavaScript, 2 MB of brackets", "javascript", b"x = [" + b"[]," * 666_666 + b"];\n"),
        ("Python, 2 MB of brackets", "python", b"x = [" + b"[], " * 500_000 + b"]\n"),
    ]
    print(f"{'case':32} {'MB':>6} {'tree-sitter MB':>15} {'codetok MB':>11} {'ratio':>6} "
          f"{'ts s':>6} {'codetok s':>10} {'ratio':>6}")  # fmt: skip
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, language, data in cases:
            path = Path(tmp) / f"case.{EXT[language]}"
            path.write_bytes(data)
            best = {}
            for engine in ("tree-sitter", "codetok"):
                runs = [measure(engine, path, language) for _ in range(args.repeat)]
                best[engine] = {
                    "peak": min(r["peak"] for r in runs),
                    "seconds": min(r["seconds"] for r in runs),
                }
            ts, ct = best["tree-sitter"], best["codetok"]
            seconds[name] = ct["seconds"]
            print(
                f"{name:32} {len(data) / 1e6:6.1f} {ts['peak'] / 1e6:15.0f} "
                f"{ct['peak'] / 1e6:11.0f} {ct['peak'] / ts['peak']:6.2f} "
                f"{ts['seconds']:6.2f} {ct['seconds']:10.2f} {ct['seconds'] / ts['seconds']:6.2f}",
                flush=True,
            )
    for lang in ("Java", "C#"):
        ratio = seconds[f"{lang}, syntax errors"] / seconds[f"{lang}, real files"]
        print(f"{lang}: codetok's time with syntax errors / valid: {ratio:.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
    else:
        main()
