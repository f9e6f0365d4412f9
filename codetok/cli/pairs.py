"""Files, JSON Lines and the ``codetok pairs`` command for program-synthesis pairs.

:func:`iter_source_files` lists the Python / Java / C# / JavaScript files of a folder,
:func:`pairs_from_files` turns them into records with :mod:`codetok.code.applications.pairs`,
:func:`write_jsonl` / :func:`read_jsonl` store them, and :func:`register` adds the
``pairs`` sub-command to the ``codetok`` command line (progress bar through tqdm).

Not handled here: finding functions and truncating them (:mod:`codetok.code.applications.pairs`,
:mod:`codetok.code.applications.truncation`).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..code.applications.pairs import PairEncoder, extract_pairs
from ..errors import ConfigurationError, LanguageError
from ..formats.any_tokenizer import load_tokenizer

__all__ = [
    "iter_source_files",
    "pairs_from_files",
    "write_jsonl",
    "read_jsonl",
    "load_tokenizer",
    "cmd_pairs",
    "register",
]


# ----------------------------------------------------------------------------- files and JSONL

_EXTENSIONS = {
    ".py": "python",
    ".java": "java",
    ".cs": "csharp",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
}


def iter_source_files(
    root: str | os.PathLike[str], languages: Iterable[str] | None = None
) -> list[Path]:
    """Source files of the four languages under ``root`` (or ``root`` itself), sorted.

    Args:
        root: a folder (searched recursively, hidden folders skipped) or one file.
        languages: keep only these languages (default: all four).

    Returns:
        The paths, sorted.

    Raises:
        NotFoundError: ``root`` does not exist.

    >>> iter_source_files("no/such/dir")  # doctest: +SKIP
    Traceback (most recent call last):
    codetok.errors.NotFoundError: no/such/dir: no such file or folder
    """
    from ..errors import NotFoundError

    p = Path(root)
    wanted = set(languages) if languages else set(_EXTENSIONS.values())
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise NotFoundError(f"{p}: no such file or folder (give a folder of source files)")
    out = []
    for dirpath, dirs, names in os.walk(p):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(names):
            lang = _EXTENSIONS.get(Path(n).suffix)
            if lang in wanted:
                out.append(Path(dirpath) / n)
    return out


def pairs_from_files(
    paths: Iterable[str | os.PathLike[str]],
    encoder: PairEncoder | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    keep_docstring: bool = False,
    errors: list[tuple[str, str]] | None = None,
) -> Iterator[dict[str, Any]]:
    """Records of every documented function of the given files.

    Args:
        paths: source files (language from the extension, else detected).
        encoder: tokenizes both sides; None gives records without ids.
        root: paths are recorded relative to it.
        keep_docstring: keep Python docstrings inside the code.
        errors: when given, ``(path, message)`` of files that could not be read or whose
            language is unknown are appended here and skipped; otherwise they raise.

    Returns:
        An iterator of JSON-ready records (see :meth:`PairEncoder.encode`).

    Raises:
        LanguageError: a file's language cannot be told (when ``errors`` is None).

    >>> next(pairs_from_files(["app.py"]))["name"]  # doctest: +SKIP
    'main'
    """
    for path in paths:
        p = Path(path)
        shown = str(p.relative_to(root)) if root is not None and p.is_relative_to(root) else str(p)
        try:
            data = p.read_bytes()
            pairs = extract_pairs(
                data, _EXTENSIONS.get(p.suffix), path=shown, keep_docstring=keep_docstring
            )
        except (OSError, LanguageError) as e:
            if errors is None:
                raise
            errors.append((shown, str(e)))
            continue
        for pair in pairs:
            yield pair.to_dict() if encoder is None else encoder.encode(pair)


def write_jsonl(records: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> int:
    """Write records as JSON Lines (UTF-8, one object per line).

    The file is replaced only when every record was written (an error or Ctrl-C half-way
    leaves the old file); text that holds undecodable bytes of a non-UTF-8 source (lone
    surrogates) is written with ``\\udcXX`` escapes, so the file stays valid UTF-8 and
    :func:`read_jsonl` gives back the same strings.

    Args:
        records: JSON-ready dicts.
        path: the output file (``-`` for stdout).

    Returns:
        The number of records written.

    >>> write_jsonl([{"a": 1}], "/tmp/pairs.jsonl")  # doctest: +SKIP
    1
    """
    from .output import open_output

    n = 0
    with open_output(os.fspath(path), json=True) as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
    return n


def read_jsonl(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read records written by :func:`write_jsonl`.

    Args:
        path: the JSON Lines file.

    Returns:
        The records.

    Raises:
        FormatError: a line is not a JSON object (the message names the line).

    >>> read_jsonl("/tmp/pairs.jsonl")  # doctest: +SKIP
    [{'a': 1}]
    """
    from ..errors import FormatError

    out = []
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise FormatError(f"{path}:{i}: not JSON ({e.msg})") from e
            if not isinstance(rec, dict):
                raise FormatError(f"{path}:{i}: expected a JSON object per line")
            out.append(rec)
    return out


# ----------------------------------------------------------------------------- command line

EPILOG = """examples:
  codetok pairs src/ -o pairs.jsonl
  codetok pairs src/ -o pairs.jsonl --tokenizer path/to/tokenizer.json --max-tokens 256
  codetok pairs corpus/ -o java.jsonl --language java --max-docstring-tokens 64
  codetok pairs app.py -o - --no-ids

Each line is one JSON object: language, path, name, docstring, code, doc_style,
spans {function, docstring, lines}, and (unless --no-ids) docstring_ids, code_ids and
truncation {truncated, boundary, tokens_before, tokens_after, bytes_dropped,
statements_dropped, open_blocks, docstring_truncated, docstring_tokens_before}.
"""


def cmd_pairs(args: argparse.Namespace) -> int:
    """Run ``codetok pairs`` with parsed arguments."""
    import sys

    from tqdm import tqdm

    from .output import check_output_path
    from .tokenizers import encode_whole_inputs

    check_output_path(args.output)
    for flag, value in (
        ("--max-tokens", args.max_tokens),
        ("--max-docstring-tokens", args.max_docstring_tokens),
    ):
        if value is not None and value < 1:
            raise ConfigurationError(
                f"{flag} must be at least 1 (got {value}): it is a token budget per "
                f"function; leave {flag} out for no limit"
            )
    files = iter_source_files(args.dir, args.language)
    encoder = None
    if not args.no_ids:
        tokenizer = load_tokenizer(args.tokenizer)
        encode_whole_inputs(
            tokenizer, args.tokenizer, "--max-tokens and --max-docstring-tokens set budgets"
        )
        encoder = PairEncoder(
            tokenizer,
            max_code_tokens=args.max_tokens,
            max_docstring_tokens=args.max_docstring_tokens,
        )
    elif args.max_tokens is not None:
        raise ConfigurationError("--max-tokens needs token ids; drop --no-ids")
    root = args.dir if Path(args.dir).is_dir() else None
    errors: list[tuple[str, str]] = []
    bar = tqdm(files, unit="file", disable=args.quiet or len(files) < 2, file=sys.stderr)
    n = write_jsonl(
        pairs_from_files(
            bar, encoder, root=root, keep_docstring=args.keep_docstring, errors=errors
        ),
        args.output,
    )
    for path, msg in errors:
        sys.stderr.write(f"codetok pairs: skipped {path}: {msg}\n")
    if not args.quiet:
        sys.stderr.write(f"{n} pairs from {len(files)} files -> {args.output}\n")
    return 0


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``pairs`` sub-command to a ``codetok`` argument parser.

    Args:
        subparsers: the object returned by ``ArgumentParser.add_subparsers``.

    Returns:
        The new sub-parser (its ``func`` default runs :func:`cmd_pairs`).

    >>> import argparse
    >>> sub = argparse.ArgumentParser(prog="codetok").add_subparsers()
    >>> register(sub).prog
    'codetok pairs'
    """
    p = subparsers.add_parser(
        "pairs",
        help="extract (docstring, function) pairs as JSON Lines",
        description="Extract documented functions from Python, Java, C# and JavaScript "
        "files, tokenize both sides and truncate code at statement boundaries.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", metavar="DIR", help="a folder of source files (or one file)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl", help="'-' for stdout")
    p.add_argument(
        "--tokenizer",
        "-t",
        metavar="PATH",
        help="tokenizer.json, CodeTokenizer file or model folder (default: codetok's code "
        "tokenizer)",
    )
    p.add_argument(
        "--max-tokens", type=int, metavar="N", help="code token budget per function (at least 1)"
    )
    p.add_argument("--max-docstring-tokens", type=int, metavar="N")
    p.add_argument(
        "--language",
        "-l",
        action="append",
        choices=("python", "java", "csharp", "javascript"),
        help="repeatable; default all",
    )
    p.add_argument("--keep-docstring", action="store_true", help="keep docstrings in code")
    p.add_argument("--no-ids", action="store_true", help="text and spans only, no tokenizer")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar or summary")
    p.set_defaults(func=cmd_pairs)
    return p
