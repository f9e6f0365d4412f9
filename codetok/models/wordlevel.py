"""WordLevel: each piece is looked up whole in the vocabulary, else the unknown token."""

from __future__ import annotations

from typing import Any

from ..errors import FormatError, VocabularyError
from ..formats.ids import check_vocab_ids
from .base import DictVocabModel, Token


class WordLevel(DictVocabModel):
    """Whole-piece lookup.

    Args:
        vocab: token -> id.
        unk_token: emitted for pieces missing from ``vocab``; must be in ``vocab``.

    >>> WordLevel({"hi": 0, "<unk>": 1}, "<unk>").tokenize_ids("bye")
    [1]
    """

    type_name = "WordLevel"

    def __init__(
        self, vocab: dict[str, int] | None = None, unk_token: str | None = "<unk>"
    ) -> None:
        self.vocab: dict[str, int] = dict(vocab or {})
        self.unk_token = unk_token
        self._rebuild()

    def _rebuild(self) -> None:
        """Call after changing ``vocab`` in place (compiled native plans see it then)."""
        self.vocab_r = {i: t for t, i in self.vocab.items()}
        self._version = getattr(self, "_version", 0) + 1

    def _unk(self, piece: str) -> int:
        uid = self.vocab.get(self.unk_token) if self.unk_token is not None else None
        if uid is None:
            raise VocabularyError(
                f"WordLevel: {piece!r} is not in the vocabulary and the unknown token "
                f"{self.unk_token!r} is missing from it; add it to the vocab or set unk_token"
            )
        return uid

    def tokenize(self, piece: str) -> list[Token]:
        tid = self.vocab.get(piece)
        if tid is None:
            return [Token(self._unk(piece), self.unk_token or "", (0, len(piece)))]
        return [Token(tid, piece, (0, len(piece)))]

    def tokenize_ids(self, piece: str) -> list[int]:
        tid = self.vocab.get(piece)
        return [self._unk(piece) if tid is None else tid]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "WordLevel",
            "vocab": dict(sorted(self.vocab.items(), key=lambda kv: kv[1])),
            "unk_token": self.unk_token,
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = "model"
    ) -> WordLevel:
        vocab = data.get("vocab")
        if not isinstance(vocab, dict):
            raise FormatError(
                "WordLevel needs a 'vocab' object of token -> id", path=path, where=f"{where}.vocab"
            )
        check_vocab_ids(vocab, path=path, where=f"{where}.vocab")
        return cls(vocab, data.get("unk_token", "<unk>"))
