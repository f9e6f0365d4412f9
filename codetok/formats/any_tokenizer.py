"""Open any tokenizer a user can name: a file or folder of any format codetok reads, a
code or music tokenizer file, or a built-in tokenizer by name (``phonemes``, ``remi``).

The command line (every ``--tokenizer``) and ``codetok corpus`` open tokenizers through
:func:`load_any_tokenizer`; :func:`codetok.load` reads text tokenizer files only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, NotFoundError

__all__ = [
    "BUILTIN",
    "builtin_tokenizer",
    "load_any_tokenizer",
    "load_text_tokenizer",
    "load_tokenizer",
]

#: ``--tokenizer`` names of built-in text tokenizers -> (description, phoneme_tokenizer options).
BUILTIN: dict[str, tuple[str, dict[str, Any]]] = {
    "phonemes": ("ARPAbet phonemes with stress (CMUdict, then codetok's G2P model)", {}),
    "phonemes-ipa": (
        "IPA phonemes with stress marks (CMUdict, then codetok's G2P model)",
        {"alphabet": "ipa"},
    ),
}


def builtin_tokenizer(spec: str) -> Any:
    """The built-in text tokenizer named ``spec``, or ``None`` (also when a file or folder
    called ``spec`` exists: files win).

    >>> builtin_tokenizer("phonemes").encode("Hi").tokens
    ['HH', 'AY1']
    >>> builtin_tokenizer("no-such-name") is None
    True
    """
    found = BUILTIN.get(spec)
    if found is None or Path(spec).exists():
        return None
    from ..text.phonemes import phoneme_tokenizer

    return phoneme_tokenizer(**found[1])


def load_text_tokenizer(spec: str) -> Any:
    """A built-in text tokenizer by name (``phonemes``), else one from any file or folder
    codetok reads (format told by content)."""
    tok = builtin_tokenizer(spec)
    if tok is not None:
        return tok
    if not Path(spec).exists():
        raise NotFoundError(
            f"{spec}: no such file or folder (looked for a tokenizer there), and not a built-in "
            f"tokenizer ({', '.join([*BUILTIN, 'remi'])})"
        )
    from .detect import load

    return load(spec)


def load_any_tokenizer(spec: str) -> Any:
    """A CodeTokenizer for a code tokenizer file, a MusicTokenizer for a music tokenizer file
    or the name ``remi`` (the REMI tokenizer without BPE), else a text Tokenizer
    (:func:`codetok.load`, or a built-in one by name, :data:`BUILTIN`).

    Used by every sub-command that takes ``--tokenizer`` (and ``codetok pairs``).
    """
    from .detect import detect_format

    p = Path(spec)
    if spec.lower() == "remi" and not p.exists():
        from ..music import MusicTokenizer

        return MusicTokenizer()
    if p.is_file() and detect_format(p) == "tokenizer.json":
        from ..tokenizer.tokenizer import Tokenizer
        from .files import parse_json, read_text_file
        from .json_numbers import hf_float

        path, text = read_text_file(p, "tokenizer.json")
        data = parse_json(text, path=path, parse_float=hf_float)  # read once, for either
        if isinstance(data, dict) and "codetok_code" in data:
            from ..code import CodeTokenizer

            return CodeTokenizer.from_dict(data, path=path)
        if isinstance(data, dict) and "codetok_music" in data:
            from ..music import MusicTokenizer

            return MusicTokenizer.from_dict(data, path=path)
        return Tokenizer.from_dict(data, path=path)
    return load_text_tokenizer(spec)


def load_tokenizer(spec: str | None) -> Any:
    """The tokenizer named on the command line, or the default code tokenizer.

    Args:
        spec: a CodeTokenizer file, any tokenizer file :func:`codetok.load` reads, a folder / Hub name for
            ``from_pretrained``; None for the default CodeTokenizer shipped with codetok.

    Returns:
        A tokenizer with an ``encode`` method.

    Raises:
        NotFoundError: nothing loadable at ``spec``, or (``spec`` None) the default code
            tokenizer's data file is missing.
    """
    if spec is None:
        try:
            from ..code.tokenizer import CodeTokenizer
        except ImportError as e:
            raise ConfigurationError(
                "no default code tokenizer is available; pass --tokenizer PATH or --no-ids"
            ) from e
        return CodeTokenizer.default()
    if Path(spec).is_file():
        return load_any_tokenizer(spec)
    from .hub import from_pretrained

    return from_pretrained(spec)
