"""Pattern tokenization: ordered regular expressions, longest match at each position.

The :class:`Patterns` pre-tokenizer scans the text left to right. At each position every
pattern is tried; the longest non-empty match becomes a piece, and on equal length the
pattern listed first wins. Text that no pattern matches is handled by ``unmatched``:

- ``"token"``: each maximal unmatched run becomes one piece (nothing is lost);
- ``"char"``: each unmatched character becomes its own piece (nothing is lost);
- ``"drop"``: unmatched text is skipped;
- ``"error"``: a :class:`~codetok.errors.VocabularyError` names the first unmatched span.

Each pattern keeps its own regex semantics (``a|ab`` matches ``a``); "longest" is
between patterns. Patterns use the ``regex`` module's syntax. The scan remembers the next
match of every pattern, so the cost is about one regex search per piece and pattern.

:func:`pattern_tokenizer` wraps it in a WordLevel :class:`~codetok.Tokenizer`; with
``unmatched="token"`` or ``"char"`` its decoder concatenates tokens, so decoding gives the
text back exactly when every piece is in the vocabulary. The ``tokenizer.json`` form is
``{"type": "codetok.Patterns", "patterns": [...], "unmatched": "token"}``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import regex

from ..decoders import Fuse
from ..errors import ConfigurationError, VocabularyError
from ..models import WordLevel
from ..normalizers import Normalizer
from ..pre_tokenizers import PreTokenizer
from ..tokenizer.offsets import NormalizedString, Span
from ..tokenizer.tokenizer import Tokenizer
from ._register import register
from .vocab import Corpus, finish

__all__ = ["Patterns", "pattern_tokenizer", "UNMATCHED"]

UNMATCHED = ("token", "char", "drop", "error")
_INF = 1 << 62


@register
class Patterns(PreTokenizer):
    """Cut text with ordered patterns, longest match first (see the module docstring).

    Args:
        patterns: regular expressions (``regex`` syntax), most important first.
        unmatched: ``"token"``, ``"char"``, ``"drop"`` or ``"error"``.

    Raises:
        ConfigurationError: no patterns, a pattern that does not compile, or an unknown
            ``unmatched`` value.

    >>> Patterns([r"\\d+", r"\\d+\\.\\d+", r"[a-z]+"], unmatched="drop").pre_tokenize_str("pi 3.14")
    [('pi', (0, 2)), ('3.14', (3, 7))]
    """

    type_name = "codetok.Patterns"

    def __init__(self, patterns: Sequence[str], unmatched: str = "token") -> None:
        if isinstance(patterns, str):
            raise ConfigurationError(
                "patterns must be a list of regular expressions, not one str; use [pattern]"
            )
        self.patterns = list(patterns)
        if not self.patterns:
            raise ConfigurationError("patterns must hold at least one regular expression")
        if unmatched not in UNMATCHED:
            raise ConfigurationError(
                f"unmatched must be one of {', '.join(map(repr, UNMATCHED))}; got {unmatched!r}"
            )
        self.unmatched = unmatched
        self._compiled: list[regex.Pattern[str]] = []
        for i, p in enumerate(self.patterns):
            if not isinstance(p, str):
                raise ConfigurationError(f"patterns[{i}] must be a str, got {type(p).__name__}")
            try:
                self._compiled.append(regex.compile(p))
            except regex.error as e:
                raise ConfigurationError(f"patterns[{i}] = {p!r} does not compile: {e}") from e

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type_name,
            "patterns": list(self.patterns),
            "unmatched": self.unmatched,
        }

    def scan(self, text: str) -> list[tuple[int, int, bool]]:
        """``(start, end, matched)`` for every matched piece and unmatched run, in order.

        >>> Patterns(["a+", "b"]).scan("aab-b")
        [(0, 2, True), (2, 3, True), (3, 4, False), (4, 5, True)]
        """
        n = len(text)
        pats = self._compiled
        k = len(pats)
        nxt: list[Span] = [(-1, -1)] * k
        out: list[tuple[int, int, bool]] = []
        pos = 0
        while pos < n:
            best_end, best = pos, -1
            for i in range(k):
                s, e = nxt[i]
                if s < pos:
                    m = pats[i].search(text, pos)
                    s, e = nxt[i] = m.span() if m else (_INF, _INF)
                if s == pos and e > best_end:
                    best_end, best = e, i
            if best >= 0:
                out.append((pos, best_end, True))
                pos = best_end
                continue
            # Nothing non-empty starts here: the unmatched run ends where some pattern
            # next finds a non-empty match (empty matches at ``pos`` are searched past).
            stop = n
            for i in range(k):
                s, e = nxt[i]
                if s <= pos:
                    m = pats[i].search(text, pos + 1)
                    s, e = nxt[i] = m.span() if m else (_INF, _INF)
                if s < stop:
                    stop = s
            if out and not out[-1][2] and out[-1][1] == pos:
                out[-1] = (out[-1][0], stop, False)
            else:
                out.append((pos, stop, False))
            pos = stop
        return out

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        pieces: list[NormalizedString] = []
        mode = self.unmatched
        for s, e, matched in self.scan(text):
            if matched or mode == "token":
                pieces.append(ns.slice(s, e))
            elif mode == "char":
                pieces.extend(ns.slice(i, i + 1) for i in range(s, e))
            elif mode == "error":
                a, b = ns.original_span(s, e)
                raise VocabularyError(
                    f"text[{a}:{b}] = {text[s:e]!r:.60} matches none of the patterns; add a "
                    f"pattern "
                    f"that covers it, or pass unmatched='token', 'char' or 'drop'"
                )
        return pieces


def pattern_tokenizer(
    patterns: Sequence[str],
    vocab: Mapping[str, int] | None = None,
    *,
    unmatched: str = "token",
    corpus: Corpus | None = None,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    unk_token: str | None = "[UNK]",
    special_tokens: Sequence[str] = (),
    normalizer: Normalizer | None = None,
) -> Tokenizer:
    """A word-level tokenizer over :class:`Patterns` pieces.

    Args:
        patterns: regular expressions, most important first.
        vocab: token -> id; when ``None`` the vocabulary is learned from ``corpus`` /
            ``files`` (or holds only the special and unknown tokens).
        unmatched: ``"token"``, ``"char"``, ``"drop"`` or ``"error"`` (module docstring).
        corpus: texts (``str``) and/or files (``pathlib.Path``) to learn the vocabulary from.
        files: more files to learn from, read line by line.
        min_frequency: keep pieces seen at least this often.
        max_size: the largest vocabulary, special and unknown tokens included.
        unk_token: stands for pieces outside the vocabulary (added when missing).
        special_tokens: never split, placed first in a learned vocabulary.
        normalizer: optional.

    Returns:
        A :class:`~codetok.Tokenizer`. Its decoder concatenates tokens when ``unmatched``
        keeps all text (``"token"``, ``"char"``), and joins them with spaces otherwise.

    Raises:
        ConfigurationError: bad patterns or options (see :class:`Patterns`).

    >>> tok = pattern_tokenizer([r"\\w+", r"\\s+"], corpus=["a = b + c"], unmatched="char")
    >>> enc = tok.encode("a + b")
    >>> enc.tokens, tok.decode(enc.ids)
    (['a', ' ', '+', ' ', 'b'], 'a + b')
    """
    pre = Patterns(patterns, unmatched)
    decoder = Fuse() if unmatched in ("token", "char") else None
    tok = Tokenizer(WordLevel(), normalizer=normalizer, pre_tokenizer=pre, decoder=decoder)
    return finish(
        tok,
        vocab=vocab,
        corpus=corpus,
        files=files,
        min_frequency=min_frequency,
        max_size=max_size,
        unk_token=unk_token,
        special_tokens=special_tokens,
    )
