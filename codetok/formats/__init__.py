"""Readers and writers for the tokenizer files people already have.

One module per format, each importable on its own (nothing is imported here, so
``import codetok`` stays light and optional dependencies stay optional):

- :mod:`codetok.formats.detect`: ``codetok.load`` and ``Tokenizer.from_file``: any file
  or folder below, its format told from the content.
- :mod:`codetok.formats.hf_json`: HF ``tokenizer.json`` (load / save).
- :mod:`codetok.formats.vocab_files`: slow-tokenizer files: ``vocab.txt`` (BERT),
  ``vocab.json`` + ``merges.txt`` (GPT-2, RoBERTa, CodeBERT), ``tokenizer_config.json``
  and ``special_tokens_map.json``.
- :mod:`codetok.formats.pretrained`: a folder of such files -> a :class:`~codetok.Tokenizer`,
  dispatching on ``tokenizer_class`` as ``transformers.AutoTokenizer`` does; and
  ``save_pretrained``.
- :mod:`codetok.formats.hub`: ``from_pretrained`` from a folder, the HF cache, or the Hub.
- :mod:`codetok.formats.tiktoken_file`: ``.tiktoken`` rank files (r50k, p50k, cl100k, o200k).
- :mod:`codetok.formats.sentencepiece_model`: SentencePiece ``.model`` files, and
  :mod:`codetok.formats.precompiled`: their compiled normalization charsmap.
"""

from __future__ import annotations

__all__: list[str] = []
