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
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError, VocabularyError
from .config import DEFAULT_BPM, RemiConfig, _nearest
from .meter import MeterMap, Segment, output_ticks_per_quarter
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


def _grid(config: RemiConfig, ticks_per_quarter: int | None) -> tuple[int, int]:
    """The result's ticks per quarter and ticks per grid unit: every grid point must fall on
    a whole tick for the notes to come back exactly as quantized."""
    whole = config.positions_per_beat * config.max_denominator
    tpq = ticks_per_quarter or output_ticks_per_quarter(config)
    if (4 * tpq) % whole:
        raise ConfigurationError(
            f"ticks_per_quarter={tpq} puts grid points between ticks; use a multiple of "
            f"{output_ticks_per_quarter(config, 1)}"
        )
    return tpq, 4 * tpq // whole


@dataclass
class _Decoding:
    """Where one :func:`decode_tokens` call is in the sequence, and what it has read."""

    indices: Sequence[int]
    vocab: RemiVocab
    strict: bool
    scale: int  # ticks per grid unit
    meters: MeterMap
    seg: Segment  # the meter of the current bar
    bar_start: int = 0
    bar: int = -1
    pos: int = 0
    program: int = 0  # set by the Program token that opens each note
    note: list[int] = field(default_factory=list)  # pitch, velocity of the note being read
    expected: int | None = None
    tracks: dict[int, list[Note]] = field(default_factory=dict)
    tempos: list[Tempo] = field(default_factory=list)
    meters_out: list[TimeSignature] = field(default_factory=list)
    previous_kind: int | None = None


def _fail(d: _Decoding, i: int, why: str) -> None:
    """Raise on the misplaced token ``i`` when strict; otherwise the caller skips it."""
    if d.strict:
        raise VocabularyError(
            f"token {i} ({d.vocab.names[d.indices[i]]}) {why}; pass strict=False to skip it"
        )


def _check_place(d: _Decoding, i: int, kind: int) -> None:
    """Report a token that breaks a note or comes before the first Bar, and recover: the
    broken note is dropped, the stray tokens open bar 0."""
    if d.expected is not None and kind != d.expected:
        _fail(d, i, f"breaks a note: a {_KIND_NAMES[d.expected]} token must come here")
        d.expected, d.note = None, []
    if d.bar < 0 and kind != BAR:
        _fail(d, i, "comes before the first Bar")
        d.bar = 0


def _read_token(d: _Decoding, i: int, kind: int, value: Any) -> None:
    """Apply token ``i`` to the score being rebuilt: move in time, change the meter or the
    tempo, or read one part of a note (adding the note at its Duration)."""
    config = d.vocab.config
    if kind in (PITCH, VELOCITY, DURATION) and kind != d.expected:
        before = "Program" if kind == PITCH else _KIND_NAMES[kind - 1]
        _fail(d, i, f"must follow a {before} token (a note is Program Pitch Velocity Duration)")
    elif kind == BAR:
        if d.bar >= 0:
            d.bar_start += d.seg.bar_units
        d.bar += 1
        d.pos = 0
    elif kind == TIME_SIGNATURE:
        if d.previous_kind == BAR:
            d.seg = d.meters.segment(d.bar_start, d.bar, *value)
            if not d.meters_out or d.meters_out[-1][1:] != value:
                d.meters_out.append(TimeSignature(d.bar_start * d.scale, *value))
        else:
            _fail(d, i, "must come right after Bar")
    elif kind == POSITION:
        if value >= d.seg.positions:
            _fail(d, i, f"is past the end of a {d.seg.numerator}/{d.seg.denominator} bar")
        d.pos = value
    elif kind == TEMPO:
        tick = (d.bar_start + d.pos * d.seg.step) * d.scale
        d.tempos.append(Tempo(tick, config.tempo_values[value]))
    elif kind == PROGRAM:
        d.program = value
        d.expected = PITCH
    elif kind == PITCH:
        d.note = [value]
        d.expected = VELOCITY
    elif kind == VELOCITY:
        d.note.append(config.velocity_values[value])
        d.expected = DURATION
    else:  # the Duration that ends a note
        start = (d.bar_start + d.pos * d.seg.step) * d.scale
        end = start + config.duration_steps[value] * d.seg.step * d.scale
        d.tracks.setdefault(d.program, []).append(Note(start, end, d.note[0], d.note[1]))
        d.expected, d.note = None, []


def _tracks(tracks: dict[int, list[Note]]) -> list[Track]:
    """One track per program, in program order with drums last, each with its notes sorted."""
    out = []
    for prog in sorted(tracks, key=lambda p: (p == DRUMS, p)):
        notes = sorted(tracks[prog])
        out.append(Track(0 if prog == DRUMS else prog, prog == DRUMS, notes))
    return out


def _kept_tempos(tempos: list[Tempo]) -> list[Tempo]:
    """The tempo changes that change something: the last at a tick wins, repeats are dropped."""
    kept: list[Tempo] = []
    for t in tempos:
        if kept and kept[-1].tick == t.tick:
            kept[-1] = t
        elif not kept or kept[-1].bpm != t.bpm:
            kept.append(t)
    return kept


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
    tpq, scale = _grid(config, ticks_per_quarter)
    kinds, values = vocab.kinds, vocab.values
    meters = MeterMap(config, tpq)
    d = _Decoding(indices, vocab, strict, scale, meters, meters.segment(0, 0, *config.meter(4, 4)))
    for i, idx in enumerate(indices):
        kind = kinds[idx]
        value = values[idx]
        _check_place(d, i, kind)
        _read_token(d, i, kind, value)
        d.previous_kind = kind
    if d.expected is not None:
        _fail(d, len(indices) - 1, "ends the sequence in the middle of a note")
    return Score(tpq, _tracks(d.tracks), _kept_tempos(d.tempos), d.meters_out)
