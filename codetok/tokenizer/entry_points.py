"""The work behind :class:`~codetok.Tokenizer`'s HF entry points that lives above it.

``Tokenizer.from_file``, ``from_pretrained``, ``save_binary``, ``save_pretrained``, ``train``
and ``train_from_iterator`` are where HF users look for them, but loading and saving are the
job of :mod:`codetok.formats` and training that of :mod:`codetok.trainers`, and both build on
``Tokenizer``. So this layer only names the jobs, and the package root (the one module that
sees every layer) provides them when ``codetok`` is imported: imports run one way, from
formats and trainers down to the tokenizer, never back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ConfigurationError

__all__ = ["JOBS", "job", "provide"]

#: The jobs a layer above provides, by name.
JOBS = ("load_as", "from_pretrained", "save_binary", "save_pretrained", "train", "train_from_iterator")  # fmt: skip

_provided: dict[str, Callable[..., Any]] = {}


def provide(**jobs: Callable[..., Any]) -> None:
    """Set the functions behind the named jobs (see :data:`JOBS`)."""
    unknown = sorted(set(jobs) - set(JOBS))
    if unknown:
        raise ConfigurationError(f"unknown tokenizer entry points {unknown}; known: {list(JOBS)}")
    _provided.update(jobs)


def job(name: str) -> Callable[..., Any]:
    """The function behind job ``name``; an error saying what to import when none is set."""
    try:
        return _provided[name]
    except KeyError:
        raise ConfigurationError(
            f"Tokenizer.{name}: no implementation is provided; import codetok (the package "
            "root provides loading, saving and training)"
        ) from None
