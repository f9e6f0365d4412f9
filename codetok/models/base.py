"""The contract every subword model fulfils.

A model turns one pre-tokenized piece (a ``str``, already normalized and, for byte-level
pipelines, already mapped to the GPT-2 byte alphabet) into tokens. Offsets are Python
character positions inside that piece; the pipeline maps them back to the caller's text.
Models know nothing of special tokens, padding or offsets bookkeeping: the
:class:`~codetok.tokenizer.tokenizer.Tokenizer` owns those rules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from codetok.components.base import CHANGES
from codetok.reference.flat import flat_encoding


class Token(NamedTuple):
    """One token produced by a model for a piece."""

    id: int
    value: str
    offsets: tuple[int, int]


class Model:
    """Base class of BPE, WordPiece, Unigram and WordLevel.

    Subclasses set ``type_name`` (the HF ``tokenizer.json`` ``model.type``) and implement
    :meth:`tokenize`, the vocabulary accessors and :meth:`to_dict` / :meth:`from_dict`.
    """

    type_name: ClassVar[str] = ""

    #: What a model builds from its counted attributes on first use (kernels, id tables,
    #: per-piece caches): setting one is not a change. A compiled plan that builds a kernel
    #: then leaves the change count as it found it, so the plan stays current.
    _DERIVED: ClassVar[frozenset[str]] = frozenset(
        {"_built_kernel", "_built_kernel_native", "_built_kernel_key", "_values", "_cache"}
    )

    def __setattr__(self, name: str, value: Any) -> None:
        # Counted like a component's (codetok.components.base.CHANGES): compiled plans see it.
        object.__setattr__(self, name, value)
        if name not in self._DERIVED:
            CHANGES[0] += 1

    def tokenize(self, piece: str) -> list[Token]:
        """Split one piece into tokens with offsets relative to the piece."""
        raise NotImplementedError

    def tokenize_many(self, pieces: Sequence[str]) -> list[list[Token]]:
        """:meth:`tokenize` of each piece; models with a native kernel do it in one call."""
        tokenize = self.tokenize
        return [tokenize(p) for p in pieces]

    def encode_pieces(
        self, pieces: Sequence[str], anchors: Sequence[Any], word_start: int, word_step: int
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]]:
        """Many pieces at once as the flat lists an Encoding is made of.

        Returns ``(ids, tokens, offsets, word ids)``. ``anchors[k]`` places piece ``k`` in
        the caller's text: an int is the original position of its first character under
        the identity alignment; otherwise an object with ``original_span(start, end)`` (a
        :class:`~codetok.tokenizer.offsets.NormalizedString`). Piece ``k``'s word id is
        ``word_start + word_step * k``. Models with a native kernel build the lists there,
        so the Tokenizer has no per-token Python loop (DESIGN.md, "Performance rules").

        >>> from codetok.models import WordLevel
        >>> WordLevel({"a": 0, "b": 1}, None).encode_pieces(["a", "b"], [3, 5], 0, 1)
        ([0, 1], ['a', 'b'], [(3, 4), (5, 6)], [0, 1])
        """
        results = [
            ([t[0] for t in toks], [t[1] for t in toks], [t[2] for t in toks])
            for toks in self.tokenize_many(pieces)
        ]
        return flat_encoding(results, anchors, word_start, word_step)

    def tokenize_ids(self, piece: str) -> list[int]:
        """Ids only; models override this when they can skip building tokens."""
        return [t.id for t in self.tokenize(piece)]

    def token_to_id(self, token: str) -> int | None:
        raise NotImplementedError

    def id_to_token(self, id: int) -> str | None:
        raise NotImplementedError

    def get_vocab(self) -> dict[str, int]:
        raise NotImplementedError

    def get_vocab_size(self) -> int:
        return len(self.get_vocab())

    def to_dict(self) -> dict[str, Any]:
        """The HF ``tokenizer.json`` ``model`` object."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> Model:
        """Build from the HF ``model`` object; ``path`` only feeds error messages."""
        raise NotImplementedError

    def save(self, folder: str | os.PathLike[str], prefix: str | None = None) -> list[str]:
        """Write the vocabulary files HF's ``Model.save`` writes, under HF's names:
        ``vocab.json`` + ``merges.txt`` (BPE), ``vocab.txt`` (WordPiece), ``vocab.json``
        (WordLevel), ``unigram.json`` (Unigram); ``{prefix}-vocab.json`` ... with a prefix.

        HF ``tokenizers`` reads them back (``BPE.from_file``, ``WordPiece.from_file``,
        ``WordLevel.from_file``) as the same vocabulary and merges; the whole pipeline is
        :meth:`Tokenizer.save <codetok.tokenizer.tokenizer.Tokenizer.save>`'s.

        Args:
            folder: the folder (created if missing).
            prefix: the file name prefix, or ``None``.

        Returns:
            The paths written.

        Raises:
            FormatError: the vocabulary holds what the files cannot carry (a merge of tokens
                with a space, a ``vocab.txt`` with a gap in its ids, ...).

        >>> import tempfile
        >>> from codetok.models import WordLevel
        >>> [os.path.basename(p) for p in WordLevel({"a": 0}, None).save(tempfile.mkdtemp())]
        ['vocab.json']
        """
        from .export import save_model

        return save_model(self, folder, prefix)

    def clear_cache(self) -> None:
        """Drop any per-piece cache (after the vocabulary changes)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(vocab_size={self.get_vocab_size()})"


class DictVocabModel(Model):
    """A model whose vocabulary is the dict ``vocab`` (token -> id) with its inverse
    ``vocab_r`` (id -> token): WordLevel, WordPiece and the phoneme model share these
    accessors."""

    vocab: dict[str, int]
    vocab_r: dict[int, str]

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self.vocab_r.get(id)

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    def get_vocab_size(self) -> int:
        return len(self.vocab)
