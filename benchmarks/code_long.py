"""Long single-line inputs: time and peak memory of lex and encode (``code_bench.py --long``).

Two inputs, built from the corpus of ``corpora/fetch_code.py``:

* ``minified JavaScript``: the JavaScript files with comments dropped and every run of
  whitespace and line breaks made one space (codetok's own lexer finds them), joined by
  ``;`` into one line, repeated up to ``--long-mb`` MB (5 by default): what a minifier's
  output looks like to a parser (the same density of tokens, no layout);
* ``identifier line``: the corpus's Python identifiers, space-separated on one line, up to
  twice that size: one long syntax error, the slow case of error recovery.

Each step runs in a fresh process, so its peak RSS (``VmHWM``, reset after the input is
read and the tokenizer warmed up) is its own: tree-sitter's parse alone through its Python
bindings (the floor: the tree itself), ``codetok.code.lex``, ``CodeTokenizer.encode`` and
CodeBERT mode's ids alone (``.ids``, the ``int64`` array; no parse). Printed: seconds, peak MB above the process
before the call, and that peak over the input size (issue 30 targets: ``encode`` at most
1.3x the parse's peak, CodeBERT ids at most 5x the input).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _code_common import corpus_files, read_text  # noqa: E402
from encode_bench import peak_rss_mb  # noqa: E402

STEPS = (
    "tree-sitter parse (Python bindings)",
    "codetok lex",
    "codetok CodeTokenizer.encode",
    "codetok CodeBERT ids (no parse)",
)


def minified(root: Path, megabytes: float) -> str:
    """The JavaScript corpus as one minified-looking line of about ``megabytes`` MB."""
    from codetok.code import LexemeKind, lex

    drop = {LexemeKind.COMMENT, LexemeKind.DOCSTRING}
    blank = {LexemeKind.WHITESPACE, LexemeKind.NEWLINE, LexemeKind.INDENT, LexemeKind.DEDENT}
    files: list[str] = []
    for path in corpus_files(root, "javascript"):
        text = read_text(path)
        if not text:
            continue
        lx = lex(text, "javascript")
        out: list[str] = []
        for i, kind in enumerate(lx.kinds.tolist()):
            if kind in drop:
                continue
            if kind in blank:
                if out and out[-1] != " ":
                    out.append(" ")
                continue
            out.append(lx.text(i).replace("\r", " ").replace("\n", " "))
        files.append("".join(out).strip())
    return _fill(";".join(f for f in files if f), megabytes)


def identifier_line(root: Path, megabytes: float) -> str:
    """The Python corpus's identifiers, space-separated, one line of ``megabytes`` MB."""
    from codetok.code import LexemeKind, lex

    names: list[str] = []
    for path in corpus_files(root, "python")[:200]:
        text = read_text(path)
        if text:
            lx = lex(text, "python")
            names.extend(lx.text(i) for i in lx.indices(LexemeKind.IDENTIFIER).tolist())
    return _fill(" ".join(n for n in names if n.isascii()), megabytes)


def _fill(text: str, megabytes: float) -> str:
    size = int(megabytes * 1e6)
    if not text:
        return ""
    return (text * (size // len(text) + 1))[:size]


def child(step: str, language: str, path: str) -> None:
    """One step on one file in this process; prints ``{"s": .., "peak": ..}``."""
    source = Path(path).read_text(encoding="utf-8")
    from codetok.code import CodeTokenizer, get_grammar, lex

    if step == STEPS[0]:
        parser = get_grammar(language).parser()
        data = source.encode("utf-8")

        def run() -> object:
            return parser.parse(data)

    elif step == STEPS[1]:

        def run() -> object:
            return lex(source, language)

    elif step == STEPS[2]:
        tok = CodeTokenizer.default()

        def run() -> object:
            return tok.encode(source, language)

    else:
        from _code_common import codebert_folder

        from codetok.code.applications.codebert import CodeBertTokenizer

        cb = CodeBertTokenizer(codebert_folder(Path(tempfile.mkdtemp()) / "codebert"))

        def run() -> object:
            return cb(source, language).ids  # the int64 array: ids alone, no list

    lex("x = 1", language)  # warm up: grammar, plans, tables
    if step == STEPS[2]:
        tok.encode("x = 1", language)
    if step == STEPS[3]:
        assert cb("x = 1", language).ids.size
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")  # reset VmHWM to the current RSS
    except OSError:
        pass
    before = peak_rss_mb()
    t0 = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - t0
    peak = peak_rss_mb() - before
    del result
    print(json.dumps({"s": seconds, "peak": peak}))


def run(corpus: Path, megabytes: float) -> list[tuple[str, str, float, float, float]]:
    """Time and peak of each step on both inputs, each in its own process."""
    inputs = {
        "minified JavaScript": ("javascript", minified(corpus, megabytes)),
        "identifier line": ("python", identifier_line(corpus, 2 * megabytes)),
    }
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (language, text) in inputs.items():
            if not text:
                print(f"(no {language} files under {corpus} for the {name})")
                continue
            path = Path(tmp) / f"{language}.txt"
            path.write_text(text, encoding="utf-8")
            mb = len(text.encode("utf-8")) / 1e6
            for step in STEPS:
                out = subprocess.run(
                    [sys.executable, __file__, step, language, str(path)],
                    capture_output=True,
                    text=True,
                )
                if out.returncode:
                    print(f"{name} {step} FAILED: {out.stderr.strip()[-300:]}")
                    continue
                got = json.loads(out.stdout.strip().splitlines()[-1])
                rows.append((name, step, mb, got["s"], got["peak"]))
                print(f"{name:<20} {step:<38} {mb:5.2f} MB {got['s']:7.2f} s "
                      f"peak +{got['peak']:7.1f} MB ({got['peak'] / mb:5.1f}x input)",
                      flush=True)  # fmt: skip
    print(
        "\n| input | step | MB | s | peak MB | peak / input |\n| --- | --- | ---: | ---: | ---: | ---: |"
    )
    for name, step, mb, s, peak in rows:
        print(f"| {name} | {step} | {mb:.2f} | {s:.2f} | {peak:.0f} | {peak / mb:.1f}x |")
    return rows


if __name__ == "__main__":
    child(*sys.argv[1:4])
