"""Truncation and padding of encodings, with HF ``tokenizers`` semantics.

This module handles:

- the settings: :func:`truncation_settings` and :func:`padding_settings` validate the
  arguments of :meth:`~codetok.Tokenizer.enable_truncation` /
  :meth:`~codetok.Tokenizer.enable_padding` into the dicts the tokenizer keeps, accepting
  both codetok's spelling (``"longest_first"``, ``"right"``) and ``tokenizer.json``'s
  (``"LongestFirst"``, ``"Right"``; the tables :data:`JSON_STRATEGY` and
  :data:`JSON_DIRECTION`);
- :func:`truncate_encodings`: cutting one encoding or a pair to ``max_length`` tokens
  (``longest_first`` / ``only_first`` / ``only_second``, left or right, with ``stride``
  windows kept as overflowing encodings);
- :func:`pad_encodings`: padding a batch to a fixed length or to its longest encoding,
  rounded up to a multiple.

Not here: when they apply (:meth:`~codetok.Tokenizer.post_process` and
:meth:`~codetok.Tokenizer.encode_batch`), the ``transformers``-style options of
``__call__`` (:mod:`codetok.tokenizer.call`), the cut and pad of a single encoding
(:meth:`~codetok.tokenizer.encoding.Encoding.truncate` / :meth:`~codetok.tokenizer.encoding.Encoding.pad`), and
writing the settings to ``tokenizer.json`` (:mod:`codetok.tokenizer.serialization`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import ConfigurationError, TruncationError
from .encoding import Encoding

__all__ = [
    "CallSettings",
    "JSON_DIRECTION",
    "JSON_STRATEGY",
    "TRUNCATION_STRATEGIES",
    "UNLIMITED",
    "pad_encodings",
    "padding_settings",
    "truncate_encodings",
    "truncation_settings",
]

TRUNCATION_STRATEGIES = ("longest_first", "only_first", "only_second")
#: codetok's truncation strategy -> its ``tokenizer.json`` name.
JSON_STRATEGY = {
    "longest_first": "LongestFirst",
    "only_first": "OnlyFirst",
    "only_second": "OnlySecond",
}
#: codetok's truncation/padding direction -> its ``tokenizer.json`` name.
JSON_DIRECTION = {"right": "Right", "left": "Left"}
#: A ``model_max_length`` above this means "no limit" (``transformers`` uses 1e30).
UNLIMITED = int(1e20)


class CallSettings(NamedTuple):
    """The truncation and padding an encode applies (``None``: off).

    A tokenizer keeps its own as one value and an encode reads it once, so a call sees
    either the settings before another thread's change or after it, never half of each;
    ``__call__`` passes its own for the call and leaves the tokenizer's alone.

    >>> CallSettings().plain, CallSettings(truncation_settings(4, 0, "only_first", "left")).plain
    (True, False)
    """

    truncation: dict[str, Any] | None = None
    padding: dict[str, Any] | None = None

    @property
    def plain(self) -> bool:
        """Neither truncation nor padding."""
        return self.truncation is None and self.padding is None


def _lower_key(value: Any, table: dict[str, str], what: str) -> str:
    """The key of ``table`` that ``value`` names, as the key or its value, case-insensitive."""
    if isinstance(value, str):
        low = value.lower()
        for k, v in table.items():
            if low in (k, v.lower()):
                return k
    raise ConfigurationError(f"{what} must be one of {', '.join(table)}; got {value!r}")


#: The largest length, stride or multiple a truncation or padding setting takes.
MAX_COUNT = 2**31 - 1


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT


def truncation_settings(
    max_length: int, stride: int, strategy: str, direction: str
) -> dict[str, Any]:
    """The validated truncation settings of :meth:`~codetok.Tokenizer.enable_truncation`.

    Raises:
        ConfigurationError: unknown strategy or direction, or negative numbers.

    >>> truncation_settings(8, 0, "LongestFirst", "left")["strategy"]
    'longest_first'
    """
    if not _count(max_length):
        raise ConfigurationError(f"max_length must be an int in 0..{MAX_COUNT}, got {max_length!r}")
    if not _count(stride):
        raise ConfigurationError(f"stride must be an int in 0..{MAX_COUNT}, got {stride!r}")
    strategy = _lower_key(strategy, JSON_STRATEGY, "truncation strategy")
    direction = _lower_key(direction, JSON_DIRECTION, "truncation direction")
    return {
        "max_length": max_length,
        "stride": stride,
        "strategy": strategy,
        "direction": direction,
    }


def padding_settings(
    direction: str,
    pad_id: int,
    pad_type_id: int,
    pad_token: str,
    length: int | None,
    pad_to_multiple_of: int | None,
) -> dict[str, Any]:
    """The validated padding settings of :meth:`~codetok.Tokenizer.enable_padding`.

    Raises:
        ConfigurationError: unknown direction, or a negative length or multiple.
    """
    direction = _lower_key(direction, JSON_DIRECTION, "padding direction")
    if length is not None and not _count(length):
        raise ConfigurationError(
            f"padding length must be an int in 0..{MAX_COUNT} or None, got {length!r}"
        )
    if pad_to_multiple_of is not None and not _count(pad_to_multiple_of):
        raise ConfigurationError(
            f"pad_to_multiple_of must be an int in 0..{MAX_COUNT}, got {pad_to_multiple_of!r}"
        )
    for name, value in (("pad_id", pad_id), ("pad_type_id", pad_type_id)):
        if type(value) is not int or not 0 <= value < 2**32:
            raise ConfigurationError(f"{name} must be an int in 0..4294967295, got {value!r}")
    if not isinstance(pad_token, str):
        raise ConfigurationError(f"pad_token must be a str, got {pad_token!r}")
    return {
        "length": length,
        "pad_to_multiple_of": pad_to_multiple_of,
        "pad_id": pad_id,
        "pad_token": pad_token,
        "pad_type_id": pad_type_id,
        "direction": direction,
    }


def truncate_encodings(
    enc: Encoding,
    pair: Encoding | None,
    max_length: int,
    stride: int,
    strategy: str,
    direction: str,
) -> None:
    """Cut ``enc`` (and ``pair``) in place so that together they fit ``max_length`` tokens.

    ``longest_first`` shares the room as HF ``tokenizers`` does; ``only_first`` and
    ``only_second`` cut one sequence only.

    Raises:
        TruncationError: ``only_second`` without a pair, or the sequence it may cut is too
            short to free enough room.
    """
    if max_length == 0:
        enc.truncate(0, stride, direction)
        if pair is not None:
            pair.truncate(0, stride, direction)
        return
    total = len(enc) + (len(pair) if pair is not None else 0)
    if total <= max_length:
        return
    to_remove = total - max_length
    if strategy == "longest_first":
        if pair is None:
            enc.truncate(total - to_remove, stride, direction)
            return
        n1, n2 = len(enc), len(pair)
        swap = n1 > n2
        if swap:
            n1, n2 = n2, n1
        n2 = n1 if n1 > max_length else max(n1, max_length - n1)
        if n1 + n2 > max_length:
            n1 = max_length // 2
            n2 = n1 + max_length % 2
        if swap:
            n1, n2 = n2, n1
        enc.truncate(n1, stride, direction)
        pair.truncate(n2, stride, direction)
        return
    if strategy == "only_first":
        target = enc
    else:
        if pair is None:
            raise TruncationError("truncation strategy 'only_second' needs a pair of sequences")
        target = pair
    if len(target) > to_remove:
        target.truncate(len(target) - to_remove, stride, direction)
    else:
        raise TruncationError(
            f"cannot truncate with strategy {strategy!r}: the sequence it may cut has {len(target)} tokens but "
            f"{to_remove} must go; use 'longest_first' or a larger max_length"
        )


def pad_encodings(encodings: list[Encoding], params: dict[str, Any]) -> None:
    """Pad every encoding in place as the settings ``params`` say (see :func:`padding_settings`)."""
    if not encodings:
        return
    length = params["length"]
    if length is None:
        length = max(len(e) for e in encodings)
    multiple = params["pad_to_multiple_of"]
    if multiple and length % multiple:
        length += multiple - length % multiple
    for e in encodings:
        e.pad(
            length,
            params["pad_id"],
            params["pad_type_id"],
            params["pad_token"],
            params["direction"],
        )
