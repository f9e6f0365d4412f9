"""Rebuild codetok's embedded default code tokenizer, end to end.

Steps:

1. fetch real third-party code through the package registries with
   ``corpora/fetch_code.py`` (skipped with ``--corpus DIR`` pointing at an earlier fetch);
2. take a fixed slice of it per language (``--train-mb``, files interleaved across packages,
   in sorted order, files above 300 kB skipped; a curated language gives at most 3/4 of
   its code, so some is held out), so the result is reproducible;
3. train ``CodeTokenizer`` (byte-level BPE, shared comment vocabulary, ``fold_whitespace``:
   a newline and its indentation are one piece, a single space joins the piece after it;
   ``join_punctuation``: a run of touching punctuation is one piece; ``fold_blank_lines``:
   the newlines of blank lines join the newline piece before them; ``spaced_keywords``:
   each keyword has a spaced twin, ``<js: function>``, for a single space before it) with
   codetok;
4. write ``codetok/data/default_code_tokenizer.json`` and print the per-language table that
   ``corpora/PROVENANCE.md`` records.

Usage::

    python corpora/build_default_tokenizer.py [--corpus DIR] [--work DIR]
        [--train-mb 6] [--vocab-size 32000] [--out codetok/data/default_code_tokenizer.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the core four (the base install's grammars) and the twelve curated languages of the
#: ``languages`` extra that the default covers
CORE = ("python", "java", "csharp", "javascript")
CURATED = ("go", "rust", "typescript", "tsx", "c", "cpp", "php", "ruby", "kotlin", "swift",
           "scala", "bash")  # fmt: skip
LANGUAGES = CORE + CURATED
MAX_FILE = 300_000
#: the training slice per language, MiB (benchmarks/code_tokens.py holds out the rest)
TRAIN_MB = 6.0
VOCAB_SIZE = 32000
FETCH_MB = 12


#: the largest share of a curated language's fetched code the training slice takes, so
#: that ``benchmarks/code_tokens.py`` has held-out code of every language (TSX, Swift and
#: Bash are scarce on the registries)
CURATED_SHARE = 0.75


def copyleft(corpus: Path) -> set[str]:
    """Packages of the fetch whose licence (``MANIFEST.json``) is a copyleft one (GPL,
    LGPL): fetched for tests and benchmarks, never trained on (the default vocabulary
    ships under codetok's own licence)."""
    manifest = corpus / "MANIFEST.json"
    entries = json.loads(manifest.read_text()) if manifest.exists() else []
    return {e["package"] for e in entries if "GPL" in e.get("license", "").upper()}


#: Packages ``fetch_code.py`` gained after the shipped default was trained (TSX and Swift
#: for the tests' and benchmarks' corpus): left out, so the commands in PROVENANCE.md
#: rebuild the shipped file, and held out for ``benchmarks/code_tokens.py``
AFTER_THE_DEFAULT = frozenset({"apache-airflow-core", "swiftlang"})


def select(corpus: Path, language: str, budget: int) -> list[Path]:
    """Files of one language, interleaved across packages, up to ``budget`` bytes (for a
    curated language, at most ``CURATED_SHARE`` of what was fetched); copyleft packages
    and those of ``AFTER_THE_DEFAULT`` are left out."""
    base = corpus / language
    excluded = copyleft(corpus) | AFTER_THE_DEFAULT
    packages = (
        sorted(p for p in base.iterdir() if p.is_dir() and p.name not in excluded)
        if base.is_dir()
        else []
    )
    queues = [
        [f for f in sorted(p.rglob("*")) if f.is_file() and f.stat().st_size <= MAX_FILE]
        for p in packages
    ]
    if language not in CORE:
        fetched = sum(f.stat().st_size for q in queues for f in q)
        budget = min(budget, int(fetched * CURATED_SHARE))
    out: list[Path] = []
    used = 0
    while used < budget and any(queues):
        for q in queues:
            if q and used < budget:
                f = q.pop(0)
                out.append(f)
                used += f.stat().st_size
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="an existing fetch_code.py output folder")
    parser.add_argument("--work", type=Path, default=Path("build/code-corpus"))
    parser.add_argument("--train-mb", type=float, default=TRAIN_MB, help="per language")
    parser.add_argument("--vocab-size", type=int, default=VOCAB_SIZE)
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument(
        "--out", type=Path, default=ROOT / "codetok" / "data" / "default_code_tokenizer.json"
    )
    args = parser.parse_args(argv)
    corpus = args.corpus
    if corpus is None:
        corpus = args.work
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "corpora" / "fetch_code.py"),
                str(corpus),
                "--max-mb",
                str(FETCH_MB),
            ],
            check=True,
        )
    sys.path.insert(0, str(ROOT))
    from codetok.code import CodeTokenizer

    budget = int(args.train_mb * (1 << 20))
    files: list[Path] = []
    rows = []
    for lang in args.languages:
        chosen = select(corpus, lang, budget)
        if not chosen:
            raise SystemExit(f"no {lang} files under {corpus / lang}; run fetch_code.py first")
        files += chosen
        rows.append((lang, len(chosen), sum(f.stat().st_size for f in chosen)))
    t0 = time.time()
    tok = CodeTokenizer.train(
        files,
        languages=args.languages,
        vocab_size=args.vocab_size,
        model="bpe",
        show_progress=True,
        fold_whitespace=True,
        join_punctuation=True,
        fold_blank_lines=True,
        spaced_keywords=True,
    )
    seconds = time.time() - t0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tok.save(args.out)
    manifest = corpus / "MANIFEST.json"
    packages = json.loads(manifest.read_text()) if manifest.exists() else []
    print(f"\ntrained {tok!r} in {seconds:.0f} s -> {args.out} ({args.out.stat().st_size} bytes)")
    print("\n| language | training files | training bytes |")
    print("| --- | ---: | ---: |")
    for lang, n, size in rows:
        print(f"| {lang} | {n} | {size} |")
    print("\n| language | package | version | license | files | bytes |")
    print("| --- | --- | --- | --- | ---: | ---: |")
    for p in packages:
        print(
            f"| {p['language']} | {p['package']} | {p['version']} | {p['license']} "
            f"| {p['files']} | {p['bytes']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
