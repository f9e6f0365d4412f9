"""What the ``codetok`` command line says on stderr: notes, and library error messages
phrased for someone at the command line.

codetok's errors say what would work in Python terms (``pass language=``,
``vocab_size=600``, ``limit_alphabet=``), which is right for the library and wrong for a
shell user, who types ``--language`` and ``--vocab-size``. :func:`cli_message` rewrites a
message for one sub-command: Python argument names become that sub-command's flags, and
advice about arguments the command line does not have is replaced by what it does have. The
library messages themselves stay as they are.
"""

from __future__ import annotations

import argparse
import re
import sys

__all__ = ["cli_message", "note"]


def note(message: str) -> None:
    """Print ``codetok: note: <message>`` on stderr: one line about what the command chose
    on the user's behalf (not an error)."""
    sys.stderr.write(f"codetok: note: {message}\n")


# Advice that names a Python-only argument, rewritten before the generic renaming.
_SPECIAL = [
    # trainers/base.py check_alphabet_fits: the CLI has no --limit-alphabet
    (
        re.compile(r"\((\d+)\); raise vocab_size or pass limit_alphabet=<smaller number>"),
        r"(\1); raise --vocab-size above \1",
    ),
    # code/front/language.py
    (re.compile(r"\bpass language= explicitly"), "pass --language NAME"),
]

# Library argument names that a sub-command's flag stands for under another name.
_ALIASES = {"pairs": {"max_code_tokens": "--max-tokens"}, "morphemes": {"max_epochs": "--epochs"}}


def _flags(parser: argparse.ArgumentParser, command: str) -> dict[str, str]:
    """Python argument name -> the sub-command's long flag."""
    out = {}
    for action in parser._actions:  # argparse keeps no public list of a parser's options
        longs = [s for s in action.option_strings if s.startswith("--")]
        if longs:
            out[action.dest] = longs[0]
    out.update(_ALIASES.get(command, {}))
    return out


def cli_message(message: str, parser: argparse.ArgumentParser | None, command: str = "") -> str:
    """``message`` with Python argument names replaced by the flags of ``parser``.

    ``name=value`` becomes ``--flag value``, ``name=`` alone and an underscored bare
    ``name`` become ``--flag``; names the sub-command has no flag for are left alone.

    Args:
        message: a codetok error message.
        parser: the sub-command's parser (None leaves the message as it is).
        command: the sub-command's name (for flags named differently from the argument).

    Returns:
        The message for the command line.

    >>> p = argparse.ArgumentParser(prog="codetok train")
    >>> _ = p.add_argument("--vocab-size", type=int)
    >>> cli_message("vocab_size=600 is too small; vocab_size must be larger", p, "train")
    '--vocab-size 600 is too small; --vocab-size must be larger'
    """
    if parser is None:
        return message
    for pattern, replacement in _SPECIAL:
        message = pattern.sub(replacement, message)
    for name, flag in _flags(parser, command).items():
        message = re.sub(rf"(?<![\w/.-]){name}=(?=[^\s;,)])", f"{flag} ", message)
        message = re.sub(rf"(?<![\w/.-]){name}=", flag, message)
        if "_" in name:
            message = re.sub(rf"(?<![\w/.-]){name}(?![\w/])", flag, message)
    return message
