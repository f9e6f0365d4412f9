"""A MIDI file as plain data: tracks of notes in ticks, a tempo map and time signatures.

:class:`Score` is what the REMI tokenizer encodes and what it decodes to. It holds only what
REMI tokens describe (notes with their program, tempo and meter changes), so it does not
depend on the MIDI library: :mod:`codetok.music.midi_io` fills it from a ``.mid`` file and
writes it back. Times are integer ticks; ``ticks_per_quarter`` says how many make a quarter
note.

Not handled here: reading and writing MIDI bytes (``midi_io.py``), quantization
(``meter.py``, ``remi.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = ["Note", "Tempo", "TimeSignature", "Track", "Score"]


class Note(NamedTuple):
    """One note: ``start`` and ``end`` in ticks, MIDI ``pitch`` (0-127), ``velocity`` (1-127)."""

    start: int
    end: int
    pitch: int
    velocity: int


class Tempo(NamedTuple):
    """A tempo change at ``tick``: quarter notes per minute."""

    tick: int
    bpm: float


class TimeSignature(NamedTuple):
    """A meter change at ``tick``: ``numerator`` beats of a ``1/denominator`` note per bar."""

    tick: int
    numerator: int
    denominator: int


@dataclass
class Track:
    """The notes of one instrument.

    Attributes:
        program: General MIDI program (0-127).
        is_drum: the notes are percussion (MIDI channel 10); ``program`` is then ignored.
        notes: the notes, in any order.
        name: the track name, when the file gives one.
    """

    program: int = 0
    is_drum: bool = False
    notes: list[Note] = field(default_factory=list)
    name: str = ""


@dataclass
class Score:
    """A piece: tracks of notes, a tempo map and time signatures, in ticks.

    Attributes:
        ticks_per_quarter: the time resolution (ticks per quarter note).
        tracks: the instruments and their notes.
        tempos: tempo changes, sorted by tick (none: 120 quarter notes per minute).
        time_signatures: meter changes, sorted by tick (none: 4/4).

    >>> s = Score(480, [Track(0, False, [Note(0, 480, 60, 100)])])
    >>> s.note_count(), s.end_tick()
    (1, 480)
    """

    ticks_per_quarter: int = 480
    tracks: list[Track] = field(default_factory=list)
    tempos: list[Tempo] = field(default_factory=list)
    time_signatures: list[TimeSignature] = field(default_factory=list)

    def note_count(self) -> int:
        """The number of notes in all tracks."""
        return sum(len(t.notes) for t in self.tracks)

    def end_tick(self) -> int:
        """The tick at which the last note ends (0 without notes)."""
        return max((n.end for t in self.tracks for n in t.notes), default=0)

    @classmethod
    def from_midi(cls, source: Any, /) -> Score:
        """Read a MIDI file (path, ``bytes`` or ``mido.MidiFile``); see
        :func:`codetok.music.midi_io.read_midi`."""
        from .midi_io import read_midi

        return read_midi(source)

    def to_midi(self) -> Any:
        """This score as a ``mido.MidiFile`` (format 1: a tempo track, then one track per
        instrument)."""
        from .midi_io import to_mido

        return to_mido(self)

    def to_bytes(self) -> bytes:
        """The bytes of a standard MIDI file holding this score."""
        from .midi_io import write_midi

        return write_midi(self)

    def save(self, path: str | os.PathLike[str], /) -> None:
        """Write this score as a standard MIDI file at ``path``."""
        from .midi_io import write_midi

        write_midi(self, path)
