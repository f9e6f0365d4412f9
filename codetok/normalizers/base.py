"""The normalizer base class and the alignment helper every normalizer shares."""

from __future__ import annotations

from typing import Any

from ..components.base import Component, build
from ..components.registry import registry
from ..tokenizer.offsets import NormalizedString

# Unicode White_Space, the set Rust's char::is_whitespace uses (Python's isspace differs).
RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class Normalizer(Component):
    """Base class: :meth:`normalize` edits a NormalizedString in place."""

    def normalize(self, ns: NormalizedString) -> None:
        raise NotImplementedError

    def normalize_str(self, text: str) -> str:
        """Normalize a plain string (no alignment returned).

        >>> from codetok.normalizers import Lowercase
        >>> Lowercase().normalize_str("HeLLo")
        'hello'
        """
        ns = NormalizedString(text)
        self.normalize(ns)
        return ns.text


def _change_chunks(pairs: list[list], start: int) -> list[tuple[str, int, int]]:
    """The :meth:`~codetok.tokenizer.offsets.NormalizedString.transform` chunks that rewrite
    the text from ``start`` on as ``[char, change]`` pairs (HF's alignment: a char with
    change 0 takes the next source char, +1 is inserted after the previous one, -n also
    consumes the n source chars after it)."""
    chunks: list[tuple[str, int, int]] = []
    pos = start
    for c, chg in pairs:
        if chg > 0:
            chunks.append((c, pos, pos))
        else:
            chunks.append((c, pos, pos + 1))
            pos += 1 - chg
    return chunks


def _is_rust_ws(c: str) -> bool:
    return c in RUST_WHITESPACE


#: ``type`` -> class; ``Precompiled`` is provided on first lookup (see :mod:`codetok.components.registry`).
REGISTRY = registry("normalizer")


def normalizer_from_dict(
    data: Any, *, path: str | None = None, where: str = "normalizer"
) -> Normalizer | None:
    """Build a normalizer from its HF ``tokenizer.json`` object (``None`` stays ``None``)."""
    return build(REGISTRY, data, path=path, where=where)
