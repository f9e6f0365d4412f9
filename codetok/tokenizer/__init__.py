"""The pipeline core, as HF's ``tokenizer/`` folder: :class:`Tokenizer` itself
(:mod:`~codetok.tokenizer.tokenizer`), the ``transformers``-style call
(:mod:`~codetok.tokenizer.call`, :mod:`~codetok.tokenizer.call_arrays`), truncation and
padding (:mod:`~codetok.tokenizer.truncation`), :class:`Encoding`
(:mod:`~codetok.tokenizer.encoding`), offsets (:mod:`~codetok.tokenizer.offsets`), added
tokens (:mod:`~codetok.tokenizer.added_tokens`) and ``tokenizer.json`` in and out
(:mod:`~codetok.tokenizer.serialization`)."""

from .tokenizer import Tokenizer as Tokenizer

__all__ = ["Tokenizer"]
