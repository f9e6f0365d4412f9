"""Program-synthesis pairs: (docstring or leading comment, function) from source files.

:func:`extract_pairs` finds every function of a file together with its documentation:

* **python**: ``def`` / ``async def`` (methods and nested functions too) with a docstring;
  the decorators belong to the code, the docstring statement is removed from it;
* **java**: methods and constructors preceded by a Javadoc comment or by ``//`` lines;
* **csharp**: methods, constructors, operators and local functions preceded by ``///`` XML
  documentation or ``//`` lines;
* **javascript**: function declarations, class methods, and arrow functions / function
  expressions assigned to a name (``const f = () => ...``, ``obj.f = function () {}``,
  ``{f: function () {}}``), preceded by JSDoc or ``//`` lines (``export`` included).

A leading comment must sit on its own lines right above the function (or its decorators,
``export``, ``const``): a blank line or code in between breaks the link. Documentation
comments win over plain ones: the run of comments of the closest one's style is taken.

:class:`PairEncoder` tokenizes both sides with any tokenizer that has ``encode(text)``
(a :class:`codetok.Tokenizer`, or a CodeTokenizer, whose ``encode`` also gets
``language=``), truncating the code at statement boundaries
(:mod:`codetok.code.applications.truncation`), and produces JSON-ready records; files, JSON Lines and the
``codetok pairs`` command live in :mod:`codetok.cli.pairs`.

Not handled here: natural-language cleaning beyond removing comment delimiters (XML tags
of C# documentation and Javadoc tags are kept as written).
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ...errors import ConfigurationError, LanguageError
from ..front.kinds import LexemeKind
from ..front.languages import get_grammar
from ..front.lexer import lex
from .truncation import Truncation, statement_units, truncate_code

__all__ = ["FunctionPair", "PairEncoder", "extract_pairs"]

_FUNCTIONS: dict[str, frozenset[str]] = {
    "python": frozenset({"function_definition"}),
    "java": frozenset(
        {"method_declaration", "constructor_declaration", "compact_constructor_declaration"}
    ),
    "csharp": frozenset(
        {
            "method_declaration",
            "constructor_declaration",
            "local_function_statement",
            "operator_declaration",
            "destructor_declaration",
        }
    ),
    "javascript": frozenset(
        {"function_declaration", "generator_function_declaration", "method_definition"}
    ),
}
# JavaScript function values that count when assigned to a name.
_JS_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_WRAPPERS = frozenset(
    {
        "export_statement",
        "decorated_definition",
        "lexical_declaration",
        "variable_declaration",
        "expression_statement",
    }
)
_CLASSES = frozenset(
    {
        "class_definition",
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "struct_declaration",
        "class",
    }
)
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
_STR_PREFIX = re.compile(r"^[rRuUbBfF]*")
_LAYOUT = (LexemeKind.WHITESPACE, LexemeKind.NEWLINE, LexemeKind.INDENT, LexemeKind.DEDENT)


@dataclass
class FunctionPair:
    """One (documentation, function) pair found by :func:`extract_pairs`.

    Attributes:
        language: canonical language name.
        path: the file it came from ("" when unknown).
        name: the function name, qualified by enclosing classes (``Class.method``).
        docstring: the documentation text, delimiters and common indentation removed.
        code: the function source (decorators / annotations included, the Python
            docstring statement removed).
        span: byte span of the function (with decorators / ``export``) in the file.
        docstring_span: byte span of the documentation (first to last comment) in the file.
        lines: 1-based first and last line of the function.
        doc_style: ``"docstring"``, ``"doc"`` (Javadoc, JSDoc, ``///``), ``"line"`` or
            ``"block"``.
    """

    language: str
    path: str
    name: str
    docstring: str
    code: str
    span: tuple[int, int]
    docstring_span: tuple[int, int]
    lines: tuple[int, int]
    doc_style: str
    statements: list[tuple[int, int]] = field(default_factory=list, repr=False)
    lexeme_ends: list[int] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The public fields as a JSON-ready dict."""
        return {
            "language": self.language,
            "path": self.path,
            "name": self.name,
            "docstring": self.docstring,
            "code": self.code,
            "doc_style": self.doc_style,
            "spans": {
                "function": list(self.span),
                "docstring": list(self.docstring_span),
                "lines": list(self.lines),
            },
        }


# ----------------------------------------------------------------------------- extraction


def _text(data: bytes, a: int, b: int) -> str:
    return data[a:b].decode("utf-8", "surrogateescape")


def _trailing(comment: Any, data: bytes, off: int) -> bool:
    """Whether a comment ends a line of code (``x = 1;  // note``) rather than leading."""
    prev = comment.prev_sibling
    if prev is None or not prev.is_named:  # first in its block, after "{" or ":"
        return False
    return b"\n" not in data[prev.end_byte + off : comment.start_byte + off]


def _clean_comment(text: str) -> str:
    """Remove comment delimiters and leading ``*`` / ``//`` / ``///`` from each line."""
    if text.startswith("/*"):
        text = text[3:] if text.startswith("/**") else text[2:]
        text = text[:-2] if text.endswith("*/") else text
        lines = [re.sub(r"^\s*\*(?!/) ?", "", ln) for ln in text.split("\n")]
    else:
        lines = [re.sub(r"^\s*(///|//|#) ?", "", ln) for ln in text.split("\n")]
    return _dedent("\n".join(ln.rstrip() for ln in lines))


def _dedent(text: str) -> str:
    return inspect.cleandoc(text)


def _python_docstring(text: str) -> str:
    body = _STR_PREFIX.sub("", text)
    q = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    inner = body[len(q) : len(body) - len(q)] if body.endswith(q) else body[len(q) :]
    return _dedent(inner.replace("\r\n", "\n"))


def _qualified(node: Any, data: bytes, off: int, name: str) -> str:
    parts = [name]
    p = node.parent
    while p is not None:
        if p.type in _CLASSES:
            n = p.child_by_field_name("name")
            if n is not None:
                parts.append(_text(data, n.start_byte + off, n.end_byte + off))
        p = p.parent
    return ".".join(reversed(parts))


def _leading_comments(anchor: Any, data: bytes, off: int, grammar: Any) -> list[Any]:
    """The comments right above ``anchor`` of the closest comment's style, top first."""
    found: list[Any] = []
    nxt_start = anchor.start_byte + off
    sib = anchor.prev_sibling
    while sib is not None and sib.type in _COMMENTS:
        s, e = sib.start_byte + off, sib.end_byte + off
        if data[e:nxt_start].count(b"\n") > 1 or _trailing(sib, data, off):
            break
        found.append(sib)
        nxt_start = s
        sib = sib.prev_sibling
    if not found:
        return []
    styles = [
        grammar.comment_style(_text(data, c.start_byte + off, c.end_byte + off)) for c in found
    ]
    run = [found[0]]
    if styles[0] in ("doc", "line"):
        for c, st in zip(found[1:], styles[1:], strict=True):
            if st != styles[0]:
                break
            run.append(c)
    return list(reversed(run))


def _js_named_value(node: Any, data: bytes, off: int) -> tuple[str, Any] | None:
    """Name and anchor of a function value assigned to a name, else None."""
    p = node.parent
    if p is None:
        return None
    if p.type == "variable_declarator" and p.child_by_field_name("value") == node:
        n = p.child_by_field_name("name")
        anchor = p.parent if p.parent is not None else p
    elif p.type == "assignment_expression" and p.child_by_field_name("right") == node:
        n = p.child_by_field_name("left")
        anchor = p.parent if p.parent is not None and p.parent.type == "expression_statement" else p
    elif p.type == "pair" and p.child_by_field_name("value") == node:
        n = p.child_by_field_name("key")
        anchor = p
    else:
        return None
    if n is None:
        return None
    if anchor.parent is not None and anchor.parent.type == "export_statement":
        anchor = anchor.parent
    return _text(data, n.start_byte + off, n.end_byte + off), anchor


def _functions(root: Any, language: str) -> Iterator[Any]:
    kinds = _FUNCTIONS[language]
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in kinds or (language == "javascript" and n.type in _JS_VALUES):
            yield n
        stack.extend(reversed(n.children))


def extract_pairs(
    source: str | bytes,
    /,
    language: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    keep_docstring: bool = False,
) -> list[FunctionPair]:
    """Find the documented functions of one source file.

    Args:
        source: the file content (str or bytes).
        language: ``python``, ``java``, ``csharp`` or ``javascript`` (aliases work);
            detected from ``path`` / content when None.
        path: the file name, recorded in each pair and used for detection.
        keep_docstring: keep the Python docstring statement inside ``code``.

    Returns:
        The pairs in source order. Functions without documentation, and Python functions
        whose body is only a docstring, are skipped.

    Raises:
        LanguageError: the language is not one of the four, or cannot be detected.

    >>> src = "def add(a, b):\\n    'Add two numbers.'\\n    return a + b\\n"
    >>> p = extract_pairs(src, "python")[0]
    >>> p.name, p.docstring, p.code
    ('add', 'Add two numbers.', 'def add(a, b):\\n    return a + b')
    """
    lx = lex(source, language, path=path)
    lang = lx.language
    if lang not in _FUNCTIONS:
        raise LanguageError(
            f"pairs are extracted from python, java, csharp and javascript, not {lang!r}"
        )
    grammar = get_grammar(lang)
    data = lx.source_bytes
    off = lx.tree_offset
    code_lex = np.flatnonzero(~np.isin(lx.kinds, np.array(_LAYOUT, np.uint8)))
    lex_ends = lx.byte_ends[code_lex]
    line_of = np.concatenate([[0], np.cumsum(np.frombuffer(data, np.uint8) == 10)])
    out: list[FunctionPair] = []
    for fn in _functions(lx.tree.root_node, lang):
        named = _name_and_anchor(fn, lang, data, off)
        if named is None:
            continue
        name, anchor = named
        start = anchor.start_byte + off
        end = fn.end_byte + off
        if lang == "python":
            doc = _python_doc(fn, data, off, end, keep_docstring)
        else:
            doc = _leading_doc(anchor, grammar, data, off)
        if doc is None or not doc.text.strip():
            continue
        qual = _qualified(fn, data, off, name)
        units = statement_units(fn, lang, off)
        ends = lex_ends[(lex_ends > start) & (lex_ends <= end)].tolist()
        code_bytes, units, ends = _function_code(data, start, end, units, ends, doc.cut)
        out.append(
            FunctionPair(
                language=lang,
                path="" if path is None else str(path),
                name=qual,
                docstring=doc.text,
                code=code_bytes.decode("utf-8", "surrogateescape"),
                span=(start, end),
                docstring_span=(doc.start, doc.end),
                lines=(int(line_of[start]) + 1, int(line_of[max(end - 1, start)]) + 1),
                doc_style=doc.style,
                statements=units,
                lexeme_ends=ends,
            )
        )
    out.sort(key=lambda p: p.span)
    return out


def _name_and_anchor(fn: Any, lang: str, data: bytes, off: int) -> tuple[str, Any] | None:
    """A function's name and the node its documentation sits above; None if unnamed."""
    name_node = fn.child_by_field_name("name") or fn.child_by_field_name("operator")
    anchor = fn
    if lang == "javascript" and fn.type in _JS_VALUES:
        named = _js_named_value(fn, data, off)
        if named is None:
            return None
        name, anchor = named
    elif name_node is None:
        return None
    else:
        name = _text(data, name_node.start_byte + off, name_node.end_byte + off)
        if fn.type == "operator_declaration":
            name = "operator" + name
    while anchor.parent is not None and anchor.parent.type in (
        "decorated_definition",
        "export_statement",
    ):
        anchor = anchor.parent
    return name, anchor


class _Doc(NamedTuple):
    """A function's documentation, as :func:`extract_pairs` records it."""

    text: str
    style: str
    #: byte span of the documentation in the file
    start: int
    end: int
    #: byte range to remove from the code (the Python docstring statement), or None
    cut: tuple[int, int] | None


def _python_doc(fn: Any, data: bytes, off: int, end: int, keep_docstring: bool) -> _Doc | None:
    """A Python function's docstring and the statement to cut; None if no pair is made."""
    doc = _python_doc_node(fn)
    if doc is None:
        return None
    ds, de = doc.start_byte + off, doc.end_byte + off
    docstring = _python_docstring(_text(data, ds, de))
    body = fn.child_by_field_name("body")
    if body is not None and body.named_child_count < 2 and not keep_docstring:
        return None
    cut = None if keep_docstring else _docstring_cut(data, ds, de, end)
    return _Doc(docstring, "docstring", ds, de, cut)


def _leading_doc(anchor: Any, grammar: Any, data: bytes, off: int) -> _Doc | None:
    """The comments right above ``anchor`` as documentation; None when there are none."""
    comments = _leading_comments(anchor, data, off, grammar)
    if not comments:
        return None
    ds, de = comments[0].start_byte + off, comments[-1].end_byte + off
    style = grammar.comment_style(_text(data, ds, comments[0].end_byte + off))
    docstring = "\n".join(
        _clean_comment(_text(data, c.start_byte + off, c.end_byte + off)) for c in comments
    )
    return _Doc(_dedent(docstring), style, ds, de, None)


def _function_code(
    data: bytes,
    start: int,
    end: int,
    units: list[tuple[int, int]],
    ends: list[int],
    cut: tuple[int, int] | None,
) -> tuple[bytes, list[tuple[int, int]], list[int]]:
    """A function's code, statements and lexeme ends relative to it, without ``cut``."""
    if cut is None:
        return (
            data[start:end],
            [(s - start, e - start) for s, e in units],
            [e - start for e in ends],
        )
    a, b = cut
    shift = b - a
    units = [
        (s - start - (shift if s >= b else 0), e - start - (shift if e > a else 0))
        for s, e in units
        if not (a <= s < b)
    ]
    ends = [e - start - (shift if e > a else 0) for e in ends if not (a < e <= b)]
    return data[start:a] + data[b:end], units, ends


def _python_doc_node(fn: Any) -> Any:
    body = fn.child_by_field_name("body")
    if body is None:
        return None
    for child in body.named_children:
        if child.type == "comment":
            continue
        if child.type == "expression_statement" and child.named_child_count == 1:
            s = child.named_children[0]
            if s.type in ("string", "concatenated_string"):
                return child
        return None
    return None


def _docstring_cut(data: bytes, ds: int, de: int, end: int) -> tuple[int, int]:
    """Byte range to remove for a docstring statement: its whole lines when it has them."""
    line_start = data.rfind(b"\n", 0, ds) + 1
    nl = data.find(b"\n", de)
    line_end = (nl + 1) if nl >= 0 else len(data)
    if not data[line_start:ds].strip() and not data[de:line_end].strip() and line_end <= end:
        return line_start, line_end
    if not data[line_start:ds].strip() and line_end > end:
        return line_start, de
    # a one-liner such as "def f(): 'doc'; return 1": remove the statement and its ";"
    m = re.match(rb"\s*;?[ \t]*", data[de:end])
    return ds, de + (m.end() if m else 0)


# ----------------------------------------------------------------------------- tokenizing


def _ids_of(result: Any) -> list[int]:
    ids = getattr(result, "ids", result)
    if isinstance(ids, np.ndarray):
        return ids.tolist()
    return list(ids)


class PairEncoder:
    """Tokenize both sides of :class:`FunctionPair` s, truncating code at statements.

    Args:
        tokenizer: anything with ``encode(text)`` returning ids or an object with ``.ids``:
            a :class:`codetok.Tokenizer`, or a CodeTokenizer (its ``encode`` is called with
            ``language=`` for code when it accepts that keyword; a ``encode_text`` method,
            when present, is used for the documentation side).
        max_code_tokens: budget of the code side (None: no truncation). Counted on what
            ``encode`` returns, special tokens included.
        max_docstring_tokens: budget of the documentation side; cut at a token boundary.

    Raises:
        ConfigurationError: ``tokenizer`` has no ``encode`` method, or a budget is negative.

    >>> from codetok.text import whitespace_tokenizer  # doctest: +SKIP
    >>> enc = PairEncoder(tok, max_code_tokens=64)  # doctest: +SKIP
    >>> rec = enc.encode(extract_pairs(src, "python")[0])  # doctest: +SKIP
    >>> sorted(rec)[:4]  # doctest: +SKIP
    ['code', 'code_ids', 'doc_style', 'docstring']
    """

    def __init__(
        self,
        tokenizer: Any,
        *,
        max_code_tokens: int | None = None,
        max_docstring_tokens: int | None = None,
    ) -> None:
        if not callable(getattr(tokenizer, "encode", None)):
            raise ConfigurationError(
                f"tokenizer needs an encode(text) method; got {type(tokenizer).__name__}"
            )
        for label, v in (
            ("max_code_tokens", max_code_tokens),
            ("max_docstring_tokens", max_docstring_tokens),
        ):
            if v is not None and v < 0:
                raise ConfigurationError(f"{label} must be >= 0 or None, got {v}")
        self.tokenizer = tokenizer
        self.max_code_tokens = max_code_tokens
        self.max_docstring_tokens = max_docstring_tokens
        try:
            params = inspect.signature(tokenizer.encode).parameters
        except (TypeError, ValueError):
            params = {}
        self._takes_language = "language" in params

    def code_ids(self, code: str, language: str) -> list[int]:
        """Token ids of a piece of code.

        Args:
            code: the code text.
            language: its language (passed on to tokenizers that take ``language=``).

        Returns:
            The ids.
        """
        if self._takes_language:
            return _ids_of(self.tokenizer.encode(code, language=language))
        return _ids_of(self.tokenizer.encode(code))

    def text_ids(self, text: str) -> list[int]:
        """Token ids of documentation text.

        Args:
            text: the docstring.

        Returns:
            The ids.
        """
        fn = getattr(self.tokenizer, "encode_text", None)
        if callable(fn):
            return _ids_of(fn(text))
        if self._takes_language:  # a CodeTokenizer: its text channel (ids offset 0)
            inner = getattr(self.tokenizer, "tokenizer", None)
            if callable(getattr(inner, "encode", None)):
                return _ids_of(inner.encode(text))
        return _ids_of(self.tokenizer.encode(text))

    def encode(self, pair: FunctionPair) -> dict[str, Any]:
        """Tokenize one pair and build its JSON-ready record.

        Args:
            pair: from :func:`extract_pairs`.

        Returns:
            :meth:`FunctionPair.to_dict` plus ``docstring_ids``, ``code_ids`` and
            ``truncation`` (``code`` / ``docstring`` are cut to what the ids cover, and
            ``truncation`` reports the cut: see :class:`~codetok.code.applications.truncation.Truncation`,
            plus ``docstring_truncated`` and ``docstring_tokens_before``).
        """
        rec = pair.to_dict()
        code_b = pair.code.encode("utf-8", "surrogateescape")
        lang = pair.language
        if self.max_code_tokens is None:
            ids = self.code_ids(pair.code, lang)
            report = Truncation(tokens_before=len(ids), tokens_after=len(ids))
        else:

            def count(b: bytes) -> int:
                return len(self.code_ids(b.decode("utf-8", "surrogateescape"), lang))

            cut, report = truncate_code(
                code_b, count, self.max_code_tokens, pair.statements, pair.lexeme_ends
            )
            rec["code"] = code_b[:cut].decode("utf-8", "surrogateescape")
            ids = self.code_ids(rec["code"], lang)
        doc_ids = self.text_ids(pair.docstring)
        trunc = report.to_dict()
        trunc["docstring_tokens_before"] = len(doc_ids)
        trunc["docstring_truncated"] = False
        if self.max_docstring_tokens is not None and len(doc_ids) > self.max_docstring_tokens:
            doc_ids = doc_ids[: self.max_docstring_tokens]
            trunc["docstring_truncated"] = True
        rec["docstring_ids"] = doc_ids
        rec["code_ids"] = ids
        rec["truncation"] = trunc
        return rec
