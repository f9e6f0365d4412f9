"""Held-out accuracy of the statistical identifier splitter on lowercased camelCase names.

For every held-out package of ``corpora/build_identifier_words.py`` (packages that gave
nothing to the shipped word table) found under ``CORPUS/<language>/<package>/``, this
collects the unique camelCase identifiers that codetok's lexer finds: ASCII letters only,
a lowercase first word and one or more capitalised words (``getUserName``, as in
``tests/data/code/camelcase_identifiers.txt``). The gold split is the lowercased
rule-based split (get user name); the input is the identifier lowercased
(``getusername``). A split counts only when it is exactly right.

It prints one row per language (identifiers are unique within a language) and a total,
for the shipped table and, with ``--baseline FILE``, for an older word file read with the
older cost model (``WordSegmenter.LEGACY``). ``--misses N`` shows N wrong splits per
language.

Usage::

    python benchmarks/identifier_eval.py CORPUS [--baseline OLD_WORDS.txt] [--misses 20]
        [--words NEW_WORDS.txt] [--write-sample tests/data/code/camelcase_java_csharp.txt]

``--write-sample FILE`` writes an evenly spaced sample of about 1,500 of the Java and C#
names (every k-th, in sorted order) for the test suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAMEL = re.compile(r"[a-z]+(?:[A-Z][a-z]+)+")


def _split_table() -> object:
    """corpora/build_identifier_words.py, which owns the table/held-out package lists."""
    path = ROOT / "corpora" / "build_identifier_words.py"
    spec = importlib.util.spec_from_file_location("build_identifier_words", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def camelcase_identifiers(folder: Path, suffixes: tuple[str, ...]) -> set[str]:
    """Unique camelCase identifiers of the source files under ``folder``."""
    from codetok.code import LexemeKind, lex

    names: set[str] = set()
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in suffixes:
            continue
        try:
            lx = lex(path.read_bytes(), path=path)
        except Exception as e:  # a file the lexer cannot read is skipped, and said so
            print(f"skip {path}: {e}", file=sys.stderr)
            continue
        for j in lx.indices(LexemeKind.IDENTIFIER).tolist():
            text = lx.text(j)
            if CAMEL.fullmatch(text):
                names.add(text)
    return names


def score(segmenter: object, names: list[str]) -> tuple[int, list[tuple[str, str]]]:
    """Exact splits, and the misses as (gold, got) strings."""
    from codetok.code import split_identifier

    good = 0
    misses = []
    for name in names:
        gold = [p.lower() for p in split_identifier(name).parts]
        got = segmenter.segment(name.lower())  # type: ignore[attr-defined]
        if got == gold:
            good += 1
        else:
            misses.append((" ".join(gold), "|".join(got)))
    return good, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a folder of <language>/<package>/ sources")
    parser.add_argument("--baseline", type=Path, help="an older word file (legacy cost model)")
    parser.add_argument("--words", type=Path, help="a word file instead of the shipped one")
    parser.add_argument("--misses", type=int, default=0, help="show this many misses")
    parser.add_argument("--write-sample", type=Path, help="write a Java/C# sample here")
    args = parser.parse_args(argv)
    from codetok.code import WordSegmenter

    build = _split_table()
    new = WordSegmenter.load(args.words) if args.words else WordSegmenter.default()
    old = WordSegmenter.load(args.baseline, **WordSegmenter.LEGACY) if args.baseline else None
    header = "| language | held-out projects | identifiers |"
    header += " old default |" if old else ""
    header += " new default |"
    print(header)
    print("| --- | --- | ---: |" + (" ---: |" if old else "") + " ---: |")
    totals = [0, 0, 0]
    sample: list[str] = []
    seconds = 0.0
    for lang, packages in build.HELD_OUT.items():  # type: ignore[attr-defined]
        present = [p for p in packages if (args.corpus / lang / p).is_dir()]
        missing = sorted(set(packages) - set(present))
        if missing:
            print(f"{lang}: not under {args.corpus}: {', '.join(missing)}", file=sys.stderr)
        if not present:
            continue
        names: set[str] = set()
        suffixes = build.SUFFIXES[lang]  # type: ignore[attr-defined]
        for p in present:
            names |= camelcase_identifiers(args.corpus / lang / p, suffixes)
        ordered = sorted(names)
        t0 = time.perf_counter()
        good, misses = score(new, ordered)
        seconds += time.perf_counter() - t0
        row = f"| {lang} | {', '.join(present)} | {len(ordered):,} |"
        if old is not None:
            old_good, _ = score(old, ordered)
            row += f" {100 * old_good / len(ordered):.1f}% |"
            totals[1] += old_good
        row += f" {100 * good / len(ordered):.1f}% |"
        print(row)
        totals[0] += len(ordered)
        totals[2] += good
        for gold, got in misses[: args.misses]:
            print(f"    {gold:40s} -> {got}", file=sys.stderr)
        if lang in ("java", "csharp"):
            sample += ordered
    if totals[0]:
        row = f"| all | | {totals[0]:,} |"
        row += f" {100 * totals[1] / totals[0]:.1f}% |" if old is not None else ""
        row += f" {100 * totals[2] / totals[0]:.1f}% |"
        print(row)
        print(f"new default: {1e6 * seconds / totals[0]:.1f} us per identifier", file=sys.stderr)
    if args.write_sample and sample:
        names = sorted(set(sample))
        step = max(1, len(names) // 1500)
        args.write_sample.write_text("\n".join(names[::step]) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
