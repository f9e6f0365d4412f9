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
cluster (on codetok's pinned Unicode data, :mod:`codetok.unicode.grapheme`), replaces a cluster shorter than 6 UTF-8 bytes whole when it has a rule, and
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
from typing import Any

import numpy as np

from codetok.errors import FormatError
from codetok.normalizers import Normalizer
from codetok.tokenizer.offsets import NormalizedString
from codetok.unicode.grapheme import clusters as grapheme_clusters

__all__ = ["CharsMap", "Precompiled"]

# In ASCII text every grapheme cluster is one char, except CR LF.
_ASCII_GRAPHEME = re.compile(r"\r\n|[\s\S]")
#: HF applies a rule to a whole grapheme cluster only when it is shorter than this (bytes).
_MAX_CLUSTER_BYTES = 6
_CACHE_LIMIT = 1 << 16


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

    __slots__ = ("blob", "_units", "_pool", "_first_cache")

    def __init__(self, blob: bytes, *, path: str | None = None) -> None:
        self.blob = bytes(blob)
        self._first_cache: dict[str, str | None] = {}
        if not self.blob:
            self._units: tuple[int, ...] = ()
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


def _cluster_units(cmap: CharsMap, cluster: str) -> list[tuple[int, str | None]]:
    """How HF rewrites one grapheme cluster: ``(source chars, replacement or None)`` units."""
    if len(cluster.encode("utf-8", "surrogatepass")) < _MAX_CLUSTER_BYTES:
        norm = cmap.lookup_first(cluster)
        if norm is not None:
            return [(len(cluster), norm)]
    return [(1, cmap.lookup_first(c)) for c in cluster]


def _hf_changes(units: list[tuple[str, int, str | None]]) -> tuple[list[str], list[int]] | None:
    """HF's ``(char, change)`` transformation list for ``(source, n_chars, replacement)`` units.

    A change of 0 consumes one source char, ``-k`` consumes one and drops ``k`` more, and
    1 inserts. When a replacement is shorter than its source, the deficit is charged to
    the *previous* entry, wherever it came from, and is lost at the very start: HF's own
    behaviour, kept for parity. Returns ``None`` when no rule applied.
    """
    chars: list[str] = []
    changes: list[int] = []
    modified = False
    for src, n_old, new in units:
        if new is None:
            chars.append(src)
            changes.append(0)
            continue
        modified = True
        chars.extend(new)
        changes.extend([0] * len(new))
        diff = len(new) - n_old
        if diff > 0:
            for k in range(len(changes) - diff, len(changes)):
                changes[k] = 1
        elif diff < 0 and changes:
            changes[-1] += diff
    return (chars, changes) if modified else None


def _apply_changes(ns: NormalizedString, chars: list[str], changes: list[int]) -> None:
    """Rebuild ``ns`` from HF's transformation list, with HF's alignment for each char."""
    n = len(ns.text)
    chunks: list[tuple[str, int, int]] = []
    idx = 0
    for c, ch in zip(chars, changes):
        if ch > 0:
            chunks.append((c, idx, idx))
        else:
            if idx >= n:  # HF would index past its alignments; nothing sane to align to
                chunks.append((c, n, n))
                continue
            chunks.append((c, idx, idx + 1))
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
        self._cluster_cache: dict[str, list[tuple[int, str | None]]] = {}
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

    def _units(self, cluster: str) -> list[tuple[int, str | None]]:
        cache = self._cluster_cache
        hit = cache.get(cluster)
        if hit is None:
            hit = _cluster_units(self.charsmap, cluster)
            if len(cache) < _CACHE_LIMIT:
                cache[cluster] = hit
        return hit

    def normalize(self, ns: NormalizedString) -> None:
        """Apply the charsmap in place, keeping HF's alignment to the original text.

        >>> ns = NormalizedString("abc")
        >>> Precompiled(b"").normalize(ns)
        >>> ns.text
        'abc'
        """
        text = ns.text
        if not text or not self.charsmap:
            return
        if text.isascii():
            if not any(c in self._ascii_rules for c in set(text)) and not (
                self._crlf_rule and "\r\n" in text
            ):
                return
            clusters = _ASCII_GRAPHEME.findall(text)
        else:
            clusters = list(grapheme_clusters(text))
        units: list[tuple[str, int, str | None]] = []
        for cl in clusters:
            parts = self._units(cl)
            if len(parts) == 1 and parts[0][0] == len(cl) and parts[0][1] is not None:
                units.append((cl, len(cl), parts[0][1]))
            else:
                for c, (_, new) in zip(cl, parts):
                    units.append((c, 1, new))
        res = _hf_changes(units)
        if res is not None:
            _apply_changes(ns, *res)
