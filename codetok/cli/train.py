"""``codetok train``: a code tokenizer from source folders, or a text tokenizer from text files.

Code is the default: files of the languages read (``--languages``, default the four core
ones) train a :class:`~codetok.code.CodeTokenizer`. Plain text is trained with ``--text``,
or when no input is source code of those languages and some are prose (``.txt``, ``.md``,
``.rst``, ...); then a preset picks the pipeline of a common model family and the output is
a ``tokenizer.json`` HF ``tokenizers`` loads with the same ids:

- ``gpt2``: byte-level BPE, GPT-2's pre-tokenizer, ``<|endoftext|>`` (``--model bpe``);
- ``bert`` / ``bert-cased``: WordPiece with BERT's normalizer, pre-tokenizer and ``[CLS] $A
  [SEP]`` template (``--model wordpiece``);
- ``t5``: SentencePiece-style Unigram, NFKC and Metaspace, ``<pad>``, ``</s>``, ``<unk>`` at
  ids 0-2 and a ``$A </s>`` template (``--model unigram``).

Training that falls short of ``--vocab-size`` says so on stderr (``codetok: warning: ...``);
``--report`` prints what training read, counted and learned, with time and memory.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path
from typing import Any

from ..errors import CodetokError, TrainingWarning
from .messages import cli_message, note
from .output import check_output_path, write_output

__all__ = ["register", "PRESETS", "PROSE_EXTENSIONS"]

#: File extensions read as plain text when ``--text`` is not given.
PROSE_EXTENSIONS = frozenset({".txt", ".text", ".md", ".markdown", ".rst", ".adoc", ".org", ".tex"})

#: Text presets: what each builds, and the ``--model`` it stands for.
PRESETS = {
    "gpt2": ("byte-level BPE as GPT-2 (<|endoftext|>)", "bpe"),
    "bert": ("WordPiece as BERT uncased ([PAD] [UNK] [CLS] [SEP] [MASK])", "wordpiece"),
    "bert-cased": ("WordPiece as BERT cased", "wordpiece"),
    "t5": ("Unigram as T5 (<pad> </s> <unk>, $A </s>)", "unigram"),
}
_BY_MODEL = {"bpe": "gpt2", "wordpiece": "bert", "unigram": "t5"}

EPILOG = """examples:
  codetok train src/ lib/ --vocab-size 16000 --model bpe -o code_tokenizer.json
  codetok train repo/ --languages python java --model unigram -o uni.json
  codetok train repo/ --comment-vocab separate --vocab-size 24000 -o code.json
  codetok train books/ --text --preset gpt2 --vocab-size 32000 -o tokenizer.json
  codetok train corpus.txt --preset bert --vocab-size 30522 -o bert.json --report
"""


def _files(inputs: list[str], prose_only: bool) -> list[str]:
    """The files given and those under the folders given (with ``prose_only``, the prose
    ones of each folder)."""
    from ..trainers.word_counts import folder_files

    out = []
    for item in inputs:
        if not os.path.isdir(item):
            out.append(item)
            continue
        out.extend(
            f
            for f in folder_files(item)
            if not prose_only or Path(f).suffix.lower() in PROSE_EXTENSIONS
        )
    return out


def _is_text(args: argparse.Namespace) -> bool:
    """``--text``, or no input is code of the languages read and some are prose."""
    if args.text:
        return True
    if args.languages is not None or args.comment_vocab != "shared":
        return False
    from ..code.front.language import language_from_path
    from ..code.front.languages import CORE_LANGUAGES

    files = _files(args.dirs, prose_only=False)
    if any(language_from_path(f) in CORE_LANGUAGES for f in files):
        return False
    return any(Path(f).suffix.lower() in PROSE_EXTENSIONS for f in files)


def _text_tokenizer(args: argparse.Namespace, files: list[str]) -> Any:
    from ..trainers.api import train_bpe, train_unigram, train_wordpiece

    preset = args.preset or _BY_MODEL[args.model]
    size = args.vocab_size or 30000
    common: dict[str, Any] = {
        "vocab_size": size,
        "min_frequency": args.min_frequency or 0,
        "num_workers": args.workers,
        "show_progress": not args.quiet,
    }
    extra = list(args.special_tokens or ())
    if preset == "gpt2":
        return train_bpe(files, special_tokens=["<|endoftext|>", *extra], **common)
    if preset in ("bert", "bert-cased"):
        specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *extra]
        return train_wordpiece(files, special_tokens=specials, lowercase=preset == "bert", **common)
    from ..processors import TemplateProcessing

    common.pop("min_frequency")
    tok = train_unigram(files, special_tokens=["<pad>", "</s>", "<unk>", *extra], **common)
    eos = tok.token_to_id("</s>")
    tok.post_processor = TemplateProcessing("$A </s>", "$A </s> $B:1 </s>:1", [("</s>", eos)])
    return tok


def _report(tok: Any) -> None:
    reports = [getattr(tok, "training_report", None)]
    if hasattr(tok, "comment_tokenizer"):  # a code tokenizer: its one or two text models
        reports = [
            getattr(t, "training_report", None) for t in (tok.tokenizer, tok.comment_tokenizer) if t
        ]
    for r in reports:
        if r is not None:
            sys.stderr.write(f"{r}\n")


def cmd_train(args: argparse.Namespace) -> int:
    check_output_path(args.output)
    if args.vocab_size is not None and args.vocab_size < 1:
        raise CodetokError(f"--vocab-size must be at least 1, got {args.vocab_size}")
    text = _is_text(args)
    if args.preset and not text:
        raise CodetokError(
            "--preset is for plain-text training; add --text, or drop --preset to train a "
            "code tokenizer"
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TrainingWarning)
        if text:
            files = _files(args.dirs, prose_only=not args.text)
            if not files:
                raise CodetokError("no text files to train on: pass files, or --text for folders")
            if not args.text:
                note(f"training a text tokenizer on {len(files)} text file(s) (--text)")
            tok = _text_tokenizer(args, files)
        else:
            from ..code import CodeTokenizer

            tok = CodeTokenizer.train(
                [Path(d) for d in args.dirs],
                languages=args.languages,
                vocab_size=args.vocab_size or 16000,
                model=args.model,
                comment_vocab=args.comment_vocab,
                min_frequency=2 if args.min_frequency is None else args.min_frequency,
                show_progress=not args.quiet,
            )
    for w in caught:
        if issubclass(w.category, TrainingWarning):
            said = cli_message(str(w.message), getattr(args, "cli_parser", None), "train")
            sys.stderr.write(f"codetok: warning: {said}\n")
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if args.report:
        _report(tok)
    write_output(args.output, tok.to_str(), json=True)
    sys.stderr.write(f"wrote {args.output}: {tok!r}\n")
    return 0


def register(sub: Any) -> None:
    """Register ``codetok train``."""
    p = sub.add_parser(
        "train",
        help="train a code tokenizer on source folders, or a text tokenizer on text files",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dirs", nargs="+", metavar="PATH", help="folders or files to train on")
    p.add_argument(
        "--vocab-size", type=int, default=None, help="default 16000 (code), 30000 (text)"
    )
    p.add_argument("--model", choices=("bpe", "wordpiece", "unigram"), default="bpe")
    p.add_argument(
        "--languages",
        nargs="+",
        default=None,
        help="code: languages to read (default: python java csharp javascript)",
    )
    p.add_argument("--comment-vocab", choices=("shared", "separate"), default="shared")
    p.add_argument(
        "--min-frequency", type=int, default=None, help="default 2 (code), 0 (text, as HF)"
    )
    p.add_argument(
        "--text",
        action="store_true",
        help="train a text tokenizer on every file given (default when no input is code and "
        f"some are {', '.join(sorted(PROSE_EXTENSIONS))})",
    )
    p.add_argument(
        "--preset",
        choices=tuple(PRESETS),
        help="text: "
        + "; ".join(f"{k}: {v}" for k, (v, _) in PRESETS.items())
        + " (default: the one of --model)",
    )
    p.add_argument("--special-tokens", nargs="+", metavar="TOKEN", help="text: more special tokens")
    p.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="text: counting threads"
    )
    p.add_argument("--report", action="store_true", help="print what training did on stderr")
    p.add_argument("--output", "-o", required=True, help="the tokenizer file to write")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_train)
