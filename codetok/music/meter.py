"""Bar lines and the position grid: ticks to (bar, position) and back.

All grid arithmetic is exact, in integer *grid units*: ``positions_per_beat *
max_denominator`` of them make a whole note, so that one position is ``max_denominator /
denominator`` units in every supported meter (a 16th of a beat in 4/4 and in 6/8 alike). A
tick ``t`` of a file with ``tpq`` ticks per quarter lies at ``t * W / (4 * tpq)`` units;
comparisons multiply through instead of dividing.

A :class:`MeterMap` is a list of :class:`Segment` s, stretches of bars in one meter. A
time-signature event takes effect at the bar line nearest to it (measured in the meter
before it), so a slightly early or late event in a file does not cut a bar short; an event
on the first bar line replaces the meter there. Rounding a note to the grid may carry it
over a bar line: it then sits at position 0 of the next bar.

Not handled here: which meters exist (``config.py``), tokens (``remi.py``).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable
from typing import NamedTuple

from .config import RemiConfig

__all__ = ["Segment", "MeterMap", "output_ticks_per_quarter"]


class Segment(NamedTuple):
    """Bars of one meter from grid unit ``start`` on (the first of them is ``first_bar``)."""

    start: int
    first_bar: int
    numerator: int
    denominator: int
    step: int  # grid units per position
    positions: int  # positions per bar

    @property
    def bar_units(self) -> int:
        """Grid units per bar."""
        return self.step * self.positions


def _round_div(num: int, den: int) -> int:
    """``num / den`` rounded to the nearest int, halves up (``den`` > 0)."""
    return (2 * num + den) // (2 * den)


class MeterMap:
    """Where the bars of a piece lie, on the grid of a :class:`RemiConfig`.

    Args:
        config: the grid and the supported meters.
        ticks_per_quarter: the time resolution of the ticks that :meth:`locate` takes.
        time_signatures: ``(tick, numerator, denominator)`` changes; unsupported meters are
            replaced by :meth:`RemiConfig.meter`. None or empty: 4/4 throughout.

    >>> m = MeterMap(RemiConfig(), 480, [(0, 3, 4)])
    >>> m.locate(1440 + 240)  # the second bar of 3/4, half a beat in
    (1, 4, Segment(start=0, first_bar=0, numerator=3, denominator=4, step=4, positions=24))
    """

    def __init__(
        self,
        config: RemiConfig,
        ticks_per_quarter: int,
        time_signatures: Iterable[tuple[int, int, int]] | None = None,
    ) -> None:
        self.config = config
        self.whole = config.positions_per_beat * config.max_denominator
        self._q = 4 * ticks_per_quarter  # ticks per whole note
        segments = [self.segment(0, 0, *config.meter(4, 4))]
        for tick, numerator, denominator in sorted(time_signatures or (), key=lambda ts: ts[0]):
            meter = config.meter(numerator, denominator)
            last = segments[-1]
            bars = _round_div(tick * self.whole - last.start * self._q, last.bar_units * self._q)
            if bars <= 0:
                if len(segments) > 1 and segments[-2][2:4] == meter:
                    segments.pop()
                else:
                    segments[-1] = self.segment(last.start, last.first_bar, *meter)
            elif meter != last[2:4]:
                start = last.start + bars * last.bar_units
                segments.append(self.segment(start, last.first_bar + bars, *meter))
        self.segments = segments
        self._starts = [s.start * self._q for s in segments]
        self._first_bars = [s.first_bar for s in segments]

    def segment(self, start: int, first_bar: int, numerator: int, denominator: int) -> Segment:
        """A segment of ``numerator/denominator`` bars on this grid."""
        step = self.config.max_denominator // denominator
        return Segment(
            start,
            first_bar,
            numerator,
            denominator,
            step,
            numerator * self.config.positions_per_beat,
        )

    def locate(self, tick: int) -> tuple[int, int, Segment]:
        """``(bar, position, segment)`` of the grid point nearest ``tick``."""
        x = tick * self.whole
        i = max(0, bisect.bisect_right(self._starts, x) - 1)
        seg = self.segments[i]
        g = max(0, _round_div(x - seg.start * self._q, seg.step * self._q))
        if i + 1 < len(self.segments) and seg.start + g * seg.step >= self.segments[i + 1].start:
            seg, g = self.segments[i + 1], 0
        return seg.first_bar + g // seg.positions, g % seg.positions, seg

    def steps(self, ticks: int, seg: Segment) -> float:
        """A length of ``ticks`` in positions of ``seg``'s meter."""
        return ticks * self.whole / (seg.step * self._q)

    def segment_of_bar(self, bar: int) -> Segment:
        """The segment holding ``bar``."""
        return self.segments[bisect.bisect_right(self._first_bars, bar) - 1]


def output_ticks_per_quarter(config: RemiConfig, near: int = 480) -> int:
    """The ticks-per-quarter resolution nearest ``near`` on which every grid point of
    ``config`` is a whole tick.

    >>> output_ticks_per_quarter(RemiConfig())
    480
    """
    whole = config.positions_per_beat * config.max_denominator
    quantum = whole // math.gcd(whole, 4)  # ticks per quarter must be a multiple of this
    return quantum * max(1, round(near / quantum))
