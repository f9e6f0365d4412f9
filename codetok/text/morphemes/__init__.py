"""Morpheme pre-tokenization: cut words into the morphs of an unsupervised morph model.

:class:`Morphemes` cuts every maximal run of letters (Unicode L and M) of a piece at the
boundaries a :class:`~codetok.text.morphemes.model.MorphemeModel` finds (``walked`` -> ``walk``
``ed``), looking the run up lowercased unless told otherwise. It only adds cuts between two
morphs of a letter run: digits, punctuation and spaces stay in the piece they were in, so it
belongs after a pre-tokenizer that cuts words (``Whitespace``, ``WhitespaceSplit``,
``Metaspace``, ``BertPreTokenizer``), alone or before any subword model::

    Tokenizer(BPE(...), pre_tokenizer=Sequence([Whitespace(), Morphemes(model)]))

Pieces are slices of the piece they come from, so offsets index the caller's text.

:func:`morpheme_tokenizer` builds a word-level tokenizer over the morphs. ``tokenizer.json``
stores the pre-tokenizer with its whole model: ``{"type": "codetok.Morphemes", "lowercase":
true, "model": {"corpus_weight": 1.0, "word_tokens": ..., "morphs": {...}}}``; HF
``tokenizers`` has no such component and refuses the type by name.

Training (:meth:`MorphemeModel.train`) is the Morfessor Baseline method, one module per
part: :mod:`.cost` (the MDL cost), :mod:`.training` (batch recursive splitting) and
:mod:`.model` (Viterbi segmentation). :mod:`.words` reads word lists and says what a word is, :mod:`.evaluation` scores
segmentations against a gold one, and :mod:`.pre_tokenizer` holds ``Morphemes`` and
:func:`morpheme_tokenizer`.
"""

from __future__ import annotations

from .model import MorphemeModel
from .pre_tokenizer import Morphemes, morpheme_tokenizer

__all__ = ["MorphemeModel", "Morphemes", "morpheme_tokenizer"]
