"""The REMI base vocabulary of a config: token names, their kinds and values, their chars.

The tokens, in id order (each list follows the config's values):

===============  ==========================================  =============================
kind             names                                       meaning
===============  ==========================================  =============================
bar              ``Bar``                                     a new bar begins
time signature   ``TimeSig_3/4``                             the meter from this bar on
position         ``Position_0`` ... ``Position_95``          the grid step within the bar
tempo            ``Tempo_120.1``                             quarter notes per minute
program          ``Program_0`` ... ``Program_127``,          the instrument of the next note
                 ``Program_drums``
pitch            ``Pitch_21`` ... ``Pitch_108``              a note: its pitch,
velocity         ``Velocity_4`` ... ``Velocity_127``         loudness,
duration         ``Duration_1/8`` ... ``Duration_12``        and length in beats
===============  ==========================================  =============================

For BPE, each base token is written as one character, ``chr(FIRST_CHAR + index)`` (CJK
ideographs from U+4E00, which no pre-tokenizer treats specially), so that codetok's
character-level BPE engine learns and applies merges over them; ``Bar`` comes first.

Not handled here: choosing values (``config.py``), sequences of tokens (``remi.py``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import ConfigurationError, VocabularyError
from .config import RemiConfig

__all__ = [
    "RemiVocab",
    "FIRST_CHAR",
    "BAR",
    "TIME_SIGNATURE",
    "POSITION",
    "TEMPO",
    "PROGRAM",
    "PITCH",
    "VELOCITY",
    "DURATION",
    "DRUMS",
]

FIRST_CHAR = 0x4E00
_LAST_CHAR = 0x9FFF

BAR, TIME_SIGNATURE, POSITION, TEMPO, PROGRAM, PITCH, VELOCITY, DURATION = range(8)
#: The program value of percussion (``Program_drums``).
DRUMS = -1


def _beats(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


class RemiVocab:
    """Names, kinds and values of the base tokens of ``config``.

    Attributes:
        names: token name by index.
        kinds: kind (``BAR`` ... ``DURATION``) by index.
        values: the token's value by index: ``(numerator, denominator)``, a position, a
            tempo bin, a program (``DRUMS`` for percussion), a pitch, a velocity bin or a
            duration bin; None for ``Bar``.

    >>> v = RemiVocab(RemiConfig())
    >>> len(v), v.names[:2], v.names[v.pitch(60)], v.names[v.duration(7)]
    (490, ('Bar', 'TimeSig_1/2'), 'Pitch_60', 'Duration_1')
    """

    def __init__(self, config: RemiConfig) -> None:
        self.config = config
        entries: list[tuple[str, int, Any]] = [("Bar", BAR, None)]
        entries += [(f"TimeSig_{n}/{d}", TIME_SIGNATURE, (n, d)) for n, d in config.time_signatures]
        entries += [(f"Position_{p}", POSITION, p) for p in range(config.max_bar_positions)]
        entries += [(f"Tempo_{t:g}", TEMPO, i) for i, t in enumerate(config.tempo_values)]
        entries += [(f"Program_{p}", PROGRAM, p) for p in range(128)]
        entries.append(("Program_drums", PROGRAM, DRUMS))
        low, high = config.pitch_range
        entries += [(f"Pitch_{p}", PITCH, p) for p in range(low, high + 1)]
        entries += [(f"Velocity_{v}", VELOCITY, i) for i, v in enumerate(config.velocity_values)]
        entries += [(f"Duration_{_beats(d)}", DURATION, i) for i, d in enumerate(config.durations)]
        if len(entries) > _LAST_CHAR - FIRST_CHAR + 1:
            raise ConfigurationError(
                f"the config makes {len(entries)} base tokens; at most "
                f"{_LAST_CHAR - FIRST_CHAR + 1} fit the character range"
            )
        self.names = tuple(e[0] for e in entries)
        self.kinds = tuple(e[1] for e in entries)
        self.values = tuple(e[2] for e in entries)
        self.index = {name: i for i, name in enumerate(self.names)}
        self._first = {}
        for i, kind in enumerate(self.kinds):
            self._first.setdefault(kind, i)
        self._meters = {
            m: i for i, m in enumerate(config.time_signatures, self._first[TIME_SIGNATURE])
        }

    def __len__(self) -> int:
        return len(self.names)

    # -- index of a token of each kind ----------------------------------------------
    def time_signature(self, numerator: int, denominator: int) -> int:
        return self._meters[(numerator, denominator)]

    def position(self, position: int) -> int:
        return self._first[POSITION] + position

    def tempo(self, tempo_bin: int) -> int:
        return self._first[TEMPO] + tempo_bin

    def program(self, program: int, is_drum: bool) -> int:
        return self._first[PROGRAM] + (128 if is_drum else program)

    def pitch(self, pitch: int) -> int:
        return self._first[PITCH] + pitch - self.config.pitch_range[0]

    def velocity(self, velocity_bin: int) -> int:
        return self._first[VELOCITY] + velocity_bin

    def duration(self, duration_bin: int) -> int:
        return self._first[DURATION] + duration_bin

    # -- characters -----------------------------------------------------------------
    @property
    def bar_char(self) -> str:
        """The character of ``Bar`` (where BPE words begin)."""
        return chr(FIRST_CHAR)

    def chars(self, indices: list[int]) -> str:
        """The one-character-per-token text of ``indices``."""
        return "".join([chr(FIRST_CHAR + i) for i in indices])

    def alphabet(self) -> list[str]:
        """The character of every base token, by index."""
        return [chr(FIRST_CHAR + i) for i in range(len(self.names))]

    def from_chars(self, text: str) -> list[int]:
        """Base token indices of a text of :meth:`chars`.

        Raises:
            VocabularyError: a character stands for no base token.
        """
        out = [ord(c) - FIRST_CHAR for c in text]
        n = len(self.names)
        for i, x in enumerate(out):
            if not 0 <= x < n:
                raise VocabularyError(
                    f"character {text[i]!r} (U+{ord(text[i]):04X}) stands for no REMI token; "
                    f"base tokens are U+{FIRST_CHAR:04X}-U+{FIRST_CHAR + n - 1:04X}"
                )
        return out

    def lookup(self, names: list[str]) -> list[int]:
        """Base token indices of token names.

        Raises:
            VocabularyError: a name is not a base token (the message gives its position).
        """
        try:
            return [self.index[t] for t in names]
        except KeyError:
            for pos, t in enumerate(names):
                if t not in self.index:
                    raise VocabularyError(
                        f"token {pos} ({t!r}) is not a REMI token of this config"
                    ) from None
            raise
