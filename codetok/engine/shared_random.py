"""The generator of a sampling model (BPE dropout, Unigram alpha), shared with native code.

:class:`SharedRandom` is a ``random.Random`` whose stream lives in a native
``_core.SharedRandom``: Python's Mersenne Twister, draw for draw, behind a lock. A model's
reference kernels draw from it through :meth:`SharedRandom.random`; its native kernel and
native plans draw from the same stream without the GIL. So a seeded tokenizer samples the
same segmentations on the native plan and on the Python engine, and one stream is consumed
in the order texts are encoded, whichever engine encodes them.

A ``random.Random`` a caller passes as ``seed=`` is used as given (it may be shared with
other code); such a model samples through the Python engine.

>>> a, b = SharedRandom(7), __import__("random").Random(7)
>>> [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
True
"""

from __future__ import annotations

import random
from typing import Any

from codetok.engine import native as _backend

__all__ = ["SharedRandom", "model_random"]


class SharedRandom(random.Random):
    """A ``random.Random`` drawing from a native generator (see the module docstring).

    Args:
        x: the seed, as ``random.Random`` takes it.
    """

    def __init__(self, x: Any = None) -> None:
        #: The native generator the model's kernel and plans draw from.
        self.core = _backend.core().SharedRandom()
        super().__init__(x)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed as ``random.Random.seed`` does, into the native generator."""
        super().seed(a, version)
        self.core.set_state(list(random.Random.getstate(self)[1]))

    def random(self) -> float:
        """The next float in [0, 1), as ``random.Random.random`` draws it."""
        return self.core.random()  # type: ignore[no-any-return]

    def getrandbits(self, k: int) -> int:
        """``k`` random bits, as ``random.Random.getrandbits`` draws them."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out = shift = 0
        while k > 0:
            word = self.core.next_u32()
            if k < 32:
                word >>= 32 - k
            out |= word << shift
            shift += 32
            k -= 32
        return out

    def getstate(self) -> tuple[Any, ...]:
        """The state, in ``random.Random``'s form (it loads into either)."""
        return (3, tuple(self.core.state()), self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Load a state of ``random.Random.getstate`` (or :meth:`getstate`)."""
        super().setstate(state)
        self.core.set_state(list(state[1]))


def model_random(seed: Any) -> random.Random:
    """The generator of a model built with ``seed``: a given ``random.Random`` as is, else a
    :class:`SharedRandom` (a ``random.Random`` without the native extension)."""
    if isinstance(seed, random.Random):
        return seed
    return SharedRandom(seed) if _backend.available() else random.Random(seed)
