"""The native router of a :class:`~codetok.code.CodeTokenizer`: lexemes -> ids in one call.

:func:`compile_router` builds the native ``CodeRouter`` (codetok/_native/code/code_router.hpp) from a
code tokenizer's channels and router options for one language; :func:`run_router` routes and
encodes one file's lexemes with it. It gives the units and ids that :func:`~.router.route`
and the channels' ``encode`` give (the specification, and what the tests compare it with).

Python still describes what the native side runs: the character classes of the piece
patterns (:func:`code_classes`, asked of the ``regex`` module the patterns use), the word
lists of the identifier rules, the header words of docstring sections, the reserved ids.
Section headers are found natively in ASCII docstrings (``DocSections``, the twin of
:func:`~.comments.find_sections`, which scans the others) and handed in as cuts, and
identifiers that are not ASCII are split by :func:`~.identifiers.split_identifier` on a
callback.

What takes the Python router instead (:func:`compile_router` says why): whitespace
normalization, statistical identifier splitting, a channel whose model is not a
native byte-level BPE (WordPiece, Unigram, BPE with dropout), native plans switched off
(``codetok.engine.plan.use_plans``) or the pure-Python backend.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import regex

from ...engine import native as _backend
from ...engine import plan as _plan
from ...models.bpe import BPE
from ...unicode.byte_alphabet import BYTE_TO_CHAR
from ..front.kinds import LexemeKind
from .comments import find_sections, header_words
from .identifiers import _FUNCTION_WORDS, _PROTECTED, _SUFFIXES, DIGIT_STEMS, split_identifier
from .pieces import DIGIT_POLICIES
from .reserved import (
    COMMENT_CLOSE,
    COMMENT_OPEN,
    DEDENT,
    DOC_CLOSE,
    DOC_OPEN,
    INDENT,
    NEWLINES,
    SECTION_NAMES,
    ReservedTokens,
)
from .router import Routed, RouterOptions

if TYPE_CHECKING:
    from ..front.lexemes import Lexemes
    from .channels import Channel

__all__ = [
    "code_classes",
    "compile_router",
    "run_router",
    "run_router_ids",
    "NativeRouted",
    "compile_counter",
    "count_pieces",
]

#: Bits of :func:`code_classes` (code_pieces.hpp reads the same).
_CLASSES = ((1, r"\p{L}"), (2, r"\p{M}"), (4, r"\p{Nd}"), (8, r"\s"))


@functools.lru_cache(maxsize=1)
def code_classes() -> bytes:
    """One byte per code point (0..0x10FFFF): which classes of the piece patterns
    (:mod:`codetok.code.routing.pieces`) hold it, asked of the same ``regex`` module, so the native
    scans agree with the patterns on every code point (about 0.1 s, once per process).

    >>> code_classes()[ord("a")], code_classes()[ord("7")], code_classes()[ord(" ")]
    (1, 4, 8)
    """
    every = np.arange(0x110000, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    flags = np.zeros(0x110000, np.uint8)
    for bit, cls in _CLASSES:
        hits = np.fromiter((m.start() for m in regex.finditer(cls, every)), np.int64)
        flags[hits] |= bit
    return flags.tobytes()


def _split_lengths(name: str) -> list[int]:
    """The piece lengths of an identifier the native rules leave to Python."""
    return [len(p) for p in split_identifier(name).pieces()]


def _channel(channel: Channel) -> tuple[Any, ...] | str:
    model = channel.model
    if type(model) is not BPE:
        return f"the channel's model is {type(model).__name__}, not BPE"
    if model.dropout:
        return "the channel's BPE has dropout"
    core = model._kernel()
    if not isinstance(core, _backend.core().BpeCore):
        return "the channel's BPE has no native kernel"
    return (
        core,
        channel.offset,
        channel.unk_id,
        channel.byte_ids,
        "".join(BYTE_TO_CHAR),
        channel.token_bytes,
    )


def _python_reason(options: RouterOptions) -> str | None:
    """Why these router options (or the environment) keep routing in Python, or None."""
    reason = _plan.python_reason()
    if reason is not None:
        return reason
    if options.normalize_whitespace:
        return "whitespace normalization runs in Python"
    if options.statistical_split:
        return "statistical identifier splitting runs in Python"
    return None


def compile_router(
    code: Channel,
    comment: Channel,
    reserved: ReservedTokens,
    index: dict[str, int],
    language: str,
    options: RouterOptions,
) -> Any:
    """The native router for ``language`` under ``options``, or why the Python router runs
    instead (a str).

    Args:
        code: the code channel (ids from 0).
        comment: the comment channel, ``code`` itself when comments share it.
        reserved: the reserved tokens (keywords per language, markers).
        index: reserved token -> id.
        language: the language whose keywords are reserved tokens.
        options: router options.
    """
    reason = _python_reason(options)
    if reason is not None:
        return reason
    channels = [code] if comment is code else [code, comment]
    native_code = _channel(code)
    if isinstance(native_code, str):
        return native_code
    native_comment = native_code if comment is code else _channel(comment)
    if isinstance(native_comment, str):
        return native_comment
    spec = _router_spec(
        np.concatenate([ch.lengths for ch in channels]), reserved, index, language, options
    )
    return _backend.core().CodeRouter(spec, _rules(), code_classes(), native_code, native_comment)


@functools.lru_cache(maxsize=1)
def _rules() -> tuple[list[str], list[str], list[str], list[str]]:  # noqa: N802 - a constant
    """The word lists of the native identifier rules."""
    return (sorted(DIGIT_STEMS), sorted(_FUNCTION_WORDS), list(_PROTECTED), sorted(_SUFFIXES))


def _router_spec(
    lengths: np.ndarray,
    reserved: ReservedTokens,
    index: dict[str, int],
    language: str,
    options: RouterOptions,
) -> dict[str, Any]:
    """The native router's settings (``lengths``: bytes each id spells)."""
    keywords = reserved.keywords.get(language, {}) if options.keyword_tokens else {}
    return {
        "lengths": lengths,
        "lossless": options.lossless,
        "digits": DIGIT_POLICIES.index(options.digits),
        "max_piece": options.max_piece,
        "split_identifiers": options.split_identifiers,
        "comment_markers": options.comment_markers,
        "drop_comments": options.drop_comments,
        "drop_docstrings": options.drop_docstrings,
        "fold_whitespace": options.fold_whitespace,
        "join_punctuation": options.join_punctuation,
        "fold_blank_lines": options.fold_blank_lines,
        "indent": index[INDENT],
        "dedent": index[DEDENT],
        "comment_open": index[COMMENT_OPEN],
        "comment_close": index[COMMENT_CLOSE],
        "doc_open": index[DOC_OPEN],
        "doc_close": index[DOC_CLOSE],
        "nl": index[NEWLINES["\n"]],
        "crlf": index[NEWLINES["\r\n"]],
        "cr": index[NEWLINES["\r"]],
        "keywords": {kw: index[t] for kw, t in keywords.items()},
    }


def compile_counter(
    reserved: ReservedTokens, index: dict[str, int], language: str, options: RouterOptions
) -> Any:
    """A router that counts pieces instead of encoding them (the code trainers' corpus
    pass, before any model exists), or why the Python router counts instead (a str).

    Args:
        reserved, index, language, options: as for :func:`compile_router`.
    """
    reason = _python_reason(options)
    if reason is not None:
        return reason
    return _backend.core().CodeRouter(
        _router_spec(np.zeros(0, np.int64), reserved, index, language, options),
        _rules(),
        code_classes(),
        None,
        None,
    )


def count_pieces(
    router: Any, counts: Any, lexemes: Lexemes, index: dict[str, int], options: RouterOptions
) -> None:
    """Route one file with a counting router (:func:`compile_counter`) into ``counts``
    (the native ``CodeCounts``): the byte-level pieces :func:`~.router.route` would give."""
    counts.add(router, *_router_inputs(lexemes, index, options))


def _router_inputs(lexemes: Lexemes, index: dict[str, int], options: RouterOptions) -> tuple:
    """What the native router reads of one file (after the router itself)."""
    return (
        lexemes.source_text,
        isinstance(lexemes.source, bytes),
        lexemes.kinds,
        lexemes.char_starts,
        lexemes.char_ends,
        *_doc_cuts(lexemes, index, options),
        _split_lengths,
    )


@functools.lru_cache(maxsize=1)
def _section_scanner() -> Any:
    """The native section header scanner, its codes the indices of ``SECTION_NAMES``."""
    code = {name: k for k, name in enumerate(SECTION_NAMES)}
    return _backend.core().DocSections(
        *([(word, code[name]) for word, name in words.items()] for words in header_words())
    )


_DOCSTRING = int(LexemeKind.DOCSTRING)
_NO_CUTS = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32))
for _empty in _NO_CUTS:
    _empty.flags.writeable = False  # shared by every file without cuts
#: The ``<doc:NAME>`` ids of a tokenizer's index, per section code: ``id(index) -> (index,
#: ids)`` (the index kept, so its id is never another's).
_SECTION_IDS: dict[int, tuple[dict[str, int], np.ndarray]] = {}


def _section_ids(index: dict[str, int]) -> np.ndarray:
    entry = _SECTION_IDS.get(id(index))
    if entry is None or entry[0] is not index:
        ids = np.array([index[f"<doc:{name}>"] for name in SECTION_NAMES], np.int32)
        if len(_SECTION_IDS) > 64:
            _SECTION_IDS.clear()
        entry = _SECTION_IDS[id(index)] = (index, ids)
    return entry[1]


def _doc_cuts(
    lexemes: Lexemes, index: dict[str, int], options: RouterOptions
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``<doc:NAME>`` markers of every docstring lexeme: (lexeme, char offset, id)."""
    if not options.doc_sections or options.drop_docstrings:
        return _NO_CUTS
    docs = np.flatnonzero(lexemes.kinds == _DOCSTRING)
    if not docs.size:
        return _NO_CUTS
    text = lexemes.source_text
    starts = lexemes.char_starts
    ends = lexemes.char_ends
    lex, off, code, rest = _section_scanner().find(text, docs, starts, ends)
    ids = _section_ids(index)[code]
    if rest.size:  # docstrings that are not ASCII: the Python scanner, merged in order
        more = [
            (i, at, index[f"<doc:{name}>"])
            for i in rest.tolist()
            for at, name in find_sections(text[starts[i] : ends[i]])
        ]
        if more:
            extra = np.array(more, np.int64).reshape(-1, 3)
            order = np.argsort(np.concatenate([lex, extra[:, 0]]), kind="stable")
            lex = np.concatenate([lex, extra[:, 0]])[order]
            off = np.concatenate([off, extra[:, 1]])[order]
            ids = np.concatenate([ids, extra[:, 2].astype(np.int32)])[order]
    return lex, off, ids


class NativeRouted(NamedTuple):
    """One file through the native router: the units (``routed``, as :func:`route` cuts
    them) and, per token, what ``CodeTokenizer._annotate`` works out."""

    ids: np.ndarray
    tok_unit: np.ndarray
    routed: Routed
    lexeme_indices: np.ndarray
    byte_spans: np.ndarray
    spans: np.ndarray
    lines: np.ndarray


def run_router_ids(
    router: Any, lexemes: Lexemes, index: dict[str, int], options: RouterOptions
) -> tuple[np.ndarray, np.ndarray]:
    """Route and encode one file, keeping per token only its id and lexeme index (both
    ``int64``): what a lossless ``CodeEncoding`` needs, its spans and lines being worked
    out of the ids when read."""
    ids, lexeme_indices = router.run(*_router_inputs(lexemes, index, options), lean=True)
    return ids, lexeme_indices


def run_router(
    router: Any, lexemes: Lexemes, index: dict[str, int], options: RouterOptions
) -> NativeRouted:
    """Route and encode one file, as ``CodeTokenizer._encode_lexemes`` does with the Python
    router (see :class:`NativeRouted`)."""
    ids, tok_unit, starts, ends, lex, tok_lex, byte_spans, spans, lines = router.run(
        *_router_inputs(lexemes, index, options)
    )
    routed = Routed(starts=starts, ends=ends, lexemes=lex, lossless=options.lossless)
    return NativeRouted(ids, tok_unit, routed, tok_lex, byte_spans, spans, lines)
