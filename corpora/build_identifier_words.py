"""Build codetok/data/identifier_words.txt, the word list of the statistical splitter.

The words come from the Python standard library of the interpreter running this script:

* the parts of identifiers that have explicit boundaries (``get_user_name``, ``userName``),
  counted once per occurrence;
* the lowercase words of comments and docstrings, at 0.3 weight, for English words that
  identifiers of other code use (only words of 3+ letters, or already seen in identifiers).

Fused spellings whose pieces are each at least 6 times as frequent (``username`` next to
``user`` and ``name``) are then dropped, so they split like their camelCase forms.

The standard library is released under the PSF License Agreement; only word counts are kept.

Usage::

    python corpora/build_identifier_words.py [-o codetok/data/identifier_words.txt] [DIR ...]

Extra DIRs add their ``.py``, ``.java``, ``.cs`` and ``.js`` files to the standard library.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import sysconfig
from collections import Counter
from pathlib import Path

from codetok.code import LexemeKind, lex
from codetok.code.front.detect import language_from_path
from codetok.code.routing.identifiers import learn_word_counts
from codetok.code.routing.segmenter import WordSegmenter

PROSE_WEIGHT = 0.3
MIN_COUNT = 1
DECOMPOUND_RATIO = 6.0
_WORD = re.compile(r"[A-Za-z]+")


def source_files(roots: list[Path]) -> list[Path]:
    out = []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
            for name in sorted(filenames):
                if language_from_path(name) is not None:
                    out.append(Path(dirpath) / name)
    return out


def collect(files: list[Path]) -> tuple[Counter[str], Counter[str]]:
    identifiers: Counter[str] = Counter()
    prose: Counter[str] = Counter()
    for i, path in enumerate(files):
        try:
            lx = lex(path.read_bytes(), path=path)
        except Exception as e:  # a file we cannot read is skipped, and said so
            print(f"skip {path}: {e}", file=sys.stderr)
            continue
        for j in lx.indices(LexemeKind.IDENTIFIER).tolist():
            identifiers[lx.text(j)] += 1
        for j in lx.indices(LexemeKind.COMMENT, LexemeKind.DOCSTRING).tolist():
            for w in _WORD.findall(lx.text(j)):
                if w.islower() or (w[0].isupper() and w[1:].islower()):
                    prose[w.lower()] += 1
        if i % 200 == 0:
            print(f"{i}/{len(files)} files", file=sys.stderr)
    return identifiers, prose


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = Path(__file__).resolve().parent.parent
    parser.add_argument(
        "-o", "--output", default=here / "codetok" / "data" / "identifier_words.txt"
    )
    parser.add_argument("dirs", nargs="*", type=Path)
    args = parser.parse_args(argv)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = source_files([stdlib, *args.dirs])
    identifiers, prose = collect(files)
    counts = learn_word_counts(identifiers.elements())
    for w, c in prose.items():
        if len(w) >= 3 or w in counts:
            counts[w] += max(1, int(c * PROSE_WEIGHT))
    # fused spellings such as "username" are dropped when their pieces are far more frequent
    kept = WordSegmenter(counts).decompound(ratio=DECOMPOUND_RATIO).counts
    kept = {w: c for w, c in kept.items() if c >= MIN_COUNT}
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(
            f"# codetok identifier word frequencies (word<TAB>count), built by "
            f"corpora/build_identifier_words.py from the Python {sys.version.split()[0]} "
            f"standard library ({len(files)} files; PSF License): identifier parts plus "
            f"comment/docstring words at weight {PROSE_WEIGHT}\n"
        )
        for w, c in sorted(kept.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write(f"{w}\t{c}\n")
    print(f"wrote {len(kept)} words to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
