"""Pure-Python seed vocabulary of the Unigram trainer: frequent substrings, ranked and scored.

The EM (:mod:`codetok.reference.unigram_train`) starts from a large vocabulary and prunes it.
That vocabulary is:

- the required chars (most frequent first, as :func:`codetok.trainers.unigram.required_chars`
  gives them), each scored by its frequency (at least 1);
- the ``seed_size`` best frequent substrings of 2..``max_len`` chars, ranked by
  ``frequency * length`` (ties by string), each scored by that product.

Scores are then log probabilities: ``log(score) - log(sum of scores)``.

A substring is a candidate when it occurs ``min_count`` or more times inside words (never
across a word boundary), is *branching* (not always followed by the same char, as the nodes
of SentencePiece's suffix array are) and passes :func:`piece_rule` (only required chars,
the whitespace marker only as a prefix, digits not mixed with other chars).

Not handled here: the required chars themselves, the EM and pruning.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection


def piece_rule(
    required: Collection[str], whitespace_char: str, split_by_number: bool
) -> Callable[[str], bool]:
    """Whether a substring may become a piece: its chars are all ``required``, the
    whitespace marker appears only first, and with ``split_by_number`` a piece's body (after
    the marker) is all digits (``str.isdigit``) or has none.

    >>> ok = piece_rule({"▁", "a", "1"}, "▁", True)
    >>> [ok(s) for s in ["▁a", "a▁", "a1", "▁11", "ab"]]
    [True, False, False, True, False]
    """

    def ok(s: str) -> bool:
        if whitespace_char in s[1:]:
            return False
        for ch in s:
            if ch not in required:
                return False
        if split_by_number:
            body = s[1:] if s[0] == whitespace_char else s
            digits = sum(1 for ch in body if ch.isdigit())
            if digits and digits != len(body):
                return False
        return True

    return ok


def seed_substrings(
    words: list[str],
    counts: list[int],
    max_len: int,
    is_valid: Callable[[str], bool],
    min_count: int = 2,
) -> dict[str, int]:
    """Frequency of the branching substrings of 2..``max_len`` chars seen ``min_count``+ times.

    Substrings are counted inside words only (pieces never cross a word boundary), each
    occurrence weighted by the word's count. Counting goes by length (a substring can only be
    frequent when both its prefix and suffix one char shorter are), so memory stays close to
    the number of frequent substrings. ``is_valid`` filters the result (whitespace only as a
    prefix, no unknown chars...).

    >>> seed_substrings(["▁ab", "▁ab", "b"], [1, 1, 5], 16, lambda s: True)
    {'ab': 2, '▁ab': 2}
    """
    # Level 1: frequent chars and, per word, the positions where they start.
    level: dict[str, int] = {}
    get = level.get
    for w_i, word in enumerate(words):
        c = counts[w_i]
        for ch in word:
            level[ch] = get(ch, 0) + c
    frequent = {s for s, f in level.items() if f >= min_count}
    alive: list[list[int]] = [[i for i, ch in enumerate(word) if ch in frequent] for word in words]
    out: dict[str, int] = {}
    prev: dict[str, int] = {}
    for k in range(2, max_len + 1):
        level = {}
        get = level.get
        for w_i, word in enumerate(words):
            pos = alive[w_i]
            if not pos:
                continue
            c = counts[w_i]
            n = len(word)
            for i in pos:
                if i + k <= n and word[i + 1 : i + k] in frequent:
                    s = word[i : i + k]
                    level[s] = get(s, 0) + c
        frequent = {s for s, f in level.items() if f >= min_count}
        # A substring always followed by the same char (same count as that extension) is
        # not a node of the suffix tree; SentencePiece's suffix-array seeds skip it too.
        for t in frequent:
            head = t[:-1]
            if prev.get(head) == level[t]:
                out.pop(head, None)
        if not frequent:
            break
        for w_i, word in enumerate(words):
            pos = alive[w_i]
            if pos:
                alive[w_i] = [i for i in pos if word[i : i + k] in frequent]
        prev = {t: level[t] for t in frequent}
        for t in frequent:
            if is_valid(t):
                out[t] = level[t]
    return out


def seed_pieces(
    words: list[str],
    counts: list[int],
    required: list[tuple[str, int]],
    *,
    max_len: int,
    seed_size: int,
    min_count: int,
    whitespace_char: str,
    split_by_number: bool,
) -> tuple[list[str], list[float]]:
    """The starting vocabulary: required chars, then the best substrings, as log probabilities.

    Args:
        words: the distinct words.
        counts: how often each occurs.
        required: ``(char, frequency)`` pairs, most frequent first.
        max_len: longest substring, in chars.
        seed_size: how many substrings to keep.
        min_count: fewest occurrences of a substring.
        whitespace_char: the word-boundary marker (only allowed first).
        split_by_number: digits never share a piece with other chars.

    Returns:
        ``(pieces, scores)``: required chars first, then substrings best first.

    >>> seed_pieces(["▁ab"], [2], [("▁", 2), ("a", 2), ("b", 2)], max_len=4,
    ...     seed_size=9, min_count=2, whitespace_char="▁", split_by_number=True)[0]
    ['▁', 'a', 'b', '▁ab', 'ab']
    """
    rule = piece_rule({c for c, _ in required}, whitespace_char, split_by_number)
    subs = seed_substrings(words, counts, max_len, rule, min_count=min_count)
    ranked = sorted(subs.items(), key=lambda kv: (-kv[1] * len(kv[0]), kv[0]))
    pieces = [c for c, _ in required]
    freqs = [float(max(f, 1)) for _, f in required]
    for s, f in ranked[:seed_size]:
        pieces.append(s)
        freqs.append(float(f * len(s)))
    total = 0.0
    for f in freqs:
        total += f
    log_total = math.log(total)
    return pieces, [math.log(f) - log_total for f in freqs]
