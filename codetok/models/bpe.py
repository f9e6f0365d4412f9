"""Byte-pair encoding (BPE) model, encoding exactly as HF ``tokenizers``' ``BPE`` does.

Handles: merges by rank, ``continuing_subword_prefix``, ``end_of_word_suffix``,
``unk_token`` / ``fuse_unk``, ``byte_fallback`` (``<0xNN>`` tokens), BPE-dropout with a
seedable rng, ``ignore_merges`` and a bounded per-piece cache. Byte-level BPE needs nothing
special here: the ByteLevel pre-tokenizer maps bytes to the GPT-2 alphabet first, so the
model sees ordinary chars. The loops live in a kernel: the native ``BpeCore``
or its twin :class:`codetok.reference.bpe.BpeCore` (see :mod:`codetok.engine.native`);
dropout always runs the reference loop.

Not handled here: training (see ``codetok.trainers``), pre-tokenization, special tokens.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from codetok.engine import native as _backend
from codetok.engine.shared_random import SharedRandom, model_random
from codetok.errors import ConfigurationError, FormatError, VocabularyError
from codetok.formats.ids import check_vocab_ids
from codetok.models.base import Model, Token
from codetok.reference import bpe as _kernel

__all__ = ["BPE"]

#: Pieces at least this long are not cached (HF uses 256 bytes).
_MAX_CACHED_LENGTH = 256
DEFAULT_CACHE_CAPACITY = 10_000


def _values_by_id(vocab_r: dict[int, str]) -> list[str | None] | None:
    """Token text by id for the batch kernels, or ``None`` when ids are not a dense range."""
    if not vocab_r:
        return []
    ids = vocab_r.keys()
    if not all(type(i) is int for i in ids) or min(ids) < 0:
        return None
    top = max(ids)
    if top >= 2**31 - 1 or top >= 4 * len(vocab_r) + 1024:
        return None
    values: list[str | None] = [None] * (top + 1)
    for i, t in vocab_r.items():
        values[i] = t
    return values


def _far_sparse(vocab_r: dict[int, str]) -> bool:
    """Whether the largest id is past 2**24 and far past the number of tokens."""
    top = max((i for i in vocab_r if type(i) is int), default=-1)
    return top >= 2**24 and top >= 4 * len(vocab_r) + 1024


def _merge_pairs(merges: Iterable[Any], *, where: str = "merges") -> list[tuple[str, str]]:
    """Normalise merges given as ``"a b"`` strings or ``[a, b]`` pairs."""
    out: list[tuple[str, str]] = []
    for i, m in enumerate(merges):
        if isinstance(m, str):
            parts = m.split(" ", 1)
            if len(parts) != 2:
                raise ConfigurationError(
                    f"{where}[{i}] is {m!r}; a merge string needs two tokens separated by a "
                    "space, like 'a b'"
                )
            out.append((parts[0], parts[1]))
        elif (
            isinstance(m, (list, tuple))
            and len(m) == 2
            and isinstance(m[0], str)
            and isinstance(m[1], str)
        ):
            out.append((m[0], m[1]))
        else:
            raise ConfigurationError(
                f"{where}[{i}] is {m!r}; use a pair of strings ['a', 'b'] or a string 'a b'"
            )
    return out


class BPE(Model):
    """A BPE model: a vocabulary plus ranked merges.

    Args:
        vocab: token -> id.
        merges: ranked merges, as ``(a, b)`` pairs or ``"a b"`` strings. With a
            ``continuing_subword_prefix`` the right-hand token carries the prefix and the
            merged token is ``a + b[len(prefix):]``.
        cache_capacity: pieces kept in the per-piece cache (0 disables it).
        dropout: BPE-dropout probability in [0, 1]; ``None`` or 0 disables it (and the cache
            and ``ignore_merges`` are then bypassed, as in HF).
        unk_token: emitted for chars missing from the vocabulary; ``None`` drops them.
        continuing_subword_prefix: prepended to every char of a piece but the first.
        end_of_word_suffix: appended to the last char of a piece.
        fuse_unk: fuse consecutive unknown chars into one ``unk_token``.
        byte_fallback: split unknown chars into ``<0xNN>`` byte tokens when they exist.
        ignore_merges: a piece that is itself in the vocabulary is emitted whole.
        seed: seed (or a ``random.Random``) for dropout draws.

    Raises:
        VocabularyError: a merge names a token missing from ``vocab``.
        ConfigurationError: ``dropout`` outside [0, 1] or a malformed merge.

    >>> bpe = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])
    >>> [t.value for t in bpe.tokenize("abba")]
    ['ab', 'b', 'a']
    """

    type_name: ClassVar[str] = "BPE"
    #: Also derived: the tables a fast-loaded vocabulary builds on first read.
    _DERIVED = Model._DERIVED | {"_vocab_d", "_vocab_rd", "_merges_list", "_merge_dict"}

    def __init__(
        self,
        vocab: dict[str, int] | None = None,
        merges: Iterable[tuple[str, str] | list[str] | str] | None = None,
        /,
        *,
        cache_capacity: int = DEFAULT_CACHE_CAPACITY,
        dropout: float | None = None,
        unk_token: str | None = None,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        fuse_unk: bool = False,
        byte_fallback: bool = False,
        ignore_merges: bool = False,
        seed: int | random.Random | None = None,
    ) -> None:
        self._vocab_d: dict[str, int] | None = dict(vocab or {})
        self._vocab_rd: dict[int, str] | None = {i: t for t, i in self._vocab_d.items()}
        self._store: Any = None  # (utf8, offsets, present) arrays of a fast-load file
        self._saved_tables: Any = None
        self._unk_token = unk_token
        self._prefix = continuing_subword_prefix
        self._suffix = end_of_word_suffix
        self._fuse_unk = bool(fuse_unk)
        self._byte_fallback = bool(byte_fallback)
        self._ignore_merges = bool(ignore_merges)
        self._cache_capacity = max(0, int(cache_capacity))
        self._cache: dict[str, tuple[list[int], list[tuple[int, int]]]] = {}
        self._rng = model_random(seed)
        self._dropout: float | None = None
        self.dropout = dropout
        self._table: Any = None  # merge rows (left, right, rank, new) when built natively
        self._pairs_source: Any = None
        self._merges_list, self._merge_dict = self._build_merges(_merge_pairs(merges or ()))
        self._built_kernel: Any = None
        self._built_kernel_native = False
        self._values: list[str | None] | None = None

    @classmethod
    def _from_merge_table(
        cls, vocab: dict[str, int], table: Any, pairs: Any, /, **options: Any
    ) -> BPE:
        """A model whose merge table was built natively (the native ``merge_table`` or
        ``rank_merges``): rows ``(left id, right id, rank, new id)``.

        ``pairs`` gives the merges as token pairs (a list, or a function making it), read
        only when asked for (:meth:`get_merges`); the merge dict of the Python kernel is
        made from the rows on first use. Loading a 200k-merge file skips both.
        """
        model = cls(vocab, (), **options)
        model._table = table
        model._pairs_source = pairs
        model._merges_list = model._merge_dict = None
        return model

    @classmethod
    def _from_store(
        cls, store: tuple[Any, Any, Any], table: Any, tables: Any, /, **options: Any
    ) -> BPE:
        """A model over the arrays of a fast-load file (:mod:`codetok.formats.binary`).

        ``store`` is ``(utf8, offsets, present)``: token ``k`` is
        ``utf8[offsets[k]:offsets[k + 1]]`` when ``present[k]``; ``table`` holds the merge
        rows; ``tables`` (or ``None``) the saved hash tables of the native kernel. The
        native kernel is built from these directly; the vocabulary dicts and merge pairs
        are made only when something asks for them.
        """
        model = cls._from_merge_table({}, table, None, **options)
        model._store = store
        model._saved_tables = tables
        model._vocab_d = model._vocab_rd = None

        def pairs() -> list[tuple[str, str]]:
            vr = model._vocab_r
            return [(vr[a], vr[b]) for a, b in table[:, :2].tolist()]

        model._pairs_source = pairs
        return model

    def _store_strings(self) -> list[str | None]:
        """Token strings by id from the fast-load arrays.

        Raises:
            FormatError: a token's bytes are not UTF-8 (the file was damaged and its
                checksum written again).
        """
        try:
            if (
                self._built_kernel is not None
                and self._built_kernel_native
                and hasattr(self._built_kernel, "strings")
            ):
                return self._built_kernel.strings()
            utf8, offsets, present = self._store
            bounds = offsets.tolist()
            data = bytes(utf8)
            return [
                data[a:b].decode("utf-8", "surrogatepass") if p else None
                for a, b, p in zip(bounds, bounds[1:], present.tolist())
            ]
        except ValueError as e:  # UnicodeDecodeError, or the native kernel's
            raise FormatError(f"the fast-load token text is damaged: {e}") from e

    @property
    def _vocab(self) -> dict[str, int]:
        if self._vocab_d is None:
            self._vocab_d = {t: i for i, t in self._vocab_r.items()}
        return self._vocab_d

    @property
    def _vocab_r(self) -> dict[int, str]:
        if self._vocab_rd is None:
            strings = self._store_strings()
            self._vocab_rd = {i: t for i, t in enumerate(strings) if t is not None}
        return self._vocab_rd

    @property
    def _merges(self) -> list[tuple[str, str]]:
        if self._merges_list is None:
            src = self._pairs_source
            self._merges_list = src() if callable(src) else _merge_pairs(src)
        return self._merges_list

    @property
    def _merge_map(self) -> _kernel.MergeMap:
        if self._merge_dict is None:
            self._merge_dict = {(a, b): (r, n) for a, b, r, n in self._table.tolist()}
        return self._merge_dict

    def _build_merges(
        self, pairs: list[tuple[str, str]]
    ) -> tuple[list[tuple[str, str]], _kernel.MergeMap]:
        vocab = self._vocab
        # Tokens may hold lone surrogates (their 3-byte forms, as tokenizer.json escapes and
        # the binary format keep them): read them as every byte-level path does.
        cut = len(self._prefix.encode("utf-8", "surrogatepass")) if self._prefix else 0
        merge_map: _kernel.MergeMap = {}
        for rank, (a, b) in enumerate(pairs):
            a_id = vocab.get(a)
            b_id = vocab.get(b)
            if a_id is None or b_id is None:
                missing = a if a_id is None else b
                raise VocabularyError(
                    f"merges[{rank}] ({a!r}, {b!r}) uses {missing!r}, which is not in the "
                    "vocabulary; add it to the vocab or drop the merge"
                )
            raw = b.encode("utf-8", "surrogatepass")
            try:
                if len(raw) < cut:
                    raise UnicodeDecodeError("utf-8", raw, 0, len(raw), "too short")
                tail = raw[cut:].decode("utf-8", "surrogatepass")
            except UnicodeDecodeError as e:
                raise VocabularyError(
                    f"merges[{rank}] ({a!r}, {b!r}): the right-hand token must start with "
                    f"the continuing_subword_prefix {self._prefix!r}"
                ) from e
            new_id = vocab.get(a + tail)
            if new_id is None:
                raise VocabularyError(
                    f"merges[{rank}] ({a!r}, {b!r}) makes {a + tail!r}, which is not in the "
                    "vocabulary; add it to the vocab or drop the merge"
                )
            merge_map[(a_id, b_id)] = (rank, new_id)
        return pairs, merge_map

    # -- options -----------------------------------------------------------------------------

    @property
    def dropout(self) -> float | None:
        """BPE-dropout probability, or ``None``; setting it clears the cache."""
        return self._dropout

    @dropout.setter
    def dropout(self, value: float | None) -> None:
        if value is not None:
            value = float(value)
            if not 0.0 <= value <= 1.0:
                raise ConfigurationError(f"dropout={value!r} must lie in [0, 1] (or be None)")
        self._dropout = value
        self.clear_cache()

    @property
    def unk_token(self) -> str | None:
        """The unknown token, or ``None``."""
        return self._unk_token

    @property
    def continuing_subword_prefix(self) -> str | None:
        """Prefix put before every char of a piece but the first."""
        return self._prefix

    @property
    def end_of_word_suffix(self) -> str | None:
        """Suffix put after the last char of a piece."""
        return self._suffix

    @property
    def fuse_unk(self) -> bool:
        """Whether consecutive unknown chars become one unknown token."""
        return self._fuse_unk

    @property
    def byte_fallback(self) -> bool:
        """Whether unknown chars become ``<0xNN>`` tokens."""
        return self._byte_fallback

    @property
    def ignore_merges(self) -> bool:
        """Whether a piece found whole in the vocabulary skips merging."""
        return self._ignore_merges

    def seed(self, seed: int | None) -> None:
        """Reseed the dropout rng.

        Args:
            seed: any value ``random.Random`` accepts.

        >>> BPE().seed(0)
        """
        self._rng.seed(seed)

    # -- encoding ----------------------------------------------------------------------------

    def _unk_id(self) -> int:
        """``-1``: no unknown token (unknown chars are dropped); ``-2``: set but missing."""
        if self._unk_token is None:
            return -1
        return self._vocab.get(self._unk_token, -2)

    def _kernel(self) -> Any:
        """The BPE kernel of the current backend, built on first use."""
        if self._built_kernel is None and self._store is not None and _backend.native():
            # Straight from the fast-load arrays: no Python dict of the vocabulary.
            self._built_kernel, self._built_kernel_native = _backend.native_kernel(
                self,
                "BpeCore",
                *self._store,
                self._table,
                Token,
                tables=self._saved_tables,
                **self._kernel_options(),
            )
        if self._built_kernel is None:
            self._values = _values_by_id(self._vocab_r)
            # The native kernel keeps a table indexed by id: with ids far past the size of
            # the vocabulary (one id near 2**31 in a small file) it would take gigabytes, so
            # such a model runs the reference kernel (same output, a dict per id).
            native = _backend.native() and not _far_sparse(self._vocab_r)
            if self._table is not None and native:
                merges: Any = self._table
            else:
                merges = [(a, b, rank, new) for (a, b), (rank, new) in self._merge_map.items()]
            build = _backend.kernel if native else _backend.reference_kernel
            self._built_kernel, self._built_kernel_native = build(
                self,
                "BpeCore",
                self._vocab,
                merges,
                self._values or [],
                Token,
                **self._kernel_options(),
            )
        return self._built_kernel

    def _kernel_options(self) -> dict[str, Any]:
        return {
            "prefix": self._prefix or "",
            "suffix": self._suffix or "",
            "unk_id": self._unk_id(),
            "fuse_unk": self._fuse_unk,
            "byte_fallback": self._byte_fallback,
            "ignore_merges": self._ignore_merges,
        }

    def _missing_unk(self, piece: str) -> VocabularyError:
        return VocabularyError(
            f"unk_token {self._unk_token!r} is not in the vocabulary, but {piece!r} needs "
            "it; add it to the vocab or set unk_token=None"
        )

    def _sample(self, piece: str, dropout: float) -> tuple[list[int], list[tuple[int, int]]]:
        """BPE-dropout: the merge loop with random skips, never cached (natively when the
        kernel is native and the generator is shared with it, the same draws)."""
        unk_id = self._unk_id()
        if isinstance(self._rng, SharedRandom):
            core = self._kernel()
            if self._built_kernel_native:
                ids, spans = core.sample(piece, dropout, self._rng.core)
                if unk_id == -2 and -2 in ids:
                    raise self._missing_unk(piece)
                return ids, spans
        ids, lens = _kernel.word_symbols(
            piece,
            self._vocab,
            self._prefix or "",
            self._suffix or "",
            self._byte_fallback,
            unk_id,
            self._fuse_unk,
        )
        if unk_id == -2 and -2 in ids:
            raise self._missing_unk(piece)
        ids, lens = _kernel.merge(ids, lens, self._merge_map, dropout, self._rng.random)
        return ids, _kernel.char_spans(piece, lens)

    def _encode(self, piece: str) -> tuple[list[int], list[tuple[int, int]]]:
        if not piece:
            return [], []
        dropout = self._dropout
        if dropout is not None and dropout > 0.0:
            return self._sample(piece, dropout)
        hit = self._cache.get(piece)
        if hit is not None:
            return hit
        ids, spans = self._kernel().encode(piece)
        if -2 in ids and self._unk_id() == -2:
            raise self._missing_unk(piece)
        result = (ids, spans)
        if len(piece) < _MAX_CACHED_LENGTH and len(self._cache) < self._cache_capacity:
            self._cache[piece] = result
        return result

    def tokenize(self, piece: str) -> list[Token]:
        """Split one piece into tokens with char offsets inside the piece.

        Args:
            piece: one pre-tokenized piece.

        Returns:
            The tokens, in order.

        Raises:
            VocabularyError: ``unk_token`` is needed but missing from the vocabulary.

        >>> BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).tokenize("ab")
        [Token(id=2, value='ab', offsets=(0, 2))]
        """
        ids, offsets = self._encode(piece)
        vr = self._vocab_r
        return [Token(i, vr[i], o) for i, o in zip(ids, offsets, strict=True)]

    def tokenize_many(self, pieces: Sequence[str]) -> list[list[Token]]:
        """:meth:`tokenize` of each piece, in one kernel call when the kernel is native.

        Args:
            pieces: pre-tokenized pieces.

        Returns:
            One token list per piece.

        Raises:
            VocabularyError: ``unk_token`` is needed but missing from the vocabulary.

        >>> bpe = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])
        >>> [[t.value for t in toks] for toks in bpe.tokenize_many(["ab", "ba"])]
        [['ab'], ['b', 'a']]
        """
        dropout = self._dropout
        if dropout is None or dropout <= 0.0:
            core = self._kernel()
            if self._built_kernel_native and self._values is not None:
                out = core.tokenize_batch(pieces)
                for k, toks in enumerate(out):
                    if toks is None:  # an id without a token: the missing unk_token
                        out[k] = self.tokenize(pieces[k])
                return out
        return [self.tokenize(p) for p in pieces]

    def encode_pieces(
        self, pieces: Sequence[str], anchors: Sequence[Any], word_start: int, word_step: int
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]]:
        """See :meth:`Model.encode_pieces`: one native call builds the flat lists.

        The pure-Python backend, dropout and a missing ``unk_token`` take the generic
        path (through the per-piece cache, and raising the usual errors).
        """
        dropout = self._dropout
        if dropout is None or dropout <= 0.0:
            core = self._kernel()
            if self._built_kernel_native and self._values is not None:
                out = core.encode_offsets(pieces, anchors, word_start, word_step)
                if out is not None:
                    return out
        return super().encode_pieces(pieces, anchors, word_start, word_step)

    def tokenize_ids(self, piece: str) -> list[int]:
        """Token ids of one piece, without building tokens.

        Args:
            piece: one pre-tokenized piece.

        Returns:
            The ids, in order.

        >>> BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).tokenize_ids("aab")
        [0, 2]
        """
        return list(self._encode(piece)[0])

    # -- vocabulary --------------------------------------------------------------------------

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token``, or ``None``.

        >>> BPE({"a": 0}).token_to_id("a")
        0
        """
        return self._vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        """The token with id ``id``, or ``None``.

        >>> BPE({"a": 0}).id_to_token(0)
        'a'
        """
        return self._vocab_r.get(id)

    def get_vocab(self) -> dict[str, int]:
        """A copy of the vocabulary (token -> id).

        >>> BPE({"a": 0}).get_vocab()
        {'a': 0}
        """
        return dict(self._vocab)

    def get_vocab_size(self) -> int:
        """Number of tokens in the vocabulary.

        >>> BPE({"a": 0}).get_vocab_size()
        1
        """
        return len(self._vocab)

    def get_merges(self) -> list[tuple[str, str]]:
        """The merges in rank order.

        >>> BPE({"a": 0, "b": 1, "ab": 2}, ["a b"]).get_merges()
        [('a', 'b')]
        """
        return list(self._merges)

    def clear_cache(self) -> None:
        """Drop the per-piece cache.

        >>> BPE().clear_cache()
        """
        if hasattr(self, "_cache"):
            self._cache.clear()
            self._built_kernel = None

    # -- serialization -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The HF ``tokenizer.json`` ``model`` object, keys in HF order.

        Returns:
            A JSON-ready dict; the vocabulary is ordered by id, merges by rank.

        >>> BPE({"a": 0, "b": 1, "ab": 2}, ["a b"]).to_dict()["merges"]
        [['a', 'b']]
        """
        vr = self._vocab_r
        by_rank = sorted((rank, pair) for pair, (rank, _) in self._merge_map.items())
        return {
            "type": self.type_name,
            "dropout": self._dropout,
            "unk_token": self._unk_token,
            "continuing_subword_prefix": self._prefix,
            "end_of_word_suffix": self._suffix,
            "fuse_unk": self._fuse_unk,
            "byte_fallback": self._byte_fallback,
            "ignore_merges": self._ignore_merges,
            "vocab": {vr[i]: i for i in sorted(vr)},
            "merges": [[vr[a], vr[b]] for _, (a, b) in by_rank],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> BPE:
        """Build from the HF ``tokenizer.json`` ``model`` object.

        Args:
            data: the ``model`` object (``type`` may be omitted).
            path: the file it came from, for error messages.

        Returns:
            The model.

        Raises:
            FormatError: a key is missing or has the wrong type, or a merge does not fit the
                vocabulary; ``where`` names the key.

        >>> BPE.from_dict({"vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [["a", "b"]]})
        BPE(vocab_size=3)
        """
        if not isinstance(data, dict):
            raise FormatError(
                f"expected an object, got {type(data).__name__}", path=path, where="model"
            )
        kind = data.get("type", cls.type_name)
        if kind != cls.type_name:
            raise FormatError(
                f"type is {kind!r}; BPE.from_dict reads only 'BPE' models",
                path=path,
                where="model.type",
            )
        vocab = data.get("vocab")
        if not isinstance(vocab, dict):
            raise FormatError(
                "expected an object mapping tokens to ids", path=path, where="model.vocab"
            )
        check_vocab_ids(vocab, path=path, where="model.vocab")
        merges = data.get("merges")
        if not isinstance(merges, list):
            raise FormatError(
                "expected a list of merges ('a b' strings or ['a', 'b'] pairs)",
                path=path,
                where="model.merges",
            )
        opts: dict[str, Any] = {}
        for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise FormatError(
                    f"expected a string or null, got {value!r}", path=path, where=f"model.{key}"
                )
            opts[key] = value
        for key in ("fuse_unk", "byte_fallback", "ignore_merges"):
            value = data.get(key, False)
            if value is None:
                value = False
            if not isinstance(value, bool):
                raise FormatError(
                    f"expected true or false, got {value!r}", path=path, where=f"model.{key}"
                )
            opts[key] = value
        dropout = data.get("dropout")
        if dropout is not None and (
            isinstance(dropout, bool) or not isinstance(dropout, (int, float))
        ):
            raise FormatError(
                f"expected a number in [0, 1] or null, got {dropout!r}",
                path=path,
                where="model.dropout",
            )
        # The merge table is built natively when every merge is plain; otherwise (or without
        # the extension) the Python model builds it and names what is wrong.
        table = None
        if not opts["continuing_subword_prefix"] and _backend.available():
            try:
                table = _backend.core().merge_table(vocab, merges)
            except (ValueError, OverflowError):
                table = None  # ids past int32, which the native table cannot hold
        if table is None:
            try:
                pairs = _merge_pairs(merges, where="model.merges")
            except ConfigurationError as e:
                raise FormatError(str(e), path=path, where="model.merges") from e
        try:
            if table is not None:
                return cls._from_merge_table(vocab, table, merges, dropout=dropout, **opts)
            return cls(vocab, pairs, dropout=dropout, **opts)
        except ConfigurationError as e:
            raise FormatError(str(e), path=path, where="model.dropout") from e
        except VocabularyError as e:
            raise FormatError(str(e), path=path, where="model.merges") from e

    @classmethod
    def from_files(cls, vocab: str, merges: str, /, **options: Any) -> BPE:
        """Load a GPT-2 style ``vocab.json`` and ``merges.txt``.

        Args:
            vocab: path of the JSON object token -> id.
            merges: path of the merges file, one ``a b`` per line; ``#version`` lines are
                skipped.
            **options: keyword options of :class:`BPE`.

        Returns:
            The model.

        Raises:
            NotFoundError: a file does not exist.
            FormatError: a file is malformed (the message names the file and line).

        >>> BPE.from_files("vocab.json", "merges.txt")  # doctest: +SKIP
        BPE(vocab_size=50257)
        """
        from codetok.formats.vocab_files import read_merges_txt, read_vocab_json

        vocab_data = read_vocab_json(vocab)
        pairs = read_merges_txt(merges)
        try:
            return cls(vocab_data, pairs, **options)
        except VocabularyError as e:
            raise FormatError(str(e), path=merges) from e
