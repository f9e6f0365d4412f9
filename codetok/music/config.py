"""The quantization of a REMI tokenizer: which values each kind of token can take.

:class:`RemiConfig` fixes the grid and the bins, and so the vocabulary:

- **positions**: a beat (the note value of the time signature's denominator: a quarter in
  4/4, an eighth in 6/8) is cut into ``positions_per_beat`` steps, the largest resolution
  of ``beat_resolution``; a bar of ``n`` beats has ``n * positions_per_beat`` positions.
- **durations**: in beats; ``beat_resolution`` lists ``(first_beat, last_beat, steps per
  beat)`` ranges, the default ``((0, 4, 8), (4, 12, 4))`` gives 1/8, 2/8, ... 4 beats, then
  4 1/4, 4 1/2, ... 12 beats (64 values). Longer notes take the longest duration.
- **velocities**: ``velocities`` values spread evenly from 1 to 127.
- **tempos**: ``tempos`` values spread geometrically over ``tempo_range`` (a tempo is
  heard as a ratio, so the bins are equally fine at 50 and at 200 quarter notes per
  minute), one of them 120, the tempo of a file that sets none.
- **time signatures**: the meters with a token; any other is replaced by the nearest one
  (bar length first, then denominator), which moves bar lines but never a note.
- **pitches**: ``pitch_range``, inclusive (default: the 88 piano keys); notes outside are
  left out.

The defaults are those of miditok's REMI (positions, durations, pitch range and velocity
count), so that the two can be compared on the same grid.

Not handled here: the tokens themselves (``vocab.py``), putting notes on the grid
(``meter.py``).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..errors import ConfigurationError, FormatError

__all__ = ["RemiConfig", "DEFAULT_TIME_SIGNATURES", "DEFAULT_BPM"]

#: The tempo of a MIDI file that sets none (quarter notes per minute).
DEFAULT_BPM = 120.0

#: Numerators 1-12 over 2, 4, 8 and 16.
DEFAULT_TIME_SIGNATURES: tuple[tuple[int, int], ...] = tuple(
    (n, d) for d in (2, 4, 8, 16) for n in range(1, 13)
)


@dataclass(frozen=True)
class RemiConfig:
    """The grid and bins of a REMI tokenizer (see the module docstring).

    Args:
        pitch_range: lowest and highest MIDI pitch with a token.
        beat_resolution: ``(first_beat, last_beat, steps_per_beat)`` ranges of durations;
            every steps-per-beat value divides the largest, which is the position grid.
        velocities: number of velocity bins.
        tempos: number of tempo bins.
        tempo_range: slowest and fastest tempo, quarter notes per minute.
        time_signatures: ``(numerator, denominator)`` meters with a token; denominators
            are powers of two.

    Raises:
        ConfigurationError: a value out of range or inconsistent with the others.

    >>> c = RemiConfig()
    >>> c.positions_per_beat, len(c.durations), c.durations[:3], c.velocity_values[:3]
    (8, 64, (Fraction(1, 8), Fraction(1, 4), Fraction(3, 8)), (1, 5, 9))
    """

    pitch_range: tuple[int, int] = (21, 108)
    beat_resolution: tuple[tuple[int, int, int], ...] = ((0, 4, 8), (4, 12, 4))
    velocities: int = 32
    tempos: int = 32
    tempo_range: tuple[float, float] = (40.0, 250.0)
    time_signatures: tuple[tuple[int, int], ...] = field(default=DEFAULT_TIME_SIGNATURES)

    def __post_init__(self) -> None:
        # Lists (from JSON) become tuples, so that the config stays hashable.
        object.__setattr__(self, "pitch_range", tuple(self.pitch_range))
        object.__setattr__(self, "beat_resolution", tuple(map(tuple, self.beat_resolution)))
        object.__setattr__(self, "tempo_range", tuple(map(float, self.tempo_range)))
        object.__setattr__(self, "time_signatures", tuple(map(tuple, self.time_signatures)))
        low, high = _pair("pitch_range", self.pitch_range)
        if not (0 <= low <= high <= 127):
            raise ConfigurationError(
                f"pitch_range must be 0 <= low <= high <= 127, got {self.pitch_range}"
            )
        if not self.beat_resolution:
            raise ConfigurationError(
                "beat_resolution needs at least one (first, last, steps) range"
            )
        for r in self.beat_resolution:
            if (
                len(r) != 3
                or not all(isinstance(x, int) for x in r)
                or not 0 <= r[0] < r[1]
                or r[2] < 1
            ):
                raise ConfigurationError(
                    f"beat_resolution ranges are (first_beat, last_beat, steps_per_beat) ints "
                    f"with 0 <= first < last and steps >= 1, got {r}"
                )
        top = self.positions_per_beat
        if any(top % r[2] for r in self.beat_resolution):
            raise ConfigurationError(
                f"every steps_per_beat of beat_resolution must divide the largest ({top}), "
                f"got {[r[2] for r in self.beat_resolution]}"
            )
        for name in ("velocities", "tempos"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 1 <= value <= 127:
                raise ConfigurationError(f"{name} must be an int from 1 to 127, got {value!r}")
        slow, fast = self.tempo_range
        if not 0 < slow <= fast:
            raise ConfigurationError(
                f"tempo_range must be 0 < slowest <= fastest, got {self.tempo_range}"
            )
        if not self.time_signatures:
            raise ConfigurationError("time_signatures needs at least one (numerator, denominator)")
        for n, d in self.time_signatures:
            if not (
                isinstance(n, int) and isinstance(d, int) and n >= 1 and d >= 1 and d & (d - 1) == 0
            ):
                raise ConfigurationError(
                    f"time signatures are (numerator >= 1, denominator a power of two), got {(n, d)}"
                )

    # -- derived tables -------------------------------------------------------------
    @property
    def positions_per_beat(self) -> int:
        """Grid steps per beat (the largest resolution of ``beat_resolution``)."""
        return max(r[2] for r in self.beat_resolution)

    @cached_property
    def durations(self) -> tuple[Fraction, ...]:
        """The duration values, in beats, ascending."""
        values = set()
        for first, last, steps in self.beat_resolution:
            for k in range(first * steps + 1, last * steps + 1):
                values.add(Fraction(k, steps))
        return tuple(sorted(values))

    @cached_property
    def duration_steps(self) -> tuple[int, ...]:
        """The duration values in grid steps (``positions_per_beat`` per beat)."""
        return tuple(int(v * self.positions_per_beat) for v in self.durations)

    @cached_property
    def velocity_values(self) -> tuple[int, ...]:
        """The velocity of each bin, ascending: evenly from 1 to 127, so that no velocity
        is more than half a bin from its value."""
        n = self.velocities
        if n == 1:
            return (64,)
        return tuple(sorted({round(1 + 126 * k / (n - 1)) for k in range(n)}))

    @cached_property
    def tempo_values(self) -> tuple[float, ...]:
        """The tempo of each bin (quarter notes per minute, one decimal), ascending.

        The bins are a geometric series with ``tempos`` terms over ``tempo_range``; when
        the range holds 120 (the tempo of MIDI files that set none), the series is shifted
        by less than half a step so that 120 is one of its terms.
        """
        slow, fast = self.tempo_range
        n = self.tempos
        if n == 1 or slow == fast:
            return (round(slow, 1),)
        step = math.log(fast / slow) / (n - 1)
        first = math.log(slow)
        if slow <= DEFAULT_BPM <= fast:
            first = math.log(DEFAULT_BPM) - round(math.log(DEFAULT_BPM / slow) / step) * step
        return tuple(sorted({round(math.exp(first + step * k), 1) for k in range(n)}))

    @cached_property
    def max_bar_positions(self) -> int:
        """Positions in the longest bar of any supported meter."""
        return max(n for n, _d in self.time_signatures) * self.positions_per_beat

    @cached_property
    def max_denominator(self) -> int:
        """The largest denominator of the supported meters (every other divides it)."""
        return max(d for _n, d in self.time_signatures)

    # -- quantization ---------------------------------------------------------------
    def velocity_bin(self, velocity: int) -> int:
        """Index of the velocity value nearest ``velocity`` (the lower one on a tie)."""
        return _nearest(self.velocity_values, velocity)

    def tempo_bin(self, bpm: float) -> int:
        """Index of the tempo value nearest ``bpm`` by ratio (the slower one on a tie)."""
        if bpm <= 0:
            return 0
        return _nearest(self._tempo_logs, math.log(bpm))

    @cached_property
    def _tempo_logs(self) -> tuple[float, ...]:
        return tuple(math.log(v) for v in self.tempo_values)

    def meter(self, numerator: int, denominator: int) -> tuple[int, int]:
        """The supported meter that stands for ``numerator/denominator``: itself when
        supported, else the one with the nearest bar length (then the nearest denominator,
        then the smallest numerator)."""
        if (numerator, denominator) in self.time_signatures:
            return numerator, denominator
        length = Fraction(numerator, max(denominator, 1))
        d_log = math.log2(max(denominator, 1))
        return min(
            self.time_signatures,
            key=lambda m: (abs(Fraction(m[0], m[1]) - length), abs(math.log2(m[1]) - d_log), m[0]),
        )

    # -- serialization --------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (lists for tuples)."""
        return {
            "pitch_range": list(self.pitch_range),
            "beat_resolution": [list(r) for r in self.beat_resolution],
            "velocities": self.velocities,
            "tempos": self.tempos,
            "tempo_range": list(self.tempo_range),
            "time_signatures": [list(m) for m in self.time_signatures],
        }

    @classmethod
    def from_dict(cls, data: Any, *, path: str | None = None) -> RemiConfig:
        """Inverse of :meth:`to_dict`.

        Raises:
            FormatError: unknown keys or invalid values (naming ``path``).
        """
        if not isinstance(data, dict):
            raise FormatError("the REMI config must be a JSON object", path=path)
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise FormatError(
                f"unknown REMI config key(s) {unknown}; known: {sorted(known)}", path=path
            )
        try:
            return cls(**data)
        except (ConfigurationError, TypeError, ValueError) as e:
            raise FormatError(f"invalid REMI config: {e}", path=path) from e


def _pair(name: str, value: Any) -> tuple[int, int]:
    if len(value) != 2 or not all(isinstance(x, int) for x in value):
        raise ConfigurationError(f"{name} must be two ints, got {value!r}")
    return value[0], value[1]


def _nearest(values: Any, x: float) -> int:
    """Index of the item of the ascending ``values`` nearest ``x`` (the lower on a tie)."""
    i = bisect.bisect_left(values, x)
    if i == 0:
        return 0
    if i == len(values):
        return len(values) - 1
    return i if values[i] - x < x - values[i - 1] else i - 1
