"""The ``codetok morphemes`` command: train a morph model on a word list, segment words.

``codetok morphemes train WORDS.txt -o model.json`` trains a
:class:`~codetok.text.morphemes.model.MorphemeModel` on a word-list file (``word``, ``count
word`` or ``word count`` lines, :func:`~codetok.text.morphemes.training_words.read_word_list`) or, with
``--texts``, on the letter runs of text files. ``codetok morphemes segment -m model.json
WORD...`` prints ``word<TAB>morph morph ...`` per word (words from standard input, one per
line, when none are given).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["cmd_train", "cmd_segment", "register"]

EPILOG = """examples:
  codetok morphemes train words.txt -o morphs.json          # lines: 'word' or 'count word'
  codetok morphemes train --texts book.txt notes.txt -o morphs.json --dampening log
  codetok morphemes segment -m morphs.json unhappiness walked
  sort -u words.txt | codetok morphemes segment -m morphs.json
"""


def cmd_train(args: argparse.Namespace) -> int:
    """Run ``codetok morphemes train``."""
    from ..text.morphemes.model import MorphemeModel
    from ..text.morphemes.training_words import read_word_list
    from .inputs import check_input_files
    from .output import check_output_path, write_output

    check_output_path(args.output)
    check_input_files(args.files)
    if args.texts:
        source: dict[str, Any] = {"files": args.files}
    else:
        words: dict[str, int] = {}
        for f in args.files:
            for w, c in read_word_list(f).items():
                words[w] = words.get(w, 0) + c
        source = {"words": words}

    def progress(epoch: int, cost: float) -> None:
        if not args.quiet:
            sys.stderr.write(f"epoch {epoch}: cost {cost:,.0f}\n")

    model = MorphemeModel.train(
        **source,
        min_count=args.min_count,
        dampening=args.dampening,
        corpus_weight=args.corpus_weight,
        max_epochs=args.epochs,
        seed=args.seed,
        progress=progress,
    )
    write_output(args.output, json.dumps(model.to_dict(), ensure_ascii=False, indent=1) + "\n")
    if not args.quiet:
        sys.stderr.write(f"wrote {args.output}: {model!r}\n")
    return 0


def cmd_segment(args: argparse.Namespace) -> int:
    """Run ``codetok morphemes segment``."""
    from ..text.morphemes.model import MorphemeModel
    from .output import write_output

    model = MorphemeModel.load(args.model)
    words = args.words or [w for line in sys.stdin for w in line.split()]
    lines = []
    for w in words:
        key = w.lower() if args.lowercase else w
        lines.append(f"{w}\t{' '.join(model.segment(key))}\n")
    write_output(None, "".join(lines))
    return 0


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``morphemes`` sub-command (with ``train`` and ``segment``) to a parser.

    Args:
        subparsers: the object returned by ``ArgumentParser.add_subparsers``.

    Returns:
        The new sub-parser.

    >>> import argparse
    >>> sub = argparse.ArgumentParser(prog="codetok").add_subparsers()
    >>> register(sub).prog
    'codetok morphemes'
    """
    p = subparsers.add_parser(
        "morphemes",
        help="train an unsupervised morph segmenter on a word list, segment words",
        description="Morfessor-Baseline-style morph segmentation (MDL cost, recursive "
        "splitting; Viterbi for new words).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="morphemes_command", required=True, metavar="ACTION")
    t = sub.add_parser(
        "train",
        help="train a morph model",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("files", nargs="+", metavar="FILE", help="word-list files (or texts)")
    t.add_argument("--output", "-o", required=True, help="the model file to write (JSON)")
    t.add_argument(
        "--texts", action="store_true", help="the files are texts: train on their letter runs"
    )
    t.add_argument("--min-count", type=int, default=1, help="skip rarer words (default 1)")
    t.add_argument(
        "--dampening",
        choices=("none", "log", "ones"),
        default="none",
        help="flatten word counts: log = 1 + floor(ln count), ones = word types only",
    )
    t.add_argument(
        "--corpus-weight",
        type=float,
        default=1.0,
        help="above 1: fewer, longer morphs; below 1: more splitting (default 1.0)",
    )
    t.add_argument("--epochs", type=int, default=10, help="at most this many passes")
    t.add_argument("--seed", type=int, default=0, help="the order of the words in each pass")
    t.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    t.set_defaults(func=cmd_train, cli_parser=t)
    s = sub.add_parser(
        "segment",
        help="segment words with a model",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("words", nargs="*", metavar="WORD", help="default: words from stdin")
    s.add_argument("--model", "-m", required=True, type=Path, help="a model from `train`")
    s.add_argument(
        "--keep-case",
        dest="lowercase",
        action="store_false",
        help="look words up as written (default: lowercased)",
    )
    s.set_defaults(func=cmd_segment, cli_parser=s)
    return p
