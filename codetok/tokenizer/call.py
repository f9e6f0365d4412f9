"""The ``transformers``-style call: text in, a :class:`~codetok.tokenizer.encoding.BatchEncoding` out.

:func:`call` is what :meth:`codetok.Tokenizer.__call__` runs. On top of
:meth:`~codetok.Tokenizer.encode_batch` it handles, as ``transformers`` tokenizers do:

- the shape of the input: one text, a batch, pairs, pre-split words (and the shape of
  the output: one sequence unbatched, several as lists or tensors);
- the ``padding`` / ``truncation`` / ``max_length`` options and their defaults from the
  tokenizer's ``model_max_length``, ``padding_side`` and ``truncation_side``
  (:func:`strategies`), passed to the encode of this call only (the tokenizer's own
  settings are never written, so threads may share it); the pad token comes from
  ``special_tokens_map``;
- which fields to return: token type ids and attention mask (by ``model_input_names``),
  special-tokens mask, offsets, lengths, position ids (:func:`position_ids`), and the
  overflowing windows with their ``overflow_to_sample_mapping``.

Not here: encoding (:mod:`codetok.tokenizer.tokenizer`), the truncation and padding algorithms
(:mod:`codetok.tokenizer.truncation`), tensors (:class:`~codetok.tokenizer.encoding.BatchEncoding`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError
from .encoding import BatchEncoding, Encoding
from .truncation import (
    TRUNCATION_STRATEGIES,
    UNLIMITED,
    CallSettings,
    padding_settings,
    truncation_settings,
)

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = ["batch_columns", "call", "position_ids", "strategies"]


def call(
    tok: Tokenizer,
    text: Any,
    text_pair: Any = None,
    add_special_tokens: bool = True,
    padding: bool | str = False,
    truncation: bool | str | None = None,
    max_length: int | None = None,
    stride: int = 0,
    is_split_into_words: bool = False,
    pad_to_multiple_of: int | None = None,
    padding_side: str | None = None,
    return_tensors: str | None = None,
    return_token_type_ids: bool | None = None,
    return_attention_mask: bool | None = None,
    return_overflowing_tokens: bool = False,
    return_special_tokens_mask: bool = False,
    return_offsets_mapping: bool = False,
    return_length: bool = False,
    return_position_ids: bool = False,
    truncation_side: str | None = None,
) -> BatchEncoding:
    """Model inputs for ``text`` from ``tok``: :meth:`codetok.Tokenizer.__call__` documents it.

    The call's truncation and padding are passed to the encode; the tokenizer's own
    settings are neither used nor written. ``truncation_side`` overrides the tokenizer's.
    """
    truncation_side = truncation_side or tok.truncation_side
    pad_strategy, trunc_strategy, max_length = strategies(
        padding, truncation, max_length, pad_to_multiple_of, tok.model_max_length
    )
    batch, is_batched = _batch(text, text_pair, is_split_into_words)
    names = tok.model_input_names
    want_types = "token_type_ids" in names if return_token_type_ids is None else return_token_type_ids  # fmt: skip
    want_mask = "attention_mask" in names if return_attention_mask is None else return_attention_mask  # fmt: skip
    extra = {
        "special_tokens_mask": return_special_tokens_mask,
        "offset_mapping": return_offsets_mapping,
        "length": return_length,
        "position_ids": return_position_ids,
    }
    if (
        return_tensors is not None
        and text_pair is None
        and not is_split_into_words
        and not (return_overflowing_tokens or any(extra.values()))
    ):
        # Straight to arrays when the plan allows; the encodings come from this path.
        options = dict(
            add_special_tokens=add_special_tokens,
            padding=padding,
            truncation=truncation,
            max_length=max_length,
            stride=stride,
            pad_to_multiple_of=pad_to_multiple_of,
            padding_side=padding_side or tok.padding_side,
        )
        strategy = (pad_strategy, trunc_strategy, truncation_side)
        fast = _arrays(tok, batch, is_batched, options, strategy, return_tensors, want_types, want_mask)  # fmt: skip
        if fast is not None:
            return fast

    trunc_settings = None
    if trunc_strategy is not None:
        trunc_settings = truncation_settings(max_length, stride, trunc_strategy, truncation_side)  # type: ignore[arg-type]
    pad_settings = None
    if pad_strategy is not None:
        side = padding_side or tok.padding_side
        pad_settings = _padding(tok, side, pad_strategy, max_length, pad_to_multiple_of)
    settings = CallSettings(trunc_settings, pad_settings)
    encodings = tok._encode_batch(batch, is_split_into_words, add_special_tokens, "all", (), None, settings)  # fmt: skip
    fields = {"token_type_ids": want_types, "attention_mask": want_mask, **extra}
    out = batch_columns(encodings, fields, return_overflowing_tokens, return_tensors)
    if not is_batched and return_tensors is None and not return_overflowing_tokens:
        out = BatchEncoding(
            {k: (v[0] if v and isinstance(v[0], list) else v) for k, v in out.data.items()},
            out.encodings,
        )
    return out


def _arrays(
    tok: Tokenizer,
    batch: list[Any],
    is_batched: bool,
    options: dict[str, Any],
    strategy: tuple[str | None, str | None, str],
    return_tensors: str,
    want_types: bool,
    want_mask: bool,
) -> BatchEncoding | None:
    """The answer straight from the native arrays (:func:`array_call`), its encodings
    made by the general path only when read; ``None`` when the general path must run."""
    from .call_arrays import array_call

    pad_strategy, trunc_strategy, truncation_side = strategy
    return array_call(
        tok,
        batch,
        options["add_special_tokens"],
        pad_strategy,
        trunc_strategy,
        options["max_length"],
        options["stride"],
        options["pad_to_multiple_of"],
        options["padding_side"],
        truncation_side,
        return_tensors,
        want_types,
        want_mask,
        _later_encodings(tok, list(batch) if is_batched else batch[0], options, truncation_side),
    )


def _batch(text: Any, text_pair: Any, is_split_into_words: bool) -> tuple[list[Any], bool]:
    """The call's inputs as a list of texts or (text, pair) tuples, and whether the call
    was given a batch (a single input answers with unbatched lists)."""
    if is_split_into_words:
        is_batched = (
            isinstance(text, (list, tuple)) and bool(text) and isinstance(text[0], (list, tuple))
        )
    else:
        is_batched = isinstance(text, (list, tuple))
    if not is_batched:
        return ([(text, text_pair)] if text_pair else [text]), False
    if isinstance(text_pair, str):
        raise ConfigurationError(
            "when text is a batch, text_pair must be a list of the same length"
        )
    if text_pair is not None and len(text) != len(text_pair):
        raise ConfigurationError(
            f"text has {len(text)} items but text_pair has {len(text_pair)}; they must match"
        )
    return (list(zip(text, text_pair)) if text_pair is not None else list(text)), True


def _padding(
    tok: Tokenizer,
    side: str,
    pad_strategy: str,
    max_length: int | None,
    pad_to_multiple_of: int | None,
) -> Any:
    """The call's padding settings, with the tokenizer's pad token (an error without one)."""
    pad_token = tok.special_tokens_map.get("pad_token")
    pad_id = None if pad_token is None else tok.token_to_id(pad_token)
    if pad_token is None or pad_id is None:
        raise ConfigurationError(
            "padding needs a pad token: set tok.special_tokens_map['pad_token'] to a token "
            "of the vocabulary (or call enable_padding with pad_token/pad_id)"
        )
    return padding_settings(
        side,
        pad_id,
        0,
        pad_token,
        max_length if pad_strategy == "max_length" else None,
        pad_to_multiple_of,
    )


#: Each optional field of the call's answer -> how it is read from one encoding.
_FIELDS: dict[str, Callable[[Encoding], Any]] = {
    "token_type_ids": lambda e: e.type_ids,
    "attention_mask": lambda e: e.attention_mask,
    "special_tokens_mask": lambda e: e.special_tokens_mask,
    "offset_mapping": lambda e: e.offsets,
    "length": lambda e: len(e.ids),
    "position_ids": lambda e: position_ids(e.attention_mask),
}


def batch_columns(
    encodings: list[Encoding],
    fields: dict[str, bool],
    overflowing: bool,
    return_tensors: str | None,
) -> BatchEncoding:
    """The asked-for fields of every encoding (and of its overflowing windows, each mapped
    back to its sample), one column per field as ``transformers`` lays them out."""
    wanted = [(name, _FIELDS[name]) for name, want in fields.items() if want]
    data: dict[str, list[Any]] = {"input_ids": []}
    for name, _ in wanted:
        data[name] = []
    flat: list[Encoding] = []
    mapping: list[int] = []
    for i, enc in enumerate(encodings):
        for e in [enc, *enc.overflowing] if overflowing else [enc]:
            flat.append(e)
            mapping.append(i)
            data["input_ids"].append(e.ids)
            for name, read in wanted:
                data[name].append(read(e))
    if overflowing:
        data["overflow_to_sample_mapping"] = mapping
    return BatchEncoding(data, flat, tensor_type=return_tensors)


def _later_encodings(
    tok: Tokenizer, text: Any, options: dict[str, Any], truncation_side: str
) -> Any:
    """What builds the encodings of an array-path call when they are first read: the
    general path on the same texts (copied now) with the same options and truncation side
    (tokenizer changes made in between, such as added tokens, do show)."""

    def build() -> list[Encoding]:
        return call(tok, text, **options, truncation_side=truncation_side).encodings  # type: ignore[return-value]

    return build


def strategies(
    padding: Any,
    truncation: Any,
    max_length: int | None,
    pad_to_multiple_of: int | None,
    model_max_length: int,
) -> tuple[str | None, str | None, int | None]:
    """``(padding strategy, truncation strategy, max_length)`` of ``__call__``'s options.

    A ``None`` strategy is off. As in ``transformers``, a ``max_length`` alone turns on
    ``longest_first`` truncation, and a missing ``max_length`` is ``model_max_length``
    (strategies that need one are dropped when that is unlimited).

    Raises:
        ConfigurationError: an unknown ``padding`` or ``truncation`` value, or a
            ``max_length`` that is not a multiple of ``pad_to_multiple_of``.

    >>> strategies(True, None, 8, None, int(1e30))
    ('longest', None, 8)
    >>> strategies(False, None, 8, None, int(1e30))
    (None, 'longest_first', 8)
    """
    if max_length is not None and padding is False and truncation is None:
        truncation = "longest_first"
    if padding is True:
        pad: str | None = "longest"
    elif padding in (False, None, "do_not_pad"):
        pad = None
    elif padding in ("longest", "max_length"):
        pad = padding
    else:
        raise ConfigurationError(
            f"padding must be True, False, 'longest', 'max_length' or 'do_not_pad'; got {padding!r}"
        )
    if truncation is True:
        trunc: str | None = "longest_first"
    elif truncation in (False, None, "do_not_truncate"):
        trunc = None
    elif truncation in TRUNCATION_STRATEGIES:
        trunc = truncation
    else:
        raise ConfigurationError(
            f"truncation must be True, False, {', '.join(map(repr, TRUNCATION_STRATEGIES))} or "
            f"'do_not_truncate'; got {truncation!r}"
        )
    if max_length is None:
        if pad == "max_length":
            if model_max_length > UNLIMITED:
                pad = None
            else:
                max_length = model_max_length
        if trunc is not None:
            if model_max_length > UNLIMITED:
                trunc = None
            else:
                max_length = model_max_length
    if (
        trunc is not None
        and pad is not None
        and pad_to_multiple_of is not None
        and max_length is not None
        and max_length % pad_to_multiple_of != 0
    ):
        raise ConfigurationError(
            f"truncation and padding with pad_to_multiple_of={pad_to_multiple_of} need a max_length that is "
            f"a multiple of it; got max_length={max_length}"
        )
    return pad, trunc, max_length


def position_ids(attention_mask: list[int]) -> list[int]:
    """Positions of attended tokens counted from 0; padding positions get 1 (HF's convention).

    >>> position_ids([0, 0, 1, 1, 1])
    [1, 1, 0, 1, 2]
    """
    out = []
    pos = 0
    for m in attention_mask:
        if m:
            out.append(pos)
            pos += 1
        else:
            out.append(1)
    return out
