"""The budget of one tree-sitter parse: how long it may run and how much memory it may hold.

Some inputs make a grammar's parser run for minutes and grow by gigabytes: error recovery
over ``"a<" * 40000`` in Java takes quadratic time and memory (80 KB of input, 19 GB), and
tree-sitter aborts the process when an allocation fails. Every parse codetok runs (the
lexer's, the content detection's, a :class:`~codetok.code.Lexemes` tree read later) is
therefore given a :class:`ParseBudget`, proportional to the input's size; past it the
parse is stopped and :class:`~codetok.errors.ParseLimitError` names the file and limit.

The default budget is far above what real code needs (see :data:`DEFAULT_BUDGET`).

How the limits are kept:

- the native lexer's parser (the tree-sitter runtime compiled into the native extension)
  counts the bytes its allocator holds per thread and checks them and a clock every 100
  parse operations (codetok/_native/parse_budget.cpp): the limit is on the parser's own
  memory;
- the ``tree-sitter`` bindings' parser (the Python lexer, content detection, ``tree``)
  calls a progress callback only between parser steps, not inside the one step where
  error recovery blows up. So when the extension is built, the input is first parsed by
  the native parser under the same budget (in its arena, stopped at once), and only an
  input it finishes goes to the bindings (the same grammar: the same work); their
  callback then checks the clock and, where ``/proc/self/statm`` exists, the process's
  resident memory every 64 calls (the growth of the whole process). Without the
  extension only that callback guards the parse: slow input is stopped, a blow-up
  inside one step is not.

Not here: the walk of the tree (:mod:`codetok.code.front.lexer`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from ...engine import native as _backend
from ...errors import ConfigurationError, ParseLimitError

__all__ = ["ParseBudget", "DEFAULT_BUDGET", "parse_tree", "limit_error"]

_MB = 1_000_000


@dataclass(frozen=True)
class ParseBudget:
    """The time and memory one parse may take, growing with the input's size.

    A parse of ``n`` bytes may run ``seconds + seconds_per_mb * n / 1e6`` seconds and hold
    ``memory_mb + memory_per_byte * n / 1e6`` MB. A part set to 0 adds nothing; both
    parts of a limit at 0 mean no limit (then a pathological input may again exhaust the
    machine).

    Args:
        seconds: time every parse may take, whatever its size.
        seconds_per_mb: more time per MB of input.
        memory_mb: parser memory every parse may hold, in MB.
        memory_per_byte: more parser memory per byte of input, in bytes (a real file's
            tree takes 20-40 bytes per byte of code, a dense run of brackets up to 500).

    Raises:
        ConfigurationError: a negative or non-numeric part.

    >>> ParseBudget().limits(1_000_000)
    (22.0, 1256000000)
    >>> ParseBudget.unlimited().limits(10**9)
    (0.0, 0)
    """

    seconds: float = 2.0
    seconds_per_mb: float = 20.0
    memory_mb: float = 256.0
    memory_per_byte: float = 1000.0

    def __post_init__(self) -> None:
        for name in ("seconds", "seconds_per_mb", "memory_mb", "memory_per_byte"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ConfigurationError(
                    f"ParseBudget.{name} must be a number >= 0 (0 adds nothing), got {value!r}"
                )

    @classmethod
    def fixed(cls, seconds: float, memory_mb: float) -> ParseBudget:
        """The same limits whatever the input's size (0: none).

        >>> ParseBudget.fixed(1.5, 100).limits(10**9)
        (1.5, 100000000)
        """
        return cls(seconds, 0.0, memory_mb, 0.0)

    @classmethod
    def unlimited(cls) -> ParseBudget:
        """No limit at all: tree-sitter's own behaviour, which a pathological input can
        abort the process with."""
        return cls(0.0, 0.0, 0.0, 0.0)

    def limits(self, size: int) -> tuple[float, int]:
        """``(seconds, bytes)`` for a parse of ``size`` bytes; 0 means no limit."""
        mb = size / _MB
        seconds = float(self.seconds + self.seconds_per_mb * mb)
        memory = int(self.memory_mb * _MB + self.memory_per_byte * size)
        return seconds, memory


#: What every parse may take unless told otherwise: 2 s plus 20 s per MB (real code
#: parses at 1-10 MB/s, code full of syntax errors at 0.3 MB/s or more), and 256 MB plus
#: 1,000 bytes per byte of input (real code peaks at 20-40, a file of brackets at ~500).
DEFAULT_BUDGET = ParseBudget()


def limit_error(
    reason: str,
    offset: int,
    seconds: float,
    used: int,
    size: int,
    budget: ParseBudget,
    language: str,
    path: Any = None,
) -> ParseLimitError:
    """The error of a parse stopped at ``offset`` after ``seconds`` holding ``used`` bytes."""
    limit_s, limit_b = budget.limits(size)
    where = f"{os.fspath(path)}: " if path is not None else ""
    if reason == "time":
        what = f"ran past its time limit of {limit_s:.1f} s"
    elif limit_b and used + _MB < limit_b:
        what = (
            f"ran out of memory: the system gave no more below its limit of {limit_b / _MB:,.0f} MB"
        )
    else:
        what = f"grew past its memory limit of {limit_b / _MB:,.0f} MB"
    return ParseLimitError(
        f"{where}the {language} parse of {size:,} bytes {what} (stopped at byte {offset:,} "
        f"after {seconds:.1f} s, holding {used / _MB:,.0f} MB). Such input makes the "
        f"{language} grammar's error recovery blow up; if the file is real code, raise the "
        "limit: CodeTokenizer(parse_budget=ParseBudget(...)) or lex(..., budget=...)",
        path=None if path is None else os.fspath(path),
        reason=reason,
    )


def _resident() -> int | None:
    """The process's resident memory in bytes (None where /proc is not there)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def parse_tree(grammar: Any, body: bytes, budget: ParseBudget | None, *, path: Any = None) -> Any:
    """``grammar``'s tree of ``body`` from the ``tree-sitter`` bindings, within ``budget``
    (``None``: :data:`DEFAULT_BUDGET`).

    Raises:
        ParseLimitError: the parse went past the budget.
    """
    budget = DEFAULT_BUDGET if budget is None else budget
    parser = grammar.parser()
    seconds, max_bytes = budget.limits(len(body))
    if not seconds and not max_bytes:
        return parser.parse(body)
    if _backend.available() and grammar.capsule is not None:
        # The native parser under the same budget first (see the module docstring).
        status, used_s, peak, offset = _backend.core().parse_report(
            grammar.capsule, body, seconds, max_bytes
        )
        if status in ("time", "memory"):
            raise limit_error(status, offset, used_s, peak, len(body), budget, grammar.name, path)
    start = time.monotonic()
    deadline = start + seconds if seconds else None
    base = _resident() if max_bytes else None
    stop: list[Any] = []
    calls = 0

    def read(offset: int, _point: Any) -> bytes:
        return body[offset : offset + (1 << 20)]

    def progress(offset: int, _has_error: bool) -> bool:
        nonlocal calls
        calls += 1
        if deadline is not None and time.monotonic() > deadline:
            stop[:] = ["time", offset, 0]
            return True
        if base is not None and calls % 64 == 0:
            now = _resident()
            if now is not None and now - base > max_bytes:
                stop[:] = ["memory", offset, now - base]
                return True
        return False

    try:
        tree = parser.parse(read, progress_callback=progress)
    except ValueError:  # the bindings' answer to a parse the callback stopped
        if not stop:
            raise
        tree = None
    if tree is not None:
        return tree
    parser.reset()
    if not stop:
        raise ConfigurationError(f"tree-sitter gave no tree for the {grammar.name} grammar")
    reason, offset, used = stop
    if reason == "time" and base is not None:
        used = max(0, (_resident() or base) - base)
    raise limit_error(
        reason, offset, time.monotonic() - start, used, len(body), budget, grammar.name, path
    )
