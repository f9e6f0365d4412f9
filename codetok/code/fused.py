"""A code tokenizer's encode in one native call per file (codetok/_native/code/code_encoder.hpp).

The native lexer (:func:`~codetok.code.front.native.native_lexer`), the docstring section
scanner and the native router (:func:`~codetok.code.routing.native.compile_router`) run
back to back without Python between them: source bytes in; lexeme columns, ids and each id's
lexeme out. Many files run so on native threads, the parse and all after it without the GIL
(:func:`encode_files`). Python builds only the :class:`~codetok.code.Lexemes` and the lazy
:class:`~codetok.code.CodeEncoding` of each result.

The separate calls (``lex`` then ``run_router_ids``) are the specification: the same columns,
ids and lexeme indices (tests compare them). They also run whenever this path does not:
without the native lexer or router, or for options that are not lossless (whose encodings
keep their spans eagerly).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import native as _backend
from .front.grammar import Grammar
from .front.lexer import Prepared
from .front.native import native_lexer
from .routing.comments import find_sections
from .routing.native import _section_ids, _section_scanner, _split_lengths
from .routing.router import RouterOptions

__all__ = ["compile_encoder", "encode_files"]


def compile_encoder(
    grammar: Grammar, router: Any, index: dict[str, int], options: RouterOptions
) -> Any | None:
    """The native encoder of ``grammar`` with ``router`` (a native router compiled for the
    lossless ``options``), or None when the separate calls must run."""
    if isinstance(router, str) or not options.lossless:
        return None
    plan = native_lexer(grammar)
    if plan is None:
        return None
    sections = ids = fallback = None
    if options.doc_sections and not options.drop_docstrings:
        sections = _section_scanner()
        ids = _section_ids(index).tolist()

        def fallback(text: str) -> list[tuple[int, int]]:
            return [(at, index[f"<doc:{name}>"]) for at, name in find_sections(text)]

    return _backend.core().CodeEncoder(
        plan, grammar.capsule, router, sections, ids or [], fallback, _split_lengths
    )


def encode_files(jobs: Sequence[tuple[Any, Prepared]], threads: int = 1) -> list[tuple[Any, ...]]:
    """Run ``(encoder, prepared source)`` jobs on up to ``threads`` native threads.

    Returns:
        Per job: the 10 lexeme columns, has_error, the ids and each id's lexeme index.

    Raises:
        ParseLimitError: the first file (in order) whose parse went past its budget;
            whatever a callback of the first failing file raised.
    """
    files = [(enc, p.parsed, p.base, p.text, p.from_bytes, *p.limits) for enc, p in jobs]
    results = _backend.core().encode_code_files(files, threads)
    stopped = _backend.core().ParseStopped
    for (_, p), got in zip(jobs, results, strict=True):
        if isinstance(got, stopped):
            raise p.limit_error(got) from None
        if isinstance(got, BaseException):
            raise got
    return results
