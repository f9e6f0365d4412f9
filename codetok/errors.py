"""Exception classes raised by codetok.

Every error subclasses a built-in exception as well as :class:`CodetokError`, so
callers can catch either the codetok family or the familiar built-in (``ValueError``,
``LookupError``, ``OSError``). Messages name the argument or file, what was wrong and
what would work.
"""

from __future__ import annotations

__all__ = [
    "CodetokError",
    "ConfigurationError",
    "FormatError",
    "UnknownComponentError",
    "LanguageError",
    "TrainingError",
    "TruncationError",
    "VocabularyError",
    "NotFoundError",
    "InputError",
    "WorkerError",
    "ParseLimitError",
    "TrainingWarning",
]


class CodetokError(Exception):
    """Base class of every error codetok raises on purpose."""


class ConfigurationError(CodetokError, ValueError):
    """An argument or option has a value codetok cannot use."""


class FormatError(CodetokError, ValueError):
    """A file or serialized object is malformed.

    Args:
        message: what is wrong and what would work.
        path: the file, when the data came from one.
        where: a JSON path (``model.vocab``) or ``line N`` locating the problem.
    """

    def __init__(self, message: str, *, path: str | None = None, where: str | None = None):
        self.path = None if path is None else str(path)
        self.where = where
        prefix = ""
        if self.path:
            prefix += f"{self.path}: "
        if where:
            prefix += f"at {where}: "
        super().__init__(prefix + message)
        self.message = message


class UnknownComponentError(FormatError):
    """A serialized component names a ``type`` codetok does not implement."""


class LanguageError(CodetokError, LookupError):
    """A programming language is unknown, unavailable or cannot be detected."""


class TrainingError(CodetokError, ValueError):
    """Training cannot proceed with the given corpus or settings."""


class TruncationError(CodetokError, ValueError):
    """Truncation settings cannot be applied to the given inputs."""


class VocabularyError(CodetokError, ValueError):
    """A token, id or vocabulary does not fit the tokenizer."""


class NotFoundError(CodetokError, FileNotFoundError):
    """Files that were looked for are missing; the message lists them and where."""


class InputError(CodetokError, TypeError):
    """An input to encode or lex has a type codetok does not take (it is a TypeError too)."""


class WorkerError(CodetokError, RuntimeError):
    """Worker processes died on a unit of work (a corpus shard) and gave it up; the message
    names it, and what was recorded of it."""


class ParseLimitError(CodetokError, RuntimeError):
    """A tree-sitter parse went past its budget of time or memory and was stopped.

    Args:
        message: the file, the limit, how far the parse got and how to raise the limit.
        path: the file, when the source came from one.
        reason: ``"time"`` or ``"memory"``.
    """

    def __init__(self, message: str, *, path: str | None = None, reason: str = "time"):
        self.path = None if path is None else str(path)
        self.reason = reason
        super().__init__(message)


class TrainingWarning(UserWarning):
    """Training finished but fell short of what was asked (a vocabulary smaller than
    ``vocab_size``); the message says what it reached and why."""
