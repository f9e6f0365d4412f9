"""WordPiece: greedy longest-match-first with a continuation prefix (BERT).

A piece longer than ``max_input_chars_per_word``, or one that cannot be covered by
vocabulary entries, becomes a single unknown token spanning the whole piece. The loop lives
in a kernel: the native ``WordPieceCore`` or its twin
:class:`codetok.reference.wordpiece.WordPieceCore` (see :mod:`codetok.engine.native`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import native as _backend
from ..errors import FormatError, VocabularyError
from ..formats.ids import check_vocab_ids
from .base import DictVocabModel, Token


class WordPiece(DictVocabModel):
    """Greedy longest-match WordPiece.

    Args:
        vocab: token -> id.
        unk_token: token for pieces that cannot be matched.
        continuing_subword_prefix: marks non-initial sub-tokens (``"##"``).
        max_input_chars_per_word: longer pieces become ``unk_token`` directly.

    >>> wp = WordPiece({"[UNK]": 0, "play": 1, "##ing": 2})
    >>> [t.value for t in wp.tokenize("playing")]
    ['play', '##ing']
    """

    type_name = "WordPiece"

    def __init__(
        self,
        vocab: dict[str, int] | None = None,
        unk_token: str = "[UNK]",
        continuing_subword_prefix: str = "##",
        max_input_chars_per_word: int = 100,
    ) -> None:
        self.vocab: dict[str, int] = dict(vocab or {})
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self._cache: dict[str, list[Token]] = {}
        self._built_kernel: Any = None
        self._built_kernel_native = False
        self._built_kernel_key: tuple[Any, ...] = ()
        self._rebuild()

    @classmethod
    def from_file(cls, vocab_path: str, **kwargs: Any) -> WordPiece:
        """Load a BERT ``vocab.txt`` (one token per line, id = line number).

        Args:
            vocab_path: the file.
            **kwargs: the other arguments of :class:`WordPiece`.

        Raises:
            NotFoundError: the file does not exist.
            FormatError: the file is not UTF-8, is empty, or has no line for ``unk_token``
                (checked here, not at the first word WordPiece cannot split).
        """
        from ..formats.vocab_files import read_wordpiece_vocab

        unk = kwargs.get("unk_token", "[UNK]")
        return cls(read_wordpiece_vocab(vocab_path, unk), **kwargs)

    def _rebuild(self) -> None:
        self.vocab_r = {i: t for t, i in self.vocab.items()}
        self._max_len = max((len(t) for t in self.vocab), default=1)
        self.clear_cache()

    def clear_cache(self) -> None:
        """Drop the per-piece cache and the kernel (after the vocabulary changes)."""
        self._cache.clear()
        self._built_kernel = None

    def _kernel(self) -> Any:
        """The WordPiece kernel of the current backend and options, built on first use."""
        key = (
            self.unk_token,
            self.continuing_subword_prefix,
            self.max_input_chars_per_word,
        )
        if self._built_kernel is None or key != self._built_kernel_key:
            self._built_kernel, self._built_kernel_native = _backend.kernel(
                self,
                "WordPieceCore",
                self.vocab,
                Token,
                prefix=self.continuing_subword_prefix,
                max_input_chars_per_word=self.max_input_chars_per_word,
            )
            self._built_kernel_key = key
        return self._built_kernel

    def _unk_token(self, piece: str) -> Token:
        uid = self.vocab.get(self.unk_token)
        if uid is None:
            raise VocabularyError(
                f"WordPiece: cannot encode {piece[:40]!r} and the unknown token "
                f"{self.unk_token!r} is not in the vocabulary"
            )
        return Token(uid, self.unk_token, (0, len(piece)))

    def tokenize(self, piece: str) -> list[Token]:
        cached = self._cache.get(piece)
        if cached is not None:
            return cached
        out = self._tokenize(piece)
        if len(self._cache) < 10000:
            self._cache[piece] = out
        return out

    def _tokenize(self, piece: str) -> list[Token]:
        toks = self._kernel().tokenize_batch([piece])[0]
        return [self._unk_token(piece)] if toks is None else toks

    def tokenize_many(self, pieces: Sequence[str]) -> list[list[Token]]:
        """:meth:`tokenize` of each piece, in one kernel call.

        >>> wp = WordPiece({"[UNK]": 0, "play": 1, "##ing": 2})
        >>> [[t.value for t in toks] for toks in wp.tokenize_many(["playing", "xyz"])]
        [['play', '##ing'], ['[UNK]']]
        """
        out = self._kernel().tokenize_batch(pieces)
        for k, toks in enumerate(out):
            if toks is None:
                out[k] = [self._unk_token(pieces[k])]
        return out

    def encode_pieces(
        self, pieces: Sequence[str], anchors: Sequence[Any], word_start: int, word_step: int
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]]:
        """See :meth:`Model.encode_pieces`: one kernel call builds the flat lists.

        Unknown pieces become the unknown token; when it is missing from the vocabulary
        the generic path raises the usual error.
        """
        unk_id = self.vocab.get(self.unk_token)
        out = self._kernel().encode_offsets(
            pieces,
            anchors,
            word_start,
            word_step,
            -1 if unk_id is None else unk_id,
            self.unk_token,
        )
        if out is None:
            return super().encode_pieces(pieces, anchors, word_start, word_step)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "WordPiece",
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "vocab": dict(sorted(self.vocab.items(), key=lambda kv: kv[1])),
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = "model"
    ) -> WordPiece:
        vocab = data.get("vocab")
        if not isinstance(vocab, dict):
            raise FormatError(
                "WordPiece needs a 'vocab' object of token -> id", path=path, where=f"{where}.vocab"
            )
        check_vocab_ids(vocab, path=path, where=f"{where}.vocab")
        longest = data.get("max_input_chars_per_word", 100)
        if type(longest) is not int or not 0 <= longest < 2**64:
            raise FormatError(
                f"expected a number of characters (an integer >= 0, HF's default is 100), "
                f"got {longest!r}",
                path=path,
                where=f"{where}.max_input_chars_per_word",
            )
        return cls(
            vocab,
            data.get("unk_token", "[UNK]"),
            data.get("continuing_subword_prefix", "##"),
            longest,
        )
