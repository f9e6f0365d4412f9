"""The native kernel's hash tables saved in a ``.ctk`` file, checked against its arrays.

A fast-load file (:mod:`codetok.formats.binary`) keeps, next to its token and merge arrays,
memory images of the native BPE kernel's two hash tables (codetok/_native/kernels/common.hpp): the
merge pairs, and the whole tokens that ``ignore_merges`` looks up. The native kernel reads
the tables as saved; the pure-Python kernel and ``save`` read the arrays. So that both
encode alike, :func:`check_tables` looks every merge row and every token up in the tables
exactly as the kernel's lookups do (same hash, same probe sequence, same comparison), in
numpy, and refuses tables that give another answer or hold an entry no row has: each
slot's content is thereby checked, and a row's place in its probe sequence.

Not handled here: the arrays themselves (``_check_arrays`` in the binary module), and
tables of another layout (the binary module leaves them unread).
"""

from __future__ import annotations

import codecs
from typing import Any

import numpy as np

__all__ = ["TABLE_LAYOUT", "check_tables", "first"]


def first(mask: Any) -> int:
    """The index of the first true value of ``mask`` (which has one)."""
    return int(np.flatnonzero(mask)[0])


# The saved hash tables (layout 1, codetok/_native/kernels/common.hpp): open addressing with
# linear probing from slot ``mix64(hash) & (capacity - 1)``. The merge table's 16-byte
# slots (PairMap::Slot) are ``key = left << 32 | right`` (all ones: empty), then rank and
# new id (int32); the whole-token table's 32-byte slots (StrMap::Slot) are the FNV-1a hash
# of the token's code points, where they sit in the keys section (``off``, ``len``: uint32),
# its id and an unused int32, and ``used`` (uint32) and padding. Read as uint64 words.
TABLE_LAYOUT = 1
_EMPTY = np.uint64(2**64 - 1)
_LOW = np.uint64(2**32 - 1)
_U32 = np.uint64(32)
_FNV_SEED, _FNV_PRIME = 1469598103934665603, 1099511628211
#: Lookups that go on past this many slots, or past 8 slots each on average, and tokens
#: longer than _MAX_TOKEN code points are not followed: the saved tables are then not used
#: (the kernel builds its own). The kernel's own tables stay far below (cl100k: lookups of
#: at most 32 slots, 1.4 on average; tokens of at most 128 code points).
_MAX_PROBE = 512
_MAX_TOKEN = 4096
#: Keys looked up at once: the temporaries stay in the cache.
_CHUNK = 1 << 14


def _mix64(x: Any) -> Any:
    """``mix64`` (common.hpp) of each value of a uint64 array."""
    x = x ^ (x >> np.uint64(33))
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return x


def _fnv(cps: Any, starts: Any, lens: Any) -> Any:
    """``hash_cps`` (common.hpp: FNV-1a over code points) of each ``cps[start:start + len]``.

    One numpy step per position over the strings that are that long, longest first; the
    last few long ones finish in Python.
    """
    n = len(lens)
    if not n or not lens.max():
        return np.full(n, _FNV_SEED, np.uint64)
    order = np.argsort(-lens.astype(np.int16), kind="stable")  # lens <= _MAX_TOKEN: a radix sort
    at = starts[order]
    more = n - np.cumsum(np.bincount(lens))  # more[j]: strings longer than j
    h = np.full(n, _FNV_SEED, np.uint64)
    prime = np.uint64(_FNV_PRIME)
    j = 0
    while j < len(more) and more[j] >= 16:
        hk = h[: more[j]]
        np.bitwise_xor(hk, cps[at[: more[j]]], out=hk)
        np.multiply(hk, prime, out=hk)
        at[: more[j]] += 1
        j += 1
    for i in range(int(more[j]) if j < len(more) else 0):
        x = int(h[i])
        for c in cps[at[i] : starts[order[i]] + lens[order[i]]].tolist():
            x = ((x ^ c) * _FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
        h[i] = x
    out = np.empty_like(h)
    out[order] = h
    return out


def _words(slots: Any) -> Any:
    """Slots as rows of uint64 words."""
    return slots.view("<u8").reshape(len(slots), slots.dtype.itemsize // 8)


def _empty(words: Any) -> Any:
    """Which slots are empty: a merge slot's key all ones, a token slot's ``used`` 0."""
    return words[:, 3] & _LOW == 0 if words.shape[1] > 2 else words[:, 0] == _EMPTY


def _table(raw: Any, size: int, name: str, fail: Any) -> tuple[Any, int]:
    """A saved table as ``(slots, number of used slots)``; it needs an empty slot."""
    cap = len(raw) // size
    if len(raw) % size or not cap or cap & (cap - 1):
        raise fail("binary.tables", f"the {name} is {len(raw)} bytes, not a power of two of slots")
    table = np.frombuffer(raw, f"V{size}")
    used = cap
    for lo in range(0, cap, 16 * _CHUNK):
        used -= int(np.count_nonzero(_empty(_words(table[lo : lo + 16 * _CHUNK]))))
    if not used < cap:
        raise fail("binary.tables", f"the {name} has no empty slot")
    return table, used


def _lookup(table: Any, n: int, keys: Any, stop: Any, exact: Any = None) -> Any | None:
    """Where the native kernel's lookup of each of ``n`` keys ends.

    Args:
        table: the slots (see :func:`_table`).
        n: the number of keys.
        keys: ``keys(which)``: ``(hashes, *values)`` of the keys ``which`` (a slice or
            indices); a lookup starts at slot ``mix64(hash)``.
        stop: ``stop(words, *values)``: whether each slot (as uint64 words) is one at
            which the kernel's lookup of the key ends, other than an empty one.
        exact: ``exact(words, *values)``: whether such a slot holds what the key should
            find (default: any).

    Returns:
        The slot index each lookup ends at, -1 where at an empty slot, -2 where at a slot
        that is not ``exact``; ``None`` when the lookups go on too long (see _MAX_PROBE).
    """
    mask = len(table) - 1
    found = np.empty(n, np.intp)

    def step(pos: Any, values: list[Any]) -> tuple[Any, Any]:
        words = _words(np.take(table, pos))
        empty = _empty(words)
        ends = stop(words, *values) & ~empty
        slot = np.where(ends, pos, -1)
        if exact is not None:
            slot[ends & ~exact(words, *values)] = -2
        return slot, ends | empty

    todo, starts = [], []
    for lo in range(0, n, _CHUNK):  # most lookups end at their first slot
        hashes, *values = keys(slice(lo, lo + _CHUNK))
        pos = (_mix64(hashes) & np.uint64(mask)).astype(np.intp)
        found[lo : lo + _CHUNK], ended = step(pos, values)
        on = np.flatnonzero(~ended)
        todo.append(lo + on)
        starts.append(pos[on])
    rest = np.concatenate(todo) if todo else np.zeros(0, np.intp)
    pos = np.concatenate(starts) if starts else rest
    values = keys(rest)[1:]
    budget = 8 * n
    for _ in range(_MAX_PROBE):
        if not len(rest):
            return found
        budget -= len(rest)
        if budget < 0:
            return None
        pos = (pos + 1) & mask
        slot, ended = step(pos, values)
        found[rest[ended]] = slot[ended]
        on = ~ended
        rest, pos, values = rest[on], pos[on], [v[on] for v in values]
    return None


def _unhit(table: Any, found: Any, used: int) -> int | None:
    """A used slot at which no lookup ended (None: the lookups ended at every used slot)."""
    hit = np.zeros(len(table), bool)
    hit[found] = True
    if np.count_nonzero(hit) == used:
        return None
    return first(~hit & ~_empty(_words(table)))


def _check_merge_table(raw: Any, merges: Any, present: Any, fail: Any) -> bool:
    """Refuse a saved merge table in which a merge row's pair is not found, or found with
    another rank or new id, or that holds a pair no row has (a pair repeated in the rows:
    the last row counts, as in the kernels). False: too slow to tell (not used)."""
    table, used = _table(raw, 16, "merge table", fail)
    pairs = merges.view("<u8")[:, 0]  # left | right << 32 (the key, halves swapped)
    values = merges.view("<u8")[:, 1]  # rank | new id << 32: as the slot's word 1

    def keys(which: Any) -> tuple[Any, Any, Any]:
        key = (pairs[which] << _U32) | (pairs[which] >> _U32)
        return key, key, values[which]

    def stop(words: Any, key: Any, _: Any) -> Any:
        return words[:, 0] == key

    def exact(words: Any, _: Any, value: Any) -> Any:
        return words[:, 1] == value

    if not len(merges):  # no row to look up: the table must hold nothing
        if used:
            raise fail("merge table", f"holds {used} pairs, but the file has no merge rows")
        return True
    found = _lookup(table, len(merges), keys, stop, exact)
    if found is None:
        return False
    if found.min() >= 0 and _unhit(table, found, used) is None:
        return True
    # Why not, or a pair given twice, the last row with it counting: key by key.
    found = _lookup(table, len(merges), keys, stop)
    if found is None:
        return False
    if (found < 0).any():
        r = first(found < 0)
        raise fail(f"merges[{r}]", f"the pair {tuple(merges[r, :2].tolist())} is not in the merge table")  # fmt: skip

    def slot(i: int) -> str:
        b, a, rank, new = table[i : i + 1].view("<i4").tolist()  # key: left << 32 | right
        known = all(0 <= v < len(present) and present[v] for v in (a, b, new))
        names = "" if known else " (ids that are not tokens of the file)"
        return f"({a}, {b}) -> rank {rank}, new id {new}{names}"

    differ = _words(table)[:, 1][found] != values
    last = np.full(len(table), -1, np.int64)
    np.maximum.at(last, found, np.arange(len(merges)))
    differ &= last[found] == np.arange(len(merges))
    if differ.any():
        r = first(differ)
        raise fail(
            f"merges[{r}]",
            f"rank {merges[r, 2]}, new id {merges[r, 3]}, but the merge table holds "
            f"{slot(int(found[r]))}",
        )
    extra = _unhit(table, found, used)
    if extra is not None:
        raise fail(f"merge table[{extra}]", f"{slot(extra)}: a pair no merge row has")
    return True


def _word_code_points(raw_keys: Any, decoded: str, fail: Any) -> tuple[Any, bool, Any]:
    """``(keys, canonical, cps)``: the saved keys as code points, whether they are the token
    text itself (then a slot's own key is checked by its place), and the text's code points."""
    if len(raw_keys) % 4:
        raise fail("binary.tables", f"the whole-token keys are {len(raw_keys)} bytes, not code points")  # fmt: skip
    keys = np.frombuffer(raw_keys, "<u4")
    try:  # the kernel saves the text as the keys (once per text): then they are the text
        canonical = codecs.utf_32_le_decode(raw_keys, "surrogatepass", True)[0] == decoded
    except UnicodeDecodeError:
        canonical = False
    cps = keys if canonical else np.frombuffer(decoded.encode("utf-32-le", "surrogatepass"), "<u4")  # fmt: skip
    return keys, canonical, cps


def _check_word_slots(
    table: Any,
    found: Any,
    used: int,
    ids: Any,
    starts: Any,
    lens: Any,
    keys: Any,
    cps: Any,
    present: Any,
    fail: Any,
) -> None:
    """Refuse the whole-token table, naming the token or slot, where the lookups ``found``
    (of the tokens ``ids``, whose code points are ``cps[starts:starts + lens]``) end at a
    slot without the token's text, with an id other than the last one having that text, or
    leave a used slot unreached: the diagnosis once the quick check could not accept it."""
    if (found < 0).any():
        k = int(ids[first(found < 0)])
        raise fail(f"token text[{k}]", f"token {k} is not in the whole-token table")
    got = _words(table)[found]
    off = (got[:, 1] & _LOW).astype(np.int64)
    if (off + lens > len(keys)).any():
        k = int(ids[first(off + lens > len(keys))])
        raise fail(f"token text[{k}]", f"the whole-token table's key for token {k} is past its keys")  # fmt: skip
    step = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    differs = keys[np.repeat(off, lens) + step] != cps[np.repeat(starts, lens) + step]
    if differs.any():
        k = int(ids[np.searchsorted(np.cumsum(lens), first(differs), side="right")])
        raise fail(f"token text[{k}]", f"the whole-token table holds other text for token {k}")  # fmt: skip
    # The slot's id is the last one with that text: the lookups of all its ids end there.
    value = (got[:, 2] & _LOW).astype(np.int32).astype(np.int64)
    slot_of = np.full(len(present), -1, np.int64)
    slot_of[ids] = found
    ok = (value >= ids) & (value < len(present))
    ok[ok] = slot_of[value[ok]] == found[ok]
    if not ok.all():
        k = int(ids[first(~ok)])
        raise fail(
            f"token text[{k}]",
            f"the whole-token table gives token {k}'s text id {value[first(~ok)]}, not the "
            "last token with that text (or ids that are not tokens of the file)",
        )
    extra = _unhit(table, found, used)
    if extra is not None:
        value = table[extra : extra + 1].view("<i4")[4]
        raise fail(f"whole-token table[{extra}]", f"id {value}: an entry for no token")


def _check_word_table(
    raw: Any, raw_keys: Any, decoded: str, arrays: tuple[Any, Any, Any], fail: Any
) -> bool:
    """Refuse a saved whole-token table that does not map each token text to the last id
    having it (as ``{text: id}`` in id order), or that holds an entry for no token. False:
    too slow to tell (not used)."""
    offsets, present, text = arrays
    table, used = _table(raw, 32, "whole-token table", fail)
    keys, canonical, cps = _word_code_points(raw_keys, decoded, fail)
    inside = np.zeros(len(text) + 1, np.int32)  # continuation bytes before each byte
    np.cumsum((text & 0xC0) == 0x80, out=inside[1:], dtype=np.int32)
    cp_at = offsets - inside[offsets]  # token k: cps[cp_at[k]:cp_at[k + 1]]
    ids = np.flatnonzero(present)
    starts, lens = cp_at[ids].astype(np.int64), (cp_at[ids + 1] - cp_at[ids]).astype(np.int64)
    if len(lens) and lens.max() > _MAX_TOKEN:
        return False
    hashes = _fnv(cps, starts, lens)
    span = starts.astype(np.uint64) | lens.astype(np.uint64) << _U32  # word 1 of its slot
    uids = ids.astype(np.uint64)

    def token_keys(which: Any) -> tuple[Any, Any, Any, Any]:
        return hashes[which], hashes[which], span[which], uids[which]

    # The kernel's lookup ends at a used slot with the hash and the length whose key is the
    # text. With the keys the text, a slot with the token's own text and id is the right
    # one for every token if no two tokens have one text (they would end at one slot).
    def stop(words: Any, h: Any, sp: Any, _: Any) -> Any:
        return (words[:, 0] == h) & (words[:, 1] >> _U32 == sp >> _U32)

    def exact(words: Any, _: Any, sp: Any, k: Any) -> Any:
        return (words[:, 1] == sp) & (words[:, 2] & _LOW == k)

    if not len(ids):  # no token to look up: the table must hold nothing
        if used:
            raise fail("whole-token table", f"holds {used} tokens, but the file has none")
        return True
    found = _lookup(table, len(ids), token_keys, stop, exact if canonical else None)
    if found is None:
        return False
    if canonical and found.min() >= 0 and _unhit(table, found, used) is None:
        return True
    # Why not, or texts given twice (the last id counts): the key's text, then the id.
    if canonical:
        found = _lookup(table, len(ids), token_keys, stop)
        if found is None:
            return False
    _check_word_slots(table, found, used, ids, starts, lens, keys, cps, present, fail)
    return True


def check_tables(
    tables: tuple[Any, Any, Any],
    arrays: tuple[Any, Any, Any, Any],
    decoded: str,
    ignore_merges: bool,
    fail: Any,
) -> bool:
    """Refuse saved hash tables that would make the native kernel encode otherwise than the
    arrays say (the pure-Python kernel reads those): each merge row and (with
    ``ignore_merges``, the only time the kernel reads it) each token text is looked up in
    them as the kernel looks it up, vectorized with numpy (about 30 ms for cl100k's 233k
    merges and 100k tokens; building the tables instead takes the kernel about 60 ms).

    Args:
        tables: the merge table, the whole-token table and its keys (uint8 arrays).
        arrays: the file's token offsets, present flags, token text and merge rows, checked.
        decoded: the token text, decoded.
        ignore_merges: the model's option.
        fail: ``fail(where, message)``: the error to raise, naming the file.

    Returns:
        Whether to use them: False when the lookups or a token run too long to follow (the
        kernel then builds its own tables from the arrays).

    Raises:
        FormatError: from ``fail``, naming the row, token or slot.
    """
    offsets, present, text, merges = arrays
    if not _check_merge_table(tables[0], merges, present, fail):
        return False
    if not ignore_merges:
        return True
    return _check_word_table(tables[1], tables[2], decoded, (offsets, present, text), fail)
