"""Statistical word segmentation of same-case runs (``getusername`` -> get user name).

A unigram model over words learned from identifier parts: the most probable way to cut a
lowercase run into known words wins (Viterbi over cut points, cost = -log frequency plus a
per-word penalty). Runs that frequent identifiers use whole (``username``, ``getattr``) stay
whole when the data says so. Two additions keep short fragments from winning: one- and
two-letter words pay extra, and a known word plus an English suffix (``deserialize`` + r,
``access`` + or) is itself a word, so unseen derived forms are not cut into stem and
fragment. Unknown stretches pay a cost that grows with their length, so the model prefers
known words but never fails. :class:`WordSegmenter` documents the costs.

The default model is a word list shipped as ``codetok/data/identifier_words.txt``, built by
``corpora/build_identifier_words.py`` from the identifiers and comments of permissively
licensed Python, Java, C# and JavaScript code and the SCOWL English word lists (Debian
``wamerican``); nothing is downloaded. ``benchmarks/identifier_eval.py`` measures it on
packages kept out of the list. This module does no case, digit or separator splitting, and
it does not count words from identifiers (:func:`~.identifiers.learn_word_counts` does);
see :mod:`codetok.code.routing.identifiers`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, ClassVar

from ...errors import FormatError

__all__ = ["SUFFIXES", "WordSegmenter"]

_DEFAULT_FILE = "identifier_words.txt"


#: Endings that make a new word from a known one (``deserializer``, ``accessor``,
#: ``injectable``), which camelCase never cuts off: suffix -> the letters its stem may end
#: with ("" for any). ``r`` follows a final e (``serialize``), ``or`` a t or s (``validat``,
#: ``access``), so that ``popor`` or ``cacheor`` are not taken for words.
SUFFIXES: Mapping[str, str] = {
    "s": "",
    "es": "hsxz",
    "ed": "",
    "r": "e",
    "er": "",
    "ers": "",
    "or": "st",
    "ors": "st",
    "ing": "",
    "able": "",
}


class WordSegmenter:
    """Cut lowercase runs into the most probable sequence of known words.

    The cost of a cut is the sum of its words' costs (Viterbi over cut points):

    * a known word costs ``-log(count / total) + word_penalty``; one- and two-letter words
      pay ``short_penalty`` on top, since a lone ``s``, ``r`` or ``at`` in the middle of a
      run is far more often a fragment (``serializer|s``, ``valid|at|or``) than a word;
    * a word that is a known word of 3+ letters plus one of ``suffixes`` (``deserialize`` +
      ``r``, ``map`` + ``p`` + ``er``, ``validat(e)`` + ``or``; a suffix that starts with a
      vowel drops a final e rather than follow it) costs its stem's cost plus
      ``suffix_penalty``: unseen derived forms are rarer than their stem, but they are still
      one word, which a stem followed by a short fragment is not;
    * any other stretch costs ``log(total) + word_penalty + unknown_penalty`` per character,
      so the model prefers known words but never fails.

    The default penalties were chosen on development packages left out of a trial table
    (jackson, pythonnet, z3, terser, uglify-js, esprima), never on the held-out packages
    that ``benchmarks/identifier_eval.py`` reports. ``WordSegmenter.LEGACY`` turns both
    additions off (the earlier cost model), for comparisons.

    Args:
        counts: word -> frequency (words are matched lowercased).
        max_word_length: longest word considered.
        unknown_penalty: extra cost, per character, of a stretch that is not a known word.
        word_penalty: cost added to every word, so that fewer, longer words are preferred.
        short_penalty: extra cost of known words of 1, 2, ... letters (one value per length).
        suffixes: endings that turn a known word into a derived word, each with the
            letters its stem may end with ("" for any).
        suffix_penalty: extra cost of a derived word over its stem.

    >>> seg = WordSegmenter({"get": 50, "user": 20, "name": 30})
    >>> seg.segment("getusername")
    ['get', 'user', 'name']
    >>> WordSegmenter({"get": 50, "serialize": 9, "r": 40}).segment("getserializer")
    ['get', 'serializer']
    """

    LEGACY: ClassVar[dict[str, Any]] = {"short_penalty": (), "suffixes": {}}

    def __init__(
        self,
        counts: Mapping[str, int],
        *,
        max_word_length: int = 24,
        unknown_penalty: float = 3.0,
        word_penalty: float = 3.0,
        short_penalty: Sequence[float] = (8.0, 2.0),
        suffixes: Mapping[str, str] = SUFFIXES,
        suffix_penalty: float = 10.0,
    ) -> None:
        words: dict[str, int] = {}
        for w, c in counts.items():
            if c > 0 and w:
                words[w.lower()] = words.get(w.lower(), 0) + int(c)
        self.counts = words
        total = float(sum(words.values())) or 1.0
        log_total = math.log(total)
        short = tuple(short_penalty)
        self._cost = {
            w: log_total
            - math.log(c)
            + word_penalty
            + (short[len(w) - 1] if len(w) <= len(short) else 0.0)
            for w, c in words.items()
        }
        self._unknown_base = log_total + word_penalty
        self.unknown_penalty = unknown_penalty
        self.word_penalty = word_penalty
        self.short_penalty = short
        self.suffixes = {x.lower(): ends for x, ends in suffixes.items() if x}
        self.suffix_penalty = suffix_penalty
        # by last letter: (suffix, letters its stem may end with, starts with a vowel)
        self._suffix_rules: dict[str, list[tuple[str, str, bool]]] = {}
        for x, ends in self.suffixes.items():
            self._suffix_rules.setdefault(x[-1], []).append((x, ends, x[0] in "aeiouy"))
        self.max_word_length = max(1, min(max_word_length, max((len(w) for w in words), default=1)))

    def word_cost(self, word: str) -> float:
        """Return the cost (negative log probability plus penalties) of one known word.

        Derived forms are not looked up here; see :meth:`segment`.

        >>> WordSegmenter({"a": 1}, word_penalty=0.0, short_penalty=()).word_cost("a")
        0.0
        """
        cost = self._cost.get(word)
        if cost is not None:
            return cost
        return self._unknown_base + self.unknown_penalty * len(word)

    def segment(self, text: str, /) -> list[str]:
        """Split a run of letters into words; ``"".join`` of the result is ``text``.

        Args:
            text: a same-case run, compared lowercased (the output keeps the input's letters).

        Returns:
            The words, in order (``[text]`` when no split is more probable).

        >>> WordSegmenter({"read": 5, "lines": 5}).segment("readlines")
        ['read', 'lines']
        """
        n = len(text)
        if n <= 1:
            return [text] if text else []
        low = text.lower()
        cost = self._cost
        unk_base = self._unknown_base
        unk = self.unknown_penalty
        longest = self.max_word_length
        derived = self._derived(low) if self._suffix_rules else {}
        best = [0.0] + [math.inf] * n
        back = [0] * (n + 1)
        for end in range(1, n + 1):
            b = math.inf
            arg = end - 1
            for start in range(max(0, end - longest), end):
                w = cost.get(low[start:end])
                if w is None:
                    w = unk_base + unk * (end - start)
                c = best[start] + w
                if c < b:
                    b, arg = c, start
            if end - longest > 0:  # an unknown stretch longer than any word
                c = unk_base + unk * end
                if c < b:
                    b, arg = c, 0
            for start, w in derived.get(end, ()):
                c = best[start] + w
                if c < b:
                    b, arg = c, start
            best[end], back[end] = b, arg
        cuts = []
        end = n
        while end > 0:
            cuts.append(end)
            end = back[end]
        cuts.reverse()
        out, start = [], 0
        for end in cuts:
            out.append(text[start:end])
            start = end
        return out

    def _derived(self, low: str) -> dict[int, list[tuple[int, float]]]:
        """Derived words of ``low``: end -> (start, cost) of each stem + suffix reading."""
        cost = self._cost
        longest = self.max_word_length
        penalty = self.suffix_penalty
        arcs: dict[int, list[tuple[int, float]]] = {}
        for end in range(4, len(low) + 1):
            for x, ends, vowel in self._suffix_rules.get(low[end - 1], ()):
                stem_end = end - len(x)
                if stem_end < 3 or not low.endswith(x, 0, end):
                    continue
                last = low[stem_end - 1]
                if ends and last not in ends:
                    continue
                found = []
                # the stem itself (deserialize + r), or with a doubled last letter (mapp + er)
                stem_ends = [] if vowel and last == "e" else [stem_end]
                if vowel and stem_end >= 4 and last == low[stem_end - 2]:
                    stem_ends.append(stem_end - 1)
                for e in stem_ends:
                    for start in range(max(0, e - longest), e - 2):
                        w = cost.get(low[start:e])
                        if w is not None:
                            found.append((start, w + penalty))
                if vowel:  # a final e dropped before the suffix (validat(e) + or)
                    for start in range(max(0, stem_end - longest + 1), stem_end - 2):
                        w = cost.get(low[start:stem_end] + "e")
                        if w is not None:
                            found.append((start, w + penalty))
                if found:
                    arcs.setdefault(end, []).extend(found)
        return arcs

    def decompound(self, *, ratio: float = 3.0, min_length: int = 5) -> WordSegmenter:
        """Drop words that are better read as two or more much more frequent words.

        A word such as ``username`` (seen 20 times) goes when the segmenter would otherwise
        cut it into known words each seen at least ``ratio`` times as often (``user``,
        ``name``), so that fused spellings split like their camelCase forms.

        Args:
            ratio: how much more frequent every piece must be than the fused word.
            min_length: shorter words are always kept.

        Returns:
            A new segmenter without the fused words.

        >>> seg = WordSegmenter({"user": 90, "name": 90, "username": 5}).decompound()
        >>> seg.segment("username")
        ['user', 'name']
        """
        counts = self.counts
        keep = dict(counts)
        cost = self._cost
        for word, count in counts.items():
            if len(word) < min_length:
                continue
            saved = cost.pop(word)
            try:
                pieces = self.segment(word)
            finally:
                cost[word] = saved
            if len(pieces) > 1 and all(
                len(p) >= 2 and counts.get(p, 0) >= ratio * count for p in pieces
            ):
                del keep[word]
        return type(self)(
            keep,
            max_word_length=self.max_word_length,
            unknown_penalty=self.unknown_penalty,
            word_penalty=self.word_penalty,
            short_penalty=self.short_penalty,
            suffixes=self.suffixes,
            suffix_penalty=self.suffix_penalty,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the word counts as ``word<TAB>count`` lines, most frequent first."""
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("# codetok identifier word frequencies: word<TAB>count\n")
            for w, c in sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0])):
                f.write(f"{w}\t{c}\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kwargs: Any) -> WordSegmenter:
        """Read a file written by :meth:`save`.

        Raises:
            FormatError: a line is not ``word<TAB>count``.
        """
        with open(path, encoding="utf-8") as f:
            return cls(_parse_counts(f.read(), os.fspath(path)), **kwargs)  # type: ignore[arg-type]

    @classmethod
    def default(cls) -> WordSegmenter:
        """Return the segmenter of the word list shipped with codetok (cached).

        >>> WordSegmenter.default().segment("getusername")
        ['get', 'user', 'name']
        """
        global _default
        if _default is None:
            ref = resources.files("codetok").joinpath("data", _DEFAULT_FILE)
            _default = cls(_parse_counts(ref.read_text(encoding="utf-8"), str(ref)))
        return _default


_default: WordSegmenter | None = None


def _parse_counts(text: str, origin: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        word, sep, count = line.partition("\t")
        if not sep or not count.strip().isdigit():
            raise FormatError("expected word<TAB>count", path=origin, where=f"line {lineno}")
        counts[word] = counts.get(word, 0) + int(count)
    return counts
