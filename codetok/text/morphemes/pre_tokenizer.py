"""The ``Morphemes`` pre-tokenizer and :func:`morpheme_tokenizer`: cut the letter runs of
each piece at the boundaries a :class:`~codetok.text.morphemes.model.MorphemeModel` finds
(the package docstring, :mod:`codetok.text.morphemes`, says how and where it belongs)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...errors import ConfigurationError
from ...models import WordLevel
from ...normalizers import Normalizer
from ...pre_tokenizers import PreTokenizer, Whitespace
from ...pre_tokenizers import Sequence as PreSequence
from ...pre_tokenizers.base import Anchor
from ...tokenizer.offsets import NormalizedString
from ...tokenizer.tokenizer import Tokenizer
from .._register import register
from ..vocab import Corpus, finish, vocab_from_counts
from .model import MorphemeModel
from .training_words import LETTERS

__all__ = ["Morphemes", "morpheme_tokenizer"]


def _lower_same_length(run: str) -> str:
    """``run.lower()``, except characters whose lowercase is longer stay as they are."""
    low = run.lower()
    if len(low) == len(run):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in run)


@register
class Morphemes(PreTokenizer):
    """Cut the letter runs of each piece into morphs (see the module docstring).

    Args:
        model: a trained :class:`~codetok.text.morphemes.model.MorphemeModel`.
        lowercase: look letter runs up lowercased (the model was trained on lowercase
            words); the pieces keep the text's own case.

    Raises:
        ConfigurationError: ``model`` is not a MorphemeModel.

    >>> model = MorphemeModel({"walk": 3, "talk": 3, "ed": 4, "ing": 2}, word_tokens=6)
    >>> PreSequence([Whitespace(), Morphemes(model)]).pre_tokenize_str("Walked, talking!")
    [('Walk', (0, 4)), ('ed', (4, 6)), (',', (6, 7)), ('talk', (8, 12)), ('ing', (12, 15)), \
('!', (15, 16))]
    >>> Morphemes(model).pre_tokenize_str("walked3")  # other characters stay where they are
    [('walk', (0, 4)), ('ed3', (4, 7))]
    """

    type_name = "codetok.Morphemes"

    def __init__(self, model: MorphemeModel, lowercase: bool = True) -> None:
        if not isinstance(model, MorphemeModel):
            raise ConfigurationError(
                f"model must be a MorphemeModel (MorphemeModel.train or .load), got "
                f"{type(model).__name__}"
            )
        self.model = model
        self.lowercase = bool(lowercase)

    def cuts(self, text: str) -> list[int]:
        """Positions in ``text`` where one morph ends and the next begins.

        >>> model = MorphemeModel({"walk": 3, "ed": 4, "s": 2}, word_tokens=4)
        >>> Morphemes(model).cuts("walked, walks")
        [4, 12]
        """
        out: list[int] = []
        segment = self.model.segment
        for m in LETTERS.finditer(text):
            run = m.group()
            pos = m.start()
            parts = segment(_lower_same_length(run) if self.lowercase else run)
            for part in parts[:-1]:
                pos += len(part)
                out.append(pos)
        return out

    def _spans(self, text: str) -> list[tuple[int, int]]:
        bounds = [0, *self.cuts(text), len(text)]
        return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        if not text:
            return []
        spans = self._spans(text)
        if len(spans) == 1:
            return [ns]
        return [ns.slice(s, e) for s, e in spans]

    def split_many(self, texts: list[str], anchors: list[Anchor]) -> tuple[list[str], list[Anchor]]:
        """:meth:`split` of many pieces; identity-aligned ones need no slice objects."""
        out_texts: list[str] = []
        out_anchors: list[Anchor] = []
        for text, anchor in zip(texts, anchors):
            if not text:
                continue
            if type(anchor) is not int:
                for p in self.split(anchor):
                    out_texts.append(p.text)
                    out_anchors.append(p.base if p.align is None else p)
                continue
            for s, e in self._spans(text):
                out_texts.append(text[s:e])
                out_anchors.append(anchor + s)
        return out_texts, out_anchors

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name, "lowercase": self.lowercase, "model": self.model.to_dict()}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Morphemes:
        model = MorphemeModel.from_dict(
            data.get("model"), path=path, where=f"{where}.model" if where else "model"
        )
        return cls(model, lowercase=data.get("lowercase", True))

    def __repr__(self) -> str:
        return f"Morphemes({self.model!r}, lowercase={self.lowercase})"


def morpheme_tokenizer(
    model: MorphemeModel,
    vocab: Mapping[str, int] | None = None,
    *,
    corpus: Corpus | None = None,
    files: Iterable[str | os.PathLike[str]] | None = None,
    min_frequency: int = 1,
    max_size: int | None = None,
    unk_token: str | None = "[UNK]",
    special_tokens: Sequence[str] = (),
    normalizer: Normalizer | None = None,
    lowercase: bool = True,
) -> Tokenizer:
    """A word-level tokenizer over morphs: ``Whitespace`` words, then :class:`Morphemes`.

    Args:
        model: the morph model.
        vocab: token -> id. When ``None`` it is learned from ``corpus`` / ``files`` (morphs,
            numbers and punctuation as the pipeline cuts them), or else it is the model's
            morphs, most frequent first.
        corpus: texts (``str``) and/or files (``pathlib.Path``) to learn the vocabulary from.
        files: more files to learn from, read line by line.
        min_frequency: keep pieces (or morphs) seen at least this often.
        max_size: the largest vocabulary, special and unknown tokens included.
        unk_token: stands for pieces outside the vocabulary (added when missing).
        special_tokens: never split, placed first in the vocabulary.
        normalizer: optional, e.g. ``codetok.normalizers.Lowercase()``.
        lowercase: see :class:`Morphemes`.

    Returns:
        A :class:`~codetok.Tokenizer`; ``decode`` joins tokens with spaces.

    Raises:
        ConfigurationError: both ``vocab`` and a corpus, or bad sizes.

    >>> model = MorphemeModel({"walk": 3, "talk": 3, "ed": 4, "ing": 2}, word_tokens=6)
    >>> morpheme_tokenizer(model).encode("walked, talking").tokens
    ['walk', 'ed', '[UNK]', 'talk', 'ing']
    """
    pre = PreSequence([Whitespace(), Morphemes(model, lowercase)])
    tok = Tokenizer(WordLevel(), normalizer=normalizer, pre_tokenizer=pre)
    if vocab is None and corpus is None and files is None:
        vocab = vocab_from_counts(
            model.morphs,
            min_frequency=min_frequency,
            max_size=max_size,
            special_tokens=special_tokens,
            unk_token=unk_token,
        )
    return finish(
        tok,
        vocab=vocab,
        corpus=corpus,
        files=files,
        min_frequency=min_frequency,
        max_size=max_size,
        unk_token=unk_token,
        special_tokens=special_tokens,
    )
