"""Content-only language detection on real code: how often ``detect_language(text)``, with
no file name, names the right language, per language, and what it says instead.

Reads ``CORPUS/<language>/`` (``corpora/fetch_code.py``'s output), every ``--step``-th file
up to ``--files`` per language. A file name decides before content does, so this measures
the fallback only (standard input, extensionless scripts, snippets).

    python benchmarks/code_detect.py CORPUS [--languages go rust ...] [--files 100]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _code_common import EXTENSIONS, corpus_files  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--languages", nargs="+", default=None)
    parser.add_argument("--files", type=int, default=100)
    args = parser.parse_args(argv)
    from codetok.code import detect_language
    from codetok.errors import LanguageError

    languages = args.languages or [lang for lang in EXTENSIONS if (args.corpus / lang).is_dir()]
    print("| language | files | right | refused (ambiguous) | wrong: what instead |")
    print("| --- | ---: | ---: | ---: | --- |")
    for lang in languages:
        files = corpus_files(args.corpus, lang)
        files = files[:: max(1, len(files) // args.files)][: args.files]
        right = refused = 0
        wrong: Counter[str] = Counter()
        for f in files:
            try:
                got = detect_language(f.read_bytes())
            except LanguageError:
                refused += 1
                continue
            if got == lang:
                right += 1
            else:
                wrong[got] += 1
        n = len(files) or 1
        instead = ", ".join(f"{k} {v}" for k, v in wrong.most_common(4)) or "-"
        print(
            f"| {lang} | {len(files)} | {right / n:.0%} | {refused / n:.0%} | {instead} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
