"""The pipeline core, as HF's ``tokenizer/`` folder: :class:`Tokenizer` itself
(:mod:`~codetok.tokenizer.tokenizer`), the ``transformers``-style call
(:mod:`~codetok.tokenizer.call`, :mod:`~codetok.tokenizer.call_arrays`), truncation and
padding (:mod:`~codetok.tokenizer.truncation`), :class:`Encoding`
(:mod:`~codetok.tokenizer.encoding`), offsets (:mod:`~codetok.tokenizer.offsets`), added
tokens (:mod:`~codetok.tokenizer.added_tokens`) and ``tokenizer.json`` in and out
(:mod:`~codetok.tokenizer.serialization`).

``Tokenizer`` is looked up on first use: the components import
:mod:`~codetok.tokenizer.offsets` from here, and the whole pipeline must not load (and
import them back) just for that."""

from __future__ import annotations

__all__ = ["Tokenizer"]


def __getattr__(name: str):
    if name == "Tokenizer":
        from .tokenizer import Tokenizer

        return Tokenizer
    raise AttributeError(f"module 'codetok.tokenizer' has no attribute {name!r}")
