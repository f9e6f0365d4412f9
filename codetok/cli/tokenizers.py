"""How the ``codetok`` command line sets up the text tokenizers it loads.

A ``tokenizer.json`` made for a model often pads and truncates every encoding to a fixed
length (the BERT file in the README does both at 128). That suits model inputs, not a
command that encodes files: a 1 MB file would silently come out as 128 ids. So the commands
that encode files turn both off and say so in one note on stderr
(:func:`encode_whole_inputs`); ``codetok encode --keep-padding-truncation`` keeps them.

``--tokenizer`` also takes the name of a built-in text tokenizer (:data:`BUILTIN`, for
example ``phonemes``) when no file or folder of that name exists
(:func:`builtin_tokenizer`).

Not handled here: finding and loading the files (:mod:`codetok.cli.app`,
:mod:`codetok.cli.pairs`).
"""

from __future__ import annotations

from typing import Any

from .messages import note

__all__ = ["encode_whole_inputs"]


def _settings(tok: Any) -> list[str]:
    """What ``tok`` does to every encoding, as phrases (empty when it neither pads nor
    truncates)."""
    out = []
    padding = getattr(tok, "padding", None)
    if padding:
        length = padding.get("length") if isinstance(padding, dict) else None
        out.append(f"pads to {length}" if length else "pads to the longest of a batch")
    truncation = getattr(tok, "truncation", None)
    if truncation:
        limit = truncation.get("max_length") if isinstance(truncation, dict) else None
        out.append(f"truncates at {limit} tokens" if limit else "truncates")
    return out


def encode_whole_inputs(tok: Any, name: str, hint: str) -> None:
    """Turn off the padding and truncation a loaded tokenizer carries, with one note.

    Args:
        tok: a tokenizer with the HF ``tokenizers`` settings API (``padding`` /
            ``truncation`` properties, ``no_padding()`` / ``no_truncation()``); anything
            else is left alone.
        name: how the user named the tokenizer (``--tokenizer``'s value), for the note.
        hint: the end of the note: what the command does instead, or how to keep them.

    >>> from codetok.text import whitespace_tokenizer
    >>> tok = whitespace_tokenizer(corpus=["a b"])
    >>> tok.enable_truncation(2)
    >>> encode_whole_inputs(tok, "ws.json", "pass --keep-padding-truncation to keep it")
    >>> tok.truncation is None
    True
    """
    settings = _settings(tok)
    if not settings:
        return
    if getattr(tok, "padding", None) and callable(getattr(tok, "no_padding", None)):
        tok.no_padding()
    if getattr(tok, "truncation", None) and callable(getattr(tok, "no_truncation", None)):
        tok.no_truncation()
    note(f"{name} {' and '.join(settings)}; encoding whole inputs without either ({hint})")
