"""Codetok tokenizers inside other libraries.

- :mod:`codetok.integrations.transformers`: :class:`CodetokCodeTokenizer`, a code tokenizer
  as a ``transformers`` ``PreTrainedTokenizer`` (collators, ``Trainer``,
  ``save_pretrained`` / ``from_pretrained``).

Each module imports its library when it is imported, never before: ``import codetok``
does not import them.
"""
