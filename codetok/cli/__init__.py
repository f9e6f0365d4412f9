"""The ``codetok`` command line: :mod:`~codetok.cli.app` parses the arguments and runs the
commands (``encode``, ``lex``, ``split``, ``train``, ``analyze``); ``corpus``, ``pairs``
and ``morphemes`` have modules of their own; ``inputs``, ``output``, ``formats``,
``messages``, ``progress`` and ``tokenizers`` are what the commands share. The library
never imports this package."""

from .app import build_parser as build_parser
from .app import main as main

__all__ = ["build_parser", "main"]
