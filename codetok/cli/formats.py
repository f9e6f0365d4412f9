"""The text ``codetok lex`` and ``codetok encode`` print: each ``--format`` as one string.

Each function turns a result into the whole output text, so the command can show progress
while it is built and then write it in one go (see :mod:`codetok.cli.output`, which also
makes it valid UTF-8: lone surrogates, the bytes of a non-UTF-8 source, are escaped there,
as JSON escapes when the command writes JSON).
"""

from __future__ import annotations

import json
from typing import Any

from .progress import Progress

__all__ = ["lex_json", "lex_table", "code_encoding_text", "text_encoding_text"]

_CHUNK = 4096  # lexemes between two progress updates


def lex_json(lexemes: Any) -> str:
    """``lex --format json``: ``{"language", "lexemes": [{kind, text, node_type, ...}]}``."""
    from ..code import LexemeKind

    # column by column (a Lexeme per row costs more than the lexing itself)
    kind_names = {k.value: k.name for k in LexemeKind}
    names = lexemes.type_names
    columns = zip(
        [kind_names[k] for k in lexemes.kinds.tolist()],
        lexemes.texts(),
        [names[t] for t in lexemes.node_types.tolist()],
        [names[t] for t in lexemes.parent_types.tolist()],
        lexemes.byte_starts.tolist(),
        lexemes.byte_ends.tolist(),
        lexemes.char_starts.tolist(),
        lexemes.char_ends.tolist(),
        lexemes.lines.tolist(),
        lexemes.cols.tolist(),
        strict=True,
    )
    rows = [
        {
            "kind": kind,
            "text": text,
            "node_type": node_type,
            "parent_type": parent_type,
            "byte_span": [bs, be],
            "char_span": [cs, ce],
            "line": line,
            "col": col,
        }
        for kind, text, node_type, parent_type, bs, be, cs, ce, line, col in columns
    ]
    doc = {"language": lexemes.language, "lexemes": rows}
    return json.dumps(doc, ensure_ascii=False) + "\n"


def lex_table(lexemes: Any, shown_name: str, *, whitespace: bool, progress: Progress) -> str:
    """``lex --format table``: a header, then ``line:col kind node_type 'text'`` per lexeme
    (whitespace lexemes only when ``whitespace``); advances ``progress`` per lexeme."""
    lines = [f"# {shown_name}: {lexemes.language}, {len(lexemes)} lexemes\n"]
    for i, lx in enumerate(lexemes, 1):
        if i % _CHUNK == 0:
            progress.advance(_CHUNK)
        if not whitespace and lx.kind.name == "WHITESPACE":
            continue
        lines.append(
            f"{lx.line:>5}:{lx.col:<4} {lx.kind.name:<12} {lx.node_type:<24} {lx.text!r}\n"
        )
    progress.advance(len(lexemes) % _CHUNK)
    return "".join(lines)


def code_encoding_text(enc: Any, fmt: str, title: str) -> str:
    """``encode --format ids|tokens|json|html`` of a :class:`~codetok.code.CodeEncoding`."""
    if fmt == "ids":
        return " ".join(map(str, enc.ids)) + "\n"
    if fmt == "tokens":
        return " ".join(enc.tokens) + "\n"
    if fmt == "html":
        from ..code.applications.html import render_html

        return render_html(enc, title=title)
    return json.dumps(enc.to_dict(), ensure_ascii=False) + "\n"


def text_encoding_text(enc: Any, fmt: str) -> str:
    """``encode --format ids|tokens|json`` of a text tokenizer's :class:`~codetok.Encoding`."""
    if fmt == "ids":
        return " ".join(map(str, enc.ids)) + "\n"
    if fmt == "tokens":
        return " ".join(enc.tokens) + "\n"
    return json.dumps({"ids": enc.ids, "tokens": enc.tokens, "offsets": enc.offsets}) + "\n"
