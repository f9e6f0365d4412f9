"""Extended grapheme clusters (UAX #29) on codetok's pinned Unicode data: the reference twin
of codetok/_native/kernels/grapheme.hpp.

HF ``tokenizers``' ``Precompiled`` normalizer walks text cluster by cluster, so the cluster
ends decide its output. ``regex``'s ``\\X`` would tie them to the installed ``regex`` release
(its Unicode version and rule revision), so the reference and the native core share one
table, ``codetok.unicode.generated.grapheme_tables`` (Unicode 16.0, generated), and the same rules: GB3-GB13,
with GB9c (Indic conjuncts) and GB11 (emoji ZWJ sequences). Lone surrogates are ``Other``.
Not here: legacy (non-extended) clusters and word or sentence boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator

from .generated.grapheme_tables import RUNS

# Grapheme_Cluster_Break values (grapheme.hpp's ``Gcb``); the rest of a byte is flags.
OTHER, CR, LF, CONTROL, EXTEND, ZWJ, RI, PREPEND, SPACING_MARK, L, V, T, LV, LVT = range(14)
EXT_PICT = 0x10
INCB_LINKER, INCB_CONSONANT, INCB_EXTEND = 1, 2, 3

_props: bytearray | None = None


def props_table() -> bytearray:
    """One byte per code point, ``gcb | EXT_PICT | incb << 5`` (built on first use)."""
    global _props
    if _props is None:
        table = bytearray(0x110000)
        for run in RUNS.split():
            span, value = run.split(":")
            first, _, last = span.partition("-")
            a = int(first, 16)
            b = int(last, 16) if last else a
            table[a : b + 1] = bytes([int(value, 16)]) * (b - a + 1)
        _props = table
    return _props


def _joins(a: int, b: int) -> bool | None:
    """Whether GB3-GB9b join a char of class ``a`` to one of ``b`` (``None``: later rules)."""
    if a == CR and b == LF:
        return True  # GB3
    if a in (CR, LF, CONTROL) or b in (CR, LF, CONTROL):
        return False  # GB4, GB5
    if a == L and b in (L, V, LV, LVT):
        return True  # GB6
    if a in (LV, V) and b in (V, T):
        return True  # GB7
    if a in (LVT, T) and b == T:
        return True  # GB8
    if b in (EXTEND, ZWJ, SPACING_MARK) or a == PREPEND:
        return True  # GB9, GB9a, GB9b
    return None


def cluster_end(text: str, i: int) -> int:
    """End of the cluster that starts at ``text[i]`` (``i`` a cluster boundary)."""
    table = props_table()
    n = len(text)
    p = table[ord(text[i])]
    ri = 1 if p & 0x0F == RI else 0  # regional indicators in a row
    emoji = 1 if p & EXT_PICT else 0  # GB11: 1 ExtPict Extend*, 2 then ZWJ
    conj = 1 if p >> 5 == INCB_CONSONANT else 0  # GB9c: 1 consonant, 2 + linker
    j = i + 1
    while j < n:
        q = table[ord(text[j])]
        a, b, incb = p & 0x0F, q & 0x0F, q >> 5
        join = _joins(a, b)
        if join is None:
            if incb == INCB_CONSONANT and conj == 2:
                join = True  # GB9c
            elif q & EXT_PICT and emoji == 2:
                join = True  # GB11
            else:
                join = a == RI and b == RI and ri % 2 == 1  # GB12, GB13
        if not join:
            break
        ri = ri + 1 if b == RI else 0
        if q & EXT_PICT:
            emoji = 1
        elif emoji == 1 and b == ZWJ:
            emoji = 2
        elif not (emoji == 1 and b == EXTEND):
            emoji = 0
        if incb == INCB_CONSONANT:
            conj = 1
        elif conj and incb == INCB_LINKER:
            conj = 2
        elif not (conj and incb == INCB_EXTEND):
            conj = 0
        p = q
        j += 1
    return j


def clusters(text: str) -> Iterator[str]:
    """The extended grapheme clusters of ``text``, in order.

    >>> [len(c) for c in clusters("e\\u0301\\r\\nok")]  # e + accent, CR LF, o, k
    [2, 2, 1, 1]
    """
    i, n = 0, len(text)
    while i < n:
        j = cluster_end(text, i)
        yield text[i:j]
        i = j


def cluster_ends(text: str) -> list[int]:
    """End index of each cluster of ``text`` (as the native ``grapheme_ends``).

    >>> cluster_ends("\\U0001f1eb\\U0001f1f7\\U0001f1e9")
    [2, 3]
    """
    ends = []
    i, n = 0, len(text)
    while i < n:
        i = cluster_end(text, i)
        ends.append(i)
    return ends
