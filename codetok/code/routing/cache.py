"""A cache bounded by entry count, for results that are cheap to compute again.

The code router keeps what it worked out per distinct string (an identifier's split, a
piece's ids), which repeats a lot within and across files; a corpus of ever-new strings
must not make it grow for good (120k distinct non-ASCII identifiers used to hold ~88 MB,
never given back). :class:`BoundedCache` keeps two generations of at most ``size``
entries: new entries go into the young one, a hit in the old one moves to the young one,
and when the young one is full the old one is dropped and the young one takes its place.
So it holds at most ``2 * size`` entries, and what is still used survives a turnover.

Not thread-safe by design beyond what dict operations give: two threads may compute the
same entry, and either result is kept (the value is the same).
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["BoundedCache"]

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """Key -> value, at most ``2 * size`` entries (see the module docstring).

    >>> c = BoundedCache(2)
    >>> for k in "abcde":
    ...     c.put(k, k.upper())
    >>> len(c), c.get("a"), c.get("d"), c.get("e")
    (3, None, 'D', 'E')
    """

    __slots__ = ("size", "_young", "_old")

    def __init__(self, size: int) -> None:
        self.size = size
        self._young: dict[K, V] = {}
        self._old: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._young) + len(self._old)

    def get(self, key: K) -> V | None:
        value = self._young.get(key)
        if value is None:
            value = self._old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        young = self._young
        if len(young) >= self.size:
            self._old = young
            young = self._young = {}
        young[key] = value
