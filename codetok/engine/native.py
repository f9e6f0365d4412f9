"""Which kernels the models run: the native ``codetok._core`` or ``codetok.reference``.

The native extension is used when it imports, unless the environment variable
``CODETOK_PURE_PYTHON`` is set to anything but ``""`` or ``"0"`` (read once, at import).
Both kernel sets have the same interface (flat inputs, flat outputs; see
``codetok/_core.pyi``), so a model only asks this module for the class to build.

:func:`use_native` switches at run time, for tests that run the same checks against both
backends: it clears the cache and the kernel of every model that has built one, so each
rebuilds on its next call.

The one place that imports ``codetok._core``: every other module asks here whether the
native extension is there (:func:`available`), whether it runs (:func:`native`) and for
the module itself (:func:`core`).

Not handled here: the kernels themselves, options and errors (the models own those).
"""

from __future__ import annotations

import os
import weakref
from types import ModuleType
from typing import Any

from codetok.components.base import CHANGES
from codetok.reference import bpe as _ref_bpe
from codetok.reference import unigram as _ref_unigram
from codetok.reference import wordpiece as _ref_wordpiece

__all__ = ["available", "native", "use_native", "kernel", "reference_kernel"]

FORCED_PURE: bool = os.environ.get("CODETOK_PURE_PYTHON", "") not in ("", "0")


def _load() -> ModuleType | None:
    try:
        from codetok import _core
    except ImportError:
        return None
    return _core


_CORE: ModuleType | None = _load()
_native: bool = _CORE is not None and not FORCED_PURE
_MODELS: weakref.WeakSet[Any] = weakref.WeakSet()  # models holding a kernel

_REFERENCE: dict[str, Any] = {
    "BpeCore": _ref_bpe.BpeCore,
    "WordPieceCore": _ref_wordpiece.WordPieceCore,
    "UnigramCore": _ref_unigram.UnigramCore,
}


def available() -> bool:
    """Whether the native extension ``codetok._core`` imported.

    >>> isinstance(available(), bool)
    True
    """
    return _CORE is not None


def core() -> ModuleType:
    """The native extension (check :func:`available` first)."""
    if _CORE is None:
        raise RuntimeError("codetok._core is not built; reinstall with 'pip install -e .'")
    return _CORE


def table_layout() -> int | None:
    """The layout version of the native kernel's saved hash tables (``None``: no kernel)."""
    return None if _CORE is None else int(_CORE.TABLE_LAYOUT)


def native() -> bool:
    """Whether models currently use the native kernels.

    >>> native() in (True, False)
    True
    """
    return _native


def use_native(flag: bool) -> bool:
    """Switch the models to the native kernels (``True``) or the pure-Python ones.

    Args:
        flag: the wanted backend.

    Returns:
        The previous setting, so a caller can restore it.

    Raises:
        RuntimeError: ``flag`` is true but the extension is not built.

    >>> previous = use_native(False)
    >>> native()
    False
    >>> _ = use_native(previous)
    """
    global _native
    if flag and _CORE is None:
        raise RuntimeError(
            "codetok._core is not built; reinstall with 'pip install -e .' (needs g++) "
            "or keep the pure-Python kernels"
        )
    previous = _native
    _native = bool(flag)
    CHANGES[0] += 1
    for model in list(_MODELS):
        model.clear_cache()
    return previous


def native_kernel(owner: Any, name: str, *args: Any, **kwargs: Any) -> tuple[Any, bool]:
    """Build native kernel class ``name`` for ``owner`` (its errors propagate): ``(kernel, True)``."""
    _MODELS.add(owner)
    return getattr(core(), name)(*args, **kwargs), True


def reference_kernel(owner: Any, name: str, *args: Any, **kwargs: Any) -> tuple[Any, bool]:
    """Build the pure-Python kernel class ``name`` for ``owner``: ``(kernel, False)``."""
    _MODELS.add(owner)
    return _REFERENCE[name](*args, **kwargs), False


def kernel(owner: Any, name: str, *args: Any, **kwargs: Any) -> tuple[Any, bool]:
    """Build kernel class ``name`` of the current backend for ``owner``: ``(kernel, native)``.

    The native constructor refuses inputs it cannot represent (an id that does not fit
    int32, a non-str token); the reference kernel, which takes anything, is built then.
    ``owner`` (a model) gets its ``clear_cache()`` called when the backend is switched.
    """
    _MODELS.add(owner)
    if _native and _CORE is not None:
        try:
            return getattr(_CORE, name)(*args, **kwargs), True
        except (TypeError, ValueError, OverflowError):
            pass
    return _REFERENCE[name](*args, **kwargs), False
