"""Which class implements each HF ``tokenizer.json`` component ``type``, per family.

There is one :class:`Registry` per component family (``"normalizer"``,
``"pre_tokenizer"``, ``"post_processor"``, ``"decoder"``), got with :func:`registry`. Each
component module registers its classes into its family's registry when it is imported,
and the family's ``*_from_dict`` function looks the ``type`` up there (through
:func:`codetok.components.base.build`).

Some classes live in modules that their family module must not import, because those
modules import the family module to subclass its base class: SentencePiece's
``Precompiled`` normalizer (:mod:`codetok.formats.precompiled`) and codetok's own
``codetok.*`` pre-tokenizers and models (:mod:`codetok.text`; the HF model types stay in
:func:`codetok.models.model_from_dict`). :data:`PROVIDERS` names them by module
path, and a registry imports such a module by name the first time a lookup needs it. So
the imports only go one way: family module -> this module, and provider -> family module.

This module imports nothing from codetok. Not here: building a component from its dict
and the errors that raises (:func:`codetok.components.base.build`), and the component classes.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["PROVIDERS", "Registry", "registry"]

#: Family -> ``(type name, or a prefix ending in ".", provider)`` pairs. A provider is
#: ``"module"`` (importing it registers the classes) or ``"module:Class"`` (the registry
#: registers ``Class`` after importing the module).
PROVIDERS: dict[str, tuple[tuple[str, str], ...]] = {
    "normalizer": (("Precompiled", "codetok.formats.precompiled:Precompiled"),),
    "pre_tokenizer": (("codetok.", "codetok.text"),),
    "model": (("codetok.", "codetok.text"),),
}


class Registry(dict[str, type[Any]]):
    """``type`` name -> class for one component family; see the module docstring.

    A lookup (``registry[name]`` or ``registry.get(name)``) of a name that is not
    registered yet imports its provider, if :data:`PROVIDERS` names one.

    >>> r = Registry("example")
    >>> class Thing:
    ...     type_name = "Thing"
    >>> r.register(Thing)
    >>> r.get("Thing") is Thing, r.get("Other"), r.names()
    (True, None, ['Thing'])
    """

    def __init__(self, family: str) -> None:
        super().__init__()
        self.family = family
        self.providers = PROVIDERS.get(family, ())

    def register(self, *classes: type[Any]) -> None:
        """Register each class under its ``type_name`` (the first class to take a name keeps it)."""
        for cls in classes:
            self.setdefault(cls.type_name, cls)

    def __missing__(self, name: str) -> type[Any]:
        cls = self._provide(name)
        if cls is None:
            raise KeyError(name)
        return cls

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if name in self:
            return dict.__getitem__(self, name)
        cls = self._provide(name)
        return default if cls is None else cls

    def names(self) -> list[str]:
        """Every ``type`` this family knows, sorted: registered or provided by exact name."""
        exact = {key for key, _ in self.providers if not key.endswith(".")}
        return sorted(set(self) | exact)

    def _provide(self, name: Any) -> type[Any] | None:
        """Import the provider of ``name`` (if any) and return the class it registered."""
        if not isinstance(name, str):
            return None
        for key, provider in self.providers:
            if name == key or (key.endswith(".") and name.startswith(key)):
                module, _, attr = provider.partition(":")
                loaded = import_module(module)
                if attr:
                    self.register(getattr(loaded, attr))
                return dict.get(self, name)
        return None


_REGISTRIES: dict[str, Registry] = {}


def registry(family: str) -> Registry:
    """The registry of ``family`` (created on first use)."""
    found = _REGISTRIES.get(family)
    if found is None:
        found = _REGISTRIES[family] = Registry(family)
    return found
