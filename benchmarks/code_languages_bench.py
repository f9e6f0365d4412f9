"""The code path's speed per language, as a ratio to tree-sitter's own parse.

For each language, up to ``--mb`` MB of real files (``CORPUS/<language>/``, and with
``--generic ROOT ...`` files of the languages read with a generic grammar found under those
roots), best of ``--repeat`` interleaved rounds, one file at a time:

- ``parse``: ``tree_sitter.Parser.parse`` (the installed bindings, same grammar);
- ``lex``: ``codetok.code.lex`` (the native lexer: parse, walk, lexeme columns);
- ``encode``: ``CodeTokenizer.default().encode`` (parse to ids in one native call).

Printed: MB/s of each and ``lex`` and ``encode`` as a share of the parse's speed (1.0: as
fast as the parse alone). The core four set the bar: every other language should sit at
the same ratio.

    python benchmarks/code_languages_bench.py CORPUS [--languages ...] [--mb 1] [--repeat 3]
        [--generic /usr/share ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _code_common import EXTENSIONS, corpus_files  # noqa: E402
from code_roundtrip import generic_files  # noqa: E402


def load(paths: list[Path], mb: float) -> list[bytes]:
    out, size = [], 0
    for p in paths:
        data = p.read_bytes()
        if not data.strip():
            continue
        out.append(data)
        size += len(data)
        if size >= mb * 1e6:
            break
    return out


def best_of(cases: dict, texts: list[bytes], repeat: int) -> dict[str, float]:
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(repeat):
        for name, fn in cases.items():
            t0 = time.perf_counter()
            for t in texts:
                fn(t)
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--languages", nargs="+", default=None)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--generic", nargs="*", type=Path, default=[])
    args = parser.parse_args(argv)
    from codetok.code import CodeTokenizer, get_grammar, lex

    tok = CodeTokenizer.default()
    languages = args.languages or [lang for lang in EXTENSIONS if (args.corpus / lang).is_dir()]
    work = {lang: load(corpus_files(args.corpus, lang), args.mb) for lang in languages}
    if args.generic:
        work.update({k: load(v, args.mb) for k, v in generic_files(args.generic, 400).items()})
    print("| language | grammar | MB | parse MB/s | lex MB/s | encode MB/s | lex ÷ parse "
          "| encode ÷ parse |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for lang, texts in work.items():
        if not texts:
            continue
        g = get_grammar(lang)
        p = g.parser()
        lex(texts[0], lang)  # load and warm up
        cases = {
            "parse": p.parse,
            "lex": lambda t, lang=lang: lex(t, lang),
            "encode": lambda t, lang=lang: tok.encode(t, lang),
        }
        best = best_of(cases, texts, args.repeat)
        mb = sum(len(t) for t in texts) / 1e6
        rate = {k: mb / v for k, v in best.items()}
        kind = "generic" if g.generic else "curated"
        print(
            f"| {lang} | {kind} | {mb:.2f} | {rate['parse']:.2f} | {rate['lex']:.2f} | "
            f"{rate['encode']:.2f} | {rate['lex'] / rate['parse']:.2f} | "
            f"{rate['encode'] / rate['parse']:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
