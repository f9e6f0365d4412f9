"""Codetok tokenizers inside other libraries.

- :mod:`codetok.integrations.transformers`: ``CodetokCodeTokenizer`` (a code tokenizer)
  and ``CodetokTokenizer`` (a text tokenizer) as ``transformers`` ``PreTrainedTokenizer``
  classes (collators, ``Trainer``, ``save_pretrained`` / ``from_pretrained``).

Each module imports its library when it is imported, never before: ``import codetok``
does not import them.
"""
