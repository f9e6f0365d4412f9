"""Symbolic music: MIDI files as REMI tokens, with BPE over them through codetok's engine.

The flow::

    .mid file --mido--> Score --REMI--> base tokens --one char each--> BPE --> ids
        (score.py)    (score.py) (remi.py, meter.py,   (vocab.py)     (tokenizer.py)
                                  config.py)

and back: ids -> base tokens -> Score -> .mid. :class:`MusicTokenizer` is the entry point;
it works like :class:`~codetok.Tokenizer` (ids, tokens, vocabulary, special tokens,
padding and truncation, batches, save and load) with MIDI files where text would go.

mido is an optional dependency: ``pip install 'codetok[music]'``.

>>> from codetok.music import MusicTokenizer, Note, Score, Track
>>> song = Score(480, [Track(0, False, [Note(0, 480, 60, 80), Note(480, 960, 64, 80)])])
>>> tok = MusicTokenizer()
>>> tok.encode(song).tokens[:6]
['[BOS]', 'Bar', 'TimeSig_4/4', 'Position_0', 'Tempo_120', 'Program_0']
>>> tok.decode(tok.encode(song).ids).tracks[0].notes
[Note(start=0, end=480, pitch=60, velocity=78), Note(start=480, end=960, pitch=64, velocity=78)]
"""

from .config import RemiConfig
from .score import Note, Score, Tempo, TimeSignature, Track, read_midi, write_midi
from .tokenizer import MusicTokenizer

__all__ = [
    "MusicTokenizer",
    "Note",
    "RemiConfig",
    "Score",
    "Tempo",
    "TimeSignature",
    "Track",
    "read_midi",
    "write_midi",
]
