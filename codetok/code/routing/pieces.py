"""Cutting lexeme text into the pieces a subword model sees.

:class:`PieceSplitter` turns the text of one lexeme into half-open char ranges that tile it:

- ``words``: natural-language style, for string contents, comments, docstrings and anything
  unusual — a letter run with at most one leading space, a digit group, a punctuation run
  with at most one leading space, a whitespace run;
- ``number``: a number literal, cut between digits and the rest (``0x1F``, ``1_000L``);
- ``whitespace``: runs of one repeated blank character (``"\\t\\t"``, ``"    "``).

Digits follow the *digit policy*: ``"single"`` makes every digit its own piece (good for
arithmetic), ``"group3"`` cuts digit runs into groups of at most three from the left (as
cl100k does), ``"whole"`` keeps a digit run whole. Every piece is at most ``max_piece``
chars (longer ones are cut), which bounds the work of a subword model on blobs.

Not handled here: which lexeme gets which treatment (:mod:`codetok.code.routing.router`) and
identifier splitting (:mod:`codetok.code.routing.identifiers`).
"""

from __future__ import annotations

import regex

from ...errors import ConfigurationError

__all__ = ["PieceSplitter", "DIGIT_POLICIES"]

DIGIT_POLICIES = ("single", "group3", "whole")

_DIGITS = {"single": r"\p{Nd}", "group3": r"\p{Nd}{1,3}", "whole": r"\p{Nd}+"}


def _words_pattern(digits: str) -> regex.Pattern[str]:
    return regex.compile(
        rf"{digits}| ?[\p{{L}}\p{{M}}]+| ?[^\s\p{{L}}\p{{M}}\p{{Nd}}]+|\s+(?!\S)|\s+"
    )


def _number_pattern(digits: str) -> regex.Pattern[str]:
    return regex.compile(rf"{digits}|[^\p{{Nd}}]+")


_WHITESPACE = regex.compile(r"(.)\1*", regex.DOTALL)


class PieceSplitter:
    """Cut lexeme text into pieces under a digit policy.

    Args:
        digits: ``"single"``, ``"group3"`` or ``"whole"`` (see the module docstring).
        max_piece: the longest piece, in chars.

    Raises:
        ConfigurationError: an unknown digit policy or a ``max_piece`` below 1.

    >>> s = PieceSplitter("single")
    >>> [t for t in s.texts("words", "x = 2024 rows")]
    ['x', ' =', ' ', '2', '0', '2', '4', ' rows']
    >>> PieceSplitter("group3").texts("number", "1234567L")
    ['123', '456', '7', 'L']
    """

    def __init__(self, digits: str = "group3", *, max_piece: int = 64) -> None:
        if digits not in _DIGITS:
            raise ConfigurationError(
                f"digit policy must be one of {', '.join(DIGIT_POLICIES)}; got {digits!r}"
            )
        if not isinstance(max_piece, int) or max_piece < 1:
            raise ConfigurationError(f"max_piece must be a positive int, got {max_piece!r}")
        self.digits = digits
        self.max_piece = max_piece
        self._patterns = {
            "words": _words_pattern(_DIGITS[digits]),
            "number": _number_pattern(_DIGITS[digits]),
            "whitespace": _WHITESPACE,
        }

    def spans(self, mode: str, text: str, base: int = 0) -> list[tuple[int, int]]:
        """Return the pieces of ``text`` as ``(start, end)`` char offsets plus ``base``.

        Args:
            mode: ``"words"``, ``"number"`` or ``"whitespace"``.
            text: the text to cut (the pieces tile it).
            base: added to every offset.

        Returns:
            Non-empty, contiguous ranges covering ``text``.
        """
        out: list[tuple[int, int]] = []
        cap = self.max_piece
        for m in self._patterns[mode].finditer(text):
            a, b = m.span()
            while b - a > cap:
                out.append((base + a, base + a + cap))
                a += cap
            out.append((base + a, base + b))
        return out

    def texts(self, mode: str, text: str) -> list[str]:
        """Return the pieces of ``text`` as strings (see :meth:`spans`)."""
        return [text[a:b] for a, b in self.spans(mode, text)]
