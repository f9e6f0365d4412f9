"""What every trainer shares: option checking, special tokens, the alphabet and progress bars.

A trainer turns word counts (``{piece: count}``, see :mod:`codetok.trainers.word_counts`) into a
model. Options are keyword arguments checked when the trainer is built; an unknown one raises
:class:`~codetok.errors.ConfigurationError` naming it and listing the valid ones.

Not handled here: counting words (``corpus.py``), the learning algorithms (``bpe.py``,
``wordpiece.py``, ``unigram.py``), wiring into a tokenizer (``api.py``).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from codetok.errors import ConfigurationError, TrainingError
from codetok.models.base import Model
from codetok.tokenizer.added_tokens import AddedToken
from codetok.trainers.report import TrainingReport

__all__ = ["Trainer", "char_counts", "build_alphabet", "progress"]


def _check_int(name: str, value: Any, low: int, *, none_ok: bool = False) -> int | None:
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        extra = " or None" if none_ok else ""
        raise ConfigurationError(f"{name} must be an integer >= {low}{extra}, got {value!r}")
    return value


class Trainer:
    """Base class of the trainers: holds and checks the shared options.

    Subclasses list their own keyword-only options in ``__init__``; anything else passed
    lands in ``**unknown`` and is rejected by :meth:`_reject_unknown`.
    """

    model_type: ClassVar[str] = ""

    vocab_size: int
    special_tokens: list[AddedToken]
    show_progress: bool
    #: What the last :meth:`train` did (``None`` before the first).
    report: TrainingReport | None = None

    def _common(
        self,
        *,
        vocab_size: int,
        special_tokens: Iterable[str | AddedToken],
        show_progress: bool,
        unknown: Mapping[str, Any],
    ) -> None:
        self._reject_unknown(unknown)
        self.vocab_size = _check_int("vocab_size", vocab_size, 1)  # type: ignore[assignment]
        self.special_tokens = self._specials(special_tokens)
        self.show_progress = bool(show_progress)

    @classmethod
    def options(cls) -> list[str]:
        """Names of the keyword options this trainer accepts.

        >>> from codetok.trainers import BpeTrainer
        >>> "vocab_size" in BpeTrainer.options()
        True
        """
        params = inspect.signature(cls.__init__).parameters.values()
        return sorted(p.name for p in params if p.kind is p.KEYWORD_ONLY)

    def _reject_unknown(self, unknown: Mapping[str, Any]) -> None:
        if "seed" in unknown:
            raise ConfigurationError(
                f"{type(self).__name__} takes no seed: training is deterministic (the same "
                f"counts always give the same model); drop seed="
            )
        if unknown:
            names = ", ".join(sorted(unknown))
            raise ConfigurationError(
                f"{type(self).__name__} got unknown option(s) {names}; valid options are: "
                + ", ".join(self.options())
            )

    @staticmethod
    def _specials(tokens: Iterable[str | AddedToken]) -> list[AddedToken]:
        if isinstance(tokens, (str, AddedToken)):
            raise ConfigurationError(
                f"special_tokens must be a list of tokens, got the single token {tokens!r}; "
                f"wrap it in a list"
            )
        out: list[AddedToken] = []
        for t in tokens:
            if isinstance(t, AddedToken):
                out.append(
                    AddedToken(
                        t.content,
                        t.single_word,
                        t.lstrip,
                        t.rstrip,
                        t.normalized if t.normalized is not None else False,
                        True,
                    )
                )
            elif isinstance(t, str) and t:
                out.append(AddedToken(t, special=True))
            else:
                raise ConfigurationError(
                    f"special_tokens must hold non-empty strings or AddedToken, got {t!r}"
                )
        return out

    def special_contents(self) -> list[str]:
        """The special tokens' strings, in order, without duplicates."""
        seen: dict[str, None] = {}
        for t in self.special_tokens:
            seen.setdefault(t.content, None)
        return list(seen)

    def train(self, word_counts: Mapping[str, int], model: Model | None = None) -> Model:
        """Learn a model from word counts (subclasses implement this)."""
        raise NotImplementedError

    def _begin_report(self, word_counts: Mapping[str, int]) -> TrainingReport:
        """A fresh :attr:`report` holding what the counts say."""
        self.report = TrainingReport(
            self.model_type,
            self.vocab_size,
            special_tokens=len(self.special_contents()),
            distinct_words=len(word_counts),
            words=sum(word_counts.values()),
        )
        return self.report

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.options() if hasattr(self, k))
        return f"{type(self).__name__}({shown})"


def char_counts(word_counts: Mapping[str, int]) -> dict[str, int]:
    """How often each char occurs in the corpus (each word weighted by its count).

    >>> char_counts({"ab": 2, "b": 1})
    {'a': 2, 'b': 3}
    """
    out: dict[str, int] = {}
    get = out.get
    for word, c in word_counts.items():
        for ch in word:
            out[ch] = get(ch, 0) + c
    return out


def build_alphabet(
    word_counts: Mapping[str, int],
    *,
    limit_alphabet: int | None = None,
    initial_alphabet: Iterable[str] = (),
) -> list[str]:
    """The character vocabulary: chars seen, plus ``initial_alphabet``, at most ``limit_alphabet``.

    As HF's BPE trainer does it: chars of ``initial_alphabet`` (the first char of each
    string) always win; when there are more than ``limit_alphabet`` chars the least frequent
    are dropped (among equal counts, the smaller code point goes first; HF leaves that order
    unspecified). The result is sorted by code point.

    Args:
        word_counts: ``{word: count}``.
        limit_alphabet: keep at most this many chars (``None``: all).
        initial_alphabet: chars to keep even if unseen.

    Returns:
        The chars, sorted by code point.

    >>> build_alphabet({"hello": 3, "hi": 1}, limit_alphabet=3)
    ['h', 'l', 'o']
    """
    counts = char_counts(word_counts)
    forced = 1 << 63
    for s in initial_alphabet:
        if s:
            counts[s[0]] = forced
    kept = list(counts.items())
    if limit_alphabet is not None and len(kept) > limit_alphabet:
        kept.sort(key=lambda kv: (kv[1], ord(kv[0])))
        kept = kept[len(kept) - limit_alphabet :]
    return sorted((c for c, _ in kept), key=ord)


def check_initial_alphabet(initial_alphabet: Iterable[str] | None) -> list[str]:
    """Validate ``initial_alphabet`` (an iterable of strings; the first char of each counts)."""
    if initial_alphabet is None:
        return []
    if isinstance(initial_alphabet, str):
        return list(initial_alphabet)
    out = []
    for s in initial_alphabet:
        if not isinstance(s, str):
            raise ConfigurationError(f"initial_alphabet must hold strings, got {s!r}")
        if s:
            out.append(s[0])
    return out


def check_alphabet_fits(n_special: int, n_alphabet: int, vocab_size: int) -> None:
    """Raise :class:`TrainingError` when special tokens and alphabet exceed ``vocab_size``."""
    if n_special + n_alphabet > vocab_size:
        raise TrainingError(
            f"vocab_size={vocab_size} is smaller than the {n_special} special tokens plus the "
            f"{n_alphabet} chars of the alphabet ({n_special + n_alphabet}); raise vocab_size "
            f"or pass limit_alphabet=<smaller number>"
        )


def check_not_empty(word_counts: Mapping[str, int]) -> None:
    """Raise :class:`TrainingError` when there is nothing to learn from."""
    if not word_counts:
        raise TrainingError(
            "the corpus is empty: no words were left after normalization and "
            "pre-tokenization; pass files or an iterator with some text"
        )


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress(show: bool, desc: str, total: int | None = None, unit: str = "it") -> Any:
    """A tqdm bar on stderr when ``show``, else a no-op object with the same methods."""
    if not show:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        dynamic_ncols=True,
        leave=True,
        mininterval=0.5,
    )
