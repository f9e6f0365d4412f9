"""A MIDI file as plain data, and its standard MIDI form.

:class:`Score` is what the REMI tokenizer encodes and what it decodes to: tracks of notes
in ticks, a tempo map and time signatures. It holds only what REMI tokens describe (notes
with their program, tempo and meter changes). Times are integer ticks;
``ticks_per_quarter`` says how many make a quarter note. :func:`read_midi`,
:func:`write_midi` and :func:`to_mido` turn it into MIDI files and back, through mido; the
two live in one module because a Score reads and writes itself (``Score.from_midi``,
``to_bytes``, ``save``) and the reader builds Scores.

Reading (:func:`read_midi`): mido parses the bytes; this module then pairs each note-on
with its note-off and collects tempo and meter changes.

- A note-on with velocity 0 is a note-off. When the same key is struck again before it is
  released, the releases close the open notes first-in, first-out. A note still sounding
  at the end of its track ends there.
- Program changes apply per track and channel, from the tick they occur on; notes are
  grouped into one :class:`~codetok.music.score.Track` per (track, channel, program).
  Channel 10 (index 9) is percussion.
- Tempo and time-signature events are read from every track (format 1 keeps them in the
  first); two at the same tick keep the last.

Writing (:func:`write_midi`, :func:`to_mido`): format 1, the tempo map and meters in the
first track, then one track per instrument on its own channel (percussion on channel 10;
the fifteen others are reused in turn when there are more instruments). Two notes of one
pitch that overlap in time cannot share a track: a reader could not tell which release
ends which note (a unison of two violins merged into one program, a drum hit struck again
before it ends). Such a note goes to an extra track with the same channel and program (a
*lane*), so that reading the file back gives every note exactly.

mido is an optional dependency (``pip install codetok[music]``), imported on first use.
Not handled here: quantization and tokens (``meter.py``, ``remi.py``).
"""

from __future__ import annotations

import io
import os
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import ConfigurationError, FormatError, NotFoundError

__all__ = [
    "Note",
    "Tempo",
    "TimeSignature",
    "Track",
    "Score",
    "read_midi",
    "write_midi",
    "to_mido",
    "import_mido",
    "DRUM_CHANNEL",
]


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
        :func:`read_midi`."""
        return read_midi(source)

    def to_midi(self) -> Any:
        """This score as a ``mido.MidiFile`` (format 1: a tempo track, then one track per
        instrument)."""
        return to_mido(self)

    def to_bytes(self) -> bytes:
        """The bytes of a standard MIDI file holding this score."""
        return write_midi(self)

    def save(self, path: str | os.PathLike[str], /) -> None:
        """Write this score as a standard MIDI file at ``path``."""
        write_midi(self, path)


DRUM_CHANNEL = 9
_MELODIC_CHANNELS = [c for c in range(16) if c != DRUM_CHANNEL]


def import_mido() -> Any:
    """The ``mido`` module, or a :class:`~codetok.errors.ConfigurationError` saying how to
    install it."""
    try:
        import mido
    except ImportError as e:
        raise ConfigurationError(
            "reading and writing MIDI files needs mido: pip install 'codetok[music]'"
        ) from e
    return mido


def _source_bytes(source: Any) -> tuple[bytes, str]:
    """``(bytes, name for messages)`` of a path or bytes."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "MIDI bytes"
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            with open(path, "rb") as f:
                return f.read(), path
        except FileNotFoundError as e:
            raise NotFoundError(f"{path}: no such MIDI file") from e
        except IsADirectoryError as e:
            raise NotFoundError(f"{path}: is a directory; pass a .mid file") from e
    raise ConfigurationError(
        "a MIDI source is a path, bytes, a mido.MidiFile or a codetok.music.Score; "
        f"got {type(source).__name__}"
    )


def read_midi(source: Any, /, *, name: str | None = None) -> Score:
    """Read a standard MIDI file into a :class:`~codetok.music.score.Score`.

    Args:
        source: a path (``str`` or ``os.PathLike``), the file's ``bytes``, or a
            ``mido.MidiFile``.
        name: what error messages call the input (default: the path, or "MIDI bytes").

    Returns:
        The score: ticks per quarter note, one track per (track, channel, program), the
        tempo and time-signature changes.

    Raises:
        NotFoundError: no such file.
        FormatError: the data is not a standard MIDI file, is cut short, or counts time in
            SMPTE frames (the message names the file).
        ConfigurationError: mido is not installed, or ``source`` has another type.

    >>> from codetok.music import Note, Score, Track
    >>> data = Score(96, [Track(40, False, [Note(0, 96, 60, 90)])]).to_bytes()
    >>> read_midi(data).tracks[0].notes
    [Note(start=0, end=96, pitch=60, velocity=90)]
    """
    mido = import_mido()
    if isinstance(source, mido.MidiFile):
        name = name or source.filename or "mido.MidiFile"
        midi = source
    else:
        data, shown = _source_bytes(source)
        name = name or shown
        try:
            midi = mido.MidiFile(file=io.BytesIO(data), clip=True)
        except EOFError as e:
            raise FormatError(
                "the MIDI data ends early (a cut-short or empty file)", path=name
            ) from e
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            raise FormatError(
                f"not a standard MIDI file ({e or type(e).__name__}); pass a .mid file",
                path=name,
            ) from e
    tpq = midi.ticks_per_beat
    if not isinstance(tpq, int) or not 0 < tpq < 0x8000:
        raise FormatError(
            f"the file counts time in SMPTE frames (division {tpq}), not ticks per quarter "
            "note; convert it to a metrical MIDI file first",
            path=name,
        )
    return _score(midi.tracks, tpq)


def _score(tracks: Any, tpq: int) -> Score:
    groups: dict[tuple[int, int, int], list[Note]] = {}
    names: dict[int, str] = {}
    tempos: dict[int, float] = {}
    meters: dict[int, tuple[int, int]] = {}
    for t_index, track in enumerate(tracks):
        tick = 0
        programs: dict[int, int] = defaultdict(int)
        sounding: dict[tuple[int, int], deque[tuple[int, int, int]]] = defaultdict(deque)
        for msg in track:
            tick += msg.time
            kind = msg.type
            if kind == "note_on" and msg.velocity > 0:
                key = (msg.channel, msg.note)
                sounding[key].append((tick, msg.velocity, programs[msg.channel]))
            elif kind == "note_off" or kind == "note_on":
                queue = sounding.get((msg.channel, msg.note))
                if queue:
                    start, velocity, program = queue.popleft()
                    note = Note(start, tick, msg.note, velocity)
                    groups.setdefault((t_index, msg.channel, program), []).append(note)
            elif kind == "program_change":
                programs[msg.channel] = msg.program
            elif kind == "set_tempo":
                tempos[tick] = 60_000_000 / msg.tempo
            elif kind == "time_signature":
                meters[tick] = (msg.numerator, msg.denominator)
            elif kind == "track_name" and t_index not in names:
                names[t_index] = msg.name
        for (channel, pitch), queue in sounding.items():
            for start, velocity, program in queue:  # never released: ends with its track
                note = Note(start, tick, pitch, velocity)
                groups.setdefault((t_index, channel, program), []).append(note)
    out = []
    for (t_index, channel, program), notes in sorted(groups.items()):
        notes.sort()
        is_drum = channel == DRUM_CHANNEL
        out.append(Track(0 if is_drum else program, is_drum, notes, names.get(t_index, "")))
    return Score(
        tpq,
        out,
        [Tempo(t, bpm) for t, bpm in sorted(tempos.items())],
        [TimeSignature(t, n, d) for t, (n, d) in sorted(meters.items())],
    )


#: ``(tick, order at that tick, is_meta, message type, message fields)``.
_Event = tuple[int, int, bool, str, dict[str, Any]]


def to_mido(score: Score) -> Any:
    """A ``mido.MidiFile`` (format 1) holding ``score``.

    Raises:
        ConfigurationError: mido is not installed.
        FormatError: a note, tempo or meter cannot be stored in a MIDI file (the message
            says which).
    """
    mido = import_mido()
    midi = mido.MidiFile(type=1, ticks_per_beat=score.ticks_per_quarter)
    meta: list[_Event] = []
    for ts in score.time_signatures:
        meter = {"numerator": ts.numerator, "denominator": ts.denominator}
        meta.append((ts.tick, 0, True, "time_signature", meter))
    for tempo in score.tempos:
        if tempo.bpm <= 0:
            raise FormatError(f"tempo {tempo.bpm} at tick {tempo.tick} is not positive")
        value = min(round(60_000_000 / tempo.bpm), 0xFFFFFF)
        meta.append((tempo.tick, 1, True, "set_tempo", {"tempo": value}))
    midi.tracks.append(_track(mido, meta))
    melodic = 0
    for track in score.tracks:
        if track.is_drum:
            channel = DRUM_CHANNEL
        else:
            channel = _MELODIC_CHANNELS[melodic % len(_MELODIC_CHANNELS)]
            melodic += 1
        for lane in _lanes(track.notes):
            events: list[_Event] = []
            if track.name:  # MIDI text is bytes; mido writes names as Latin-1
                name = track.name.encode("latin-1", "replace").decode("latin-1")
                events.append((0, 0, True, "track_name", {"name": name}))
            if not track.is_drum:
                change = {"channel": channel, "program": track.program}
                events.append((0, 1, False, "program_change", change))
            for n in lane:
                on = {"channel": channel, "note": n.pitch, "velocity": n.velocity}
                off = {"channel": channel, "note": n.pitch, "velocity": 0}
                # At one tick, releases come before new notes (a key struck again), except
                # the release of a note that also starts there.
                events.append((n.start, 3, False, "note_on", on))
                events.append((n.end, 4 if n.end == n.start else 2, False, "note_off", off))
            midi.tracks.append(_track(mido, events))
    return midi


def _lanes(notes: list[Note]) -> list[list[Note]]:
    """The notes split so that no two notes of one pitch overlap within a list: each note
    goes to the first list where its pitch is free by its start (one list when nothing
    overlaps)."""
    lanes: list[list[Note]] = [[]]
    free: list[dict[int, int]] = [{}]  # per lane: pitch -> tick at which it is free again
    for n in sorted(notes):
        if not (0 <= n.pitch < 128 and 0 < n.velocity < 128 and 0 <= n.start <= n.end):
            raise FormatError(f"cannot store {n} in a MIDI file (pitch 0-127, velocity 1-127)")
        k = next((k for k, ends in enumerate(free) if ends.get(n.pitch, -1) <= n.start), None)
        if k is None:
            lanes.append([])
            free.append({})
            k = len(lanes) - 1
        lanes[k].append(n)
        free[k][n.pitch] = n.end
    return lanes


def _track(mido: Any, events: list[_Event]) -> Any:
    """A mido track of the events, sorted by tick then order."""
    track = mido.MidiTrack()
    now = 0
    for tick, _order, is_meta, kind, fields in sorted(events, key=lambda e: (e[0], e[1])):
        make = mido.MetaMessage if is_meta else mido.Message
        track.append(make(kind, time=tick - now, **fields))
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=0))
    return track


def write_midi(score: Score, path: str | os.PathLike[str] | None = None) -> bytes:
    """The bytes of a standard MIDI file holding ``score``; also written to ``path`` if
    given.

    Raises:
        ConfigurationError: mido is not installed.
        FormatError: the score holds something a MIDI file cannot (see :func:`to_mido`).
        OSError: ``path`` cannot be written.
    """
    buffer = io.BytesIO()
    to_mido(score).save(file=buffer)
    data = buffer.getvalue()
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return data
