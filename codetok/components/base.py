"""Shared plumbing for pipeline components: the base class and ``type`` dispatch.

Each component family (normalizers, pre-tokenizers, post-processors, decoders) keeps a
:class:`~codetok.components.registry.Registry` from the HF ``tokenizer.json`` ``type`` name to its
class (models dispatch in :func:`codetok.models.model_from_dict`). Building from a dict
goes through :func:`build`, which turns every malformed input into a
:class:`~codetok.errors.FormatError` naming the file and the JSON path.
"""

from __future__ import annotations

import collections.abc
import functools
import types
import typing
from typing import Any, ClassVar, TypeVar

from ..errors import CodetokError, FormatError, UnknownComponentError
from .registry import Registry

C = TypeVar("C", bound="Component")


#: Bumped whenever an attribute of any component is set, so a compiled native plan
#: (codetok/engine/plan.py) sees in-place changes with one comparison.
CHANGES = [0]


class TrackedList(list):  # type: ignore[type-arg]
    """A component's list of parts (``Sequence.normalizers`` and the like): changing it in
    place counts as a change (:data:`CHANGES`), as setting an attribute does."""

    __slots__ = ()


def _bumping(name: str) -> Any:
    method = getattr(list, name)

    def run(self: TrackedList, *args: Any) -> Any:
        out = method(self, *args)
        CHANGES[0] += 1
        return out

    run.__name__ = name
    return run


for _name in (
    "__setitem__",
    "__delitem__",
    "__iadd__",
    "__imul__",
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "clear",
    "sort",
    "reverse",
):
    setattr(TrackedList, _name, _bumping(_name))


class Component:
    """A pipeline component that serializes to the HF ``tokenizer.json`` schema.

    The default :meth:`to_dict` writes ``type`` then the constructor arguments stored as
    attributes of the same name, in signature order; the default :meth:`from_dict` passes
    the keys back to the constructor. Components with nested parts override both.
    """

    type_name: ClassVar[str] = ""

    #: List attributes kept as :class:`TrackedList` (their in-place changes count too).
    tracked_lists: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.tracked_lists and type(value) is not TrackedList:
            value = TrackedList(value)
        object.__setattr__(self, name, value)
        CHANGES[0] += 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type_name}
        for name, param in _parameters(type(self)).items():
            if name != "self" and param.kind not in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                out[name] = getattr(self, name)
        return out

    @classmethod
    def from_dict(
        cls: type[C], data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> C:
        params = _parameters(cls)
        kwargs = {k: v for k, v in data.items() if k != "type" and k in params}
        return cls(**kwargs)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_dict() == self.to_dict()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "type")
        return f"{type(self).__name__}({args})"


def _parameters(cls: type) -> Any:
    """The parameters of ``cls``'s constructor (``inspect`` loads when a component is first
    written or read this way, not with ``codetok``)."""
    import inspect

    return inspect.signature(cls.__init__).parameters


def build(
    registry: Registry,
    data: Any,
    *,
    path: str | None = None,
    where: str = "",
) -> Any:
    """Build one component of ``registry``'s family from its dict, dispatching on ``type``.

    Raises:
        UnknownComponentError: the ``type`` is not implemented.
        FormatError: anything else is malformed.
    """
    if data is None:
        return None
    family = registry.family
    if not isinstance(data, dict):
        raise FormatError(
            f"expected a {family} object, got {type(data).__name__}", path=path, where=where or None
        )
    kind = data.get("type")
    if kind is None:
        raise FormatError(f"{family} object has no 'type' key", path=path, where=where or None)
    if not isinstance(kind, str):
        raise FormatError(
            f"a {family} 'type' is a string, got {type(kind).__name__}",
            path=path,
            where=f"{where}.type" if where else "type",
        )
    cls = registry.get(kind)
    if cls is None:
        known = ", ".join(registry.names())
        raise UnknownComponentError(
            f"unknown {family} type {kind!r}; codetok knows: {known}",
            path=path,
            where=where or None,
        )
    check_options(cls, data, path=path, where=where)
    try:
        return cls.from_dict(data, path=path, where=where)
    except (CodetokError, KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise as_format_error(e, f"malformed {family} {kind!r}", path, where) from e


def build_items(build_one: Any, items: Any, key: str, *, path: str | None, where: str) -> list[Any]:
    """The parts of a ``Sequence`` (its ``key`` list), each built by ``build_one``; unlike a
    missing component, a ``null`` part is malformed."""
    if not isinstance(items, list):
        raise FormatError(
            f"expected a list, got {type(items).__name__}", path=path, where=f"{where}.{key}"
        )
    out = []
    for i, item in enumerate(items):
        at = f"{where}.{key}[{i}]"
        if item is None:
            raise FormatError("expected a component object, got null", path=path, where=at)
        out.append(build_one(item, path=path, where=at))
    return out


def as_format_error(e: Exception, what: str, path: str | None, where: str) -> FormatError:
    """``e``, raised while building a component from a file, as a :class:`FormatError`
    naming the file: a FormatError that names it already is returned as it is; any other
    error (a component's own ``ConfigurationError`` included) is wrapped."""
    if isinstance(e, FormatError) and (e.path or path is None):
        return e
    if isinstance(e, FormatError):
        return type(e)(e.message, path=path, where=e.where or where or None)
    return FormatError(f"{what}: {e}", path=path, where=where or None)


def with_path(e: CodetokError, path: str) -> CodetokError:
    """``e`` again (same class), its message starting with ``path`` (a file the error is
    about, which the message did not name)."""
    if isinstance(e, FormatError):
        return type(e)(e.message, path=path, where=e.where)
    try:
        return type(e)(f"{path}: {e}")
    except TypeError:  # an error class with another constructor
        return FormatError(str(e), path=path)


def check_options(cls: type, data: dict[str, Any], *, path: str | None, where: str) -> None:
    """Refuse a value whose JSON type the constructor of ``cls`` does not take.

    The constructor's annotations say which (``str``, ``int``, ``bool``, ``float``,
    ``None``, unions of them, lists and tuples of them, objects), so a malformed file fails
    when it loads, naming the key, rather than later, inside ``encode``. Values annotated
    with a class (nested components) or ``Any`` are left to the constructor.

    Raises:
        FormatError: naming the key, what it must be and what it is.

    >>> from codetok.decoders import WordPiece
    >>> check_options(WordPiece, {"type": "WordPiece", "prefix": ["#"]}, path="t.json", where="decoder")
    Traceback (most recent call last):
    ...
    codetok.errors.FormatError: t.json: at decoder.prefix: expected a string, got list ['#']
    """
    hints = _hints(cls)
    for key, value in data.items():
        hint = hints.get(key)
        if hint is not None and key != "type" and not _fits(value, hint):
            raise FormatError(
                f"expected {_what(hint)}, got {type(value).__name__} {value!r:.80}",
                path=path,
                where=f"{where}.{key}" if where else key,
            )


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # noqa: BLE001 - an annotation that does not resolve: no check
        return {}
    hints.pop("return", None)
    return hints


_SCALARS = {str: "a string", bool: "true or false", int: "an integer", float: "a number"}
_SEQUENCES = (list, tuple, collections.abc.Sequence, collections.abc.Iterable)


def _fits(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, (list, tuple)):
            return False
        if args and Ellipsis not in args:
            return len(value) == len(args) and all(_fits(v, a) for v, a in zip(value, args))
        return True
    if origin in _SEQUENCES:
        if not isinstance(value, (list, tuple)):
            return False
        args = typing.get_args(hint)
        if args and args[0] in _SCALARS:  # list[str] and the like: every item too
            return all(_fits(v, args[0]) for v in value)
        return True
    if origin in (dict, collections.abc.Mapping):
        return isinstance(value, dict)
    return True  # a class (a nested component, random.Random), Any: the constructor's


def _what(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_what(h) for h in typing.get_args(hint))
    if hint is type(None):
        return "null"
    if hint in _SCALARS:
        return _SCALARS[hint]
    if origin is tuple:
        return f"a list of {len(typing.get_args(hint))}"
    if origin in _SEQUENCES:
        return "a list"
    if origin in (dict, collections.abc.Mapping):
        return "an object"
    return getattr(hint, "__name__", str(hint))


def pattern_from_any(pattern: Any) -> dict[str, str]:
    """Accept a plain string (literal) or the HF ``{"String"|"Regex": ...}`` dict."""
    if isinstance(pattern, str):
        return {"String": pattern}
    if (
        isinstance(pattern, dict)
        and len(pattern) == 1
        and next(iter(pattern)) in ("String", "Regex")
    ):
        return dict(pattern)
    raise ValueError(f"pattern must be a string or {{'String'|'Regex': ...}}, got {pattern!r}")
