"""Extended grapheme clusters (UAX #29) on codetok's pinned Unicode data: the reference twin
of codetok/_native/kernels/grapheme.hpp.

HF ``tokenizers``' ``Precompiled`` normalizer walks text cluster by cluster, so the cluster
ends decide its output. ``regex``'s ``\\X`` would tie them to the installed ``regex`` release
(its Unicode version and rule revision), so the reference and the native core share one
table, ``codetok.unicode.generated.grapheme_tables`` (generated; its ``UNICODE_VERSION``), and
the same rules: GB3-GB13, with GB9c (Indic conjuncts) and GB11 (emoji ZWJ sequences). Lone
surrogates are ``Other``. Not here: legacy (non-extended) clusters and word or sentence
boundaries.

:func:`cluster_end` walks one cluster char by char, the rules as written; :func:`cluster_ends`
and :func:`clusters` find the same boundaries for a whole text with array lookups, reading
the chars before a boundary only where GB9c, GB11 or GB12/GB13 may apply.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..unicode.generated.grapheme_tables import RUNS

# Grapheme_Cluster_Break values (grapheme.hpp's ``Gcb``); the rest of a byte is flags.
OTHER, CR, LF, CONTROL, EXTEND, ZWJ, RI, PREPEND, SPACING_MARK, L, V, T, LV, LVT = range(14)
EXT_PICT = 0x10
INCB_LINKER, INCB_CONSONANT, INCB_EXTEND = 1, 2, 3

_props: bytearray | None = None
_props_array: np.ndarray | None = None  # the same bytes, as an array
_pairs: np.ndarray | None = None  # see _pair_table


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


def _pair_table() -> np.ndarray:
    """``[a, b]`` for two property bytes: 0 a boundary, 1 no boundary, 2 up to the state.

    GB3-GB9b decide most pairs alone (:func:`_joins`). The rest join only by GB9c (``b`` an
    InCB consonant, which needs ``a`` an InCB linker or extend), GB11 (``b``
    Extended_Pictographic after a ZWJ) or GB12/GB13 (two regional indicators); any other
    pair is a boundary (GB999). Those three need the state :func:`cluster_end` carries.
    """
    global _pairs
    if _pairs is None:
        table = np.zeros((256, 256), np.uint8)
        for p in range(256):
            a, incb_a = p & 0x0F, p >> 5
            for q in range(256):
                b, incb_b = q & 0x0F, q >> 5
                join = _joins(a, b)
                if join is not None:
                    table[p, q] = join
                elif (
                    (incb_b == INCB_CONSONANT and incb_a in (INCB_LINKER, INCB_EXTEND))
                    or (q & EXT_PICT and a == ZWJ)
                    or (a == RI and b == RI)
                ):
                    table[p, q] = 2
        _pairs = table
    return _pairs


def _props_of(text: str) -> np.ndarray:
    """The property byte of each char of ``text``."""
    global _props_array
    if _props_array is None:
        _props_array = np.frombuffer(props_table(), np.uint8)
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")
    return _props_array[cps]


def _joined_by_state(props: bytes, j: int, start: int, ri_start: int) -> bool:
    """Whether GB9c, GB11 or GB12/GB13 join ``text[j]`` to ``text[j + 1]``.

    ``start`` is where the cluster of ``text[j]`` starts and ``ri_start`` where the run of
    regional indicators that ends at ``text[j]`` starts: the state :func:`cluster_end`
    carries is read back from the chars of that cluster.
    """
    p, q = props[j], props[j + 1]
    if q >> 5 == INCB_CONSONANT:  # GB9c: consonant [extend linker]* linker [extend linker]*
        k, linker = j, False
        while k >= start:
            incb = props[k] >> 5
            if incb == INCB_CONSONANT:
                if linker:
                    return True
                break
            if incb == INCB_LINKER:
                linker = True
            elif incb != INCB_EXTEND:
                break
            k -= 1
    if q & EXT_PICT and p & 0x0F == ZWJ and not p & EXT_PICT:  # GB11: ExtPict Extend* ZWJ
        k = j - 1
        while k >= start:
            r = props[k]
            if r & EXT_PICT:
                return True
            if r & 0x0F != EXTEND:
                break
            k -= 1
    # GB12, GB13: an odd number of regional indicators in the cluster so far.
    return p & 0x0F == RI and q & 0x0F == RI and (j - max(start, ri_start)) % 2 == 0


def cluster_ends(text: str) -> list[int]:
    """End index of each cluster of ``text`` (as the native ``grapheme_ends``).

    The boundaries :func:`cluster_end` finds one by one, with table lookups over the whole
    text: a pair of property bytes settles most boundaries alone (:func:`_pair_table`), and
    only the few pairs that GB9c, GB11 or GB12/GB13 might join read the chars before them.

    >>> cluster_ends("\\U0001f1eb\\U0001f1f7\\U0001f1e9")
    [2, 3]
    """
    n = len(text)
    if n < 2:
        return [n] if n else []
    props = _props_of(text)
    pairs = _pair_table()[props[:-1], props[1:]]
    open_pairs = np.flatnonzero(pairs == 2)
    if open_pairs.size:
        index = np.arange(1, n, dtype=np.int64)
        # Where the cluster holding text[j] starts, counting the settled boundaries only.
        starts = np.maximum.accumulate(np.where(pairs == 0, index, 0))
        ri = (props & 0x0F) == RI
        ri_starts = np.maximum.accumulate(np.where(ri, 0, np.arange(1, n + 1, dtype=np.int64)))
        raw = props.tobytes()
        last = 0  # start of the cluster after the latest boundary the state decided
        for j, settled, ri_start in zip(
            open_pairs.tolist(), starts[open_pairs].tolist(), ri_starts[open_pairs].tolist()
        ):
            start = max(settled, last)
            if _joined_by_state(raw, j, start, ri_start):
                pairs[j] = 1
            else:
                pairs[j] = 0
                last = j + 1
    ends = np.flatnonzero(pairs == 0)
    ends += 1
    out = ends.tolist()
    out.append(n)
    return out


def clusters(text: str) -> Iterator[str]:
    """The extended grapheme clusters of ``text``, in order.

    >>> [len(c) for c in clusters("e\\u0301\\r\\nok")]  # e + accent, CR LF, o, k
    [2, 2, 1, 1]
    """
    i = 0
    for j in cluster_ends(text):
        yield text[i:j]
        i = j
