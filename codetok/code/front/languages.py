"""Grammar registry: per-language knowledge loaded from ``grammars/*.toml``.

Each ``grammars/*.toml`` file describes one language: extensions and shebangs, keywords,
which node types are which lexeme kind, which nodes hold strings, interpolated code,
comments, docstrings, decorators and indented blocks. This module finds the files, loads
the tree-sitter grammar each names, and caches one :class:`~codetok.code.front.grammar.Grammar`
per language (the tables themselves are built in :mod:`codetok.code.front.grammar`).

Languages described by a TOML file in the ``codetok.grammars`` package are known by name.
A language that only ``tree_sitter_language_pack`` provides (the ``languages`` extra,
imported lazily) gets a generic mapping guessed from its node type names. This module
does not parse or lex anything; see :mod:`codetok.code.front.lexer`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import tree_sitter

from ...errors import FormatError, LanguageError
from .grammar import Grammar, build_grammar, generic_grammar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "CORE_LANGUAGES",
    "Grammar",
    "get_grammar",
    "available_languages",
    "load_grammar",
    "register_grammar",
    "resolve_language_name",
    "generic_grammar",
    "grammar_installed",
    "pack_installed",
]

#: The languages a code tokenizer reserves keywords for and trains on by default (the
#: default code tokenizer covers these four).
CORE_LANGUAGES = ("python", "java", "csharp", "javascript")


def _load_provider(
    name: str, provider: Mapping[str, Any], origin: str
) -> tuple[tree_sitter.Language, Any]:
    """The grammar package's language, and the capsule it came in (for the native lexer)."""
    module_name = provider.get("module")
    func_name = provider.get("function", "language")
    if not module_name:
        raise FormatError("missing [provider] module", path=origin, where="provider")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        pip_name = module_name.replace("_", "-")
        raise LanguageError(
            f"the {name} grammar needs the Python package {pip_name!r} "
            f"(module {module_name!r}), which is not installed; pip install {pip_name} "
            "(or pip install 'codetok[languages]' for every language)"
        ) from e
    try:
        capsule = getattr(module, func_name)()
        return tree_sitter.Language(capsule), capsule
    except (AttributeError, TypeError, ValueError) as e:
        raise LanguageError(
            f"{module_name}.{func_name}() did not give a tree-sitter language usable by "
            f"tree-sitter {getattr(tree_sitter, '__version__', '')}: {e}"
        ) from e


def load_grammar(path: str | os.PathLike[str] | None = None, *, text: str | None = None) -> Grammar:
    """Build a grammar from a TOML description (a file, or its text).

    Args:
        path: a ``.toml`` file written as described in ``grammars/README.md``.
        text: the TOML text itself, instead of ``path``.

    Returns:
        The grammar; it is not registered (see :func:`register_grammar`).

    Raises:
        FormatError: the TOML is malformed or lacks a required key.
        LanguageError: the grammar provider module is not installed.

    >>> toml = 'name = "py2"\\n[provider]\\nmodule = "tree_sitter_python"\\n'
    >>> load_grammar(text=toml).name
    'py2'
    """
    origin = "<text>" if path is None else os.fspath(path)
    if text is None:
        if path is None:
            raise TypeError("load_grammar() needs path or text")
        with open(path, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise FormatError(f"invalid TOML: {e}", path=origin) from e
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise FormatError("missing top-level 'name'", path=origin)
    language, capsule = _load_provider(name, spec.get("provider", {}), origin)
    return build_grammar(name, language, spec, generic=False, origin=origin, capsule=capsule)


# ----------------------------------------------------------------------------- registry

_lock = threading.RLock()
_grammars: dict[str, Grammar] = {}
#: ``get_grammar``'s answers by the spelling asked for (emptied when a grammar is registered).
_by_spelling: dict[str, Grammar] = {}
_specs: dict[str, tuple[str, dict[str, Any]]] | None = None  # name -> (origin, toml mapping)
_alias_map: dict[str, str] = {}


def _grammar_dir() -> Any:
    """The ``codetok.grammars`` package folder (``grammars/`` in a source checkout)."""
    try:
        return resources.files("codetok.grammars")
    except ModuleNotFoundError:
        # A source tree used without an install that maps codetok.grammars.
        checkout = Path(__file__).resolve().parents[2] / "grammars"
        if checkout.is_dir():
            return checkout
        raise LanguageError(
            "the codetok.grammars package (grammar TOML files) is missing from this install"
        ) from None


def _packaged_specs() -> dict[str, tuple[str, dict[str, Any]]]:
    global _specs
    with _lock:
        if _specs is None:
            specs: dict[str, tuple[str, dict[str, Any]]] = {}
            for entry in sorted(_grammar_dir().iterdir(), key=lambda p: p.name):
                if not entry.name.endswith(".toml"):
                    continue
                origin = f"codetok.grammars/{entry.name}"
                try:
                    spec = tomllib.loads(entry.read_text(encoding="utf-8"))
                except tomllib.TOMLDecodeError as e:
                    raise FormatError(f"invalid TOML: {e}", path=origin) from e
                name = spec.get("name") or entry.name[: -len(".toml")]
                specs[name] = (origin, spec)
                _alias_map[name.lower()] = name
                for alias in spec.get("aliases", []):
                    _alias_map.setdefault(alias.lower(), name)
            _specs = specs
        return _specs


def available_languages() -> list[str]:
    """List the languages described by a grammar file (or registered).

    Returns:
        Canonical names, sorted.

    >>> {"csharp", "java", "javascript", "python"} <= set(available_languages())
    True
    """
    with _lock:
        return sorted(set(_packaged_specs()) | set(_grammars))


def resolve_language_name(name: str) -> str:
    """Map a name or alias (``"py"``, ``"C#"``, ``"js"``) to the canonical language name.

    Args:
        name: any spelling accepted by :func:`get_grammar`.

    Returns:
        The canonical name, or ``name`` lowercased when no grammar file knows it.

    >>> resolve_language_name("C#")
    'csharp'
    """
    _packaged_specs()
    key = name.strip().lower()
    return _alias_map.get(key, key)


def register_grammar(grammar: Grammar) -> None:
    """Make a grammar available by its name and aliases (replacing any earlier one).

    Args:
        grammar: for example the result of :func:`load_grammar` on your own TOML file.

    >>> register_grammar(get_grammar("python"))
    """
    with _lock:
        _packaged_specs()
        _grammars[grammar.name] = grammar
        _by_spelling.clear()
        _alias_map[grammar.name.lower()] = grammar.name
        for alias in grammar.aliases:
            _alias_map[alias.lower()] = grammar.name


def get_grammar(name: str) -> Grammar:
    """Return the grammar of a language, by name or alias.

    Languages with a file in ``grammars/`` come first. Otherwise, when the optional
    ``tree_sitter_language_pack`` provides the language, a generic mapping derived from its
    node types is used (``Grammar.generic`` is True).

    Args:
        name: ``"python"``, ``"java"``, ``"csharp"``, ``"javascript"``, an alias, or a
            language of ``tree_sitter_language_pack``.

    Returns:
        The (cached) grammar.

    Raises:
        LanguageError: no grammar file and no installed provider knows the language.

    >>> get_grammar("py").name
    'python'
    """
    hit = _by_spelling.get(name) if isinstance(name, str) else None
    if hit is not None:  # every file of a batch names its language: no lock, no lookup
        return hit
    if not isinstance(name, str):
        raise TypeError(f"language must be a str, not {type(name).__name__}")
    canonical = resolve_language_name(name)
    with _lock:
        cached = _grammars.get(canonical)
        if cached is not None:
            _by_spelling[name] = cached
            return cached
        specs = _packaged_specs()
        if canonical in specs:
            origin, spec = specs[canonical]
            language, capsule = _load_provider(canonical, spec.get("provider", {}), origin)
            grammar = build_grammar(
                canonical, language, spec, generic=False, origin=origin, capsule=capsule
            )
        else:
            grammar = _from_language_pack(canonical)
        _grammars[canonical] = grammar
        return grammar


#: Grammars of tree-sitter-language-pack 0.13.0 codetok refuses, and why: a parse that
#: never returns cannot be stopped by a budget (found by lexing small probes with every
#: language of the pack in a child process with a timeout).
REFUSED_PACK_LANGUAGES = {
    "cobol": "its external scanner loops forever on some inputs (a one-line 'x\\n')",
}


def _from_language_pack(name: str) -> Grammar:
    known = ", ".join(sorted(_packaged_specs()))
    if name in REFUSED_PACK_LANGUAGES:
        raise LanguageError(
            f"codetok does not read {name}: the tree-sitter-language-pack grammar "
            f"{REFUSED_PACK_LANGUAGES[name]}"
        )
    try:
        pack = importlib.import_module("tree_sitter_language_pack")
    except ImportError as e:
        raise LanguageError(
            f"unknown language {name!r}; codetok has grammar files for {known}. "
            "Install tree-sitter-language-pack for more languages, or add a grammars/*.toml file."
        ) from e
    try:
        language = pack.get_language(name)
    except Exception as e:  # the pack raises its own LookupError/ValueError variants
        raise LanguageError(
            f"unknown language {name!r}: neither a codetok grammar file ({known}) "
            f"nor tree_sitter_language_pack knows it ({e})"
        ) from e
    capsule = None
    binding = getattr(pack, "get_binding", None)
    if binding is not None:  # the capsule lets the native lexer parse it too
        try:
            capsule = binding(name)
        except Exception:  # a pack without it: the Python lexer reads the language
            capsule = None
    if not isinstance(language, tree_sitter.Language):
        language = tree_sitter.Language(language)
    return generic_grammar(name, language, capsule=capsule)


def _module_installed(module: str) -> bool:
    try:
        return bool(module) and importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def grammar_installed(name: str) -> bool:
    """Whether the grammar package a grammar file names is installed (nothing is imported).

    >>> grammar_installed("python")
    True
    """
    spec = _packaged_specs().get(name)
    if spec is None:
        return name in _grammars
    return _module_installed(spec[1].get("provider", {}).get("module", ""))


def pack_installed() -> bool:
    """Whether ``tree-sitter-language-pack`` (the generic grammars) is installed."""
    return _module_installed("tree_sitter_language_pack")


def grammar_specs() -> Mapping[str, Mapping[str, Any]]:
    """Return the parsed TOML mappings of the packaged grammar files, by language name."""
    return {name: spec for name, (_, spec) in _packaged_specs().items()}
