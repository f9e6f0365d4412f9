"""The ``codetok`` command line.

Each sub-command is a small function taking the parsed arguments; ``main`` wires them to
``argparse``. Errors from codetok (bad files, unknown languages, bad options) are printed
as one clear line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import CodetokError

EPILOG_LEX = """examples:
  codetok lex app.py
  codetok lex Main.java --format json
  codetok lex script --language javascript
"""

EPILOG_SPLIT = """examples:
  codetok split parseHTTPResponse XMLHttpRequest2 __init__
  codetok split getusername --statistical
"""

EPILOG_ENCODE = """examples:
  codetok encode notes.txt --tokenizer path/to/tokenizer.json
  codetok encode notes.txt --tokenizer bert_folder --format tokens
"""

EPILOG_ANALYZE = """examples:
  codetok analyze corpus.txt --tokenizer a/tokenizer.json --tokenizer b/tokenizer.json
"""


def _read_source(path: str) -> bytes:
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise CodetokError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CodetokError(f"{path}: is a directory; pass a file") from None
    except OSError as e:
        raise CodetokError(f"{path}: cannot read ({e.strerror})") from None


def cmd_lex(args: argparse.Namespace) -> int:
    from .code import lex

    data = _read_source(args.file)
    lexemes = lex(data, args.language, path=args.file)
    out = sys.stdout
    if args.format == "json":
        rows = [
            {
                "kind": lx.kind.name,
                "text": lx.text,
                "node_type": lx.node_type,
                "parent_type": lx.parent_type,
                "byte_span": list(lx.byte_span),
                "char_span": list(lx.char_span),
                "line": lx.line,
                "col": lx.col,
            }
            for lx in lexemes
        ]
        json.dump({"language": lexemes.language, "lexemes": rows}, out, ensure_ascii=False)
        out.write("\n")
        return 0
    out.write(f"# {args.file}: {lexemes.language}, {len(lexemes)} lexemes\n")
    for lx in lexemes:
        if not args.all and lx.kind.name in ("WHITESPACE",):
            continue
        out.write(f"{lx.line:>5}:{lx.col:<4} {lx.kind.name:<12} {lx.node_type:<24} {lx.text!r}\n")
    return 0


def cmd_split(args: argparse.Namespace) -> int:
    from .code import split_identifier

    for name in args.identifiers:
        parts = split_identifier(name, statistical=args.statistical)
        sys.stdout.write(f"{name}\t{' '.join(parts.parts)}\n")
    return 0


def _load_tokenizer(spec: str):
    from .tokenizer import Tokenizer

    p = Path(spec)
    if p.is_dir():
        try:
            from .formats.hub import from_pretrained
        except ImportError:
            p = p / "tokenizer.json"
        else:
            return from_pretrained(str(p), local_files_only=True)
    return Tokenizer.from_file(p)


def cmd_encode(args: argparse.Namespace) -> int:
    tok = _load_tokenizer(args.tokenizer)
    text = _read_source(args.file).decode("utf-8", "surrogateescape")
    enc = tok.encode(text, add_special_tokens=not args.no_special_tokens)
    out = sys.stdout
    if args.format == "ids":
        out.write(" ".join(map(str, enc.ids)) + "\n")
    elif args.format == "tokens":
        out.write(" ".join(enc.tokens) + "\n")
    else:
        json.dump(
            {"ids": enc.ids, "tokens": enc.tokens, "offsets": enc.offsets}, out, ensure_ascii=False
        )
        out.write("\n")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    from .analysis import compare

    toks = {spec: _load_tokenizer(spec) for spec in args.tokenizer}

    def corpus():
        for f in args.files:
            with open(f, encoding="utf-8", errors="surrogateescape") as fh:
                yield from fh

    sys.stdout.write(compare(toks, corpus()).to_markdown() + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codetok",
        description="Syntax-aware code tokenization and HF/tiktoken/SentencePiece-compatible subword tokenizers.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "lex",
        help="show the lexeme stream of a source file",
        epilog=EPILOG_LEX,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file")
    p.add_argument("--language", "-l", help="python, java, csharp or javascript (default: detect)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--all", action="store_true", help="also list whitespace lexemes")
    p.set_defaults(func=cmd_lex)

    p = sub.add_parser(
        "split",
        help="split identifiers into words",
        epilog=EPILOG_SPLIT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("identifiers", nargs="+", metavar="IDENTIFIER")
    p.add_argument(
        "--statistical", action="store_true", help="also split same-case runs (getusername)"
    )
    p.set_defaults(func=cmd_split)

    p = sub.add_parser(
        "encode",
        help="encode a text file with a tokenizer file or folder",
        epilog=EPILOG_ENCODE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file")
    p.add_argument("--tokenizer", "-t", required=True, help="a tokenizer.json or a model folder")
    p.add_argument("--format", choices=("ids", "tokens", "json"), default="ids")
    p.add_argument("--no-special-tokens", action="store_true")
    p.set_defaults(func=cmd_encode)

    p = sub.add_parser(
        "analyze",
        help="compare tokenizers on a corpus",
        epilog=EPILOG_ANALYZE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--tokenizer", "-t", action="append", required=True)
    p.set_defaults(func=cmd_analyze)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``codetok`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CodetokError as e:
        sys.stderr.write(f"codetok: error: {e}\n")
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
