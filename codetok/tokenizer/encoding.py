"""Encoding (one tokenized sequence, or a pair) and BatchEncoding (what ``__call__`` returns).

:class:`Encoding` follows HF ``tokenizers``: parallel lists of ids, tokens, offsets
(character offsets into the caller's original string), type ids, attention mask,
special-tokens mask and word ids, plus ``overflowing`` parts produced by truncation with a
stride, and the ranges of each input sequence. Truncation, padding and merging follow
HF semantics exactly, because ``transformers`` outputs are built from them.

:class:`BatchEncoding` is the dict-like result of :meth:`Tokenizer.__call__`; it converts to
numpy arrays (``return_tensors="np"``) or torch tensors (``"pt"``, when torch is installed).
"""

from __future__ import annotations

from collections import UserDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..engine import native as _backend
from ..errors import ConfigurationError, TruncationError

#: Encodings made by the native plans start untracked by the garbage collector (what they
#: hold cannot lead back to them; a batch of them made every collection walk them all).
#: Assigning one of their attributes tracks them again (see :func:`_lazy_list`).
_ext = _backend.core() if _backend.available() else None  # the native extension, if built
_track: Callable[[Any], None] = _ext.gc_track if _ext is not None else (lambda obj: None)


__all__ = ["Encoding", "BatchEncoding", "truncation_windows"]

Offsets = tuple[int, int]
_LISTS = (
    "ids",
    "type_ids",
    "tokens",
    "offsets",
    "word_ids",
    "special_tokens_mask",
    "attention_mask",
)
_FIELDS = (*_LISTS, "overflowing", "sequence_ranges")


def truncation_windows(
    n: int, max_length: int, stride: int, direction: str
) -> list[tuple[int, int]]:
    """The ``(start, stop)`` token windows of truncating ``n`` tokens to ``max_length``
    (0 < max_length < n, 0 <= stride < max_length): the kept part first, then the
    overflowing parts, consecutive windows overlapping by ``stride``, as HF cuts them.

    >>> truncation_windows(5, 2, 0, "right")
    [(0, 2), (2, 4), (4, 5)]
    >>> truncation_windows(5, 3, 1, "left")
    [(2, 5), (0, 3)]
    """
    step = max_length - stride
    ranges: list[tuple[int, int]] = []
    if direction == "right":
        for start in range(0, n, step):
            stop = min(start + max_length, n)
            ranges.append((start, stop))
            if stop == n:
                break
    else:
        for last in range(n - 1, -1, -step):
            stop = last + 1
            start = max(0, stop - max_length)
            ranges.append((start, stop))
            if start == 0:
                break
    return ranges


if _ext is not None:
    #: What the native pipeline returns for one sequence (see codetok/engine/plan.py): the C type
    #: the native ``Arrays`` itself, made by the native plans only (a Python subclass cost a
    #: tenth of a short text's ``encode(t).ids`` in making and freeing it). Over one shared
    #: native result, ``ids`` (int32), ``offsets`` (int64, ``(n, 2)``) and ``words``
    #: (int32) are read-only numpy views of the sequence; ``tokens()`` builds its token
    #: strings; ``type_id`` is its segment id; ``trimmed``: the post-processor's ByteLevel
    #: offset trimming is applied. ``before`` / ``after`` are the special tokens a
    #: post-processor places around it, as ``(id, token, type_id)``; ``pad`` is ``(count,
    #: left, pad_id, pad_type_id, pad_token)`` when padding follows (else ``None``);
    #: ``bare``: none of these. ``with_specials``, ``padded`` and ``sliced`` make other
    #: windows of the same result. The lists of :class:`Encoding` are built from this on
    #: first access (``id_list``, ``word_list``, ``offset_list`` natively, the others by
    #: :func:`_around`).
    NativeArrays = _ext.Arrays

else:  # no native build: no native results
    NativeArrays = None  # type: ignore[assignment,misc]


def _around(
    a: NativeArrays, inner: list[Any], pick: int | None, fill: Any = None, pad: Any = None
) -> list[Any]:
    """``inner`` (one value per token of the sequence ``a``) with the special tokens' field
    ``pick`` (or ``fill``) around it, then the padding's ``pad`` values."""
    if a.before or a.after:
        if pick is None:
            inner = [fill] * len(a.before) + inner + [fill] * len(a.after)
        else:
            inner = [b[pick] for b in a.before] + inner + [x[pick] for x in a.after]
    if a.pad:
        k, left = a.pad[0], a.pad[1]
        return [pad] * k + inner if left else inner + [pad] * k
    return inner


def _lazy_list(
    name: str, build: Callable[[NativeArrays], Any], materialize: bool = True
) -> property:
    """An attribute built from the native arrays on first access (the lists; and
    ``overflowing`` / ``sequence_ranges``, which most encodings never read). Assigning a
    list (``materialize``) first builds the others, as one of them is then no longer the
    arrays'; the other two are just replaced."""
    slot = "_" + name

    def get(self: Encoding) -> Any:
        value = getattr(self, slot)
        if value is None:
            value = build(self._native)  # type: ignore[arg-type]
            setattr(self, slot, value)
        return value

    def set(self: Encoding, value: Any) -> None:
        if materialize:
            self._materialize()
        _track(self)  # the value may lead back to this encoding
        setattr(self, slot, value)

    prop = property(get, set, doc=f"``{name}`` (built on first access).")
    _BUILDERS[name] = build
    return prop


#: How each lazy list is built from the native arrays (see :func:`_native_lists`).
_BUILDERS: dict[str, Callable[[Any], list[Any]]] = {}


def _native_lists(cls: type) -> None:
    """Replace the lazy-list properties of ``cls`` with their native twin,
    the native ``LazyList`` (same behaviour; the first read of ``encode(t).ids`` is the
    cost of a short text)."""
    attrs = vars(cls)
    for name in _FIELDS:
        prop = attrs[name]
        lazy = _ext.LazyList(
            attrs["_" + name], attrs["_native"], _BUILDERS[name], prop.fset, prop.__doc__
        )
        setattr(cls, name, lazy)


class Encoding:
    """The result of encoding one input (or one pair of inputs).

    Attributes:
        ids: token ids.
        tokens: token strings.
        offsets: ``(start, end)`` character offsets into the original input string of the
            sequence each token belongs to; ``(0, 0)`` for tokens added by the pipeline.
        type_ids: segment ids (0 for the first sequence, 1 for the pair, per template).
        attention_mask: 1 for real tokens, 0 for padding.
        special_tokens_mask: 1 for tokens added by the post-processor or padding.
        word_ids: index of the pre-tokenized word each token came from (``None`` for
            added special tokens and padding).
        overflowing: the parts cut off by truncation, each an :class:`Encoding`.
    """

    __slots__ = (
        "_ids",
        "_type_ids",
        "_tokens",
        "_offsets",
        "_word_ids",
        "_special_tokens_mask",
        "_attention_mask",
        "_overflowing",
        "_sequence_ranges",
        "_native",
    )

    def __init__(
        self,
        ids: list[int] | None = None,
        type_ids: list[int] | None = None,
        tokens: list[str] | None = None,
        offsets: list[Offsets] | None = None,
        word_ids: list[int | None] | None = None,
        special_tokens_mask: list[int] | None = None,
        attention_mask: list[int] | None = None,
        overflowing: list[Encoding] | None = None,
        sequence_ranges: dict[int, tuple[int, int]] | None = None,
    ) -> None:
        self._native: NativeArrays | None = None
        self._ids = ids if ids is not None else []
        n = len(self._ids)
        self._type_ids = type_ids if type_ids is not None else [0] * n
        self._tokens = tokens if tokens is not None else [""] * n
        self._offsets = offsets if offsets is not None else [(0, 0)] * n
        self._word_ids = word_ids if word_ids is not None else [None] * n
        self._special_tokens_mask = (
            special_tokens_mask if special_tokens_mask is not None else [0] * n
        )
        self._attention_mask = attention_mask if attention_mask is not None else [1] * n
        self.overflowing = overflowing if overflowing is not None else []
        self.sequence_ranges = sequence_ranges if sequence_ranges is not None else {}

    @classmethod
    def _from_native(cls, native: NativeArrays) -> Encoding:
        """An encoding over the arrays of the native pipeline; lists are built on request."""
        e = cls.__new__(cls)
        e._native = native
        e._ids = e._type_ids = e._tokens = e._offsets = None  # type: ignore[assignment]
        e._word_ids = e._special_tokens_mask = e._attention_mask = None  # type: ignore[assignment]
        e._overflowing = e._sequence_ranges = None  # type: ignore[assignment]
        return e

    def __getstate__(self) -> dict[str, Any]:
        # Lists only: the native arrays' token builder does not pickle.
        self._materialize()
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def _materialize(self) -> None:
        """Build every list from the native arrays (before any list is replaced)."""
        if self._native is not None:
            for name in _FIELDS:
                getattr(self, name)
            self._native = None

    ids = _lazy_list("ids", NativeArrays.id_list if NativeArrays else None)
    type_ids = _lazy_list(
        "type_ids", lambda a: _around(a, [a.type_id] * len(a.ids), 2, pad=a.pad and a.pad[3])
    )
    tokens = _lazy_list("tokens", lambda a: _around(a, a.tokens(), 1, pad=a.pad and a.pad[4]))
    offsets = _lazy_list(
        "offsets",
        NativeArrays.offset_list if NativeArrays else None,
    )
    word_ids = _lazy_list("word_ids", NativeArrays.word_list if NativeArrays else None)
    special_tokens_mask = _lazy_list(
        "special_tokens_mask", lambda a: _around(a, [0] * len(a.ids), None, 1, 1)
    )
    attention_mask = _lazy_list(
        "attention_mask", lambda a: _around(a, [1] * len(a.ids), None, 1, 0)
    )
    overflowing = _lazy_list("overflowing", lambda a: [], materialize=False)
    sequence_ranges = _lazy_list(
        "sequence_ranges", NativeArrays.ranges_dict if NativeArrays else None, materialize=False
    )

    @property
    def ids_array(self) -> Any:
        """The ids as a numpy ``int32`` array, made from the native result when there is one
        (a read-only view of it without special tokens or padding), whether or not
        :attr:`ids` was read: like HF's ``ids``, a list read from an encoding is a copy
        whose edits do not change the encoding; assigning a list does."""
        import numpy as np

        native = self._native
        if native is not None:
            if native.bare:
                return native.ids
            if native.pad is None:
                before = np.array([t[0] for t in native.before], dtype=np.int32)
                after = np.array([t[0] for t in native.after], dtype=np.int32)
                return np.concatenate((before, native.ids, after))
        return np.asarray(self.ids, dtype=np.int32)

    @property
    def offsets_array(self) -> Any:
        """The offsets as a numpy ``int64`` array of shape ``(n, 2)`` (a read-only view of a
        native result without special tokens or padding, as :attr:`ids_array`)."""
        import numpy as np

        native = self._native
        if native is not None and native.bare:
            return native.offsets
        return np.asarray(self.offsets, dtype=np.int64).reshape(-1, 2)

    # -- basic protocol ------------------------------------------------------------------
    def __len__(self) -> int:
        if self._native is not None:
            return len(self._native)
        return len(self._ids)

    def __repr__(self) -> str:
        return (
            f"Encoding(num_tokens={len(self.ids)}, attributes=[ids, type_ids, tokens, offsets, "
            f"attention_mask, special_tokens_mask, word_ids, overflowing({len(self.overflowing)})])"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Encoding):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in _FIELDS)

    @property
    def words(self) -> list[int | None]:
        """Alias of :attr:`word_ids`."""
        return self.word_ids

    @property
    def n_sequences(self) -> int:
        """How many input sequences this encoding holds (1 or 2)."""
        return len(self.sequence_ranges) or 1

    def copy(self) -> Encoding:
        return Encoding(
            list(self.ids),
            list(self.type_ids),
            list(self.tokens),
            list(self.offsets),
            list(self.word_ids),
            list(self.special_tokens_mask),
            list(self.attention_mask),
            [o.copy() for o in self.overflowing],
            dict(self.sequence_ranges),
        )

    def _slice(self, start: int, stop: int) -> Encoding:
        return Encoding(
            self.ids[start:stop],
            self.type_ids[start:stop],
            self.tokens[start:stop],
            self.offsets[start:stop],
            self.word_ids[start:stop],
            self.special_tokens_mask[start:stop],
            self.attention_mask[start:stop],
        )

    # -- sequences and alignment ---------------------------------------------------------
    def sequence_range(self, sequence_index: int) -> tuple[int, int]:
        return self.sequence_ranges.get(sequence_index, (0, len(self.ids)))

    @property
    def sequence_ids(self) -> list[int | None]:
        """For each token, the index of the input sequence it came from (``None`` if added)."""
        if not self.sequence_ranges:
            return [0] * len(self.ids)
        out: list[int | None] = [None] * len(self.ids)
        for seq, (s, e) in self.sequence_ranges.items():
            out[s:e] = [seq] * (e - s)
        return out

    def set_sequence_id(self, sequence_id: int) -> None:
        """Mark the whole encoding as input sequence ``sequence_id``."""
        self.sequence_ranges = {sequence_id: (0, len(self.ids))}

    def char_to_token(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """Index of the token covering character ``char_pos`` of the given input."""
        s, e = self.sequence_range(sequence_index)
        offsets = self.offsets
        for i in range(s, e):
            a, b = offsets[i]
            if a <= char_pos < b:
                return i
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """Word id of the token covering character ``char_pos``."""
        t = self.char_to_token(char_pos, sequence_index)
        return None if t is None else self.word_ids[t]

    def token_to_chars(self, token_index: int) -> Offsets | None:
        """Character offsets of one token (``None`` when out of range)."""
        if not 0 <= token_index < len(self.ids):
            return None
        return self.offsets[token_index]

    def token_to_sequence(self, token_index: int) -> int | None:
        if not 0 <= token_index < len(self.ids):
            return None
        return self.sequence_ids[token_index]

    def token_to_word(self, token_index: int) -> int | None:
        if not 0 <= token_index < len(self.ids):
            return None
        return self.word_ids[token_index]

    def word_to_tokens(self, word_index: int, sequence_index: int = 0) -> tuple[int, int] | None:
        """``(first, last + 1)`` token indices of one word of one input."""
        s, e = self.sequence_range(sequence_index)
        first = last = None
        for i in range(s, e):
            if self.word_ids[i] == word_index:
                if first is None:
                    first = i
                last = i
        return None if first is None else (first, last + 1)  # type: ignore[operator]

    def word_to_chars(self, word_index: int, sequence_index: int = 0) -> Offsets | None:
        toks = self.word_to_tokens(word_index, sequence_index)
        if toks is None:
            return None
        return (self.offsets[toks[0]][0], self.offsets[toks[1] - 1][1])

    # -- truncation, padding, merging (HF semantics) ------------------------------------
    def truncate(self, max_length: int, stride: int = 0, direction: str = "right") -> None:
        """Keep ``max_length`` tokens; the rest goes to :attr:`overflowing` in windows.

        Consecutive windows overlap by ``stride`` tokens.

        Raises:
            TruncationError: ``stride`` is not smaller than ``max_length``.
        """
        n = len(self.ids)
        if max_length >= n:
            return
        if max_length == 0:
            whole = Encoding(
                self.ids,
                self.type_ids,
                self.tokens,
                self.offsets,
                self.word_ids,
                self.special_tokens_mask,
                self.attention_mask,
                self.overflowing,
                self.sequence_ranges,
            )
            self.__init__()  # type: ignore[misc]
            self.overflowing = [whole]
            return
        if stride >= max_length:
            raise TruncationError(
                f"stride ({stride}) must be strictly less than the length kept per window "
                f"({max_length}, i.e. max_length minus the special tokens added); "
                "lower stride or raise max_length"
            )
        if direction not in ("right", "left"):
            raise ConfigurationError(
                f"truncation direction must be 'right' or 'left', got {direction!r}"
            )
        ranges = truncation_windows(n, max_length, stride, direction)
        first = self._slice(*ranges[0])
        first.overflowing = [self._slice(s, e) for s, e in ranges[1:]]
        self._assign(first)

    def _assign(self, other: Encoding) -> None:
        self._materialize()
        for s in _FIELDS:
            setattr(self, s, getattr(other, s))

    def pad(
        self,
        length: int,
        pad_id: int = 0,
        pad_type_id: int = 0,
        pad_token: str = "[PAD]",
        direction: str = "right",
    ) -> None:
        """Pad (this and every overflowing part) to ``length`` tokens."""
        for o in self.overflowing:
            o.pad(length, pad_id, pad_type_id, pad_token, direction)
        n = len(self)
        if n >= length:
            return
        k = length - n
        native = self._native
        if (
            native is not None
            and native.pad is None
            and direction in ("left", "right")
            and all(getattr(self, "_" + name) is None for name in _LISTS)
        ):
            # Over arrays: the padding is recorded, the lists are built when read.
            left = direction == "left"
            ranges = self.sequence_ranges  # read over the unpadded arrays
            self._native = native.padded((k, left, pad_id, pad_type_id, pad_token))
            if left:
                self.sequence_ranges = {q: (s + k, e + k) for q, (s, e) in ranges.items()}
            return
        if direction == "left":
            self.ids = [pad_id] * k + self.ids
            self.type_ids = [pad_type_id] * k + self.type_ids
            self.tokens = [pad_token] * k + self.tokens
            self.word_ids = [None] * k + self.word_ids
            self.attention_mask = [0] * k + self.attention_mask
            self.special_tokens_mask = [1] * k + self.special_tokens_mask
            self.offsets = [(0, 0)] * k + self.offsets
            self.sequence_ranges = {q: (s + k, e + k) for q, (s, e) in self.sequence_ranges.items()}
        elif direction == "right":
            self.ids = self.ids + [pad_id] * k
            self.type_ids = self.type_ids + [pad_type_id] * k
            self.tokens = self.tokens + [pad_token] * k
            self.word_ids = self.word_ids + [None] * k
            self.attention_mask = self.attention_mask + [0] * k
            self.special_tokens_mask = self.special_tokens_mask + [1] * k
            self.offsets = self.offsets + [(0, 0)] * k
        else:
            raise ConfigurationError(
                f"padding direction must be 'right' or 'left', got {direction!r}"
            )

    def merge_with(self, pair: Encoding, growing_offsets: bool = False) -> None:
        """Append ``pair`` to this encoding, combining the overflowing parts as HF does."""
        overflowings: list[Encoding] = []
        for mine in self.overflowing:
            e = mine.copy()
            e.merge_with(pair.copy(), growing_offsets)
            overflowings.append(e)
            for theirs in pair.overflowing:
                e = mine.copy()
                e.merge_with(theirs.copy(), growing_offsets)
                overflowings.append(e)
        for theirs in pair.overflowing:
            e = self.copy()
            e.overflowing = []
            e.merge_with(theirs.copy(), growing_offsets)
            overflowings.append(e)
        n = len(self.ids)
        for q, (s, e) in pair.sequence_ranges.items():
            self.sequence_ranges[q] = (s + n, e + n)
        shift = self.offsets[-1][1] if growing_offsets and self.offsets else 0
        self.ids = self.ids + pair.ids
        self.type_ids = self.type_ids + pair.type_ids
        self.tokens = self.tokens + pair.tokens
        self.word_ids = self.word_ids + pair.word_ids
        self.special_tokens_mask = self.special_tokens_mask + pair.special_tokens_mask
        self.attention_mask = self.attention_mask + pair.attention_mask
        if shift:
            self.offsets = self.offsets + [(s + shift, e + shift) for s, e in pair.offsets]
        else:
            self.offsets = self.offsets + pair.offsets
        self.overflowing = overflowings

    @staticmethod
    def merge(encodings: Iterable[Encoding], growing_offsets: bool = False) -> Encoding:
        """Concatenate encodings into a new one."""
        out = Encoding()
        for e in encodings:
            out.merge_with(e.copy(), growing_offsets)
        return out


if (
    _ext is not None
):  # native plans make these two classes (codetok/_native/bindings/bind_arrays.hpp)
    _native_lists(Encoding)
    _ext.register_encoding_types(NativeArrays, Encoding)


def _to_tensor(name: str, value: Any, tensor_type: str) -> Any:
    if tensor_type == "np":
        import numpy as np

        try:
            return np.asarray(value, dtype=np.int64)
        except ValueError as e:
            raise ConfigurationError(
                f"cannot make a numpy array of {name!r}: sequences have different lengths; "
                "pass padding=True (or padding='max_length') to get a rectangular batch"
            ) from e
    if tensor_type == "pt":
        try:
            import torch
        except ImportError as e:
            raise ConfigurationError(
                "return_tensors='pt' needs torch installed; use 'np' otherwise"
            ) from e
        try:
            return torch.tensor(value, dtype=torch.long)
        except (ValueError, TypeError) as e:
            raise ConfigurationError(
                f"cannot make a torch tensor of {name!r}: sequences have different lengths; "
                "pass padding=True to get a rectangular batch"
            ) from e
    raise ConfigurationError(f"return_tensors must be None, 'np' or 'pt'; got {tensor_type!r}")


class BatchEncoding(UserDict):
    """Dict of model inputs (``input_ids``, ``attention_mask``, ...) plus the encodings.

    Keys are also readable as attributes (``batch.input_ids``). Alignment helpers take
    the batch index first, as in ``transformers``.

    >>> from codetok import Tokenizer
    >>> from codetok.models import WordLevel
    >>> from codetok.pre_tokenizers import WhitespaceSplit
    >>> tok = Tokenizer(WordLevel({"a": 0, "b": 1, "<unk>": 2, "<pad>": 3}, "<unk>"))
    >>> tok.pre_tokenizer = WhitespaceSplit()
    >>> tok.special_tokens_map["pad_token"] = "<pad>"
    >>> tok(["a b", "b"], padding=True, return_tensors="np")["attention_mask"].tolist()
    [[1, 1], [1, 0]]
    """

    def __init__(
        self,
        data: dict[str, Any] | None = None,
        encodings: Sequence[Encoding] | Callable[[], Sequence[Encoding]] | None = None,
        tensor_type: str | None = None,
        n_sequences: int | None = None,
    ) -> None:
        super().__init__(data or {})
        if callable(encodings):
            # Built on first access (the array path of __call__ makes none itself).
            self._make_encodings = encodings
        else:
            self.encodings = list(encodings) if encodings is not None else None
        self.n_sequences = n_sequences
        if tensor_type is not None:
            self.convert_to_tensors(tensor_type)

    def __getattr__(self, name: str) -> Any:
        if name == "encodings" and "_make_encodings" in self.__dict__:
            self.encodings = list(self.__dict__["_make_encodings"]())
            del self.__dict__["_make_encodings"]  # only once built (a failure can be retried)
            return self.encodings
        if name in ("data", "encodings", "n_sequences", "_make_encodings"):
            raise AttributeError(name)
        try:
            return self.data[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str | int) -> Any:
        if isinstance(key, int):
            if self.encodings is None:
                raise KeyError(
                    "integer indexing needs the encodings (built by a codetok Tokenizer)"
                )
            return self.encodings[key]
        return self.data[key]

    def __getstate__(self) -> dict[str, Any]:
        # Encodings still to be built are built now: a builder does not pickle.
        if "_make_encodings" in self.__dict__:
            self.encodings  # noqa: B018 - builds them
        return self.__dict__.copy()

    def keys(self):  # noqa: D102 - dict protocol
        return self.data.keys()

    def convert_to_tensors(self, tensor_type: str) -> BatchEncoding:
        """Turn every list value into a numpy array (``"np"``) or torch tensor (``"pt"``)."""
        for k, v in list(self.data.items()):
            if k == "overflow_to_sample_mapping" or isinstance(v, list):
                self.data[k] = _to_tensor(k, v, tensor_type)
        return self

    def _enc(self, batch_index: int) -> Encoding:
        if self.encodings is None:
            raise ConfigurationError("this BatchEncoding has no encodings to align with")
        return self.encodings[batch_index]

    def tokens(self, batch_index: int = 0) -> list[str]:
        return self._enc(batch_index).tokens

    def word_ids(self, batch_index: int = 0) -> list[int | None]:
        return self._enc(batch_index).word_ids

    def sequence_ids(self, batch_index: int = 0) -> list[int | None]:
        return self._enc(batch_index).sequence_ids

    def char_to_token(
        self, batch_index: int, char_index: int | None = None, sequence_index: int = 0
    ) -> int | None:
        if char_index is None:
            batch_index, char_index = 0, batch_index
        return self._enc(batch_index).char_to_token(char_index, sequence_index)

    def token_to_chars(self, batch_index: int, token_index: int | None = None) -> Offsets | None:
        if token_index is None:
            batch_index, token_index = 0, batch_index
        return self._enc(batch_index).token_to_chars(token_index)

    def token_to_word(self, batch_index: int, token_index: int | None = None) -> int | None:
        if token_index is None:
            batch_index, token_index = 0, batch_index
        return self._enc(batch_index).token_to_word(token_index)
