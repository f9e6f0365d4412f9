"""SentencePiece's compiled normalization map (``precompiled_charsmap``) and its normalizer.

A SentencePiece model carries its normalization rules (NFKC plus SentencePiece's own
whitespace and control-character rules) compiled into one binary blob:

* a little-endian ``uint32``: the byte size of the trie;
* the trie, a darts-clone double array of ``uint32`` units over UTF-8 bytes. A key is a
  byte string of the source text; the value stored at its leaf is an offset into
* the replacements pool: NUL-terminated UTF-8 strings.

:class:`CharsMap` reads that blob and looks keys up, either the way HF ``tokenizers``
does (the *first*, shortest key that prefixes the chunk, applied to the whole chunk) or
the way SentencePiece itself does (the *longest* prefix). :class:`Precompiled` is the HF
``tokenizer.json`` normalizer of that name: it walks the text by extended grapheme
cluster (on codetok's pinned Unicode data, :mod:`codetok.reference.grapheme`), replaces a cluster shorter than 6 UTF-8 bytes whole when it has a rule, and
otherwise each of its characters; alignments follow HF's per-character change rules
exactly, quirks included (see :func:`_hf_changes`).

Not handled here: compiling a charsmap from rules (a trie builder), and SentencePiece's
whitespace handling (``add_dummy_prefix``, ``remove_extra_whitespaces``), which lives with
the ``.model`` reader in :mod:`codetok.formats.sentencepiece_model`.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from itertools import accumulate
from typing import Any

import numpy as np

from codetok.errors import FormatError
from codetok.normalizers import Normalizer
from codetok.reference.grapheme import cluster_ends
from codetok.tokenizer.offsets import NormalizedString

__all__ = ["CharsMap", "Precompiled"]

# In ASCII text every grapheme cluster is one char, except CR LF.
_ASCII_GRAPHEME = re.compile(r"\r\n|[\s\S]")
#: HF applies a rule to a whole grapheme cluster only when it is shorter than this (bytes).
_MAX_CLUSTER_BYTES = 6
_CACHE_LIMIT = 1 << 16
#: From this many chars on, the rules of all the chars are looked up at once.
_BULK_LOOKUP = 1024


class CharsMap:
    """A parsed ``precompiled_charsmap``: a double-array trie plus replacement strings.

    Args:
        blob: the raw bytes (as stored in the ``.model`` file's ``normalizer_spec``).
        path: the file the blob came from, for error messages.

    Raises:
        FormatError: the blob is truncated or its replacements are not UTF-8.

    >>> CharsMap(b"").lookup_first("a") is None
    True
    """

    __slots__ = ("blob", "_units", "_unit_array", "_pool", "_first_cache")

    def __init__(self, blob: bytes, *, path: str | None = None) -> None:
        self.blob = bytes(blob)
        self._first_cache: dict[str, str | None] = {}
        if not self.blob:
            self._units: tuple[int, ...] = ()
            self._unit_array = np.zeros(0, np.int64)
            self._pool = b""
            return
        if len(self.blob) < 4:
            raise FormatError(
                f"precompiled_charsmap has {len(self.blob)} bytes; it needs at least a 4-byte "
                "trie size",
                path=path,
                where="normalizer_spec.precompiled_charsmap",
            )
        (trie_size,) = struct.unpack_from("<I", self.blob, 0)
        if trie_size % 4 or 4 + trie_size > len(self.blob):
            raise FormatError(
                f"precompiled_charsmap declares a trie of {trie_size} bytes but holds "
                f"{len(self.blob) - 4}; the blob is truncated or not a charsmap",
                path=path,
                where="normalizer_spec.precompiled_charsmap",
            )
        self._units = struct.unpack_from(f"<{trie_size // 4}I", self.blob, 4)
        self._pool = self.blob[4 + trie_size :]
        try:
            self._pool.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FormatError(
                f"precompiled_charsmap replacements are not UTF-8 (byte {e.start})",
                path=path,
                where="normalizer_spec.precompiled_charsmap",
            ) from e
        # Each value (a unit with the leaf bit) is the start of a NUL-ended replacement (or
        # past the end: an empty one); one that starts elsewhere, maybe inside a
        # character, is damage.
        units = np.frombuffer(self.blob, "<u4", trie_size // 4, 4)
        self._unit_array = units.astype(np.int64)
        values = units[units >= 0x80000000] & 0x7FFFFFFF
        pool = np.frombuffer(self._pool, np.uint8)
        starts = np.ones(len(pool), bool)
        starts[1:] = pool[:-1] == 0
        inside = values[values < len(pool)]
        bad = inside[~starts[inside]]
        if bad.size:
            raise FormatError(
                f"precompiled_charsmap has a replacement at byte {int(bad[0])}, which is not "
                "the start of one; the blob is damaged",
                path=path,
                where="normalizer_spec.precompiled_charsmap",
            )

    def __bool__(self) -> bool:
        return bool(self._units)

    # -- trie ----------------------------------------------------------------------------
    def _prefixes(self, key: bytes, first_only: bool) -> list[tuple[int, int]]:
        """``(value, key length)`` for each trie key that prefixes ``key``, shortest first."""
        units = self._units
        n = len(units)
        if not n:
            return []
        out: list[tuple[int, int]] = []
        u = units[0]
        pos = (u >> 10) << ((u & 0x200) >> 6)
        for i, c in enumerate(key):
            if c == 0:
                break
            pos ^= c
            if pos >= n:
                break
            u = units[pos]
            if u & 0x800000FF != c:
                break
            pos ^= (u >> 10) << ((u & 0x200) >> 6)
            if u & 0x100:
                if pos >= n:
                    break
                out.append((units[pos] & 0x7FFFFFFF, i + 1))
                if first_only:
                    break
        return out

    def _replacement(self, value: int) -> str:
        end = self._pool.find(b"\x00", value)
        return self._pool[value : end if end >= 0 else len(self._pool)].decode("utf-8")

    def lookup_first(self, chunk: str) -> str | None:
        """HF's rule: the replacement of the shortest key prefixing ``chunk``, or ``None``.

        The replacement stands for the *whole* chunk, even when the key is shorter.

        >>> CharsMap(b"").lookup_first("x") is None
        True
        """
        cache = self._first_cache
        if chunk in cache:
            return cache[chunk]
        hits = self._prefixes(chunk.encode("utf-8", "surrogatepass"), True)
        out = self._replacement(hits[0][0]) if hits else None
        if len(cache) < _CACHE_LIMIT:
            cache[chunk] = out
        return out

    def lookup_first_each(self, text: str) -> list[str | None]:
        """:meth:`lookup_first` of each char of ``text`` on its own, all in one walk.

        The walk of :meth:`_prefixes` (``first_only``) over every char's UTF-8 bytes (a lone
        surrogate's three ``surrogatepass`` ones) at once, as array operations: a long text
        costs a few passes instead of a trie walk in Python per char.

        >>> CharsMap(b"").lookup_first_each("ab")
        [None, None]
        """
        units = self._unit_array
        n = len(units)
        cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4").astype(np.int64)
        if not n or not len(cps):
            return [None] * len(cps)
        # The UTF-8 bytes of each char, one column a byte (0: none, as a key byte 0 ends it).
        size = 1 + (cps >= 0x80) + (cps >= 0x800) + (cps >= 0x10000)
        columns = [
            np.select(
                [size == 1, size == 2, size == 3],
                [cps, 0xC0 | cps >> 6, 0xE0 | cps >> 12],
                0xF0 | cps >> 18,
            )
        ]
        for k in (1, 2, 3):
            rest = size - 1 - k  # the 6-bit groups that follow byte k
            columns.append(np.where(rest >= 0, 0x80 | ((cps >> 6 * np.maximum(rest, 0)) & 0x3F), 0))
        values = np.full(len(cps), -1, np.int64)
        u = units[0]
        pos = np.full(len(cps), (u >> 10) << ((u & 0x200) >> 6), np.int64)
        active = np.ones(len(cps), bool)
        for c in columns:
            active &= c != 0
            pos ^= c
            active &= pos < n
            u = units[np.where(active, pos, 0)]
            active &= (u & 0x800000FF) == c
            pos ^= (u >> 10) << ((u & 0x200) >> 6)
            leaf = active & (u & 0x100 != 0)
            hit = leaf & (pos < n)
            values[hit] = units[pos[hit]] & 0x7FFFFFFF
            active &= ~leaf
        out: list[str | None] = [None] * len(cps)
        hits = np.flatnonzero(values >= 0)
        found = values[hits]
        replacements = {v: self._replacement(v) for v in np.unique(found).tolist()}
        for i, value in zip(hits.tolist(), found.tolist()):
            out[i] = replacements[value]
        return out

    def lookup_longest(self, data: bytes) -> tuple[str, int] | None:
        """SentencePiece's rule: ``(replacement, key bytes)`` of the longest key prefixing ``data``.

        >>> CharsMap(b"").lookup_longest(b"x") is None
        True
        """
        hits = self._prefixes(data, False)
        if not hits:
            return None
        value, length = hits[-1]
        return self._replacement(value), length


def _cluster_rule(cmap: CharsMap, cluster: str) -> str | None:
    """HF's replacement of a whole grapheme cluster, or ``None``: then each of its chars is
    rewritten by its own rule, if any (a one-char cluster's rule is its char's).

    Only a cluster shorter than 6 UTF-8 bytes is looked up whole, by the shortest key that
    prefixes it (which may be shorter than the cluster).
    """
    if len(cluster.encode("utf-8", "surrogatepass")) < _MAX_CLUSTER_BYTES:
        return cmap.lookup_first(cluster)
    return None


def _hf_changes(units: list[tuple[str, int, str | None]]) -> tuple[list[str], list[int]] | None:
    """HF's ``(char, change)`` transformation list for ``(source, n_chars, replacement)`` units.

    A change of 0 consumes one source char, ``-k`` consumes one and drops ``k`` more, and
    1 inserts. When a replacement is shorter than its source, the deficit is charged to
    the *previous* entry, wherever it came from, and is lost at the very start: HF's own
    behaviour, kept for parity. Returns ``None`` when no rule applied.
    """
    chars: list[str] = []
    changes: list[int] = []
    add_char, add_change = chars.append, changes.append
    modified = False
    for src, n_old, new in units:
        if new is None:
            add_char(src)
            add_change(0)
            continue
        modified = True
        size = len(new)
        if size == 1:
            add_char(new)
            add_change(0)
        else:
            chars.extend(new)
            changes.extend([0] * size)
        diff = size - n_old
        if diff > 0:
            changes[-diff:] = [1] * diff  # the last ``diff`` chars are insertions
        elif diff < 0 and changes:
            changes[-1] += diff
    return (chars, changes) if modified else None


def _apply_changes(ns: NormalizedString, chars: list[str], changes: list[int]) -> None:
    """Rebuild ``ns`` from HF's transformation list, with HF's alignment for each char."""
    n = len(ns.text)
    chunks: list[tuple[str, int, int]] = []
    add = chunks.append
    idx = 0
    for c, ch in zip(chars, changes):
        if ch > 0:
            add((c, idx, idx))
        elif idx >= n:  # HF would index past its alignments; nothing sane to align to
            add((c, n, n))
        else:
            add((c, idx, idx + 1))
            idx += 1 - ch
    ns.transform(chunks)


class Precompiled(Normalizer):
    """SentencePiece's compiled charsmap as a normalizer (HF ``tokenizers``' ``Precompiled``).

    Args:
        precompiled_charsmap: the charsmap blob, as bytes or as base64 text (the form
            ``tokenizer.json`` stores). Empty means "no rules".

    Raises:
        FormatError: the charsmap is not valid base64 or not a charsmap.

    >>> Precompiled(b"").normalize_str("ｆｕｌｌ")
    'ｆｕｌｌ'
    """

    type_name = "Precompiled"

    def __init__(self, precompiled_charsmap: bytes | str | None = b"") -> None:
        if precompiled_charsmap is None:
            precompiled_charsmap = b""
        if isinstance(precompiled_charsmap, str):
            try:
                precompiled_charsmap = base64.b64decode(precompiled_charsmap, validate=True)
            except (binascii.Error, ValueError) as e:
                raise FormatError(
                    f"precompiled_charsmap is not valid base64: {e}",
                    where="normalizer.precompiled_charsmap",
                ) from e
        self.charsmap = CharsMap(bytes(precompiled_charsmap))
        # ASCII chars that have a rule: text without them (and without a CR LF rule) is
        # left untouched without walking it cluster by cluster.
        self._ascii_rules = frozenset(
            chr(b) for b in range(1, 128) if self.charsmap.lookup_first(chr(b)) is not None
        )
        self._crlf_rule = self.charsmap.lookup_first("\r\n") is not None

    @property
    def precompiled_charsmap(self) -> bytes:
        """The raw charsmap blob."""
        return self.charsmap.blob

    def to_dict(self) -> dict[str, Any]:
        """The HF ``tokenizer.json`` object (the charsmap in base64).

        >>> Precompiled(b"").to_dict()
        {'type': 'Precompiled', 'precompiled_charsmap': ''}
        """
        return {
            "type": self.type_name,
            "precompiled_charsmap": base64.b64encode(self.charsmap.blob).decode("ascii"),
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Precompiled:
        """Build from ``{"type": "Precompiled", "precompiled_charsmap": "<base64>"}``.

        Raises:
            FormatError: the charsmap is missing, not base64, or not a charsmap.
        """
        where = where or "normalizer"
        raw = data.get("precompiled_charsmap")
        if raw is not None and not isinstance(raw, str):
            raise FormatError(
                f"precompiled_charsmap must be a base64 string, got {type(raw).__name__}",
                path=path,
                where=f"{where}.precompiled_charsmap",
            )
        try:
            blob = base64.b64decode(raw or "", validate=True)
        except (binascii.Error, ValueError) as e:
            raise FormatError(
                f"precompiled_charsmap is not valid base64: {e}",
                path=path,
                where=f"{where}.precompiled_charsmap",
            ) from e
        try:
            return cls(blob)
        except FormatError as e:
            raise FormatError(e.message, path=path, where=f"{where}.precompiled_charsmap") from e

    def normalize(self, ns: NormalizedString) -> None:
        """Apply the charsmap in place, keeping HF's alignment to the original text.

        >>> ns = NormalizedString("abc")
        >>> Precompiled(b"").normalize(ns)
        >>> ns.text
        'abc'
        """
        res = self._changes(ns.text)
        if res is not None:
            _apply_changes(ns, *res)

    def normalize_str(self, text: str) -> str:
        """The normalized text alone: :meth:`normalize`'s, without aligning it.

        >>> Precompiled(b"").normalize_str("ｆｕｌｌ")
        'ｆｕｌｌ'
        """
        res = self._changes(text)
        return text if res is None else "".join(res[0])

    def _changes(self, text: str) -> tuple[list[str], list[int]] | None:
        """HF's ``(char, change)`` lists for ``text`` (:func:`_hf_changes`), ``None`` when no
        rule applies."""
        if not text or not self.charsmap:
            return None
        if text.isascii():
            if not any(c in self._ascii_rules for c in set(text)) and not (
                self._crlf_rule and "\r\n" in text
            ):
                return None
            ends = list(accumulate(map(len, _ASCII_GRAPHEME.findall(text))))
        else:
            ends = cluster_ends(text)
        cmap = self.charsmap
        # Each char's own rule (see _cluster_rule): on a long text, all from one walk of
        # the trie, else each looked up (and cached) on its own.
        firsts = cmap.lookup_first_each(text) if len(text) >= _BULK_LOOKUP else None
        lookup = cmap.lookup_first
        units: list[tuple[str, int, str | None]] = []
        add = units.append
        start = 0
        for end in ends:
            if end - start == 1:
                c = text[start]
                add((c, 1, lookup(c) if firsts is None else firsts[start]))
            else:
                cl = text[start:end]
                whole = _cluster_rule(cmap, cl)
                if whole is not None:
                    add((cl, end - start, whole))
                elif firsts is None:
                    for c in cl:
                        add((c, 1, lookup(c)))
                else:
                    for i in range(start, end):
                        add((text[i], 1, firsts[i]))
            start = end
        return _hf_changes(units)
