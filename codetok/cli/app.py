"""The ``codetok`` command line.

Each sub-command is a small function taking the parsed arguments; ``main`` wires them to
``argparse``. Errors from codetok (bad files, unknown languages, bad options, an output path
that cannot be written) are printed as one clear line on stderr with exit status 2, never as
a traceback; Ctrl-C prints ``codetok: interrupted`` and exits with 130. Output is written by
:mod:`codetok.cli.output`: checked before the work, atomically, always valid UTF-8.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import CodetokError
from ..formats.any_tokenizer import BUILTIN, load_any_tokenizer, load_text_tokenizer
from .formats import code_encoding_text, lex_json, lex_table, text_encoding_text
from .inputs import check_input_files, choose_language, read_error, read_source, source_path
from .messages import cli_message
from .output import check_output_path, write_output
from .progress import Progress
from .tokenizers import encode_whole_inputs

_BIG = 1 << 20  # bytes of input from which the progress line shows before a native call

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
  codetok encode Main.java                      # ids, with the built-in code tokenizer
  codetok encode app.py --format tokens
  codetok encode app.js --format json --drop-comments
  codetok encode Program.cs --format html -o Program.html
  codetok encode app.py --tokenizer my_code_tokenizer.json   # from `codetok train`
  codetok encode notes.txt --tokenizer path/to/tokenizer.json --format tokens   # text
  codetok encode app.py --tokenizer cl100k_base.tiktoken   # any format codetok.load reads
  codetok encode song.mid --tokenizer remi --format tokens   # MIDI as REMI tokens
  codetok encode notes.txt --tokenizer phonemes --format tokens   # text -> ARPAbet phonemes
"""

EPILOG_ANALYZE = """examples:
  codetok analyze corpus.txt --tokenizer a/tokenizer.json --tokenizer b/tokenizer.json
"""


def _shown_name(file: str) -> str:
    """The input as the progress line and the HTML title show it."""
    return "stdin" if file == "-" else Path(file).name


def cmd_lex(args: argparse.Namespace) -> int:
    from ..code import lex

    data = read_source(args.file)
    path = source_path(args.file)
    language = choose_language(args.language, data, path)
    with Progress(f"codetok lex {_shown_name(args.file)}") as progress:
        progress.stage("lexing", now=len(data) >= _BIG)
        lexemes = lex(data, language, path=path)
        progress.stage("formatting", total=len(lexemes))
        if args.format == "json":
            text = lex_json(lexemes)
        else:
            text = lex_table(lexemes, args.file, whitespace=args.all, progress=progress)
    write_output(None, text, json=args.format == "json")
    return 0


def cmd_split(args: argparse.Namespace) -> int:
    from ..code import split_identifier

    lines = []
    for name in args.identifiers:
        parts = split_identifier(name, statistical=args.statistical)
        lines.append(f"{name}\t{' '.join(parts.parts)}\n")
    write_output(None, "".join(lines))
    return 0


def cmd_encode(args: argparse.Namespace) -> int:
    from ..code import CodeTokenizer

    if args.output:
        check_output_path(args.output)
    if args.tokenizer is None and Path(args.file).suffix.lower() in (".mid", ".midi"):
        raise CodetokError(f"{args.file}: a MIDI file; pass --tokenizer remi to encode it")
    tok = CodeTokenizer.default() if args.tokenizer is None else load_any_tokenizer(args.tokenizer)
    data = read_source(args.file)
    name = _shown_name(args.file)
    if _is_music(tok):
        return _encode_music(tok, args, data)
    if not isinstance(tok, CodeTokenizer):
        if args.format == "html":
            raise CodetokError("--format html needs a code tokenizer (omit --tokenizer)")
        if not args.keep_padding_truncation:
            encode_whole_inputs(tok, args.tokenizer, "--keep-padding-truncation keeps them")
    else:
        path = source_path(args.file)
        language = choose_language(args.language, data, path)
    with Progress(f"codetok encode {name}") as progress:
        progress.stage("encoding", now=len(data) >= _BIG)
        if isinstance(tok, CodeTokenizer):
            enc = tok.encode(
                data,
                language,
                path=path,
                drop_comments=args.drop_comments or None,
                drop_docstrings=args.drop_docstrings or None,
                normalize_whitespace=args.normalize_whitespace or None,
            )
            progress.stage(f"formatting {args.format}")
            text = code_encoding_text(enc, args.format, name)
        else:
            source = data.decode("utf-8", "surrogateescape")
            enc = tok.encode(source, add_special_tokens=not args.no_special_tokens)
            progress.stage(f"formatting {args.format}")
            text = text_encoding_text(enc, args.format)
        if args.output:  # the progress line is erased before anything goes to stdout
            progress.stage("writing")
            write_output(args.output, text, json=args.format == "json")
    if not args.output:
        write_output(None, text, json=args.format == "json")
    return 0


def _is_music(tok: object) -> bool:
    """Whether ``tok`` is a MusicTokenizer (without importing codetok.music otherwise)."""
    music = sys.modules.get("codetok.music.tokenizer")
    return music is not None and isinstance(tok, music.MusicTokenizer)


def _encode_music(tok, args: argparse.Namespace, data: bytes) -> int:
    """``codetok encode --tokenizer remi song.mid``: a MIDI file's ids or token names."""
    if args.format == "html":
        raise CodetokError("--format html needs a code tokenizer; use ids, tokens or json")
    if not args.keep_padding_truncation:
        encode_whole_inputs(tok, args.tokenizer, "--keep-padding-truncation keeps them")
    from ..music import read_midi

    score = read_midi(data, name="standard input" if args.file == "-" else args.file)
    enc = tok.encode(score, add_special_tokens=not args.no_special_tokens)
    write_output(args.output, text_encoding_text(enc, args.format), json=args.format == "json")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    from ..analysis import compare

    check_input_files(args.files)
    toks = {spec: load_text_tokenizer(spec) for spec in args.tokenizer}
    for spec, tok in toks.items():
        encode_whole_inputs(tok, spec, "analyze measures whole lines")

    def corpus(progress: Progress) -> Iterator[str]:
        done = 0
        for f in args.files:
            try:
                with open(f, encoding="utf-8", errors="surrogateescape") as fh:
                    for line in fh:
                        progress.advance(len(line))  # chars for bytes: close enough for a bar
                        yield line
                    done += os.fstat(fh.fileno()).st_size
            except OSError as e:
                raise read_error(f, e) from None
            progress.done = done

    with Progress("codetok analyze") as progress:
        progress.stage("measuring", total=sum(os.path.getsize(f) for f in args.files))
        table = compare(toks, corpus(progress)).to_markdown()
    write_output(None, table + "\n")
    return 0


def _add_lex_parser(sub: Any) -> None:
    """Register ``codetok lex``: shows how codetok's lexer reads one source file."""
    p = sub.add_parser(
        "lex",
        help="show the lexeme stream of a source file",
        epilog=EPILOG_LEX,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="the source file (- reads standard input)")
    p.add_argument("--language", "-l", help="python, java, csharp or javascript (default: detect)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--all", action="store_true", help="also list whitespace lexemes")
    p.set_defaults(func=cmd_lex)


def _add_split_parser(sub: Any) -> None:
    """Register ``codetok split``: shows how identifiers are cut into words."""
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


def _add_encode_parser(sub: Any) -> None:
    """Register ``codetok encode``: encodes one file with a code, text or music tokenizer."""
    p = sub.add_parser(
        "encode",
        help="encode a source file (built-in code tokenizer), a text file or a MIDI file",
        epilog=EPILOG_ENCODE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="the source file (- reads standard input)")
    p.add_argument("--language", "-l", help="python, java, csharp or javascript (default: detect)")
    p.add_argument(
        "--tokenizer",
        "-t",
        help="a code tokenizer file from `codetok train`, or a text tokenizer: any file or "
        "folder codetok.load reads (tokenizer.json, .tiktoken, SentencePiece .model, vocab.txt, "
        "vocab.json + merges.txt, a model folder, a binary file), or a built-in text tokenizer: "
        + ", ".join(f"{name} ({what})" for name, (what, _) in BUILTIN.items())
        + "; or `remi` (or a saved MusicTokenizer file) for a MIDI file; "
        "default: the code tokenizer shipped with codetok",
    )
    p.add_argument("--format", choices=("ids", "tokens", "json", "html"), default="ids")
    p.add_argument("--output", "-o", help="write here instead of stdout")
    p.add_argument("--drop-comments", action="store_true", help="leave comments out")
    p.add_argument("--drop-docstrings", action="store_true", help="leave docstrings out")
    p.add_argument(
        "--normalize-whitespace", action="store_true", help="one space between tokens, LF lines"
    )
    p.add_argument(
        "--no-special-tokens", action="store_true", help="text tokenizers: no [CLS]/[SEP]..."
    )
    p.add_argument(
        "--keep-padding-truncation",
        action="store_true",
        help="text tokenizers: keep the padding and truncation saved in the tokenizer file "
        "(by default the whole input is encoded, unpadded)",
    )
    p.set_defaults(func=cmd_encode)


def _add_analyze_parser(sub: Any) -> None:
    """Register ``codetok analyze``: compares text tokenizers on the same corpus."""
    p = sub.add_parser(
        "analyze",
        help="compare tokenizers on a corpus",
        epilog=EPILOG_ANALYZE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--tokenizer", "-t", action="append", required=True)
    p.set_defaults(func=cmd_analyze)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codetok",
        description="Syntax-aware code tokenization and HF/tiktoken/SentencePiece-compatible subword tokenizers.",
        epilog="Long runs show a progress line on stderr when it is a terminal; "
        "CODETOK_PROGRESS=1 forces it, CODETOK_PROGRESS=0 hides it.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_lex_parser(sub)
    _add_split_parser(sub)
    _add_encode_parser(sub)
    from .train import register as register_train

    register_train(sub)
    _add_analyze_parser(sub)
    from .pairs import register as register_pairs

    register_pairs(sub)
    from .corpus import register as register_corpus

    register_corpus(sub)
    from .morphemes import register as register_morphemes

    register_morphemes(sub)
    for p in sub.choices.values():  # lets main() phrase errors with the sub-command's flags
        p.set_defaults(cli_parser=p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``codetok`` console script: runs one sub-command and returns its
    exit status (0 done, 2 a codetok error printed as one line, 130 Ctrl-C)."""
    args = None
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except CodetokError as e:
        message = cli_message(
            str(e), getattr(args, "cli_parser", None), getattr(args, "command", "")
        )
        sys.stderr.write(f"codetok: error: {message}\n")
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("codetok: interrupted\n")
        return 130
    except OSError as e:  # not one of the reads and writes above, which say more
        where = f"{e.filename}: " if e.filename else ""
        sys.stderr.write(f"codetok: error: {where}{e.strerror or e}\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
