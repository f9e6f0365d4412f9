"""HF ``tokenizer.json``: load and save.

The schema is HF ``tokenizers``' own; codetok reads and writes it in
:meth:`codetok.Tokenizer.from_file` / :meth:`~codetok.Tokenizer.save`, and each component
class reads and writes its own object (``normalizers``, ``pre_tokenizers``, ``models``,
``processors``, ``decoders``). This module is the documented entry point and the list of
what is covered:

- models: BPE (merges as ``"a b"`` strings or ``["a", "b"]`` pairs, ``byte_fallback``,
  ``ignore_merges``, dropout), WordPiece, Unigram, WordLevel;
- normalizers: BertNormalizer, NFC/NFD/NFKC/NFKD, Lowercase, StripAccents, Strip, Replace,
  Prepend, ByteLevel, Precompiled, Sequence;
- pre-tokenizers: ByteLevel (``add_prefix_space``, ``trim_offsets``, ``use_regex``),
  Split (every ``behavior``, ``invert``), BertPreTokenizer, Metaspace (``prepend_scheme``,
  ``split``), Whitespace, WhitespaceSplit, Punctuation, Digits, CharDelimiterSplit,
  UnicodeScripts, Sequence;
- post-processors: TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel,
  Sequence;
- decoders: ByteLevel, WordPiece, Metaspace, BPEDecoder, ByteFallback, Fuse, Strip,
  Replace, CTC, Sequence;
- the ``added_tokens``, ``truncation`` and ``padding`` sections, and codetok's own
  settings under the ``"codetok"`` key (HF ``tokenizers`` refuses files with that key:
  see :func:`save_tokenizer_json`).

A component ``type`` codetok does not know raises
:class:`~codetok.errors.UnknownComponentError` naming the type, the JSON path and the
file; malformed JSON raises :class:`~codetok.errors.FormatError` naming the line.
"""

from __future__ import annotations

import os

from ..tokenizer.tokenizer import Tokenizer

__all__ = ["load_tokenizer_json", "save_tokenizer_json"]


def load_tokenizer_json(path: str | os.PathLike[str]) -> Tokenizer:
    """Load a ``tokenizer.json`` file.

    Args:
        path: the file.

    Returns:
        The tokenizer.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: invalid JSON (names the line) or a malformed section (names the path).
        UnknownComponentError: a component type codetok does not implement.

    >>> tok = load_tokenizer_json("tokenizer.json")  # doctest: +SKIP
    """
    return Tokenizer.from_file(path)


def save_tokenizer_json(
    tokenizer: Tokenizer,
    path: str | os.PathLike[str],
    *,
    pretty: bool = True,
    codetok_settings: bool = False,
) -> None:
    """Write ``tokenizer`` as a ``tokenizer.json``.

    HF ``tokenizers`` (0.23) refuses a file with an unknown top-level key, so a file that
    carries codetok's settings (``model_max_length``, sides, special tokens map, ... under
    ``"codetok"``) loads in codetok only. By default the file is HF-loadable;
    :func:`codetok.formats.pretrained.save_pretrained` writes those settings to
    ``tokenizer_config.json`` instead.

    Args:
        tokenizer: the tokenizer.
        path: the file to write.
        pretty: indent the JSON.
        codetok_settings: keep the ``"codetok"`` key (when there are settings to keep).

    >>> import tempfile, os
    >>> from codetok.models import WordLevel
    >>> p = os.path.join(tempfile.mkdtemp(), "tokenizer.json")
    >>> save_tokenizer_json(Tokenizer(WordLevel({"a": 0}, None)), p)
    >>> load_tokenizer_json(p).get_vocab()
    {'a': 0}
    """
    tokenizer.save(path, pretty=pretty, settings=codetok_settings)
