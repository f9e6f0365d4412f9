"""Lossless round trip of the code tokenizer on real code of every language.

For every file of each language this checks, with the embedded default code tokenizer (or
``--tokenizer FILE``):

- the lexeme stream covers every byte (``Lexemes.check()``);
- ``decode(encode(data).ids, as_bytes=True) == data`` on the raw bytes;
- no exception is raised;

and prints per language: files, MB, failures, exceptions, files with syntax errors, tokens
and MB/s. The curated languages read ``CORPUS/<language>/`` (``corpora/fetch_code.py``'s
output; by default every language folder there). ``--generic ROOT ...`` adds the languages
read with a generic grammar (``tree-sitter-language-pack``): files found under those roots
(``/usr/share``, site-packages: real files of other projects on this machine), whose
extension the generic languages table names, up to ``--generic-files`` per language.

Usage::

    python benchmarks/code_roundtrip.py CORPUS [--languages go rust ...] [--every-file]
        [--tokenizer code_tokenizer.json] [--max-mb 5] [--max-files 500]
        [--generic /usr/share /usr/lib/python3 ...] [--generic-files 40]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _code_common import EXTENSIONS, corpus_files  # noqa: E402


class Tally:
    """One language's counts."""

    def __init__(self) -> None:
        self.files = self.size = self.failures = self.errors = self.syntax = self.tokens = 0
        self.seconds = 0.0

    def row(self, lang: str) -> str:
        mb = self.size / (1 << 20)
        rate = mb / self.seconds if self.seconds else 0.0
        return (
            f"| {lang} | {self.files} | {mb:.2f} | {self.failures} | {self.errors} | "
            f"{self.syntax} | {self.tokens} | {rate:.2f} |"
        )


def check_file(tok, path: Path, lang: str, tally: Tally) -> None:
    """Round-trip one file into ``tally`` (mismatches and exceptions go to stderr)."""
    data = path.read_bytes()
    t0 = time.perf_counter()
    try:
        enc = tok.encode(data, lang)
        lexemes = enc.lexemes
        lexemes.check()
        ok = tok.decode(enc.ids, as_bytes=True) == data
    except Exception:  # noqa: BLE001 - the point is to count them
        tally.errors += 1
        print(f"EXCEPTION {path}:\n{traceback.format_exc()}", file=sys.stderr)
        return
    finally:
        tally.seconds += time.perf_counter() - t0
        tally.size += len(data)
        tally.files += 1
    tally.tokens += len(enc.ids)
    tally.syntax += bool(lexemes.has_error)
    if not ok:
        tally.failures += 1
        print(f"MISMATCH {path}", file=sys.stderr)


def generic_files(roots: list[Path], per_language: int) -> dict[str, list[Path]]:
    """Files under ``roots`` by generic language (sorted walk, at most ``per_language``)."""
    from codetok.code.front.generic_languages import GENERIC_EXTENSIONS, GENERIC_FILENAMES

    found: dict[str, list[Path]] = defaultdict(list)
    for root in roots:
        for dirpath, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                ext = os.path.splitext(name)[1].lower()
                lang = GENERIC_FILENAMES.get(name) or GENERIC_EXTENSIONS.get(ext)
                path = Path(dirpath) / name
                if lang and len(found[lang]) < per_language and path.is_file():
                    if not path.is_symlink() and path.stat().st_size < 300_000:
                        found[lang].append(path)
    return dict(sorted(found.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--languages", nargs="+", default=None)
    parser.add_argument("--tokenizer", type=Path, help="a code tokenizer file (default: built-in)")
    parser.add_argument("--max-mb", type=float, default=None, help="stop a language after this")
    parser.add_argument("--max-files", type=int, default=None, help="stop a language after this")
    parser.add_argument(
        "--every-file",
        action="store_true",
        help="every file of CORPUS/<language>/, not only its extensions and #! scripts "
        "(bash-completion's completion files have neither)",
    )
    parser.add_argument("--generic", nargs="*", type=Path, default=[])
    parser.add_argument("--generic-files", type=int, default=40)
    args = parser.parse_args(argv)
    from codetok.code import CodeTokenizer

    tok = CodeTokenizer.load(args.tokenizer) if args.tokenizer else CodeTokenizer.default()
    print(f"tokenizer: {tok!r}")
    languages = args.languages or [lang for lang in EXTENSIONS if (args.corpus / lang).is_dir()]
    if args.every_file:
        work = {
            lang: sorted(p for p in (args.corpus / lang).rglob("*") if p.is_file())
            for lang in languages
        }
    else:
        work = {lang: corpus_files(args.corpus, lang) for lang in languages}
    if args.generic:
        work.update(generic_files(args.generic, args.generic_files))
    print("| language | files | MB | round-trip failures | exceptions | with syntax errors "
          "| tokens | MB/s |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    bad_total = 0
    for lang, files in work.items():
        tally = Tally()
        for f in files:
            if args.max_mb is not None and tally.size >= args.max_mb * (1 << 20):
                break
            if args.max_files is not None and tally.files >= args.max_files:
                break
            check_file(tok, f, lang, tally)
        print(tally.row(lang), flush=True)
        bad_total += tally.failures + tally.errors
    return 1 if bad_total else 0


if __name__ == "__main__":
    raise SystemExit(main())
