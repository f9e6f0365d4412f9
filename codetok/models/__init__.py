"""Subword models: BPE, WordPiece, Unigram and WordLevel, one per file."""

from __future__ import annotations

from typing import Any

from ..components.base import as_format_error, check_options
from ..components.registry import registry as _component_registry
from ..errors import CodetokError, FormatError, UnknownComponentError
from .base import Model, Token
from .wordlevel import WordLevel
from .wordpiece import WordPiece

__all__ = ["Model", "Token", "WordLevel", "WordPiece", "BPE", "Unigram", "model_from_dict"]


def __getattr__(name: str) -> Any:
    # BPE and Unigram are imported on first use to keep `import codetok` light.
    if name == "BPE":
        from .bpe import BPE

        return BPE
    if name == "Unigram":
        from .unigram import Unigram

        return Unigram
    raise AttributeError(name)


def _registry() -> dict[str, type[Model]]:
    from .bpe import BPE
    from .unigram import Unigram

    return {"BPE": BPE, "WordPiece": WordPiece, "WordLevel": WordLevel, "Unigram": Unigram}


def model_from_dict(data: Any, *, path: str | None = None, where: str = "model") -> Model:
    """Build a model from the HF ``tokenizer.json`` ``model`` object.

    Raises:
        UnknownComponentError: ``type`` names a model codetok does not have.
        FormatError: the object is malformed.
    """
    if not isinstance(data, dict):
        raise FormatError(
            f"expected a model object, got {type(data).__name__}", path=path, where=where
        )
    registry = _registry()
    kind = data.get("type")
    if kind is None:
        # Old HF files omit the model type; infer it from the keys as HF does.
        if "merges" in data:
            kind = "BPE"
        elif "continuing_subword_prefix" in data or "max_input_chars_per_word" in data:
            kind = "WordPiece"
        elif isinstance(data.get("vocab"), list):
            kind = "Unigram"
        elif "vocab" in data:
            kind = "WordLevel"
        else:
            raise FormatError("model object has no 'type' key", path=path, where=where)
    if not isinstance(kind, str):
        raise FormatError(
            f"the model 'type' is a string, got {type(kind).__name__}",
            path=path,
            where=f"{where}.type",
        )
    cls = registry.get(kind)
    if cls is None and isinstance(kind, str):
        # codetok's own models (``codetok.*``, e.g. codetok.Phonemes) register themselves.
        cls = _component_registry("model").get(kind)
    if cls is None:
        known = sorted({*registry, *_component_registry("model").names()})
        raise UnknownComponentError(
            f"unknown model type {kind!r}; codetok knows: {', '.join(known)}",
            path=path,
            where=where,
        )
    check_options(cls, data, path=path, where=where)
    try:
        return cls.from_dict(data, path=path)
    except (CodetokError, KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise as_format_error(e, f"malformed {kind} model", path, where) from e
