"""The ``codetok corpus`` command: a tree of source files to token shards.

It parses the options into a :class:`~codetok.corpus.CorpusJob`, picks the engine (every
core of this machine, or a Dask scheduler with ``--dask``) and runs
:func:`~codetok.corpus.build_corpus`, drawing a progress line (:mod:`codetok.cli.progress`)
and printing one line per skipped file; a summary ends the run. Running the same command
again after an interruption (Ctrl-C or SIGTERM, a crash, a killed machine) keeps the
finished shards.

Not handled here: the job itself (:mod:`codetok.corpus`).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

from ..errors import CodetokError
from .messages import note
from .progress import Progress

__all__ = ["register", "cmd_corpus"]

#: --max-file-mb by default: codetok.corpus.sources.DEFAULT_MAX_FILE_BYTES, in MiB (not
#: imported from there: ``codetok --help`` does not load the corpus package)
MAX_FILE_MB = 64.0

EPILOG = """examples:
  codetok corpus src/ lib/ -o shards/                  # default code tokenizer, all cores
  codetok corpus repo/ -o shards/ --languages python java --shard-mb 64
  codetok corpus repo/ -o shards/ --tokenizer my_code_tokenizer.json -j 4
  codetok corpus repo/ -o cb/ --codebert --tokenizer path/to/codebert-base
  codetok corpus repo/ -o pairs/ --pairs --max-tokens 256
  codetok corpus repo/ -o shards/ --dask tcp://scheduler:8786

OUT gets shard-00000.parquet, shard-00001.parquet, ... and _manifest.json (files,
languages, token counts, skipped files with the reason). Run the same command again to
resume an interrupted job: finished shards are kept.

Nothing is left out silently: symlinks are followed (each folder once; a loop is skipped
and reported), or with --no-follow-symlinks each is skipped with the reason; named pipes,
devices and files over --max-file-mb are skipped with the reason. A shard whose worker
process dies (the out-of-memory killer, a native crash) is tried once more, then its files
are recorded as failures, the other shards are written and the command exits with 2.
"""


class _CliLog:
    """Reports of :func:`~codetok.corpus.build_corpus` on the progress line and stderr."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.skips = 0

    def started(self, *, shards: int, kept: int, todo_bytes: int) -> None:
        if kept:
            rest = "nothing left to do" if kept == shards else "writing the rest"
            self.progress.message(
                f"codetok corpus: {kept} of {shards} shards already written; {rest}"
            )
        self.progress.stage(f"tokenizing {shards - kept} shards", total=todo_bytes or None)

    def shard_done(self, entry: dict[str, Any]) -> None:
        self.progress.advance(entry["bytes"])

    def skipped(self, path: str, reason: str) -> None:
        self.skips += 1
        self.progress.message(f"codetok corpus: skipped {path}: {reason}")


def _job(args: argparse.Namespace) -> Any:
    from ..corpus import CorpusJob

    if args.codebert and args.pairs:
        raise CodetokError(
            "--codebert and --pairs do not combine: for CodeBERT ids in pairs pass "
            "--pairs --tokenizer FOLDER (pairs carry no per-token kinds)"
        )
    if args.codebert and args.tokenizer is None:
        raise CodetokError(
            "--codebert needs --tokenizer FOLDER: a CodeBERT / RoBERTa folder (vocab.json and "
            "merges.txt) or its tokenizer.json"
        )
    if not args.pairs:
        for flag, value in (
            ("--max-tokens", args.max_tokens),
            ("--max-docstring-tokens", args.max_docstring_tokens),
            ("--keep-docstring", args.keep_docstring or None),
        ):
            if value is not None:
                raise CodetokError(f"{flag} is an option of --pairs; add --pairs or drop it")
    for flag, value in (
        ("--max-tokens", args.max_tokens),
        ("--max-docstring-tokens", args.max_docstring_tokens),
        ("--workers", args.workers),
    ):
        if value is not None and value < 1:
            raise CodetokError(f"{flag} must be at least 1 (got {value})")
    for flag, mb in (("--shard-mb", args.shard_mb), ("--max-file-mb", args.max_file_mb)):
        if not 0 < mb <= 1024:
            raise CodetokError(f"{flag} must be above 0 and at most 1024 (got {mb:g})")
    return CorpusJob(
        mode="codebert" if args.codebert else "pairs" if args.pairs else "tokens",
        tokenizer=args.tokenizer,
        languages=tuple(args.languages) if args.languages else None,
        shard_bytes=max(1, int(args.shard_mb * (1 << 20))),
        max_tokens=args.max_tokens,
        max_docstring_tokens=args.max_docstring_tokens,
        keep_docstring=args.keep_docstring,
        follow_symlinks=not args.no_follow_symlinks,
        max_file_bytes=max(1, int(args.max_file_mb * (1 << 20))),
        pack=args.pack,
        fim_rate=args.fim_rate,
        fim_mode=args.fim_mode,
        fim_spans=args.fim,
        fim_seed=args.fim_seed,
        repo_packing=args.repo_packing,
    )


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM (``kill``, a job scheduler's stop) ends the run as Ctrl-C does: the pool is
    stopped and the shards finished so far stay recorded for the next run."""
    raise KeyboardInterrupt


def _dask_client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError as e:
        raise CodetokError(
            "--dask needs dask.distributed: pip install 'codetok[distributed]'"
        ) from e
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:
        raise CodetokError(f"--dask {address}: cannot reach the scheduler ({e})") from None


def cmd_corpus(args: argparse.Namespace) -> int:
    """Run ``codetok corpus`` with parsed arguments."""
    from ..corpus import DaskEngine, LocalEngine, build_corpus

    job = _job(args)
    out = args.output
    if os.path.exists(out) and not os.path.isdir(out):
        raise CodetokError(f"-o {out}: is a file; pass a folder for the shards")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise CodetokError(f"-o {out}: the folder {parent} does not exist; create it first")
    for given in args.inputs:
        if not os.path.exists(given):
            raise CodetokError(f"{given}: no such file or folder")
    encoder = job.encoder()  # load errors come now, before any listing
    if encoder.dropped:
        note(
            f"{args.tokenizer} {' and '.join(encoder.dropped)}; turned off: shards hold whole files"
        )
    client = _dask_client(args.dask) if args.dask else None
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        engine = DaskEngine(client) if client is not None else LocalEngine(args.workers)
        with Progress("codetok corpus", enabled=False if args.quiet else None) as progress:
            progress.stage("listing files")
            log = _CliLog(progress)
            manifest = build_corpus(args.inputs, out, job, engine=engine, log=log)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if client is not None:
            client.close()
    if not args.quiet:
        t, run = manifest["totals"], manifest["runs"][-1]
        skipped = (
            f"; {t['failures']} skipped (reasons in {os.path.join(out, '_manifest.json')})"
            if t["failures"]
            else ""
        )
        what = f"{t['rows']} pairs, " if job.mode == "pairs" else ""
        sys.stderr.write(
            f"codetok corpus: {t['files']} files ({t['bytes'] / 1e6:.1f} MB) -> {t['shards']} "
            f"shard{'s' if t['shards'] != 1 else ''} in {out} ({run['shards_written']} written, {run['shards_kept']} kept), "
            f"{what}{t['tokens']:,} tokens{skipped}; {run['seconds']:.1f} s on "
            f"{engine.workers} {engine.name} worker{'s' if engine.workers != 1 else ''}\n"
        )
    return 0


def _packing_arguments(p: argparse.ArgumentParser) -> None:
    """``--pack`` and the fill-in-the-middle options of packed sequences."""
    p.add_argument(
        "--pack",
        type=int,
        metavar="N",
        help="rows are sequences of N ids (files joined, each ended by <|endoftext|>; a "
        "doc_index column says which file each id is from); code tokenizers only",
    )
    p.add_argument(
        "--fim-rate",
        type=float,
        default=0.0,
        metavar="R",
        help="--pack: lay this share of files out for fill-in-the-middle (0)",
    )
    p.add_argument(
        "--fim-mode",
        choices=("psm", "spm", "mixed"),
        default="psm",
        help="--fim-rate: layout (psm)",
    )
    p.add_argument(
        "--fim",
        choices=("ast", "random"),
        default="ast",
        help="--fim-rate: the middle is a syntax node or sibling run (ast), or between two "
        "random characters (random)",
    )
    p.add_argument("--fim-seed", type=int, default=0, metavar="S", help="--fim-rate: seed (0)")
    p.add_argument(
        "--repo-packing",
        action="store_true",
        help="--pack: StarCoder2's layout, each input a repository: <repo_name>NAME, then "
        "<file_sep>PATH and each file, <|endoftext|> after the repository",
    )


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``corpus`` sub-command to a ``codetok`` argument parser.

    Args:
        subparsers: the object returned by ``ArgumentParser.add_subparsers``.

    Returns:
        The new sub-parser (its ``func`` default runs :func:`cmd_corpus`).

    >>> import argparse
    >>> sub = argparse.ArgumentParser(prog="codetok").add_subparsers()
    >>> register(sub).prog
    'codetok corpus'
    """
    p = subparsers.add_parser(
        "corpus",
        help="turn folders of source files into token shards (Parquet) on every core",
        description="Tokenize every Python / Java / C# / JavaScript file under the inputs "
        "into Parquet shards with a manifest; resumable, all cores or a Dask cluster.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="+", metavar="DIR", help="folders (or files) of source code")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the shard folder")
    p.add_argument(
        "--tokenizer",
        "-t",
        metavar="PATH",
        help="a code tokenizer file from `codetok train`, or any tokenizer file or folder "
        "codetok.load reads (default: codetok's code tokenizer)",
    )
    p.add_argument(
        "--codebert",
        action="store_true",
        help="CodeBERT mode: --tokenizer's ids (as transformers gives them) with each "
        "token's lexeme kind",
    )
    p.add_argument("--pairs", action="store_true", help="one row per (docstring, function) pair")
    p.add_argument(
        "--max-tokens", type=int, metavar="N", help="--pairs: code token budget per function"
    )
    p.add_argument(
        "--max-docstring-tokens", type=int, metavar="N", help="--pairs: docstring budget"
    )
    p.add_argument("--keep-docstring", action="store_true", help="--pairs: keep docstrings in code")
    _packing_arguments(p)
    p.add_argument(
        "--languages",
        "-l",
        nargs="+",
        metavar="LANG",
        help="languages to read (default: every language with a grammar)",
    )
    p.add_argument(
        "--workers", "-j", type=int, metavar="N", help="processes (default: one per core)"
    )
    p.add_argument(
        "--shard-mb", type=float, default=8.0, metavar="MB", help="source MB per shard (8)"
    )
    p.add_argument(
        "--max-file-mb",
        type=float,
        default=MAX_FILE_MB,
        metavar="MB",
        help=f"skip larger files, listed in the manifest with their size ({MAX_FILE_MB:g})",
    )
    p.add_argument(
        "--no-follow-symlinks",
        action="store_true",
        help="skip symlinks below the inputs, each listed in the manifest (default: follow "
        "them, each folder once, loops skipped and listed)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler (tcp://host:8786) instead of local "
        "processes; workers must see the same paths",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line or summary")
    p.set_defaults(func=cmd_corpus)
    return p
