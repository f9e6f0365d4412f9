"""Docstring sections: where ``Args:``, ``@param`` or ``<summary>`` headers start.

:func:`find_sections` scans the text of a docstring or documentation comment and returns the
char offsets where a section header starts, with a section name from
:data:`~codetok.code.routing.reserved.SECTION_NAMES`. The router puts a zero-width
``<doc:NAME>`` marker there and starts a new piece, so section headers tokenize the same
wherever they appear. Recognised:

- Google / NumPy style (Python): ``Args:``, ``Arguments:``, ``Parameters:`` (or underlined
  with dashes), ``Returns:``, ``Yields:``, ``Raises:``, ``Examples:``, ``Note:``, ``See Also``...
- Javadoc / JSDoc: ``@param``, ``@return(s)``, ``@throws``, ``@exception``, ``@example``,
  ``@see``, ``@deprecated``, ``@note``;
- C# XML documentation: ``<summary>``, ``<param``, ``<typeparam``, ``<returns>``,
  ``<exception``, ``<example>``, ``<seealso``, ``<remarks>``.

Not handled: the natural-language pieces themselves (:mod:`codetok.code.routing.pieces`).
"""

from __future__ import annotations

import re

__all__ = ["find_sections", "header_words"]

_GOOGLE = {
    "args": "param",
    "arguments": "param",
    "parameters": "param",
    "params": "param",
    "keyword args": "param",
    "keyword arguments": "param",
    "other parameters": "param",
    "attributes": "param",
    "returns": "returns",
    "return": "returns",
    "yields": "returns",
    "yield": "returns",
    "raises": "raises",
    "raise": "raises",
    "warns": "raises",
    "exceptions": "raises",
    "examples": "example",
    "example": "example",
    "see also": "see",
    "note": "note",
    "notes": "note",
    "warning": "note",
    "warnings": "note",
    "deprecated": "deprecated",
}
_TAGS = {
    "param": "param",
    "arg": "param",
    "argument": "param",
    "property": "param",
    "prop": "param",
    "return": "returns",
    "returns": "returns",
    "throws": "raises",
    "throw": "raises",
    "exception": "raises",
    "example": "example",
    "see": "see",
    "link": "see",
    "note": "note",
    "deprecated": "deprecated",
}
_XML = {
    "summary": "summary",
    "param": "param",
    "typeparam": "param",
    "returns": "returns",
    "value": "returns",
    "exception": "raises",
    "example": "example",
    "seealso": "see",
    "see": "see",
    "remarks": "note",
}

_HEADER = re.compile(
    r"^[ \t]*(?:(?:\*|///|//|#)[ \t]*)?"
    r"(?P<google>(?:" + "|".join(sorted(_GOOGLE, key=len, reverse=True)) + r"))"
    r"[ \t]*(?::[ \t]*$|:[ \t]|\r?\n[ \t]*-{3,})"
    r"|(?<![\w{])@(?P<tag>" + "|".join(sorted(_TAGS, key=len, reverse=True)) + r")\b"
    r"|<(?P<xml>" + "|".join(sorted(_XML, key=len, reverse=True)) + r")\b",
    re.MULTILINE | re.IGNORECASE,
)


def header_words() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The header words and the section each names: Google-style (``Args:``), tags
    (``@param``) and XML (``<summary``), lower case (what the native scanner reads)."""
    return dict(_GOOGLE), dict(_TAGS), dict(_XML)


def find_sections(text: str) -> list[tuple[int, str]]:
    """Find the section headers of a docstring or documentation comment.

    Args:
        text: the whole docstring or comment, delimiters included.

    Returns:
        ``(char offset, section name)`` pairs in order; the offset is where the header word
        (or ``@tag`` / ``<tag``) starts.

    >>> find_sections("Add.\\n\\n    Args:\\n        x: a number.\\n    Returns:\\n        x+1\\n")
    [(10, 'param'), (41, 'returns')]
    >>> find_sections("/** Adds.\\n * @param x the value\\n * @return x + 1 */")
    [(13, 'param'), (35, 'returns')]
    >>> find_sections("/// <summary>Adds.</summary>")
    [(4, 'summary')]
    """
    out: list[tuple[int, str]] = []
    for m in _HEADER.finditer(text):
        if m.group("google") is not None:
            word = m.group("google")
            if not (word[:1].isupper()):  # "returns: ..." in prose is not a header
                continue
            out.append((m.start("google"), _GOOGLE[word.lower()]))
        elif m.group("tag") is not None:
            out.append((m.start(), _TAGS[m.group("tag").lower()]))
        else:
            out.append((m.start(), _XML[m.group("xml").lower()]))
    return out
