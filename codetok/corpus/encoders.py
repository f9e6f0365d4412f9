"""What a shard holds for one source file, in each mode of ``codetok corpus``.

Every encoder turns the bytes of one file into column values:

- :class:`CodeFileEncoder` (the default, or a code tokenizer file from ``codetok train``):
  the ids of :meth:`CodeTokenizer.encode <codetok.code.CodeTokenizer.encode>` and each
  token's lexeme kind. Any bytes are taken, so a Latin-1 file is kept as it is.
- :class:`TextFileEncoder` (any other tokenizer file :func:`codetok.load` reads): the ids
  of the whole file as text (undecodable bytes as ``surrogateescape``), special tokens as
  the file's post-processor adds them; no kinds.
- :class:`CodeBertFileEncoder` (CodeBERT mode): the pretrained tokenizer's ids, equal to
  ``transformers``' ``input_ids`` (``<s>`` ... ``</s>``), with the lexeme kind of each
  token (255 for ``<s>`` and ``</s>``); the file must be UTF-8.
- :class:`PairsFileEncoder`: one row per (docstring, function) pair, both sides tokenized
  and the code cut at a statement boundary to ``max_tokens``.
- :class:`PackedFileEncoder` (``pack``): the file's ids, fill-in-the-middle laid out at the
  job's rate, then ``<|endoftext|>``; the shard cuts the files' stream into sequences.

A text tokenizer's own padding and truncation are turned off (a shard holds whole files);
:attr:`FileEncoder.dropped` says what was turned off, for the command line to report.

Not handled here: loading rules and caching (:mod:`codetok.corpus.job`), the shard file.
"""

from __future__ import annotations

import os
from typing import Any, Protocol

import numpy as np

from .sources import SourceFile

__all__ = [
    "FileEncoder",
    "CodeFileEncoder",
    "TextFileEncoder",
    "CodeBertFileEncoder",
    "PackedFileEncoder",
    "PairsFileEncoder",
    "whole_inputs",
]


def whole_inputs(tok: Any) -> list[str]:
    """Turn off a text tokenizer's padding and truncation; return what was on
    (``["padding", "truncation"]``, or fewer)."""
    dropped = []
    for setting, off in (("padding", "no_padding"), ("truncation", "no_truncation")):
        if getattr(tok, setting, None) and callable(getattr(tok, off, None)):
            getattr(tok, off)()
            dropped.append(setting)
    return dropped


def _vocab_size(tok: Any) -> int:
    """Largest id + 1 of a codetok or HF-style text tokenizer."""
    vocab = tok.get_vocab(with_added_tokens=True)
    return max(vocab.values(), default=-1) + 1


class FileEncoder(Protocol):
    """What every encoder offers.

    Attributes:
        rows_per_file: ``"one"`` (a row per file: ``ids`` and maybe ``kinds``),
            ``"pairs"`` (a row per function pair) or ``"packed"`` (rows are fixed-length
            sequences of the files' stream).
        has_kinds: rows carry a ``kinds`` column.
        vocab_size: ids are below this (it picks the shard's id type).
        description: the tokenizer's type and size, for the manifest.
        dropped: settings of the tokenizer file turned off (``"padding"``...).
    """

    rows_per_file: str
    has_kinds: bool
    vocab_size: int
    description: dict[str, Any]
    dropped: list[str]

    def encode_file(self, data: bytes, file: SourceFile) -> Any:
        """Column values for one file: ``(ids, kinds or None)``, or a list of pair records."""
        ...


class CodeFileEncoder:
    """Ids and lexeme kinds of :class:`~codetok.code.CodeTokenizer`.

    Args:
        tokenizer: the code tokenizer.
    """

    rows_per_file = "one"
    has_kinds = True

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.vocab_size = tokenizer.vocab_size
        self.description = {"type": "CodeTokenizer", "vocab_size": self.vocab_size}
        self.dropped = []

    def encode_file(self, data: bytes, file: SourceFile) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, kinds)`` of the file."""
        enc = self.tokenizer.encode(data, file.language)
        return enc.ids_array, enc.kinds


class PackedFileEncoder:
    """A file's part of a packed stream: its ids, FIM laid out or whole, then the end of
    the document (``<|endoftext|>``); with ``repo``, ``<file_sep>`` and its path before
    them instead, the repository's header and end placed by :meth:`repository`. The shard
    cuts the stream into sequences.

    Args:
        tokenizer: the code tokenizer.
        fim: the FIM transform (keyed by each file's path as shown), or None.
        repo: StarCoder2's repository layout (see :class:`~codetok.corpus.CorpusJob`).
    """

    rows_per_file = "packed"
    has_kinds = False

    def __init__(self, tokenizer: Any, fim: Any = None, repo: bool = False) -> None:
        self.tokenizer = tokenizer
        self.fim = fim
        self.repo = repo
        self.eos = tokenizer.control_id("eos")
        if repo:
            self.file_sep = tokenizer.control_id("file_sep")
            self.repo_name = tokenizer.control_id("repo_name")
        self.vocab_size = tokenizer.vocab_size
        self.description = {"type": "CodeTokenizer", "vocab_size": self.vocab_size}
        self.dropped: list[str] = []

    def encode_file(self, data: bytes, file: SourceFile) -> tuple[np.ndarray, None]:
        """``(ids + [eos], None)``; a file that is not UTF-8 is never cut for FIM (its
        bytes are kept as they are)."""
        text = None
        if self.fim is not None:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        if text is None:
            ids = self.tokenizer.encode(data, file.language).ids_array
        else:
            ids = np.asarray(self.fim.apply(text, file.language, key=file.shown).ids, np.int64)
        if self.repo:  # the repository's shard writer places <repo_name> and the EOS
            head = [self.file_sep, *self.tokenizer.encode_plain(_below(file) + "\n")]
            return np.concatenate([np.array(head, np.int64), np.asarray(ids, np.int64)]), None
        out = np.empty(len(ids) + 1, np.int64)
        out[:-1] = ids
        out[-1] = self.eos
        return out, None

    def repository(self, files: list[Any], arrays: list[np.ndarray]) -> list[np.ndarray]:
        """With ``repo``: each run of files of one repository (input) gets ``<repo_name>``
        and the repository's name before its first file and ``<|endoftext|>`` after its
        last (the arrays of those files, changed; the others as they are)."""
        out = list(arrays)
        for k, f in enumerate(files):
            if k == 0 or files[k - 1].root != f.root:
                name = os.path.basename(os.path.normpath(f.root)) or f.root
                head = [self.repo_name, *self.tokenizer.encode_plain(name)]
                out[k] = np.concatenate([np.array(head, np.int64), out[k]])
            if k == len(files) - 1 or files[k + 1].root != f.root:
                out[k] = np.append(out[k], np.int64(self.eos))
        return out


def _below(file: SourceFile) -> str:
    """The file's path below its input (``pkg/a.py``), or its shown path."""
    root = os.path.normpath(file.root) if file.root else ""
    shown = os.path.normpath(file.shown)
    if root and shown.startswith(root + os.sep):
        return shown[len(root) + 1 :]
    return shown


class TextFileEncoder:
    """Ids of a text tokenizer on the whole file.

    Args:
        tokenizer: a codetok :class:`~codetok.Tokenizer` (its padding and truncation are
            turned off).
    """

    rows_per_file = "one"
    has_kinds = False

    def __init__(self, tokenizer: Any) -> None:
        self.dropped = whole_inputs(tokenizer)
        self.tokenizer = tokenizer
        self.vocab_size = _vocab_size(tokenizer)
        self.description = {"type": type(tokenizer).__name__, "vocab_size": self.vocab_size}

    def encode_file(self, data: bytes, file: SourceFile) -> tuple[np.ndarray, None]:
        """``(ids, None)`` of the file's text."""
        text = data.decode("utf-8", "surrogateescape")
        return np.asarray(self.tokenizer.encode(text).ids_array), None


class CodeBertFileEncoder:
    """A pretrained tokenizer's ids with each token's lexeme kind (CodeBERT mode).

    Args:
        codebert: a :class:`~codetok.code.applications.codebert.CodeBertTokenizer`.
    """

    rows_per_file = "one"
    has_kinds = True

    def __init__(self, codebert: Any) -> None:
        self.dropped = whole_inputs(codebert.tokenizer)
        self.codebert = codebert
        self.vocab_size = _vocab_size(codebert.tokenizer)
        self.description = {"type": "CodeBertTokenizer", "vocab_size": self.vocab_size}

    def encode_file(self, data: bytes, file: SourceFile) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, kinds)``; kinds are 255 for the special tokens ``<s>`` and ``</s>``."""
        enc = self.codebert.encode(data, file.language)
        return enc.ids, enc.kinds


class PairsFileEncoder:
    """Rows of (docstring, function) pairs, both sides tokenized.

    Args:
        tokenizer: a code tokenizer or a text tokenizer (see
            :class:`~codetok.code.applications.pairs.PairEncoder`).
        max_tokens: code token budget per function (None: whole functions).
        max_docstring_tokens: docstring token budget (None: whole docstrings).
        keep_docstring: keep Python docstrings inside the code.
    """

    rows_per_file = "pairs"
    has_kinds = False

    def __init__(
        self,
        tokenizer: Any,
        *,
        max_tokens: int | None = None,
        max_docstring_tokens: int | None = None,
        keep_docstring: bool = False,
    ) -> None:
        from ..code.applications.pairs import PairEncoder

        self.dropped = [] if hasattr(tokenizer, "reserved") else whole_inputs(tokenizer)
        self.pairs = PairEncoder(
            tokenizer, max_code_tokens=max_tokens, max_docstring_tokens=max_docstring_tokens
        )
        self.keep_docstring = keep_docstring
        self.vocab_size = (
            tokenizer.vocab_size if hasattr(tokenizer, "reserved") else _vocab_size(tokenizer)
        )
        self.description = {"type": type(tokenizer).__name__, "vocab_size": self.vocab_size}

    def encode_file(self, data: bytes, file: SourceFile) -> list[dict[str, Any]]:
        """One record per documented function (:meth:`PairEncoder.encode`'s fields)."""
        from ..code.applications.pairs import extract_pairs

        found = extract_pairs(
            data, file.language, path=file.shown, keep_docstring=self.keep_docstring
        )
        return [self.pairs.encode(p) for p in found]
