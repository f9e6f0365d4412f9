"""Instructions, not seconds: tree-sitter's parse against ``CodeTokenizer.encode`` under callgrind.

Wall-clock ratios on a shared VM drift by a tenth between runs of the same code (see
``code_bench.py``). Callgrind counts the instructions a program runs, the same on every run
of the same build and input, whatever else the machine does: a steadier measure of what
``encode`` adds to the parse, though not of time (cache misses do not show).

Per language, the same files (``--mb`` MB of ``corpora/fetch_code.py`` output) go through
this script four times under ``valgrind --tool=callgrind``: loading only; loading and every
file through tree-sitter's ``Parser.parse`` (its Python bindings); loading and every file
through ``CodeTokenizer.default().encode`` once (``warm``: the router's piece caches fill);
and the same with a second pass over the files. Printed: the parse's count (less loading),
``encode``'s warm count (the second pass: the two-pass run less the one-pass run, as the
best-of-rounds figures of ``code_bench.py`` are warm), its cold count (the first pass), and
parse / encode for both (the share of ``encode``'s work that is the parse; 1.0 would be an
encode that costs nothing beyond the parse).

    python benchmarks/code_instructions.py /tmp/code_corpus --mb 1
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _code_common import LANGUAGES  # noqa: E402
from code_bench import CT_LANG, load_texts  # noqa: E402

GRAMMAR = {
    "python": "tree_sitter_python",
    "java": "tree_sitter_java",
    "csharp": "tree_sitter_c_sharp",
    "javascript": "tree_sitter_javascript",
}
MODES = ("load", "parse", "warm", "encode")


def run_mode(root: Path, language: str, megabytes: float, mode: str) -> None:
    """The measured program: load everything, then the work of ``mode``."""
    import tree_sitter

    from codetok import CodeTokenizer

    texts = load_texts(root, language, megabytes)
    tok = CodeTokenizer.default()
    tok.encode(texts[0], CT_LANG[language])
    grammar = importlib.import_module(GRAMMAR[language])
    parser = tree_sitter.Parser(tree_sitter.Language(grammar.language()))
    parser.parse(texts[0].encode())
    data = [t.encode() for t in texts]
    if mode == "parse":
        for d in data:
            parser.parse(d)
    elif mode in ("warm", "encode"):
        for _ in range(1 if mode == "warm" else 2):
            for t in texts:
                tok.encode(t, CT_LANG[language])


def instructions(root: Path, language: str, megabytes: float, mode: str) -> int:
    """Instructions of one run of this script in ``mode`` under callgrind."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, str(root), "--mb", str(megabytes), "--languages", language, "--mode", mode],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-800:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="folder written by corpora/fetch_code.py")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument("--mb", type=float, default=1.0, help="megabytes per language")
    parser.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)  # the measured run
    args = parser.parse_args()
    if args.mode:
        run_mode(args.corpus, args.languages[0], args.mb, args.mode)
        return
    print(
        "| language | parse, M instructions | encode warm | encode cold"
        " | parse / encode, warm | parse / encode, cold |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for language in args.languages:
        load, parse, warm, twice = (instructions(args.corpus, language, args.mb, m) for m in MODES)
        p, hot, cold = parse - load, twice - warm, warm - load
        print(
            f"| {language} | {p / 1e6:,.0f} | {hot / 1e6:,.0f} | {cold / 1e6:,.0f}"
            f" | {p / hot:.3f} | {p / cold:.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
