"""All alignment bookkeeping: normalized text <-> the caller's original text.

A :class:`NormalizedString` is a piece of text as the pipeline sees it after normalizers
and pre-tokenizers have changed it, together with, for every one of its characters, the
span of the caller's original string that character came from. Offsets handed to users
always index the caller's original ``str`` as Python character positions.

When nothing has changed the length of the text, the alignment is the identity and is not
materialized (``align is None``); only length-changing steps (NFD, insertions, removals,
byte-level expansion) pay for a per-character list.

Insertion rule (the one HF ``tokenizers`` uses): a character that has no source character
of its own takes the alignment of the character before it, or of the first character when
it is inserted at the very start.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Span = tuple[int, int]

__all__ = ["NormalizedString", "Span", "replace_surrogates", "remap_offsets"]

_SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR_OR_LONE = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


class NormalizedString:
    """Text plus, per character, its span in the caller's original string.

    Args:
        text: the (normalized) text.
        base: with ``align=None``, the original position of ``text[0]``.
        align: one ``(start, end)`` original span per character of ``text``, or ``None``
            for the identity alignment starting at ``base``.
    """

    __slots__ = ("text", "base", "align")

    def __init__(self, text: str, base: int = 0, align: list[Span] | None = None) -> None:
        self.text = text
        self.base = base
        self.align = align

    def __len__(self) -> int:
        return len(self.text)

    def __repr__(self) -> str:
        return f"NormalizedString({self.text!r}, span={self.original_span(0, len(self.text))})"

    # -- queries -------------------------------------------------------------------------
    def spans(self) -> list[Span]:
        """The per-character original spans (materialized)."""
        if self.align is not None:
            return self.align
        return _identity(self.base, len(self.text))

    def original_span(self, start: int, end: int) -> Span:
        """Original span covered by ``text[start:end]``."""
        if self.align is None:
            return (self.base + start, self.base + end)
        align = self.align
        if not align:
            return (self.base, self.base)
        if start >= end:
            if start < len(align):
                p = align[start][0]
            else:
                p = align[-1][1]
            return (p, p)
        return (align[start][0], align[end - 1][1])

    # -- slicing -------------------------------------------------------------------------
    def slice(self, start: int, end: int) -> NormalizedString:
        """The sub-string ``text[start:end]`` with its alignment."""
        if self.align is None:
            return NormalizedString(self.text[start:end], self.base + start)
        align = self.align[start:end]
        if not align:
            p = self.original_span(start, start)[0]
            return NormalizedString("", p)
        return NormalizedString(self.text[start:end], align[0][0], align)

    # -- edits ---------------------------------------------------------------------------
    def map_chars(self, new_text: str) -> None:
        """Replace the text by one of the same length (one char for one char)."""
        if len(new_text) != len(self.text):
            raise ValueError("map_chars needs a text of the same length")
        self.text = new_text

    def transform(self, chunks: Iterable[tuple[str, int, int]]) -> None:
        """Rebuild the text from chunks ``(new_text, src_start, src_end)``.

        Chunks come in order; ``src_start:src_end`` is the part of the current text the
        chunk replaces. Source characters covered by no chunk are removed. Every character
        of a chunk gets the union span of its source; a chunk with an empty source is an
        insertion (see the module docstring).
        """
        n = len(self.text)
        parts: list[str] = []
        align: list[Span] = []
        self._rebuild(chunks, self.spans(), parts, align)
        self._settle("".join(parts), align, n)

    def edit(self, edits: Iterable[tuple[int, int, Iterable[tuple[str, int, int]]]]) -> None:
        """:meth:`transform` of some parts of the text only, the rest kept as it is.

        Each edit ``(start, end, chunks)`` rebuilds ``text[start:end]`` from ``chunks`` as
        :meth:`transform` does (their source positions index the whole text). Edits come
        in order and do not overlap. The result equals :meth:`transform` with the chunk
        ``(c, i, i + 1)`` for every char ``c`` at ``i`` outside the edits, but the text
        between edits is copied whole, not char by char: the work follows the edits.
        """
        text = self.text
        n = len(text)
        old = self.spans()
        parts: list[str] = []
        align: list[Span] = []
        prev = 0
        for start, end, chunks in edits:
            if start > prev:
                parts.append(text[prev:start])
                align.extend(old[prev:start])
            self._rebuild(chunks, old, parts, align)
            prev = end
        if prev < n:
            parts.append(text[prev:])
            align.extend(old[prev:])
        self._settle("".join(parts), align, n)

    def _rebuild(
        self,
        chunks: Iterable[tuple[str, int, int]],
        old: list[Span],
        parts: list[str],
        align: list[Span],
    ) -> None:
        """Append the text and spans of ``chunks`` (see :meth:`transform`) to ``parts`` and
        ``align``; ``old`` holds the current spans."""
        n = len(old)
        for new, s, e in chunks:
            if not new:
                continue
            if s < e:
                if e - s == 1:
                    span = old[s]
                else:
                    span = (old[s][0], old[e - 1][1])
            elif s > 0 and s - 1 < n:
                span = old[s - 1]
            elif n:
                span = old[0]
            else:
                span = (self.base, self.base)
            parts.append(new)
            if len(new) == 1:
                align.append(span)
            else:
                align.extend([span] * len(new))

    def _settle(self, text: str, align: list[Span], n: int) -> None:
        """Take ``text`` and its spans ``align`` as the new state (``n``: the old length);
        an identity alignment collapses to ``None``."""
        self.text = text
        if not align:
            self.base = self.original_span(0, 0)[0] if n else self.base
            self.align = None
            return
        self.base = base = align[0][0]
        # Collapse back to identity when possible (cheap check on the ends first).
        if (
            len(text) == align[-1][1] - base
            and align[-1][0] == base + len(text) - 1
            and align == _identity(base, len(text))
        ):
            self.align = None
        else:
            self.align = align

    def delete(self, positions: list[int]) -> None:
        """Remove the characters at the given sorted positions (alignment kept)."""
        self.delete_spans([(p, p + 1) for p in positions])

    def delete_spans(self, spans: list[Span]) -> None:
        """Remove ``text[start:end]`` for each of the sorted, disjoint ``spans`` (as
        :meth:`delete` of every position in them; the alignment is kept)."""
        if not spans:
            return
        text = self.text
        n = len(text)
        kept = list(zip([0, *[e for _, e in spans]], [*[s for s, _ in spans], n]))
        old = self.spans()
        align: list[Span] = []
        for a, b in kept:
            align.extend(old[a:b])
        self.text = "".join([text[a:b] for a, b in kept])
        if align:
            self.base = align[0][0]
            self.align = align
        else:
            self.base = self.original_span(0, 0)[0] if n else self.base
            self.align = None

    def prepend(self, prefix: str) -> None:
        """Insert ``prefix`` before the text, aligned to the first character."""
        if not self.text or not prefix:
            return
        self.transform(
            [(prefix + self.text[0], 0, 1)] + [(c, i, i + 1) for i, c in enumerate(self.text) if i]
        )

    def append(self, suffix: str) -> None:
        """Insert ``suffix`` after the text, aligned to the last character."""
        if not self.text or not suffix:
            return
        n = len(self.text)
        self.transform([(c, i, i + 1) for i, c in enumerate(self.text)] + [(suffix, n, n)])

    def copy(self) -> NormalizedString:
        return NormalizedString(
            self.text, self.base, None if self.align is None else list(self.align)
        )


def _identity(base: int, n: int) -> list[Span]:
    """The spans of ``n`` chars aligned one for one from ``base`` on (one C-level pass)."""
    return list(zip(range(base, base + n), range(base + 1, base + n + 1)))


def replace_surrogates(text: str) -> tuple[str, list[int] | None] | None:
    """tiktoken's reading of a str that holds surrogate code points, with its alignment.

    A str with a surrogate (U+D800..U+DFFF) has no UTF-8 form, so tiktoken reads it again
    through UTF-16 (``text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")``):
    a high surrogate followed by a low one becomes the one character the pair spells, and
    every other surrogate becomes U+FFFD. This does the same in one pass and also says where
    each character came from, so offsets still index the caller's ``text``.

    Args:
        text: the caller's text.

    Returns:
        ``None`` when ``text`` holds no surrogate. Otherwise ``(rewritten, starts)``:
        ``starts[k]`` is the index in ``text`` of ``rewritten[k]``, and
        ``starts[len(rewritten)] == len(text)``; ``starts`` is ``None`` when no pair was
        joined (the alignment is then the identity).

    >>> replace_surrogates("a\\ud800b")
    ('a\ufffdb', None)
    >>> replace_surrogates("\\ud83d\\ude00!")
    ('😀!', [0, 2, 3])
    >>> replace_surrogates("plain") is None
    True
    """
    if _SURROGATE.search(text) is None:
        return None
    out: list[str] = []
    joined: list[int] = []  # index in text of the low half of each joined pair
    last = 0
    for m in _PAIR_OR_LONE.finditer(text):
        start, end = m.span()
        out.append(text[last:start])
        if end - start == 2:
            high, low = ord(text[start]), ord(text[start + 1])
            out.append(chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)))
            joined.append(start + 1)
        else:
            out.append("\ufffd")
        last = end
    out.append(text[last:])
    rewritten = "".join(out)
    if not joined:
        return rewritten, None
    lows = set(joined)
    return rewritten, [i for i in range(len(text) + 1) if i not in lows]


def remap_offsets(offsets: Iterable[Span], starts: list[int]) -> list[Span]:
    """Offsets into a :func:`replace_surrogates` rewrite, as offsets into the original text.

    >>> remap_offsets([(0, 1), (1, 2), (2, 2)], [0, 2, 3])
    [(0, 2), (2, 3), (3, 3)]
    """
    return [(starts[a], starts[b]) for a, b in offsets]
