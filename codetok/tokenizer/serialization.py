"""A :class:`~codetok.Tokenizer` to and from the HF ``tokenizer.json`` object, text and file.

What :meth:`Tokenizer.to_dict <codetok.Tokenizer.to_dict>`, ``to_str``, ``save``,
``from_dict`` and ``from_str`` run (``from_file`` tells the formats apart first:
:mod:`codetok.formats.detect`). This module handles:

- the top-level sections in HF's schema and spelling: ``version``, ``truncation``,
  ``padding``, ``added_tokens``, ``normalizer``, ``pre_tokenizer``, ``post_processor``,
  ``decoder``, ``model``;
- codetok's own ``transformers``-style settings (``model_max_length``, sides,
  ``model_input_names``, ``clean_up_tokenization_spaces``, ``special_tokens_map``) and
  the surrogate policy (``surrogates``, see :attr:`codetok.Tokenizer.surrogates`) under
  the single top-level key ``"codetok"``, written only when asked for, because HF
  ``tokenizers`` refuses files with unknown top-level keys;
- errors: :class:`~codetok.errors.FormatError` naming the file and the JSON path (or the
  line and column of invalid JSON);
- lone surrogates (tokens a ``.ctk`` file or a ``str`` can hold, which UTF-8 cannot):
  written as JSON escapes (``"\\ud800"``), so the text stays valid UTF-8 and reads back
  as the same token (:func:`json_text`); a file is written whole or not at all
  (:func:`write_json_file`).

Not here: each component's own object (its class's ``to_dict`` / ``from_dict``, found by
``type`` through :mod:`codetok.components.registry`), folders of tokenizer files and the Hub
(:mod:`codetok.formats.pretrained`, :mod:`codetok.formats.hub`), and the documented
entry points (:mod:`codetok.formats.hf_json`).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, TypeVar

from ..decoders import decoder_from_dict
from ..engine.collector import gc_paused
from ..errors import CodetokError, FormatError
from ..formats.files import parse_json
from ..formats.ids import check_id
from ..formats.json_numbers import hf_float
from ..models import model_from_dict
from ..normalizers import normalizer_from_dict
from ..pre_tokenizers import pre_tokenizer_from_dict
from ..processors import post_processor_from_dict
from .added_tokens import AddedToken
from .truncation import JSON_DIRECTION, JSON_STRATEGY, UNLIMITED

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = [
    "codetok_settings",
    "from_dict",
    "from_str",
    "json_text",
    "save",
    "to_dict",
    "to_str",
    "write_json_file",
]

T = TypeVar("T", bound="Tokenizer")


def to_dict(tok: Tokenizer, settings: bool = False) -> dict[str, Any]:
    """The ``tokenizer.json`` object of ``tok`` (see :meth:`codetok.Tokenizer.to_dict`)."""
    trunc = None
    t = tok.truncation
    if t is not None:
        trunc = {
            "direction": JSON_DIRECTION[t["direction"]],
            "max_length": t["max_length"],
            "strategy": JSON_STRATEGY[t["strategy"]],
            "stride": t["stride"],
        }
    pad = None
    p = tok.padding
    if p is not None:
        pad = {
            "strategy": "BatchLongest" if p["length"] is None else {"Fixed": p["length"]},
            "direction": JSON_DIRECTION[p["direction"]],
            "pad_to_multiple_of": p["pad_to_multiple_of"],
            "pad_id": p["pad_id"],
            "pad_type_id": p["pad_type_id"],
            "pad_token": p["pad_token"],
        }
    out: dict[str, Any] = {
        "version": "1.0",
        "truncation": trunc,
        "padding": pad,
        "added_tokens": [a.to_dict(tid) for tid, a in sorted(tok.added.tokens.items())],
        "normalizer": None if tok.normalizer is None else tok.normalizer.to_dict(),
        "pre_tokenizer": None if tok.pre_tokenizer is None else tok.pre_tokenizer.to_dict(),
        "post_processor": None if tok.post_processor is None else tok.post_processor.to_dict(),
        "decoder": None if tok.decoder is None else tok.decoder.to_dict(),
        "model": tok.model.to_dict(),
    }
    ext = codetok_settings(tok) if settings else None
    if ext:
        out["codetok"] = ext
    return out


def codetok_settings(tok: Tokenizer) -> dict[str, Any]:
    """The ``"codetok"`` section: ``tok``'s settings that differ from the defaults.

    >>> from codetok import Tokenizer
    >>> from codetok.models import WordLevel
    >>> tok = Tokenizer(WordLevel({"a": 0}, None))
    >>> tok.padding_side = "left"
    >>> codetok_settings(tok)
    {'padding_side': 'left'}
    """
    ext: dict[str, Any] = {}
    if tok.model_max_length < UNLIMITED:
        ext["model_max_length"] = tok.model_max_length
    if tok.padding_side != "right":
        ext["padding_side"] = tok.padding_side
    if tok.truncation_side != "right":
        ext["truncation_side"] = tok.truncation_side
    if tok.model_input_names != ["input_ids", "token_type_ids", "attention_mask"]:
        ext["model_input_names"] = list(tok.model_input_names)
    if tok.clean_up_tokenization_spaces:
        ext["clean_up_tokenization_spaces"] = True
    if tok.special_tokens_map:
        ext["special_tokens_map"] = dict(tok.special_tokens_map)
    if tok.surrogates != "keep":
        ext["surrogates"] = tok.surrogates
    return ext


#: A lone surrogate: a high one not followed by a low one, or a low one not after a high one.
_LONE_SURROGATE = re.compile(
    r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)
#: A high surrogate followed by a low one: two code points in a str, one character in JSON.
_SURROGATE_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


def json_text(data: Any, pretty: bool = False) -> str:
    """``data`` as JSON text (non-ASCII kept), with every lone surrogate as a ``\\uXXXX``
    escape, so the text has a UTF-8 form and ``json.loads`` gives the same strs back.

    A high surrogate followed by a low one is left as it is: written as two escapes, JSON
    would read them back as the one character they pair into. :func:`write_json_file`
    refuses such text.

    Args:
        data: a JSON-able object.
        pretty: indent by 2.

    Returns:
        The JSON text.

    >>> json_text({"\\ud800": 1, "é": 2})
    '{"\\\\ud800": 1, "é": 2}'
    """
    import json

    text = json.dumps(data, ensure_ascii=False, indent=2 if pretty else None)
    try:  # no surrogate at all (the common case): a C-speed check instead of the regex scan
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def write_json_file(path: str | os.PathLike[str], text: str, what: str) -> None:
    """Write the JSON ``text`` (from :func:`json_text`) to ``path`` as UTF-8, whole or not
    at all: the bytes are made first, then written through
    :func:`codetok.formats.writing.atomic_output` (a temporary file renamed over ``path``; a
    symlink is followed, a path that is not a regular file is written in place).

    Args:
        path: the file.
        text: the JSON text.
        what: what the file is (``"tokenizer.json"``), for the messages.

    Raises:
        FormatError: ``text`` holds a high surrogate followed by a low one (two code points
            of a token), which JSON can only read back as one character; nothing is
            written.
        CodetokError: the file cannot be created (the message gives the reason).
        OSError: the file cannot be written.
    """
    from ..formats.writing import atomic_output

    p = os.fspath(path)
    pair = _SURROGATE_PAIR.search(text)
    if pair is not None:
        a, b = pair.group()
        joined = chr(0x10000 + ((ord(a) - 0xD800) << 10) + (ord(b) - 0xDC00))
        around = text[max(0, pair.start() - 40) : pair.end() + 40]
        raise FormatError(
            f"cannot write the {what}: a string holds the surrogates U+{ord(a):04X} "
            f"U+{ord(b):04X} as two code points (near {around!r}), which JSON can only read "
            f"back as the one character {joined!r} (U+{ord(joined):04X}). Save it with "
            "save_binary (a .ctk file keeps them), or change that token",
            path=p,
        )
    with atomic_output(p) as f:
        f.write(text)


def to_str(tok: Tokenizer, pretty: bool = False, settings: bool = False) -> str:
    """The ``tokenizer.json`` text of ``tok`` (through ``tok.to_dict``); lone surrogates
    are ``\\uXXXX`` escapes (see :func:`json_text`)."""
    with gc_paused():  # 100k-entry tables, no cycles: see codetok.engine.collector
        return json_text(tok.to_dict(settings), pretty)


def save(
    tok: Tokenizer, path: str | os.PathLike[str], pretty: bool = True, settings: bool = False
) -> None:
    """Write ``tok.to_str(pretty, settings)`` to ``path`` as UTF-8, whole or not at all.

    A token that is a lone surrogate (``"\\ud800"``; a ``.ctk`` file may hold one) is
    written as the JSON escape ``"\\ud800"``: codetok reads the file back to the same
    token, while HF ``tokenizers`` may refuse the file (its strings are UTF-8).

    Raises:
        FormatError: a token holds a high surrogate followed by a low one, which JSON
            cannot keep apart (see :func:`write_json_file`); nothing is written.
        CodetokError: the file cannot be created.
    """
    write_json_file(path, tok.to_str(pretty, settings), "tokenizer.json")


def from_dict(
    cls: type[T], data: dict[str, Any], *, path: str | None = None, model: Any = None
) -> T:
    """Build a ``cls`` from a parsed ``tokenizer.json`` object.

    ``model``, when given, is used instead of building the ``model`` section (the binary
    format builds its model from arrays).

    Raises:
        FormatError: missing or malformed sections (the message names the JSON path).
        UnknownComponentError: a component ``type`` codetok does not implement.
    """
    if not isinstance(data, dict):
        raise FormatError("a tokenizer.json must hold a JSON object", path=path)
    if "model" not in data:
        raise FormatError("no 'model' section", path=path)
    if model is None:
        model = model_from_dict(data["model"], path=path, where="model")
    tok = cls(
        model,
        normalizer=normalizer_from_dict(data.get("normalizer"), path=path),
        pre_tokenizer=pre_tokenizer_from_dict(data.get("pre_tokenizer"), path=path),
        post_processor=post_processor_from_dict(data.get("post_processor"), path=path),
        decoder=decoder_from_dict(data.get("decoder"), path=path),
    )
    added = data.get("added_tokens", [])
    if not isinstance(added, list):
        raise FormatError(
            f"expected a list of added token objects (or no key), got {type(added).__name__}",
            path=path,
            where="added_tokens",
        )
    rows = []
    for i, d in enumerate(added):
        where = f"added_tokens[{i}]"
        if not isinstance(d, dict) or "id" not in d:
            raise FormatError(
                "each added token needs an 'id' and a 'content'", path=path, where=where
            )
        tid = check_id(d["id"], what="the added token", path=path, where=f"{where}.id")
        rows.append((AddedToken.from_dict(d, path=path, where=where), tid))
    tok.added.set_many(rows)
    trunc = data.get("truncation")
    if trunc:
        try:
            tok.enable_truncation(
                int(trunc["max_length"]),
                int(trunc.get("stride", 0)),
                trunc.get("strategy", "LongestFirst"),
                trunc.get("direction", "Right"),
            )
        except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as e:
            raise FormatError(f"malformed truncation: {e}", path=path, where="truncation") from e
    pad = data.get("padding")
    if pad:
        try:
            strat = pad.get("strategy", "BatchLongest")
            length = strat.get("Fixed") if isinstance(strat, dict) else None
            tok.enable_padding(
                pad.get("direction", "Right"),
                int(pad.get("pad_id", 0)),
                int(pad.get("pad_type_id", 0)),
                pad.get("pad_token", "[PAD]"),
                length,
                pad.get("pad_to_multiple_of"),
            )
        except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as e:
            raise FormatError(f"malformed padding: {e}", path=path, where="padding") from e
    ext = data.get("codetok") or {}
    if not isinstance(ext, dict):
        raise FormatError(
            f"expected an object of codetok settings, got {type(ext).__name__}",
            path=path,
            where="codetok",
        )
    if ext:
        _settings(tok, ext, path)
    return tok


def _settings(tok: Tokenizer, ext: dict[str, Any], path: str | None) -> None:
    """Apply the ``codetok`` section (the ``transformers`` settings) of a file to ``tok``."""
    key = "model_max_length"
    try:
        tok.model_max_length = int(ext.get(key, tok.model_max_length))
        for key, default in (("padding_side", "right"), ("truncation_side", "right")):
            side = ext.get(key, default)
            if side not in ("left", "right"):
                raise ValueError(f"expected 'left' or 'right', got {side!r}")
            setattr(tok, key, side)
        key = "model_input_names"
        names = ext.get(key, tok.model_input_names)
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"expected a list of names, got {names!r}")
        tok.model_input_names = list(names)
        key = "clean_up_tokenization_spaces"
        tok.clean_up_tokenization_spaces = bool(ext.get(key, False))
        key = "special_tokens_map"
        tok.special_tokens_map = dict(ext.get(key, {}))
        key = "surrogates"
        tok.surrogates = ext.get(key, "keep")
    except (CodetokError, TypeError, ValueError, OverflowError) as e:
        message = e.message if isinstance(e, FormatError) else str(e)
        raise FormatError(message, path=path, where=f"codetok.{key}") from e


def from_str(cls: type[T], text: str, *, path: str | None = None) -> T:
    """Parse ``tokenizer.json`` text and build it with ``cls.from_dict``.

    Raises:
        FormatError: the text is not valid JSON (the message gives line and column) or is
            nested too deeply.
    """
    with gc_paused():  # 100k-entry tables, no cycles: see codetok.engine.collector
        data = parse_json(text, path=path, parse_float=hf_float)  # HF's reading of each float
        return cls.from_dict(data, path=path)
