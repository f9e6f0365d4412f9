"""Trainers: learn BPE, WordPiece and Unigram models from streamed corpora.

>>> from codetok.trainers import BpeTrainer, train_bpe
>>> BpeTrainer(vocab_size=100).vocab_size
100
"""

from codetok.trainers.api import count_pieces as count_pieces
from codetok.trainers.api import train as train
from codetok.trainers.api import train_bpe as train_bpe
from codetok.trainers.api import train_from_iterator as train_from_iterator
from codetok.trainers.api import train_unigram as train_unigram
from codetok.trainers.api import train_wordpiece as train_wordpiece
from codetok.trainers.base import Trainer as Trainer
from codetok.trainers.base import build_alphabet as build_alphabet
from codetok.trainers.bpe import BpeTrainer as BpeTrainer
from codetok.trainers.unigram import UnigramTrainer as UnigramTrainer
from codetok.trainers.wordpiece import WordPieceTrainer as WordPieceTrainer

__all__ = [
    "BpeTrainer",
    "Trainer",
    "UnigramTrainer",
    "WordPieceTrainer",
    "build_alphabet",
    "count_pieces",
    "train",
    "train_bpe",
    "train_from_iterator",
    "train_unigram",
    "train_wordpiece",
]
