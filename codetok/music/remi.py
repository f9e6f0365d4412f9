"""REMI: a score as a sequence of bar, position and note tokens, and back.

Encoding walks the bars of the piece in time order, all tracks merged::

    Bar TimeSig_4/4 Position_0 Tempo_120 Program_0 Pitch_60 Velocity_62 Duration_1
                                         Program_0 Pitch_64 Velocity_62 Duration_1
        Position_8 Program_drums Pitch_38 Velocity_99 Duration_1/8
    Bar Position_0 ...

- Every bar opens with ``Bar``, empty bars included; ``TimeSig`` follows the first bar and
  every bar where the meter changes.
- ``Position`` opens each grid point that has events (it is not repeated within it); the
  tempo change there comes first, then the notes ordered by program (drums last), pitch,
  velocity and duration.
- Each note is ``Program Pitch Velocity Duration``. Quantization: onsets to the nearest
  grid point, durations (in beats of the meter at the onset) and velocities to the nearest
  value of the config, tempos to the nearest bin by ratio. The first tempo token is the
  tempo at the start (120 when the file sets none); a change that keeps the bin is dropped.
- Notes outside the config's pitch range are left out.

Decoding inverts this: one track per program (and one for drums), times on a grid of
:func:`~codetok.music.meter.output_ticks_per_quarter` ticks, so the notes come back exactly
as quantized. ``strict=False`` skips what a generated sequence may get wrong (a note cut
short, a position past the bar's end places its notes past the bar line, tokens before the
first ``Bar`` open bar 0).

Not handled here: the grid (``meter.py``), ids and BPE (``tokenizer.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ConfigurationError, VocabularyError
from .config import DEFAULT_BPM, _nearest
from .meter import MeterMap, output_ticks_per_quarter
from .score import Note, Score, Tempo, TimeSignature, Track
from .vocab import (
    BAR,
    DRUMS,
    DURATION,
    PITCH,
    POSITION,
    PROGRAM,
    TEMPO,
    TIME_SIGNATURE,
    VELOCITY,
    RemiVocab,
)

__all__ = ["encode_score", "decode_tokens"]


def _tempo_events(score: Score, vocab: RemiVocab, meters: MeterMap) -> list[tuple[int, ...]]:
    """``(bar, position, 0, Tempo token)`` of the tempo at the start and of each change
    that moves to another bin."""
    config = vocab.config
    tempos = sorted(score.tempos, key=lambda t: t.tick)  # stable: the last at a tick wins
    at_start = DEFAULT_BPM
    i = 0
    while i < len(tempos) and tempos[i].tick <= 0:
        at_start = tempos[i].bpm
        i += 1
    located: dict[tuple[int, int], int] = {(0, 0): config.tempo_bin(at_start)}
    for t in tempos[i:]:
        bar, pos, _seg = meters.locate(t.tick)
        located[(bar, pos)] = config.tempo_bin(t.bpm)  # the last change at a point wins
    events = []
    previous = None
    for (bar, pos), tempo_bin in sorted(located.items()):
        if tempo_bin != previous:
            events.append((bar, pos, 0, vocab.tempo(tempo_bin)))
            previous = tempo_bin
    return events


def encode_score(score: Score, vocab: RemiVocab) -> list[int]:
    """The REMI base token indices of ``score`` (see the module docstring).

    >>> from codetok.music import RemiConfig, Score, Track, Note
    >>> v = RemiVocab(RemiConfig())
    >>> s = Score(480, [Track(0, False, [Note(240, 720, 60, 100)])])
    >>> [v.names[i] for i in encode_score(s, v)]  # doctest: +NORMALIZE_WHITESPACE
    ['Bar', 'TimeSig_4/4', 'Position_0', 'Tempo_120', 'Position_4', 'Program_0',
     'Pitch_60', 'Velocity_99', 'Duration_1']
    """
    config = vocab.config
    meters = MeterMap(config, score.ticks_per_quarter, [tuple(ts) for ts in score.time_signatures])
    events = _tempo_events(score, vocab, meters)
    low, high = config.pitch_range
    steps = config.duration_steps
    for track in score.tracks:
        program = vocab.program(track.program, track.is_drum)
        for note in track.notes:
            if not low <= note.pitch <= high:
                continue
            bar, pos, seg = meters.locate(note.start)
            length = _nearest(steps, meters.steps(note.end - note.start, seg))
            velocity = config.velocity_bin(note.velocity)
            events.append(
                (
                    bar,
                    pos,
                    1,
                    program,
                    vocab.pitch(note.pitch),
                    vocab.velocity(velocity),
                    vocab.duration(length),
                )
            )
    events.sort()
    meter_at = {
        s.first_bar: vocab.time_signature(s.numerator, s.denominator) for s in meters.segments
    }
    out: list[int] = []
    k = 0
    for bar in range(events[-1][0] + 1):
        out.append(0)  # Bar
        if bar in meter_at:
            out.append(meter_at[bar])
        while k < len(events) and events[k][0] == bar:
            pos = events[k][1]
            out.append(vocab.position(pos))
            while k < len(events) and events[k][0] == bar and events[k][1] == pos:
                out.extend(events[k][3:])
                k += 1
    return out


_KIND_NAMES = {PROGRAM: "Program", PITCH: "Pitch", VELOCITY: "Velocity", DURATION: "Duration"}


def decode_tokens(
    indices: Sequence[int],
    vocab: RemiVocab,
    *,
    ticks_per_quarter: int | None = None,
    strict: bool = True,
) -> Score:
    """The score that REMI base token indices describe (see the module docstring).

    Args:
        indices: base token indices (:attr:`RemiVocab.names` positions).
        vocab: the base vocabulary.
        ticks_per_quarter: the time resolution of the result; it must put every grid point
            on a whole tick (default: the nearest such to 480).
        strict: raise on a malformed sequence instead of skipping the broken part.

    Raises:
        VocabularyError: (``strict``) a token where it cannot be: a note that is not
            ``Program Pitch Velocity Duration``, a ``TimeSig`` not right after ``Bar``,
            a ``Position`` past the end of its bar, anything before the first ``Bar``.
        ConfigurationError: ``ticks_per_quarter`` does not fit the grid.

    >>> from codetok.music import RemiConfig
    >>> v = RemiVocab(RemiConfig())
    >>> names = ["Bar", "Position_8", "Program_0", "Pitch_60", "Velocity_66", "Duration_1/2"]
    >>> decode_tokens(v.lookup(names), v).tracks[0].notes
    [Note(start=480, end=720, pitch=60, velocity=66)]
    """
    config = vocab.config
    whole = config.positions_per_beat * config.max_denominator
    tpq = ticks_per_quarter or output_ticks_per_quarter(config)
    if (4 * tpq) % whole:
        raise ConfigurationError(
            f"ticks_per_quarter={tpq} puts grid points between ticks; use a multiple of "
            f"{output_ticks_per_quarter(config, 1)}"
        )
    scale = 4 * tpq // whole  # ticks per grid unit
    kinds, values = vocab.kinds, vocab.values
    meters = MeterMap(config, tpq)
    seg = meters.segment(0, 0, *config.meter(4, 4))
    bar_start = 0
    bar = -1
    pos = 0
    program = 0  # set by the Program token that opens each note
    note: list[int] = []  # pitch, velocity of the note being read
    expected: int | None = None
    tracks: dict[int, list[Note]] = {}
    tempos: list[Tempo] = []
    meters_out: list[TimeSignature] = []
    previous_kind: int | None = None

    def fail(i: int, why: str) -> None:
        if strict:
            raise VocabularyError(
                f"token {i} ({vocab.names[indices[i]]}) {why}; pass strict=False to skip it"
            )

    for i, idx in enumerate(indices):
        kind = kinds[idx]
        value = values[idx]
        if expected is not None and kind != expected:
            fail(i, f"breaks a note: a {_KIND_NAMES[expected]} token must come here")
            expected, note = None, []
        if bar < 0 and kind != BAR:
            fail(i, "comes before the first Bar")
            bar = 0
        if kind in (PITCH, VELOCITY, DURATION) and kind != expected:
            before = "Program" if kind == PITCH else _KIND_NAMES[kind - 1]
            fail(i, f"must follow a {before} token (a note is Program Pitch Velocity Duration)")
        elif kind == BAR:
            if bar >= 0:
                bar_start += seg.bar_units
            bar += 1
            pos = 0
        elif kind == TIME_SIGNATURE:
            if previous_kind == BAR:
                seg = meters.segment(bar_start, bar, *value)
                if not meters_out or meters_out[-1][1:] != value:
                    meters_out.append(TimeSignature(bar_start * scale, *value))
            else:
                fail(i, "must come right after Bar")
        elif kind == POSITION:
            if value >= seg.positions:
                fail(i, f"is past the end of a {seg.numerator}/{seg.denominator} bar")
            pos = value
        elif kind == TEMPO:
            tempos.append(Tempo((bar_start + pos * seg.step) * scale, config.tempo_values[value]))
        elif kind == PROGRAM:
            program = value
            expected = PITCH
        elif kind == PITCH:
            note = [value]
            expected = VELOCITY
        elif kind == VELOCITY:
            note.append(config.velocity_values[value])
            expected = DURATION
        else:  # the Duration that ends a note
            start = (bar_start + pos * seg.step) * scale
            end = start + config.duration_steps[value] * seg.step * scale
            tracks.setdefault(program, []).append(Note(start, end, note[0], note[1]))
            expected, note = None, []
        previous_kind = kind
    if expected is not None:
        fail(len(indices) - 1, "ends the sequence in the middle of a note")
    out = []
    for prog in sorted(tracks, key=lambda p: (p == DRUMS, p)):
        notes = sorted(tracks[prog])
        out.append(Track(0 if prog == DRUMS else prog, prog == DRUMS, notes))
    kept: list[Tempo] = []
    for t in tempos:
        if kept and kept[-1].tick == t.tick:
            kept[-1] = t
        elif not kept or kept[-1].bpm != t.bpm:
            kept.append(t)
    return Score(tpq, out, kept, meters_out)
