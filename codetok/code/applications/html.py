"""A small self-contained HTML page showing code tokens colored by lexeme kind.

:func:`render_html` lays out the source of a :class:`~codetok.code.CodeEncoding` token by
token: every token is a ``<span>`` whose color says its kind and whose tooltip gives the
token, its id and node type; alternate tokens of one lexeme get a thin underline so subword
boundaries show. Zero-width reserved tokens (``<INDENT>``, ``<comment>``...) appear as small
badges. The page has no scripts and no external resources. :func:`render_fragment` gives
the same view as a fragment whose style is scoped to it, for a notebook's output.

A source that is not UTF-8 (a Latin-1 file, say) reaches here with its undecodable bytes as
lone surrogates (``surrogateescape``); each shows as ``\\xE9`` (the byte in hex) in a red
box whose tooltip says so, and tooltips write it ``\\xE9`` too, so the page is valid UTF-8
and the byte stays visible.
"""

from __future__ import annotations

import html
import re

from ..encoding import CodeEncoding
from ..front.kinds import LexemeKind

__all__ = ["render_html", "render_fragment", "KIND_COLORS"]

#: The colour of each lexeme kind in the pages (and in the notebooks' plots).
KIND_COLORS = {
    LexemeKind.KEYWORD: "#7c3aed",
    LexemeKind.IDENTIFIER: "#1f2937",
    LexemeKind.OPERATOR: "#b45309",
    LexemeKind.PUNCTUATION: "#6b7280",
    LexemeKind.NUMBER: "#0e7490",
    LexemeKind.STRING: "#15803d",
    LexemeKind.COMMENT: "#9ca3af",
    LexemeKind.DOCSTRING: "#65a30d",
    LexemeKind.WHITESPACE: "#e5e7eb",
    LexemeKind.NEWLINE: "#e5e7eb",
    LexemeKind.INDENT: "#2563eb",
    LexemeKind.DEDENT: "#2563eb",
    LexemeKind.ERROR: "#dc2626",
}

# Every rule is scoped under .codetok, so a fragment shown in a notebook styles nothing else.
_STYLE = (
    """
.codetok pre { font: 13px/1.5 ui-monospace, Menlo, Consolas, monospace; background: #fafafa;
      border: 1px solid #e5e7eb; padding: 1em; overflow-x: auto; color: #111827; }
.codetok pre span.t { border-radius: 2px; }
.codetok pre span.alt { box-shadow: inset 0 -2px 0 #d1d5db; }
.codetok pre span.m { font-size: 9px; vertical-align: super; padding: 0 2px; margin: 0 1px;
             border-radius: 3px; color: white; }
.codetok pre span.nb { color: #dc2626; border: 1px solid #dc2626; border-radius: 2px; }
.codetok .legend span { display: inline-block; margin: 0 .8em .3em 0; }
.codetok .legend b { display: inline-block; width: .9em; height: .9em; margin-right: .3em;
            vertical-align: middle; border-radius: 2px; }
"""
    + "".join(f".codetok span.t.{k.name} {{ color: {c}; }}\n" for k, c in KIND_COLORS.items())
    + "".join(f".codetok span.m.{k.name} {{ background: {c}; }}\n" for k, c in KIND_COLORS.items())
)
_PAGE_STYLE = "body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111827; }"

_SURROGATE = re.compile("[\ud800-\udfff]")


def _hex(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02X}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _escape(text: str) -> str:
    """HTML-escaped text with lone surrogates written as ``\\xNN`` / ``\\uXXXX``."""
    return _SURROGATE.sub(_hex, html.escape(text))


def _escape_code(text: str) -> str:
    """HTML-escaped source text; each undecodable byte is a marked ``\\xNN`` box."""
    return _SURROGATE.sub(_byte_box, html.escape(text))


def _byte_box(match: re.Match[str]) -> str:
    shown = _hex(match)
    if not shown.startswith("\\x"):
        return shown
    return f'<span class="nb" title="byte 0{shown[1:]} is not UTF-8">{shown}</span>'


def render_fragment(encoding: CodeEncoding) -> str:
    """The coloured tokens of an encoding as an HTML fragment (a notebook cell's output).

    One ``<div class="codetok">`` holding its own style (every rule scoped to it), a legend
    of the kinds and the source token by token: each token's class is its lexeme kind, and
    its tooltip gives the token, its id, kind and AST node type.

    Args:
        encoding: the result of :meth:`CodeTokenizer.encode`.

    Returns:
        The fragment as a string.

    >>> from codetok.code import CodeTokenizer
    >>> html = render_fragment(CodeTokenizer.default().encode("x = 1\\n", "python"))
    >>> html.startswith('<div class="codetok">') and 'title="x | id' in html
    True
    """
    text = encoding.lexemes.source_text
    # the surrogate escapes cost a regex per token: only for sources that need them
    dirty = _SURROGATE.search(text) is not None
    escape = _escape if dirty else html.escape
    escape_code = _escape_code if dirty else html.escape
    kinds = encoding.kind_list()
    node_types = encoding.node_types
    tokens = encoding.tokens
    ids = encoding.ids
    lex = encoding.lexeme_indices.tolist()
    body: list[str] = []
    prev_lex = -1
    alt = False
    for i, (a, b) in enumerate(encoding.spans.tolist()):
        kind = kinds[i].name
        tip = escape(f"{tokens[i]} | id {ids[i]} | {kind} | {node_types[i]}")
        if a == b:  # a zero-width reserved token
            label = escape(tokens[i].strip("<>"))
            body.append(f'<span class="m {kind}" title="{tip}">{label}</span>')
            continue
        alt = not alt if lex[i] == prev_lex else False
        prev_lex = lex[i]
        cls = f"t alt {kind}" if alt else f"t {kind}"
        body.append(f'<span class="{cls}" title="{tip}">{escape_code(text[a:b])}</span>')
    legend = "".join(
        f'<span><b style="background:{c}"></b>{k.name}</span>' for k, c in KIND_COLORS.items()
    )
    return (
        f'<div class="codetok"><style>{_STYLE}</style>'
        f'<div class="legend">{legend}</div><pre>{"".join(body)}</pre></div>'
    )


def render_html(encoding: CodeEncoding, *, title: str = "codetok") -> str:
    """Render an encoding as a standalone HTML page (:func:`render_fragment` under a title).

    Args:
        encoding: the result of :meth:`CodeTokenizer.encode`.
        title: page title (a file name, say).

    Returns:
        The HTML document as a string.

    >>> from codetok.code import CodeTokenizer
    >>> page = render_html(CodeTokenizer.default().encode("x = 1\\n", "python"))
    >>> page.startswith("<!DOCTYPE html>") and "IDENTIFIER" in page
    True
    """
    note = "" if encoding.lossless else " (normalized: comments dropped or whitespace changed)"
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{_escape(title)}</title><style>{_PAGE_STYLE}</style></head><body>"
        f"<h3>{_escape(title)}: {encoding.language}, {len(encoding)} tokens{note}</h3>"
        f"{render_fragment(encoding)}</body></html>\n"
    )
