"""What a training run did: the corpus read, the words counted, what was learned, time and memory.

Every trainer fills a :class:`TrainingReport` (``trainer.report``) when it trains; the
``train*`` functions add what reading the corpus cost and hang it on the tokenizer
(``tokenizer.training_report``). When the vocabulary falls short of ``vocab_size`` the
report says why (``shortfall``) and a :class:`~codetok.errors.TrainingWarning` is issued:
HF ``tokenizers`` returns the smaller vocabulary silently, SentencePiece refuses to train.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from codetok.errors import TrainingWarning

__all__ = ["TrainingReport", "peak_memory", "CorpusTally"]


def peak_memory() -> int | None:
    """This process's peak resident memory so far, in bytes (``None`` where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024


def _caller_level() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside codetok."""
    package = __file__.rsplit("trainers", 1)[0]
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


@dataclass
class TrainingReport:
    """What one training run read, counted and learned.

    Attributes:
        model: ``"BPE"``, ``"WordPiece"`` or ``"Unigram"``.
        vocab_size: the size asked for.
        final_size: the size reached (special tokens included).
        special_tokens: how many special tokens the vocabulary starts with.
        alphabet: the chars of the initial alphabet (BPE, WordPiece) or the required chars
            (Unigram).
        distinct_words: distinct pieces counted (pre-tokenized words).
        words: pieces counted, with repeats.
        merges: merges learned (BPE, WordPiece), else ``None``.
        pieces: pieces learned besides specials and bytes (Unigram), else ``None``.
        texts: texts (or file lines) read, when the trainer was given a corpus.
        bytes: UTF-8 bytes read, likewise.
        seconds: time per phase, in order.
        peak_memory: the process's peak resident memory at the end, in bytes.
        shortfall: why ``final_size`` is below ``vocab_size``, or ``None``.
    """

    model: str
    vocab_size: int
    final_size: int = 0
    special_tokens: int = 0
    alphabet: int = 0
    distinct_words: int = 0
    words: int = 0
    merges: int | None = None
    pieces: int | None = None
    texts: int | None = None
    bytes: int | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    peak_memory: int | None = None
    shortfall: str | None = None

    @property
    def total_seconds(self) -> float:
        """The time of every phase together."""
        return sum(self.seconds.values())

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time the block as phase ``name`` (added to it when it runs more than once)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start

    def finish(self, final_size: int, shortfall: str | None) -> None:
        """Record the result; warn (:class:`~codetok.errors.TrainingWarning`) on a shortfall."""
        self.final_size = final_size
        self.peak_memory = peak_memory()
        self.shortfall = shortfall if final_size < self.vocab_size else None
        if self.shortfall is not None:
            warnings.warn(
                f"{self.model} training reached {final_size} tokens of the vocab_size="
                f"{self.vocab_size} asked: {self.shortfall}",
                TrainingWarning,
                stacklevel=_caller_level(),
            )

    def __str__(self) -> str:
        rows = []
        if self.texts is not None:
            rows.append(("read", f"{self.texts:,} texts, {self.bytes or 0:,} bytes"))
        rows.append(("words", f"{self.words:,} counted, {self.distinct_words:,} distinct"))
        rows.append(("alphabet", f"{self.alphabet:,} chars"))
        if self.merges is not None:
            rows.append(("merges", f"{self.merges:,}"))
        if self.pieces is not None:
            rows.append(("pieces", f"{self.pieces:,}"))
        size = f"{self.final_size:,} of {self.vocab_size:,} asked"
        rows.append(("vocabulary", f"{size} ({self.special_tokens} special)"))
        if self.shortfall:
            rows.append(("short", self.shortfall))
        times = ", ".join(f"{k} {v:.2f} s" for k, v in self.seconds.items())
        rows.append(("time", f"{self.total_seconds:.2f} s ({times})"))
        if self.peak_memory is not None:
            rows.append(("peak memory", f"{self.peak_memory / 2**20:,.0f} MiB"))
        width = max(len(k) for k, _ in rows)
        return f"{self.model} training\n" + "\n".join(f"  {k:<{width}}  {v}" for k, v in rows)


class CorpusTally:
    """Passes texts through, counting them and their UTF-8 bytes."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._texts = texts
        self.texts = 0
        self.bytes = 0

    def __iter__(self) -> Iterator[str]:
        for t in self._texts:
            if isinstance(t, str):
                self.texts += 1
                self.bytes += len(t) if t.isascii() else len(t.encode("utf-8", "surrogatepass"))
            yield t
