"""Lossless round trip of the code tokenizer on a fetched corpus (issue 5 acceptance).

For every file under ``CORPUS/<language>/`` (the output of ``corpora/fetch_code.py``) this
checks, with the embedded default code tokenizer (or ``--tokenizer FILE``):

- the lexeme stream covers every byte (``Lexemes.check()``);
- ``decode(encode(data).ids, as_bytes=True) == data`` on the raw bytes;
- no exception is raised;

and prints per language: files, MB, failures, exceptions, tokens and MB/s.

Usage::

    python benchmarks/code_roundtrip.py CORPUS [--languages python java ...]
        [--tokenizer code_tokenizer.json] [--max-mb 8]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

EXTENSIONS = {
    "python": (".py", ".pyw", ".pyi"),
    "java": (".java",),
    "csharp": (".cs",),
    "javascript": (".js", ".jsx", ".mjs", ".cjs"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--languages", nargs="+", default=list(EXTENSIONS))
    parser.add_argument("--tokenizer", type=Path, help="a code tokenizer file (default: built-in)")
    parser.add_argument("--max-mb", type=float, default=None, help="stop a language after this")
    args = parser.parse_args(argv)
    from codetok.code import CodeTokenizer

    tok = CodeTokenizer.load(args.tokenizer) if args.tokenizer else CodeTokenizer.default()
    print(f"tokenizer: {tok!r}")
    print("| language | files | MB | round-trip failures | exceptions | tokens | MB/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    bad_total = 0
    for lang in args.languages:
        files = sorted(
            f
            for f in (args.corpus / lang).rglob("*")
            if f.is_file() and f.suffix.lower() in EXTENSIONS[lang]
        )
        size = n = failures = errors = tokens = 0
        seconds = 0.0
        for f in files:
            if args.max_mb is not None and size >= args.max_mb * (1 << 20):
                break
            data = f.read_bytes()
            t0 = time.perf_counter()
            try:
                enc = tok.encode(data, lang)
                enc.lexemes.check()
                ok = tok.decode(enc.ids, as_bytes=True) == data
            except Exception:  # noqa: BLE001 - the point is to count them
                errors += 1
                print(f"EXCEPTION {f}:\n{traceback.format_exc()}", file=sys.stderr)
                continue
            finally:
                seconds += time.perf_counter() - t0
                size += len(data)
                n += 1
            tokens += len(enc.ids)
            if not ok:
                failures += 1
                print(f"MISMATCH {f}", file=sys.stderr)
        mb = size / (1 << 20)
        rate = mb / seconds if seconds else 0.0
        print(f"| {lang} | {n} | {mb:.2f} | {failures} | {errors} | {tokens} | {rate:.2f} |")
        bad_total += failures + errors
    return 1 if bad_total else 0


if __name__ == "__main__":
    raise SystemExit(main())
