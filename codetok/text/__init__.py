"""Plain-text tokenizers built from the pipeline: whitespace, words, patterns, chars, bytes,
morphemes, phonemes.

Each factory returns a :class:`~codetok.Tokenizer` (normalizer, pre-tokenizer, WordLevel
model, decoder) that works on its own, saves to ``tokenizer.json`` and learns its
vocabulary from a corpus (``corpus=`` / ``files=``, ``min_frequency``, ``max_size``,
``unk_token``, ``special_tokens``). :func:`train` re-learns the vocabulary of any of them,
:func:`build_vocab` returns the vocabulary only.

=================================  ===============================  ====================
factory                            pieces                           tokenizer.json
=================================  ===============================  ====================
:func:`whitespace_tokenizer`       runs of non-whitespace           HF schema
:func:`words_tokenizer`            Penn Treebank-style words         ``codetok.Words``
:func:`pattern_tokenizer`          ordered regexes, longest match   ``codetok.Patterns``
:func:`char_tokenizer`             code points / grapheme clusters  HF schema
:func:`byte_tokenizer`             UTF-8 bytes, ids 0-255           HF schema
:func:`morpheme_tokenizer`         morphs of an unsupervised model  ``codetok.Morphemes``
:func:`phoneme_tokenizer`          words -> ARPAbet/IPA phonemes    ``codetok.Phonemes``
=================================  ===============================  ====================

:class:`MorphemeModel` learns the morph lexicon the morpheme tokenizer uses (Morfessor
Baseline: MDL cost, recursive binary splitting, Viterbi segmentation of new words); its
:class:`Morphemes` pre-tokenizer also runs before any subword model.

Importing this package registers the three ``codetok.*`` pre-tokenizers and the
``codetok.Phonemes`` model (:mod:`codetok.text.phonemes`) so that ``Tokenizer.from_file``
can load them. The phoneme tokenizer's vocabulary is fixed (``train`` refuses it).

>>> from codetok.text import words_tokenizer
>>> words_tokenizer(corpus=["I can't."]).encode("I can't!").tokens
['I', 'ca', "n't", '[UNK]']
"""

from .byte_level import ByteTokenizer, byte_tokenizer
from .chars import char_tokenizer
from .morphemes.model import MorphemeModel
from .morphemes.pre_tokenizer import Morphemes, morpheme_tokenizer
from .morphemes.training_words import read_word_list
from .patterns import Patterns, pattern_tokenizer
from .phonemes import phoneme_tokenizer
from .vocab import build_vocab, count_pieces, iter_corpus, train, vocab_from_counts
from .whitespace import whitespace_tokenizer
from .words import Words, words_tokenizer

__all__ = [
    "ByteTokenizer",
    "MorphemeModel",
    "Morphemes",
    "Patterns",
    "Words",
    "build_vocab",
    "byte_tokenizer",
    "char_tokenizer",
    "count_pieces",
    "iter_corpus",
    "morpheme_tokenizer",
    "pattern_tokenizer",
    "read_word_list",
    "phoneme_tokenizer",
    "train",
    "vocab_from_counts",
    "whitespace_tokenizer",
    "words_tokenizer",
]
