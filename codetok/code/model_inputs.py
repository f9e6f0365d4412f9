"""Model inputs from code: what :meth:`codetok.code.CodeTokenizer.__call__` runs.

:func:`code_call` encodes each source with the code tokenizer (on native threads, as
:meth:`~codetok.code.CodeTokenizer.encode_batch` does), then lays the ids out exactly as
``transformers`` lays out a text tokenizer's: the same padding, truncation, ``stride``
windows, special-token template and returned columns, through the same code that does it
for :meth:`codetok.Tokenizer.__call__` (:mod:`codetok.tokenizer.truncation`,
:class:`~codetok.processors.TemplateProcessing`). What only code has:

- ``truncation="statement"``: the cut falls at the end of a statement (a lexeme when no
  statement end fits), so the kept tokens decode to a prefix of the file that stops between
  statements (:mod:`codetok.code.applications.truncation` finds the statements);
- ``return_kinds`` / ``return_node_types``: each token's lexeme kind and tree-sitter node
  type id (``-1`` for special tokens and padding), laid out like ``input_ids``.

Not here: encoding (:mod:`codetok.code.tokenizer`), where special tokens go (the
tokenizer's post-processor), tensors (:class:`~codetok.tokenizer.encoding.BatchEncoding`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigurationError, TruncationError
from ..processors.base import default_process
from ..tokenizer.call import batch_columns, strategies
from ..tokenizer.encoding import BatchEncoding, Encoding, _to_tensor
from ..tokenizer.truncation import pad_encodings, padding_settings, truncate_encodings
from .encoding import CodeEncoding
from .front.lexer import char_to_byte
from .front.statements import statement_units

__all__ = ["code_call", "PLAIN", "PlainEncoding", "STATEMENT"]

#: The truncation strategy that cuts at a statement end.
STATEMENT = "statement"
#: The language of a natural-language part (a docstring, a query): no parse, the comment
#: channel's words.
PLAIN = "text"

Source = str | bytes


def code_call(
    tok: Any,
    source: Source | Sequence[Source],
    source_pair: Source | Sequence[Source] | None = None,
    language: str | tuple[str | None, str | None] | None = None,
    *,
    paths: Sequence[str | os.PathLike[str] | None] | None = None,
    add_special_tokens: bool = True,
    padding: bool | str = False,
    truncation: bool | str | None = None,
    max_length: int | None = None,
    stride: int = 0,
    pad_to_multiple_of: int | None = None,
    padding_side: str | None = None,
    truncation_side: str | None = None,
    return_tensors: str | None = None,
    return_token_type_ids: bool | None = None,
    return_attention_mask: bool | None = None,
    return_overflowing_tokens: bool = False,
    return_special_tokens_mask: bool = False,
    return_offsets_mapping: bool = False,
    return_length: bool = False,
    return_position_ids: bool = False,
    return_kinds: bool = False,
    return_node_types: bool = False,
    num_threads: int | None = None,
    _general: bool = False,
) -> BatchEncoding:
    """Model inputs for code: :meth:`codetok.code.CodeTokenizer.__call__` documents it.

    ``_general``: lay out through encodings even where arrays would do (what the array
    path's lazy encodings are built with)."""
    call = dict(locals())
    statement = truncation == STATEMENT
    if statement and (source_pair is not None or stride or return_overflowing_tokens):
        raise ConfigurationError(
            "truncation='statement' cuts single sources without stride or overflowing "
            "windows; use truncation=True for pairs and windows"
        )
    pad_strategy, trunc_strategy, max_length = strategies(
        padding, "only_first" if statement else truncation, max_length, pad_to_multiple_of,
        tok.model_max_length,
    )  # fmt: skip
    sources, pairs, is_batched = _batch(source, source_pair)
    first_lang, second_lang = language if isinstance(language, tuple) else (language, language)
    firsts = _encoded(tok, sources, first_lang, paths, num_threads)
    seconds = None if pairs is None else _encoded(tok, pairs, second_lang, None, num_threads)
    room = None
    if trunc_strategy is not None and max_length is not None:
        room = _room(tok, max_length, pairs is not None, add_special_tokens)
    fields = _fields(
        tok.model_input_names,
        return_token_type_ids,
        return_attention_mask,
        special_tokens_mask=return_special_tokens_mask,
        offset_mapping=return_offsets_mapping,
        length=return_length,
        position_ids=return_position_ids,
        kinds=return_kinds,
        node_types=return_node_types,
    )
    if not _general and pairs is None and not (statement or return_overflowing_tokens or return_offsets_mapping) and trunc_strategy != "only_second":  # fmt: skip
        sides = (padding_side or tok.padding_side, truncation_side or tok.truncation_side)
        layout = (room, pad_strategy, max_length, pad_to_multiple_of, *sides)
        fast = _array_layout(tok, firsts, layout, add_special_tokens, fields, return_tensors)
        if fast is not None:
            later = lambda: code_call(**{**call, "_general": True}).encodings  # noqa: E731
            return _shaped(
                BatchEncoding(fast, later), None, is_batched or return_tensors is not None
            )
    trunc_side = truncation_side or tok.truncation_side
    pad = (pad_strategy, max_length, pad_to_multiple_of, padding_side or tok.padding_side)
    finals = []
    for k, enc in enumerate(firsts):
        b = None if seconds is None else seconds[k]
        a_enc, b_enc = _as_encoding(tok, enc, fields), b and _as_encoding(tok, b, fields)
        if room is not None and statement:
            a_enc = _statement_cut(enc, a_enc, room)
        elif room is not None:
            truncate_encodings(a_enc, b_enc, room, stride, trunc_strategy, trunc_side)  # type: ignore[arg-type]
        finals.append(_with_specials(tok, a_enc, b_enc, add_special_tokens))
    tables = [firsts] if seconds is None else [firsts, seconds]
    out = _columns(tok, finals, tables, pad, fields, return_overflowing_tokens)
    return _shaped(out, return_tensors, is_batched or return_overflowing_tokens)


def _encoded(
    tok: Any, texts: list[Source], language: str | None, paths: Any, threads: int | None
) -> list[Any]:
    """The encodings of ``texts``: the code tokenizer's, or, for :data:`PLAIN`, their
    natural-language ids (:class:`PlainEncoding`)."""
    if language == PLAIN:
        return [PlainEncoding(tok, t) for t in texts]
    return tok.encode_batch(texts, language, paths=paths, num_threads=threads)


class PlainEncoding:
    """A text as natural language (``language="text"``): the ids of
    :meth:`~codetok.code.CodeTokenizer.encode_plain`, each token's char span (a token that
    holds part of a char spans the whole char), and no lexemes (kinds and node types -1).

    >>> from codetok.code import CodeTokenizer
    >>> PlainEncoding(CodeTokenizer(), "Add two numbers.").spans.tolist()[:2]
    [[0, 3], [3, 7]]
    """

    def __init__(self, tok: Any, text: Source) -> None:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "surrogateescape")
        ids = np.asarray(tok.encode_plain(text), np.int64)
        lengths = tok._lengths[ids] if ids.size else np.zeros(0, np.int64)
        ends = np.cumsum(lengths)
        bounds = char_to_byte(text, False)
        starts = np.searchsorted(bounds, ends - lengths, "right") - 1
        self.ids_array = ids
        self.spans = np.stack([starts, np.searchsorted(bounds, ends, "left")], axis=1)
        self.kinds = self.node_type_ids = np.full(ids.size, -1, np.int64)

    def __len__(self) -> int:
        return int(self.ids_array.size)


def _columns(
    tok: Any,
    finals: list[Encoding],
    tables: list[list[CodeEncoding]],
    pad: tuple[Any, ...],
    fields: dict[str, bool],
    overflowing: bool,
) -> BatchEncoding:
    """The general path's answer: the final encodings padded, their columns."""
    pad_strategy, max_length, multiple, side = pad
    if pad_strategy is not None:
        _pad(tok, finals, max_length if pad_strategy == "max_length" else None, multiple, side)
    columns = {k: v for k, v in fields.items() if k not in ("kinds", "node_types")}
    out = batch_columns(finals, columns, overflowing, None)
    for name in ("kinds", "node_types"):
        if fields[name]:
            out.data[name] = _code_column(out.encodings, out.data, tables, name)
    return out


def _array_layout(
    tok: Any,
    encs: list[CodeEncoding],
    layout: tuple[Any, ...],
    add_special_tokens: bool,
    fields: dict[str, bool],
    tensors: str | None,
) -> dict[str, Any] | None:
    """The columns of single sources laid out from their id arrays, without encodings:
    what the general path gives for them (cut to ``room`` on the truncation side, the
    template's tokens around, padded); None when it must run instead (tensors of rows of
    different lengths, which it refuses with its own error)."""
    room, pad_strategy, max_length, multiple, pad_side, trunc_side = layout
    before, after, type_a = _affixes(tok.post_processor, add_special_tokens)
    keeps = []
    for enc in encs:
        n = len(enc)
        cut = room is not None and n > room
        keeps.append(slice(0, n) if not cut else slice(0, room) if trunc_side == "right" else slice(n - room, n))  # fmt: skip
    sizes = [len(before[0]) + k.stop - k.start + len(after[0]) for k in keeps]
    finals = list(sizes)
    if pad_strategy is not None:
        target = max_length if pad_strategy == "max_length" else max(sizes, default=0)
        if multiple and target % multiple:
            target += multiple - target % multiple
        finals = [max(size, target) for size in sizes]
    if tensors is not None and len(set(finals)) > 1:
        return None
    wanted = ["input_ids", *(name for name, want in fields.items() if want)]
    pad_id = tok.control_id("pad") if pad_strategy is not None else 0
    if tensors is not None:
        grid = (encs, keeps, sizes, finals[0] if finals else 0)
        out = _grid(grid, before, after, type_a, wanted, pad_id, pad_side)
        return {k: v if tensors == "np" else _to_tensor(k, v, tensors) for k, v in out.items()}
    rows = []
    for enc, keep, size, final in zip(encs, keeps, sizes, finals, strict=True):
        parts = _row_parts(enc, keep, before, after, type_a, wanted, pad_id)
        rows.append(_padded(parts, final - size, pad_side, wanted))
    return {name: [row[name] for row in rows] for name in wanted}


def _grid(
    grid: tuple[Any, ...],
    before: Any,
    after: Any,
    type_a: int,
    wanted: list[str],
    pad_id: int,
    side: str,
) -> dict[str, np.ndarray]:
    """The columns of rows of one ``width`` as ``int64`` arrays, filled in place."""
    encs, keeps, sizes, width = grid
    shape = (len(encs), width)
    fills = {"input_ids": pad_id, "special_tokens_mask": 1, "kinds": -1, "node_types": -1}
    out = {n: np.full(shape, fills.get(n, 0), np.int64) for n in wanted if n != "length"}
    nb = len(before[0])
    for r, (enc, keep, size) in enumerate(zip(encs, keeps, sizes, strict=True)):
        at = width - size if side == "left" else 0
        a, b, e = at + nb, at + size - len(after[0]), at + size
        for name, grid_ in out.items():
            if name == "input_ids":
                grid_[r, at:a], grid_[r, a:b], grid_[r, b:e] = (
                    before[0],
                    enc.ids_array[keep],
                    after[0],
                )
            elif name == "token_type_ids":
                grid_[r, at:a], grid_[r, a:b], grid_[r, b:e] = before[1], type_a, after[1]
            elif name == "attention_mask":
                grid_[r, at:e] = 1
            elif name == "special_tokens_mask":
                grid_[r, a:b] = 0
            elif name == "position_ids":
                grid_[r, :] = 1
                grid_[r, at:e] = np.arange(size)
            else:
                grid_[r, a:b] = (enc.kinds if name == "kinds" else enc.node_type_ids)[keep]
    if "length" in wanted:
        out["length"] = np.full(len(encs), width, np.int64)
    return out


def _row_parts(
    enc: CodeEncoding,
    keep: slice,
    before: Any,
    after: Any,
    type_a: int,
    wanted: list[str],
    pad_id: int,
) -> dict[str, tuple[list[int], int]]:
    """One row's columns before padding, each with the value its padding takes."""
    nb, na = len(before[0]), len(after[0])
    body = enc.ids_array[keep].tolist()
    n = len(body)
    parts: dict[str, tuple[list[int], int]] = {
        "input_ids": (before[0].tolist() + body + after[0].tolist(), pad_id)
    }
    for name in wanted:
        if name == "token_type_ids":
            parts[name] = (before[1].tolist() + [type_a] * n + after[1].tolist(), 0)
        elif name == "attention_mask":
            parts[name] = ([1] * (nb + n + na), 0)
        elif name == "special_tokens_mask":
            parts[name] = ([1] * nb + [0] * n + [1] * na, 1)
        elif name in ("kinds", "node_types"):
            values = (enc.kinds if name == "kinds" else enc.node_type_ids)[keep].tolist()
            parts[name] = ([-1] * nb + values + [-1] * na, -1)
        elif name == "position_ids":
            parts[name] = (list(range(nb + n + na)), 1)
        elif name == "length":
            parts[name] = ([], 0)
    return parts


def _padded(
    parts: dict[str, tuple[list[int], int]], count: int, side: str, wanted: list[str]
) -> dict[str, Any]:
    """The row's columns with ``count`` padding values on ``side``; ``length`` the whole."""
    row: dict[str, Any] = {}
    for name in wanted:
        values, fill = parts[name]
        if name == "length":
            row[name] = len(parts["input_ids"][0]) + count
        elif count == 0:
            row[name] = values
        else:
            row[name] = [fill] * count + values if side == "left" else values + [fill] * count
    return row


def _affixes(template: Any, add_special_tokens: bool) -> tuple[Any, Any, int]:
    """``(ids, type ids)`` of the single template's tokens before and after ``$A``, and
    ``$A``'s type id."""
    before: tuple[list[int], list[int]] = ([], [])
    after: tuple[list[int], list[int]] = ([], [])
    type_a, side = 0, before
    for kind, name, type_id in template.single if template is not None else []:
        if kind == "seq":
            type_a, side = type_id, after
        elif add_special_tokens:
            ids = template.special_tokens[name]["ids"]
            side[0].extend(ids)
            side[1].extend([type_id] * len(ids))
    return (np.array(before[0], np.int64), np.array(before[1], np.int64)), (
        np.array(after[0], np.int64), np.array(after[1], np.int64)), type_a  # fmt: skip


def _shaped(out: BatchEncoding, tensors: str | None, batched: bool) -> BatchEncoding:
    """The answer as tensors, or, for one unbatched input, its rows unwrapped."""
    if tensors is not None:
        return BatchEncoding(out.data, out.encodings, tensor_type=tensors)
    if batched:
        return out
    return BatchEncoding(
        {k: (v[0] if v and isinstance(v[0], list) else v) for k, v in out.data.items()},
        out.encodings,
    )


def _fields(
    names: list[str], types: bool | None, mask: bool | None, **extra: bool
) -> dict[str, bool]:
    """Which columns the answer has: token type ids and attention mask by the call or the
    tokenizer's ``model_input_names``, then the ``return_*`` ones."""
    return {
        "token_type_ids": "token_type_ids" in names if types is None else types,
        "attention_mask": "attention_mask" in names if mask is None else mask,
        **extra,
    }


def _room(tok: Any, max_length: int, is_pair: bool, add_special_tokens: bool) -> int:
    """The tokens of code that ``max_length`` leaves beside the template's."""
    template = tok.post_processor
    n_added = template.added_tokens(is_pair) if template and add_special_tokens else 0
    if n_added > max_length:
        raise TruncationError(
            f"max_length={max_length} leaves no room for the {n_added} special tokens the "
            f"post-processor adds; use max_length >= {n_added}"
        )
    return max_length - n_added


def _with_specials(tok: Any, a: Encoding, b: Encoding | None, add_special_tokens: bool) -> Encoding:
    """One input's final encoding: the template's tokens placed around its parts."""
    template = tok.post_processor
    if template is not None:
        return template.process(a, b, add_special_tokens)
    return default_process([a] if b is None else [a, b], add_special_tokens)


def _pad(
    tok: Any,
    finals: list[Encoding],
    length: int | None,
    multiple: int | None,
    side: str,
) -> None:
    """Pad every final encoding (to ``length``, or the longest) with ``<pad>``."""
    pad_token = tok.special_tokens_map.get("pad_token")
    if pad_token is None:
        raise ConfigurationError("padding needs a <pad> token, which this tokenizer lacks")
    settings = padding_settings(side, tok.control_id("pad"), 0, pad_token, length, multiple)
    pad_encodings(finals, settings)


def _batch(source: Any, source_pair: Any) -> tuple[list[Source], list[Source] | None, bool]:
    """The sources (and pairs) as lists, and whether a batch was given."""
    is_batched = isinstance(source, (list, tuple))
    if not is_batched:
        return [source], (None if source_pair is None else [source_pair]), False
    if source_pair is None:
        return list(source), None, True
    if not isinstance(source_pair, (list, tuple)):
        raise ConfigurationError(
            "when source is a batch, source_pair must be a list of the same length"
        )
    if len(source) != len(source_pair):
        raise ConfigurationError(
            f"source has {len(source)} items but source_pair has {len(source_pair)}; they must match"
        )
    return list(source), list(source_pair), True


def _as_encoding(tok: Any, enc: CodeEncoding, fields: dict[str, bool]) -> Encoding:
    """``enc`` as a text tokenizer's :class:`Encoding`: ids and token strings, char offsets
    when asked for, and the token's own index as its word id when code columns are asked
    for (they are looked up by it after truncation and padding)."""
    ids = enc.ids_array
    n = int(ids.shape[0])
    words = fields["kinds"] or fields["node_types"]
    return Encoding(
        ids=ids.tolist(),
        tokens=tok._token_array()[ids].tolist(),
        offsets=list(map(tuple, enc.spans.tolist())) if fields["offset_mapping"] else None,
        word_ids=list(range(n)) if words else None,
    )


def _statement_cut(enc: CodeEncoding, a: Encoding, room: int) -> Encoding:
    """The first tokens of ``a`` (``enc``'s) that fit ``room`` and end a statement, else a
    lexeme: the kept tokens decode to the file up to that point."""
    n = len(enc)
    if n <= room:
        return a
    spans = enc.byte_spans
    starts, ends = spans[:, 0], spans[:, 1]
    lx = enc.lexemes
    units = statement_units(lx.tree.root_node, lx.language, lx.tree_offset, whole_file=True)
    best = 0
    for _, e in units:
        k = int(np.searchsorted(starts, e, "left"))
        if best < k <= room and (k == 0 or ends[k - 1] <= e):
            best = k
    if best == 0:  # no statement end fits: the last lexeme start that does
        lex = enc.lexeme_indices[: room + 1]
        change = np.flatnonzero(lex[1:] != lex[:-1]) + 1
        best = int(change[-1]) if change.size else 0
    return a._slice(0, best)


def _code_column(
    encodings: list[Encoding],
    data: dict[str, Any],
    tables: list[list[CodeEncoding]],
    name: str,
) -> list[list[int]]:
    """Each final sequence's ``name`` (``kinds`` / ``node_types``) per token, -1 where the
    token is no token of the code (special tokens, padding)."""
    mapping = data.get("overflow_to_sample_mapping") or range(len(encodings))
    out = []
    for e, sample in zip(encodings, mapping, strict=True):
        per_seq = [
            (t[sample].kinds if name == "kinds" else t[sample].node_type_ids) for t in tables
        ]
        row = []
        for s, w in zip(e.sequence_ids, e.word_ids, strict=True):
            row.append(-1 if s is None or w is None else int(per_seq[s][w]))
        out.append(row)
    return out
