"""The ids a tokenizer file may hold, checked once for every loader.

HF ``tokenizers`` stores token ids as ``u32`` and refuses a ``tokenizer.json`` whose
``model.vocab`` or ``added_tokens`` hold a negative, fractional or larger id; tiktoken's
ranks are ``u32`` too. codetok refuses the same files when it loads them, naming the file
and the place, instead of returning such ids from ``encode``.

Not here: what a model does with its ids (see :mod:`codetok.models`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FormatError

__all__ = ["MAX_ID", "ID_RANGE", "is_id", "check_id", "check_vocab_ids"]

#: The largest id a tokenizer file may hold (``u32``, as HF ``tokenizers`` and tiktoken).
MAX_ID = 2**32 - 1
#: How messages spell the valid range.
ID_RANGE = f"0..{MAX_ID}"


def is_id(value: Any) -> bool:
    """Whether ``value`` is an integer id a tokenizer file can hold (``bool`` is not).

    >>> is_id(0), is_id(2**32 - 1), is_id(2**32), is_id(-1), is_id(1.0), is_id(True)
    (True, True, False, False, False, False)
    """
    return type(value) is int and 0 <= value <= MAX_ID


def check_id(value: Any, *, what: str, path: str | None, where: str) -> int:
    """``value`` when it is an id (see :func:`is_id`), else a :class:`FormatError`.

    Args:
        value: the id as read from the file.
        what: what the id belongs to, for the message (``"token '<s>'"``).
        path: the file.
        where: the JSON path or line of the id.

    >>> check_id(-1, what="token 'a'", path="t.json", where="model.vocab['a']")
    Traceback (most recent call last):
    ...
    codetok.errors.FormatError: t.json: at model.vocab['a']: token 'a' has id -1; ids are non-negative integers (0..4294967295)
    """
    if not is_id(value):
        raise FormatError(
            f"{what} has id {value!r}; ids are non-negative integers ({ID_RANGE})",
            path=path,
            where=where,
        )
    return value


def check_vocab_ids(vocab: Mapping[str, Any], *, path: str | None, where: str) -> None:
    """Check every id of a ``token -> id`` object; the error names the first bad token.

    Args:
        vocab: the object as read from the file.
        path: the file.
        where: the JSON path of the object (``"model.vocab"``); the error adds
            ``[token]``.

    >>> check_vocab_ids({"a": 0, "b": 2**32}, path=None, where="model.vocab")
    Traceback (most recent call last):
    ...
    codetok.errors.FormatError: at model.vocab['b']: token 'b' has id 4294967296; ids are non-negative integers (0..4294967295)
    """
    ids = vocab.values()
    if all(type(i) is int for i in ids) and (not ids or (min(ids) >= 0 and max(ids) <= MAX_ID)):
        return  # the common case, without a Python-level loop per token
    for token, tid in vocab.items():
        if not is_id(tid):
            check_id(tid, what=f"token {token!r}", path=path, where=f"{where}[{token!r}]")
