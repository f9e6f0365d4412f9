"""The ``transformers``-style call straight to arrays, for the common case.

``tok(texts, padding=..., truncation=..., return_tensors="np")`` on a tokenizer with a
native plan: one native call encodes every text to one flat id array (threads, GIL
released), and numpy builds ``input_ids``, ``token_type_ids`` and ``attention_mask`` with
the post-processor's special tokens, truncation and padding in place, with no Python
object per text. The :class:`~codetok.tokenizer.encoding.Encoding` objects of the batch are built
only if asked for (``batch.encodings``, ``batch.word_ids(i)``, ...), by the general path
(:func:`codetok.tokenizer.call.call`), which stays the specification: the tests compare
both.

:func:`array_call` returns ``None`` whenever the general path must run: pairs, pre-split
words, other fields (offsets, special-tokens mask, lengths, position ids, overflowing
windows), a post-processor without native layouts, truncation settings the general path
rejects, ragged output, or a text the plan leaves to Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .encoding import BatchEncoding

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = ["array_call"]


def array_call(
    tok: Tokenizer,
    texts: list[str],
    add_special_tokens: bool,
    pad: str | None,
    trunc: str | None,
    max_length: int | None,
    stride: int,
    pad_to_multiple_of: int | None,
    padding_side: str,
    truncation_side: str,
    return_tensors: str,
    want_types: bool,
    want_mask: bool,
    encodings: Callable[[], list[Any]],
) -> BatchEncoding | None:
    """The batch as tensors, or ``None`` for the general path (see the module docstring).

    ``pad`` / ``trunc`` / ``max_length`` are :func:`codetok.tokenizer.call.strategies`'
    output; ``encodings`` builds the batch's encodings on first use.
    """
    settings = (trunc, padding_side, truncation_side, stride, max_length, pad_to_multiple_of)
    if return_tensors not in ("np", "pt") or not texts or not _plain_settings(*settings):
        return None
    if any(type(t) is not str for t in texts):
        return None
    plan = tok._plan()
    if plan is None or plan.layouts == "python":
        return None
    import numpy as np

    layout = ((), (), 0) if plan.layouts is None else plan.layouts[add_special_tokens]
    pad_id = 0
    if pad is not None:
        pad_token = tok.special_tokens_map.get("pad_token")
        pad_id = None if pad_token is None else tok.token_to_id(pad_token)
        if pad_id is None:
            return None  # the general path raises its error
    out = plan.core.encode_flat(texts, plan.skip_ids(None), _threads(len(texts)))
    if out is None:
        return None
    flat, bounds = out
    specials = len(layout[0]) + len(layout[1])
    rows = _kept_rows(np, bounds, specials, trunc, max_length, stride, truncation_side.lower())
    if rows is None:
        return None
    starts, keep = rows
    rows_len = keep + specials
    width = _width(rows_len, pad, max_length, pad_to_multiple_of)
    if width is None:
        return None
    left = padding_side.lower() == "left"
    shift = (width - rows_len) if left else np.zeros(len(texts), dtype=np.int64)
    data = _fill(np, flat, starts, keep, shift, width, layout, pad_id)
    if not want_types:
        del data["token_type_ids"]
    if want_mask:
        cols_all = np.arange(width)
        data["attention_mask"] = (
            (cols_all >= shift[:, None]) & (cols_all < (shift + rows_len)[:, None])
        ).astype(np.int64)
    if return_tensors == "pt":
        try:
            import torch
        except ImportError:
            return None  # the general path raises its error
        data = {k: torch.from_numpy(v) for k, v in data.items()}
    return BatchEncoding(data, encodings)


def _plain_settings(
    trunc: str | None,
    padding_side: Any,
    truncation_side: Any,
    stride: Any,
    max_length: Any,
    pad_to_multiple_of: Any,
) -> bool:
    """Whether the arrays can answer these settings: the general path validates (and
    rejects with its own errors) every other kind, so those go there."""
    if trunc not in (None, "longest_first", "only_first"):
        return False
    side = padding_side.lower() if isinstance(padding_side, str) else None
    trunc_side = truncation_side.lower() if isinstance(truncation_side, str) else None
    if side not in ("left", "right") or trunc_side not in ("left", "right"):
        return False
    if type(stride) is not int or stride < 0:
        return False
    if max_length is not None and type(max_length) is not int:
        return False
    return pad_to_multiple_of is None or (
        type(pad_to_multiple_of) is int and pad_to_multiple_of > 0
    )


def _kept_rows(
    np: Any,
    bounds: Any,
    specials: int,
    trunc: str | None,
    max_length: int | None,
    stride: int,
    trunc_side: str,
) -> tuple[Any, Any] | None:
    """Where each text's kept ids start in the flat array, and how many are kept after
    truncation; ``None`` when a cut text must go to the general path for its error."""
    lens = np.diff(bounds)
    keep = lens
    starts = bounds[:-1]
    if trunc is not None and max_length is not None:
        room = max_length - specials
        if room <= 0 or stride >= room:
            return None  # the general path raises its error (when a text is cut)
        keep = np.minimum(lens, room)
        if trunc_side == "left":
            starts = starts + (lens - keep)
    return starts, keep


def _width(
    rows_len: Any, pad: str | None, max_length: int | None, pad_to_multiple_of: int | None
) -> int | None:
    """The padded row width; ``None`` for ragged rows or a ``max_length`` too short
    (the general path explains both)."""
    longest = int(rows_len.max())
    if pad is None:
        return longest if int(rows_len.min()) == longest else None
    width = longest if pad == "longest" else int(max_length or 0)
    if width < longest:
        return None
    if pad_to_multiple_of and width % pad_to_multiple_of:
        width += pad_to_multiple_of - width % pad_to_multiple_of
    return width


def _fill(
    np: Any,
    flat: Any,
    starts: Any,
    keep: Any,
    shift: Any,
    width: int,
    layout: tuple[Any, Any, int],
    pad_id: int,
) -> dict[str, Any]:
    """``input_ids`` and ``token_type_ids``: each row's special tokens around its kept ids,
    shifted right by ``shift`` (left padding), in vectorized writes, no loop over texts."""
    before, after, seq_type = layout
    n, nb = len(keep), len(before)
    input_ids = np.full((n, width), pad_id, dtype=np.int64)
    types = np.zeros((n, width), dtype=np.int64)
    row_index = np.arange(n)
    for j, (sid, _, type_id) in enumerate(before):
        input_ids[row_index, shift + j] = sid
        types[row_index, shift + j] = type_id
    total = int(keep.sum())
    if total:
        rows = np.repeat(row_index, keep)
        within = np.arange(total) - np.repeat(np.cumsum(keep) - keep, keep)
        cols = np.repeat(shift + nb, keep) + within
        input_ids[rows, cols] = flat[np.repeat(starts, keep) + within]
        types[rows, cols] = seq_type
    for j, (sid, _, type_id) in enumerate(after):
        input_ids[row_index, shift + nb + keep + j] = sid
        types[row_index, shift + nb + keep + j] = type_id
    return {"input_ids": input_ids, "token_type_ids": types}


def _threads(n: int) -> int:
    import os

    return max(1, min(n, os.cpu_count() or 1))
