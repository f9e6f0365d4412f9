"""A one-line progress display on stderr for the long runs of the ``codetok`` command line.

A 5 MB file takes seconds to lex, encode and format; without a sign of life that looks like
a hang. :class:`Progress` shows what the command is doing (the stage), a bar when the amount
of work is known, and the time so far, redrawn in place with ``\\r``:

    codetok encode big.py: writing json ... 3.1s
    codetok analyze: measuring |##########--------------|  42% 5.0s

It draws only when stderr is a terminal, so pipes, logs and tests see nothing;
``CODETOK_PROGRESS=1`` forces it on (and draws at once), ``CODETOK_PROGRESS=0`` off. On a
terminal it first draws after half a second, so quick commands never flash a line, and it
erases its line when done. A background thread redraws the clock; while a native call holds
the interpreter the line simply waits for it.

Messages such as a skipped file go above the line (:meth:`Progress.message`).

Not handled here: the tqdm bars of ``codetok train`` and ``codetok pairs``.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from typing import IO, Any

__all__ = ["Progress"]

_BAR = 24


def _wanted(stream: IO[str]) -> tuple[bool, bool]:
    """(enabled, forced) from ``CODETOK_PROGRESS`` and whether ``stream`` is a terminal."""
    env = os.environ.get("CODETOK_PROGRESS", "").strip().lower()
    if env in ("1", "true", "yes", "on"):
        return True, True
    if env in ("0", "false", "no", "off"):
        return False, False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()), False


class Progress:
    """Stage, bar and clock of a long command, on one line of stderr.

    Args:
        label: what runs (``"codetok encode big.py"``), the start of the line.
        stream: where to draw (default ``sys.stderr``).
        enabled: draw or not; None decides from ``CODETOK_PROGRESS`` and ``stream.isatty()``.
        delay: seconds before the first draw (default 0.5 on a terminal, 0 when forced).
        interval: seconds between redraws.

    >>> import io
    >>> out = io.StringIO()
    >>> with Progress("job", stream=out, enabled=True, delay=0, interval=0) as p:
    ...     p.stage("counting", total=4)
    ...     p.advance(1)
    >>> "job: counting |######------------------|  25%" in out.getvalue()
    True
    """

    def __init__(
        self,
        label: str,
        *,
        stream: IO[str] | None = None,
        enabled: bool | None = None,
        delay: float | None = None,
        interval: float = 0.2,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        wanted, forced = _wanted(self.stream)
        self.enabled = wanted if enabled is None else enabled
        self.delay = (0.0 if forced else 0.5) if delay is None else delay
        self.interval = interval
        self.label = label
        self.name = ""
        self.total: int | None = None
        self.done = 0
        self._start = time.monotonic()
        self._last = float("-inf")
        self._width = 0  # of the line on screen, to erase it
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self.enabled:
            self._thread = threading.Thread(target=self._tick, name="codetok-progress")
            self._thread.daemon = True
            self._thread.start()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def stage(self, name: str, total: int | None = None, *, now: bool = False) -> None:
        """Start a stage: its name, and the amount of work when known (for the bar).

        Args:
            name: what the command does now (``"encoding"``).
            total: units of work in the stage, advanced with :meth:`advance`; None for no bar.
            now: draw at once, even before the first-draw delay (before a long native call,
                which keeps the clock thread from drawing).
        """
        self.name, self.total, self.done = name, total, 0
        self._draw(force=True, now=now)

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more units of the stage's work (redrawn at most every ``interval``)."""
        self.done += n
        self._draw()

    def message(self, text: str) -> None:
        """Write one line of ``text`` to the stream above the progress line (a file
        skipped, say), then redraw the line. Written whether the line is drawn or not, so a
        log of a run without a terminal keeps every message.

        >>> import io
        >>> out = io.StringIO()
        >>> with Progress("job", stream=out, enabled=False) as p:
        ...     p.message("skipped a.py: binary")
        >>> out.getvalue()
        'skipped a.py: binary\\n'
        """
        with self._lock:
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self._width = 0
            self.stream.write(text.rstrip("\n") + "\n")
            self.stream.flush()
        self._draw(force=True)

    def close(self) -> None:
        """Stop the clock and erase the line (idempotent)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._thread = None
        with self._lock:
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
                self._width = 0

    def line(self) -> str:
        """The text of the line as it would be drawn now."""
        elapsed = f"{time.monotonic() - self._start:.1f}s"
        if not self.total:
            return f"{self.label}: {self.name} ... {elapsed}"
        frac = min(1.0, self.done / self.total)
        filled = int(frac * _BAR)
        bar = "#" * filled + "-" * (_BAR - filled)
        return f"{self.label}: {self.name} |{bar}| {frac * 100:3.0f}% {elapsed}"

    def _tick(self) -> None:
        while not self._stop.wait(self.interval or 0.05):
            self._draw(force=True)

    def _draw(self, *, force: bool = False, now: bool = False) -> None:
        if not self.enabled or self._stop.is_set():
            return
        t = time.monotonic()
        if not now and t - self._start < self.delay:
            return
        if not force and t - self._last < self.interval:
            return
        with self._lock:
            if self._stop.is_set():
                return
            self._last = t
            text = self.line()[: max(20, shutil.get_terminal_size().columns - 1)]
            pad = " " * max(0, self._width - len(text))
            self.stream.write("\r" + text + pad)
            self.stream.flush()
            self._width = len(text)
