"""Compiling a Tokenizer's components into a native plan, or saying why not.

The components in ``normalizers/``, ``pre_tokenizers/``, ``models/`` and
``processors/`` describe a pipeline and run it in Python (the readable specification).
When every component of a tokenizer has a native twin, :func:`compile_plan` builds one
``codetok._core`` object that runs the whole path, text to arrays, in one call per text
(and on native threads for batches). Otherwise the tokenizer runs the Python pipeline as a
whole, never partly native: :func:`compile_plan` returns the reason instead.

Native today (the BPE family). SentencePiece-style (Llama-2 conversions): the normalizer
``Replace(" ", "▁")``, alone or after ``Prepend("▁")``, with no pre-tokenizer, or no
normalizer and a ``Metaspace`` pre-tokenizer (any prepend scheme, split or not); then a
character-level ``BPE`` (byte fallback, unk, fuse_unk); with the normalizer, added tokens
must be matched on the original text.
Byte-level: no normalizer, or one made of the Unigram plan's steps (``NFC`` as in Qwen2 and
GPT-NeoX, ...); ``ByteLevel`` with its GPT-2 regex, or
``Sequence([Split(<known pattern>, "isolated"), ByteLevel(use_regex=False)])`` with the
cl100k / o200k / Llama-3 patterns (codetok/engine/scanners.py lists them); a ``BPE`` model over
the byte-level alphabet without affixes (dropout samples natively, from the model's
:class:`~codetok.engine.shared_random.SharedRandom`); added tokens (every option; with a
normalizer, those matched on the original text); any post-processor: ``ByteLevel`` offset trimming and the special tokens of
``TemplateProcessing``, ``BertProcessing`` and ``RobertaProcessing`` around one sequence
stay on the arrays; pairs and truncation run the Python post-processor on the lists.
WordPiece: ``BertNormalizer`` (any options), the Unigram plan's normalizer steps or no
normalizer; ``BertPreTokenizer`` or HF's character-class pre-tokenizers (``Whitespace``,
``WhitespaceSplit``, ``Punctuation``, ``Digits``, a ``Sequence`` of them; the same passes
serve character BPE); ``WordPiece``; added tokens matched on the original text.
One sequence with truncation (windows, stride, either direction) and padding stays on
the arrays when no offsets are trimmed (:meth:`Plan.truncate_finish`,
``Encoding.pad``). WordLevel with one piece per UTF-8 byte (``ByteLevel(use_regex=False)``
then ``Split(".")``), per code point (``Split("[\\s\\S]")``), per ``WhitespaceSplit`` word
or per ``Whitespace`` word (``\\w+|[^\\w\\s]+`` with HF's classes): the byte, character and
whitespace tokenizers of ``codetok.text``; all but the bytes may follow normalizer steps
(see Unigram), such as the character tokenizer's NFC.
Unigram (SentencePiece-style: T5, ALBERT, XLNet, ``.model`` conversions): a normalizer made
of ``Precompiled``, ``Strip``, ``Replace`` (a literal, or a run of one char such as
``" {2,}"``), ``Prepend``, ``Lowercase``, ``StripAccents``, ``NFC``, ``NFD``, ``NFKC`` and
``NFKD`` in any ``Sequence``; ``Metaspace``, ``WhitespaceSplit``, both, or no
pre-tokenizer; Viterbi (no sampling) with unknown fusing and byte fallback; added tokens
matched on the original text. Everything else runs in Python with identical output.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .. import normalizers as norm
from ..components.base import CHANGES
from ..models import BPE, Unigram, WordLevel, WordPiece
from ..normalizers import RUST_WHITESPACE
from ..pre_tokenizers import (
    BEHAVIORS,
    GPT2_PATTERN,
    GRAPHEME_REGEX,
    BertPreTokenizer,
    ByteLevel,
    Digits,
    Metaspace,
    Punctuation,
    Sequence,
    Split,
    Whitespace,
    WhitespaceSplit,
)
from ..processors import BertProcessing, RobertaProcessing, TemplateProcessing
from ..processors import ByteLevel as ByteLevelProcessor
from ..processors import Sequence as PostSequence
from ..tokenizer.encoding import Encoding, truncation_windows
from ..unicode.byte_alphabet import BYTE_TO_CHAR
from . import native as _backend
from .scanners import scanner_for
from .shared_random import SharedRandom

if TYPE_CHECKING:
    from ..tokenizer.tokenizer import Tokenizer

__all__ = ["Plan", "compile_plan", "use_plans"]

_enabled = True


def use_plans(flag: bool) -> bool:
    """Let tokenizers compile native plans (``True``, the default) or always run Python.

    The Python pipeline is the specification; tests switch plans off to compare the two.

    Returns:
        The previous setting.

    >>> previous = use_plans(False)
    >>> _ = use_plans(previous)
    """
    global _enabled
    previous = _enabled
    _enabled = bool(flag)
    CHANGES[0] += 1
    return previous


def switches() -> tuple[bool, bool]:
    """The global switches every native plan depends on: plans on, native backend."""
    return _enabled, _backend.native()


def python_reason() -> str | None:
    """Why everything runs in Python now (plans switched off, or the pure-Python backend),
    or None when native plans (the code tokenizer's too) may be used."""
    if not _enabled:
        return "native plans are switched off (codetok.engine.plan.use_plans)"
    if not _backend.native():
        return "the pure-Python backend is selected (codetok.engine.native.use_native)"
    return None


class Plan:
    """A compiled native pipeline of one tokenizer (see the module docstring).

    Args:
        core: the the native ``Pipeline``.
        model_kernel: what gives the token strings of an id array (``tokens(ids)``): the
            model's the native ``BpeCore``, or a :class:`_VocabTokens`.
        post: what :func:`single_layouts` says of the post-processor.
        added: the state of the tokenizer's added vocabulary the plan was compiled from
            (to name skipped specials by id).
    """

    def __init__(self, core: Any, model_kernel: Any, post: Any, added: Any) -> None:
        self.core = core
        self.model_kernel = model_kernel
        #: ByteLevel offset trimming done natively: 0 none, 1, or 2 (with add_prefix_space).
        self.trim: int = post[0] if isinstance(post, tuple) else 0
        #: Special tokens around one sequence, by ``add_special_tokens`` (``None``: no
        #: post-processor; ``"python"``: the Python post-processor runs on the lists).
        self.layouts: Any = post[1] if isinstance(post, tuple) else "python"
        #: The state of the added vocabulary the plan was compiled from.
        self.added_state = added
        #: ``layout`` by ``add_special_tokens`` for :meth:`encode_final` (None: Python).
        self.final_layouts: Any = (
            None if self.layouts == "python" else (self.layout(False), self.layout(True))
        )
        self._skip_ids: dict[frozenset[str] | None, list[int]] = {None: []}
        #: Ids of every special token (``encode_ordinary`` reads them all as text).
        self.ordinary_skip = sorted(t for t, tok in added.tokens.items() if tok.special)

    def skip_ids(self, skip: frozenset[str] | None) -> list[int]:
        """Ids of the special tokens whose contents ``skip`` names (read as text)."""
        ids = self._skip_ids.get(skip)
        if ids is None:
            ids = sorted(
                tid for tid, t in self.added_state.tokens.items() if t.special and t.content in skip
            )
            self._skip_ids[skip] = ids
        return ids

    def encode(
        self, text: str, type_id: int, skip: frozenset[str] | None, trim: bool
    ) -> Encoding | None:
        """One sequence as an :class:`Encoding` over arrays (``None``: run the Python path)."""
        trim_mode = self.trim if trim else 0
        layout = ((), (), type_id) if type_id else None
        native = self.core.encode(text, self.skip_ids(skip), trim_mode, self.model_kernel, layout)
        return None if native is None else Encoding._from_native(native)

    def encode_final(
        self, text: str, skip: frozenset[str] | None, add_special_tokens: bool
    ) -> Encoding | None:
        """:meth:`encode` then :meth:`finish` in one step (one sequence, no truncation):
        the post-processed encoding over arrays, or ``None`` where Python decides."""
        final = self.final_layouts
        if final is None:
            return None
        return self.core.encode_encoding(
            text,
            self.skip_ids(skip) if skip else (),
            self.trim,
            self.model_kernel,
            final[add_special_tokens],
        )

    def fast_state(self) -> Any:
        """What the C entries of ``Tokenizer.encode`` and ``encode_ordinary`` need of this
        plan (a capsule)."""
        return self.core.fast_state(
            self.trim, self.model_kernel, self.final_layouts, self.ordinary_skip
        )

    def layout(self, add_special_tokens: bool) -> Any:
        """What the native calls take as ``layout`` for the post-processed sequence (the
        plan's layouts must not be ``"python"``)."""
        layouts = self.layouts
        return layouts and layouts[add_special_tokens]

    def finish(self, enc: Encoding, add_special_tokens: bool) -> Encoding | None:
        """The post-processed single sequence, still over arrays (``None``: use Python)."""
        native = enc._native
        layouts = self.layouts
        if (
            native is None
            or layouts == "python"
            or (self.trim and not native.trimmed)
            or not native.bare
        ):
            return None
        if layouts is None:
            return enc
        before, after, type_id = layouts[add_special_tokens]
        out = Encoding._from_native(native.with_specials(before, after, type_id))
        out.sequence_ranges = {0: (len(before), len(before) + native.stop - native.start)}
        return out

    def truncate_finish(
        self, enc: Encoding, truncation: dict[str, Any], add_special_tokens: bool
    ) -> Encoding | None:
        """One sequence truncated (windows in ``overflowing``) and post-processed, over
        arrays; ``None`` where the Python path decides (offset trimming, a post-processor
        without native layouts, or settings it rejects with an error)."""
        native = enc._native
        layouts = self.layouts
        if native is None or layouts == "python" or self.trim or not native.bare:
            return None
        before, after, type_id = ((), (), 0) if layouts is None else layouts[add_special_tokens]
        room = truncation["max_length"] - len(before) - len(after)
        stride, direction = truncation["stride"], truncation["direction"]
        n = len(native.ids)
        if n <= room:
            ranges = [(0, n)]
        elif (
            room <= 0
            or stride >= room
            or direction not in ("right", "left")
            or truncation["strategy"] not in ("longest_first", "only_first")
        ):
            return None
        else:
            ranges = truncation_windows(n, room, stride, direction)
        parts = []
        for start, stop in ranges:
            part = native if (start, stop) == (0, n) else native.sliced(start, stop)
            if layouts is not None:
                part = part.with_specials(before, after, type_id)
            out = Encoding._from_native(part)
            if layouts is not None:
                out.sequence_ranges = {0: (len(before), len(before) + stop - start)}
            parts.append(out)
        parts[0].overflowing = parts[1:]
        return parts[0]


class _VocabTokens:
    """Token strings by id from a model's ``id -> token`` dict (WordPiece)."""

    def __init__(self, vocab_r: dict[int, str]) -> None:
        self._vocab_r = vocab_r

    def tokens(self, ids: Any) -> list[str]:
        """Token strings (``""`` for an id outside the model: added tokens, filled in later)."""
        get = self._vocab_r.get
        return [get(i, "") for i in ids.tolist()]


Specials = tuple[tuple[int, str, int], ...]


def single_layouts(
    post: Any,
) -> tuple[int, dict[bool, tuple[Specials, Specials, int]] | None] | str:
    """What the post-processor does to one sequence without truncation, or why not native.

    Returns ``(trim, layouts)``: the ByteLevel trimming mode (0, 1, or 2 with
    ``add_prefix_space``) and, for ``add_special_tokens`` true and false, the special
    tokens before and after the sequence and its type id (``layouts`` is ``None`` without a
    post-processor). Mirrors ``PostProcessor.process`` of codetok/processors.py.
    """
    if post is None:
        return 0, None
    chain = post.processors if isinstance(post, PostSequence) else [post]
    trim = 0
    wrapper = None
    for p in chain:
        trims = isinstance(p, (ByteLevelProcessor, RobertaProcessing)) and p.trim_offsets
        if trims and (trim or wrapper is not None):
            return "the post-processor trims offsets twice or after adding tokens"
        if trims:
            trim = 2 if p.add_prefix_space else 1
        if isinstance(p, (TemplateProcessing, BertProcessing, RobertaProcessing)):
            if wrapper is not None:
                return "the post-processor adds special tokens twice"
            wrapper = p
        elif not isinstance(p, ByteLevelProcessor):
            return f"the post-processor {p!r} has no native twin"
    layouts: dict[bool, tuple[Specials, Specials, int]] = {}
    for add in (True, False):
        if wrapper is None:
            layouts[add] = ((), (), 0)
        elif isinstance(wrapper, TemplateProcessing):
            sides: tuple[list[tuple[int, str, int]], list[tuple[int, str, int]]] = ([], [])
            seq_type, seen = 0, False
            for kind, name, type_id in wrapper.single:
                if kind == "seq":
                    if name != "A" or seen:
                        return "the single template has more than $A"
                    seq_type, seen = type_id, True
                elif add:
                    st = wrapper.special_tokens[name]
                    sides[seen].extend((i, t, type_id) for i, t in zip(st["ids"], st["tokens"]))
            layouts[add] = (tuple(sides[0]), tuple(sides[1]), seq_type)
        elif add:
            (cls_tok, cls_id), (sep_tok, sep_id) = wrapper.cls, wrapper.sep
            layouts[add] = (((cls_id, cls_tok, 0),), ((sep_id, sep_tok, 0),), 0)
        else:
            layouts[add] = ((), (), 0)
    big = 2**31 - 1  # the native layouts hold int32 ids and type ids
    for before, after, seq_type in layouts.values():
        if seq_type > big or any(i > big or t > big for i, _, t in (*before, *after)):
            return "a special token id or a type id of the post-processor is past int32"
    return trim, layouts


def _pre_tokenizer(pre: Any) -> tuple[int, bool] | str:
    """``(scanner, add_prefix_space)`` of a supported pre-tokenizer, else the reason."""
    if isinstance(pre, ByteLevel) and pre.use_regex:
        scanner = scanner_for(GPT2_PATTERN)
        if scanner is not None:
            return scanner, bool(pre.add_prefix_space)
    if isinstance(pre, Sequence) and len(pre.pretokenizers) == 2:
        split, byte_level = pre.pretokenizers
        if (
            isinstance(split, Split)
            and isinstance(byte_level, ByteLevel)
            and split.behavior == "isolated"
            and not split.invert
            and "Regex" in split.pattern
            and not byte_level.use_regex
            and not byte_level.add_prefix_space
        ):
            scanner = scanner_for(split.pattern["Regex"])
            if scanner is not None:
                return scanner, False
            return f"the Split pattern {split.pattern['Regex']!r} has no native scanner"
    return f"the pre-tokenizer {pre!r} has no native twin"


def _word_passes(pre: Any) -> list[tuple[int, int]] | None:
    """The native passes (``(kind, behavior)``, codetok/_native/kernels/word_splits.hpp) of a
    pre-tokenizer made of HF's character-class ones: ``Whitespace``, ``WhitespaceSplit``,
    ``Punctuation``, ``Digits``, or a ``Sequence`` of them; else ``None``."""
    parts = pre.pretokenizers if type(pre) is Sequence else [pre]
    passes = []
    for part in parts:
        kind = type(part)
        if kind is Whitespace:
            passes.append((0, 0))
        elif kind is WhitespaceSplit:
            passes.append((1, 0))
        elif kind is Punctuation:
            passes.append((2, BEHAVIORS.index(part.behavior)))
        elif kind is Digits:
            passes.append((3, 1 if part.individual_digits else 4))
        else:
            return None
    return passes or None


_META = "\u2581"


def _spm_normalizer(normalizer: Any) -> bool | str:
    """Whether a SentencePiece-style normalizer prepends "▁", or why it is not native.

    Native: ``Replace(" ", "▁")``, alone or after ``Prepend("▁")`` in a ``Sequence`` (what
    Llama-2 conversions carry).
    """
    steps = normalizer.normalizers if isinstance(normalizer, norm.Sequence) else [normalizer]
    prepend = False
    if len(steps) == 2 and isinstance(steps[0], norm.Prepend) and steps[0].prepend == _META:
        prepend, steps = True, steps[1:]
    if (
        len(steps) == 1
        and isinstance(steps[0], norm.Replace)
        and steps[0].pattern == {"String": " "}
        and steps[0].content == _META
    ):
        return prepend
    return f"the normalizer {normalizer!r} has no native twin yet"


AddedRows = list[tuple[str, int, bool, bool, bool, bool]]


def _added_entries(
    tok: Tokenizer, added: Any, after_normalizer: bool = False
) -> tuple[AddedRows, AddedRows] | str:
    """The raw and normalized added-token rows of the native matchers, or why not native.

    ``added`` is one state of the added vocabulary (see :func:`compile_plan`).

    Behind a normalizer, normalized added tokens are matched on the normalized text: only
    plans that do so (``after_normalizer``) take them, with their contents normalized.
    """
    raw_matcher, norm_matcher = added.matchers(None)[0]
    if tok.normalizer is not None and norm_matcher.ids:
        if not after_normalizer:
            return "added tokens matched on normalized text run in Python with this model"
        norm_matcher = added.matchers(tok._norm_fn)[0][1]
    entries: list[AddedRows] = []
    for matcher in (raw_matcher, norm_matcher):
        rows = []
        for content, tid in matcher.ids.items():
            if tid > 2**31 - 1:  # the native matchers hold int32 ids
                return f"the added token {content!r} has id {tid}, past the native plan's ids"
            t = added.tokens[tid]
            rows.append((content, tid, t.lstrip, t.rstrip, t.special, t.single_word))
        entries.append(rows)
    return entries[0], entries[1]


def _compile_wordpiece(tok: Tokenizer, model: WordPiece, added: Any) -> Plan | str:
    """The plan of a BERT-style tokenizer: ``BertNormalizer``, other native normalizer steps
    or none; ``BertPreTokenizer`` or HF's character-class pre-tokenizers (``Whitespace``,
    the HF quicktour's)."""
    normalizer = tok.normalizer
    bert: tuple[bool, bool, bool, bool] | None = None
    steps: list[tuple[Any, ...]] = []
    if isinstance(normalizer, norm.BertNormalizer):
        strip = (
            normalizer.lowercase if normalizer.strip_accents is None else normalizer.strip_accents
        )
        bert = (
            bool(normalizer.clean_text),
            bool(normalizer.handle_chinese_chars),
            bool(strip),
            bool(normalizer.lowercase),
        )
    elif normalizer is not None:
        found = _norm_steps(normalizer)
        if isinstance(found, str):
            return found
        steps = found
    passes: list[tuple[int, int]] | None = []
    if type(tok.pre_tokenizer) is not BertPreTokenizer:
        passes = None if tok.pre_tokenizer is None else _word_passes(tok.pre_tokenizer)
        if passes is None:
            return f"the pre-tokenizer {tok.pre_tokenizer!r} has no native twin with WordPiece yet"
    core = model._kernel()
    if not model._built_kernel_native:
        return "the model's kernel is not native"
    entries = _added_entries(tok, added, after_normalizer=True)
    if isinstance(entries, str):
        return entries
    post = single_layouts(tok.post_processor)
    unk_id = model.vocab.get(model.unk_token)
    native = _backend.core().WordPiecePipeline(
        core,
        bert,
        -1 if unk_id is None else unk_id,
        entries[0],
        "".join(sorted(RUST_WHITESPACE)),
        entries[1],
        steps,
        passes,
    )
    return Plan(native, _VocabTokens(model.vocab_r), post, added)


#: Split patterns that make every char a piece of its own (after ByteLevel: every byte
#: char, none of which is a line break, so "." qualifies there).
_EVERY_CHAR = ("[\\s\\S]", "(?s).")


def _units_kind(pre: Any) -> str | None:
    """``"bytes"`` / ``"chars"`` / ``"words"`` / ``"ws_words"`` / ``"graphemes"`` when
    ``pre`` makes every UTF-8 byte / code point / run of non-whitespace / ``Whitespace``
    word / extended grapheme cluster a piece."""

    def isolates(split: Any, patterns: tuple[str, ...]) -> bool:
        return (
            isinstance(split, Split)
            and split.behavior == "isolated"
            and not split.invert
            and split.pattern.get("Regex") in patterns
        )

    if isolates(pre, _EVERY_CHAR):
        return "chars"
    if isolates(pre, (GRAPHEME_REGEX,)):
        return "graphemes"
    if type(pre) is WhitespaceSplit:
        return "words"
    if type(pre) is Whitespace:
        return "ws_words"
    if isinstance(pre, Sequence) and len(pre.pretokenizers) == 2:
        byte_level, split = pre.pretokenizers
        if (
            isinstance(byte_level, ByteLevel)
            and not byte_level.use_regex
            and not byte_level.add_prefix_space
            and isolates(split, (".", *_EVERY_CHAR))
        ):
            return "bytes"
    return None


def _compile_units(tok: Tokenizer, model: WordLevel, added: Any) -> Plan | str:
    """The plan of a WordLevel tokenizer with one piece per byte, per code point, per
    grapheme cluster or per whitespace word (the byte, character and whitespace tokenizers
    of codetok.text); all but bytes may have a normalizer made of the Unigram plan's steps
    (NFC, ...)."""
    kind = _units_kind(tok.pre_tokenizer)
    if kind is None:
        return f"the pre-tokenizer {tok.pre_tokenizer!r} has no native twin with WordLevel yet"
    steps = _norm_steps(tok.normalizer)
    if isinstance(steps, str):
        return f"the normalizer {tok.normalizer!r} has no native twin with WordLevel {kind} yet"
    entries = _added_entries(tok, added, after_normalizer=True)
    if isinstance(entries, str):
        return entries
    if not _backend.available():
        return "the native extension is not available"
    vocab = model.vocab
    byte_ids = [vocab.get(c, -1) for c in BYTE_TO_CHAR] if kind == "bytes" else []
    if kind == "chars":
        table = {t: i for t, i in vocab.items() if len(t) == 1}
    else:
        table = vocab if kind in ("words", "ws_words", "graphemes") else {}
    unk_id = vocab.get(model.unk_token) if model.unk_token is not None else None
    try:
        native = _backend.core().WordLevelUnitsPipeline(
            {"chars": 0, "bytes": 1, "words": 2, "ws_words": 3, "graphemes": 4}[kind],
            byte_ids,
            table,
            -1 if unk_id is None else unk_id,
            entries[0],
            "".join(sorted(RUST_WHITESPACE)),
            steps,
            entries[1],
        )
    except (TypeError, ValueError, OverflowError) as e:
        return f"the vocabulary does not fit the native plan ({e})"
    post = single_layouts(tok.post_processor)
    return Plan(native, _VocabTokens(model.vocab_r), post, added)


#: A ``Replace`` regex the Unigram plan runs natively: a run of one literal char, ``c+`` or
#: ``c{m,}`` (``" {2,}"`` in SentencePiece conversions).
_CHAR_RUN = re.compile(r"(\\[^\w\s]|[^\\.^$*+?{}\[\]|()])(?:\+|\{([1-9][0-9]*),\})")


def _norm_steps(normalizer: Any) -> list[tuple[Any, ...]] | str:
    """The normalizer steps of the Unigram and WordLevel plans (see
    the native ``UnigramPipeline``), or why not."""
    if normalizer is None:
        return []
    if type(normalizer) is norm.Sequence:
        steps: list[tuple[Any, ...]] = []
        for child in normalizer.normalizers:
            sub = _norm_steps(child)
            if isinstance(sub, str):
                return sub
            steps += sub
        return steps
    kind = type(normalizer)
    if kind.__name__ == "Precompiled" and kind.__module__ == "codetok.formats.precompiled":
        blob = normalizer.charsmap.blob
        return [("precompiled", blob)] if blob else []
    if kind is norm.Strip:
        return [("strip", bool(normalizer.strip_left), bool(normalizer.strip_right))]
    if kind is norm.Prepend:
        return [("prepend", normalizer.prepend)] if normalizer.prepend else []
    if kind is norm.Lowercase:
        return [("lowercase",)]
    if kind in (norm.NFC, norm.NFD, norm.NFKC, norm.NFKD):
        return [(kind.__name__.lower(),)]
    if kind is norm.StripAccents:
        return [("strip_accents",)]
    if kind is norm.Replace:
        pattern = normalizer.pattern
        if pattern.get("String"):
            return [("replace", pattern["String"], 0, normalizer.content)]
        run = _CHAR_RUN.fullmatch(pattern.get("Regex") or "")
        if run is not None:
            char = run.group(1)[-1]
            return [("replace", char, int(run.group(2) or 1), normalizer.content)]
    return f"the normalizer {normalizer!r} has no native twin with Unigram yet"


def _compile_unigram(tok: Tokenizer, model: Unigram, added: Any) -> Plan | str:
    """The plan of a SentencePiece-style Unigram tokenizer (see unigram_pipeline.hpp)."""
    sampling = model.alpha is not None and model.nbest_size not in (0, 1)
    if sampling and not isinstance(model._rng, SharedRandom):
        return "Unigram sampling from a random.Random given as seed= runs in Python"
    steps = _norm_steps(tok.normalizer)
    if isinstance(steps, str):
        return steps
    pre = tok.pre_tokenizer
    chain = pre.pretokenizers if type(pre) is Sequence else [] if pre is None else [pre]
    whitespace_split = bool(chain) and type(chain[0]) is WhitespaceSplit
    rest = chain[1:] if whitespace_split else chain
    metaspace = None
    if len(rest) == 1 and type(rest[0]) is Metaspace:
        meta = rest[0]
        scheme = {"never": 0, "always": 1, "first": 2}[meta.prepend_scheme]
        metaspace = (meta.replacement, scheme, bool(meta.split_))
    elif rest:
        return f"the pre-tokenizer {pre!r} has no native twin with Unigram yet"
    core = model._kernel()
    if not _backend.available() or not isinstance(core, _backend.core().UnigramCore):
        return "the model's kernel is not native"
    entries = _added_entries(tok, added, after_normalizer=True)
    if isinstance(entries, str):
        return entries
    get = model.token_to_id
    byte_ids = [get(f"<0x{b:02X}>") for b in range(256)] if model.byte_fallback else []
    native = _backend.core().UnigramPipeline(
        core,
        steps,
        whitespace_split,
        metaspace,
        model.byte_fallback,
        [-1 if i is None else i for i in byte_ids],
        entries[0],
        "".join(sorted(RUST_WHITESPACE)),
        entries[1],
    )
    if sampling:
        native.set_sampling(model.alpha, model.nbest_size, model._rng.core)
    tokens = _VocabTokens({i: p for i, (p, _) in enumerate(model._pieces)})
    return Plan(native, tokens, single_layouts(tok.post_processor), added)


def compile_plan(tok: Tokenizer, added: Any) -> Plan | str:
    """The native plan of ``tok``, or the reason it runs the Python pipeline.

    ``added`` is the state of ``tok``'s added vocabulary to compile
    (:attr:`codetok.tokenizer.added_tokens.AddedVocabulary.state`): taken once by the caller, so a
    token added meanwhile by another thread is in the plan wholly or not at all.

    With ``tok.surrogates == "replace"`` the plan gives ``None`` for a text holding a
    surrogate, so ``Tokenizer._encode_one`` rewrites it first (tiktoken's rule) and encodes
    the rewrite, natively again.
    """
    plan = _compile(tok, added)
    if isinstance(plan, Plan) and tok.surrogates == "replace":
        plan.core.set_surrogates_to_python(True)
    return plan


def _compile(tok: Tokenizer, added: Any) -> Plan | str:
    """:func:`compile_plan` before the surrogate policy is applied."""
    reason = python_reason()
    if reason is not None:
        return reason
    model = tok.model
    if isinstance(model, WordPiece) and type(model).encode_pieces is WordPiece.encode_pieces:
        return _compile_wordpiece(tok, model, added)
    if type(model) is WordLevel:
        return _compile_units(tok, model, added)
    if type(model) is Unigram:
        return _compile_unigram(tok, model, added)
    if not isinstance(model, BPE) or type(model).encode_pieces is not BPE.encode_pieces:
        return f"the model {type(model).__name__} has no native pipeline yet"
    if model.dropout and not isinstance(model._rng, SharedRandom):
        return "BPE dropout from a random.Random given as seed= runs in Python"
    # Char-level BPE behind HF's character-class pre-tokenizers (the HF quicktour's BPE).
    passes = None if tok.pre_tokenizer is None else _word_passes(tok.pre_tokenizer)
    if (model.continuing_subword_prefix or model.end_of_word_suffix) and passes is None:
        return "byte-level BPE with a subword prefix or suffix runs in Python"
    front = _bpe_front(tok, passes)
    if isinstance(front, str):
        return front
    spm, steps, scanner, add_prefix_space = front
    core = model._kernel()
    if not model._built_kernel_native:
        return "the model's kernel is not native"
    symbols: list[int] = []
    if spm is None and passes is None:
        symbols = core.symbol_ids("".join(BYTE_TO_CHAR))
        if -1 in symbols:
            return "the vocabulary lacks some byte-level characters"
    entries = _added_entries(tok, added)
    if isinstance(entries, str):
        return entries
    post = single_layouts(tok.post_processor)
    native = _backend.core().Pipeline(
        core,
        scanner,
        add_prefix_space,
        symbols,
        entries[0],
        entries[1],
        "".join(sorted(RUST_WHITESPACE)),
        isinstance(post, tuple) and post[0] != 0,
        spm is not None,
        *(spm or (0, _META, False)),
        steps,
        passes or [],
    )
    if model.dropout:
        native.set_sampling(model.dropout, -1, model._rng.core)
    return Plan(native, core, post, added)


def _bpe_front(
    tok: Tokenizer, passes: list[tuple[int, int]] | None
) -> tuple[tuple[int, str, bool] | None, list[tuple[Any, ...]], int, bool] | str:
    """``(spm, steps, scanner, add_prefix_space)``: how a BPE plan normalizes and splits
    the text before the model (the SentencePiece-style, byte-level or word-pass front),
    or the reason the tokenizer's normalizer and pre-tokenizer run in Python."""
    # SentencePiece-style: (prepend mode, meta char, Metaspace's word cuts), else None.
    spm: tuple[int, str, bool] | None = None
    # Byte-level (Qwen2 and GPT-NeoX put NFC there) or word passes behind a normalizer.
    steps: list[tuple[Any, ...]] = []
    prepend = None if tok.normalizer is None else _spm_normalizer(tok.normalizer)
    if passes is not None:
        found = [] if tok.normalizer is None else _norm_steps(tok.normalizer)
        if isinstance(found, str):
            return found
        steps = found
        scanner, add_prefix_space = 0, False
    elif isinstance(prepend, str):
        found = _norm_steps(tok.normalizer)
        if isinstance(found, str) or isinstance(tok.pre_tokenizer, Metaspace):
            return prepend
        steps = found
    if passes is not None:
        pass  # settled above
    elif prepend is not None and not steps:
        if tok.pre_tokenizer is not None:
            return "a pre-tokenizer after a SentencePiece-style normalizer runs in Python"
        spm = (1 if prepend else 0, _META, False)
        scanner, add_prefix_space = 0, False
    elif isinstance(tok.pre_tokenizer, Metaspace):
        meta = tok.pre_tokenizer
        spm = (
            {"never": 0, "always": 2, "first": 3}[meta.prepend_scheme],
            meta.replacement,
            meta.split_,
        )
        scanner, add_prefix_space = 0, False
    else:
        pre = _pre_tokenizer(tok.pre_tokenizer)
        if isinstance(pre, str):
            return pre
        scanner, add_prefix_space = pre
    return spm, steps, scanner, add_prefix_space


def compile_counter(tok: Tokenizer) -> Any:
    """A native ``PieceCounter`` that counts the pieces ``tok.pre_tokenize`` gives its model
    (the trainers' corpus pass), or the reason the pass runs in Python.

    Supported: behind native normalizer steps, ``BertNormalizer`` or none, the byte-level
    pre-tokenizers of the BPE plan, HF's character-class ones, ``BertPreTokenizer``, and
    ``WhitespaceSplit`` and / or ``Metaspace``; added tokens matched on the original text
    (and, without a normalizer, the normalized ones).
    """
    reason = python_reason()
    if reason is not None:
        return reason
    if getattr(tok, "surrogates", "keep") != "keep":
        return "surrogates are rewritten first (tiktoken's rule); counted in Python"
    pre = tok.pre_tokenizer
    if pre is None:
        return "without a pre-tokenizer each text is one piece; counted in Python"
    steps: list[tuple[Any, ...]] = []
    bert = None
    if isinstance(tok.normalizer, norm.BertNormalizer):
        n = tok.normalizer
        strip = n.lowercase if n.strip_accents is None else n.strip_accents
        bert = (bool(n.clean_text), bool(n.handle_chinese_chars), bool(strip), bool(n.lowercase))
    elif tok.normalizer is not None:
        found = _norm_steps(tok.normalizer)
        if isinstance(found, str):
            return found
        steps = found
    kind, scanner, add_prefix_space = 0, 0, False
    whitespace_split, metaspace = False, None
    passes = _word_passes(pre)
    chain = pre.pretokenizers if type(pre) is Sequence else [pre]
    if passes is not None:
        kind = 1
    elif type(pre) is BertPreTokenizer:
        kind = 2
    elif chain and all(type(p) in (WhitespaceSplit, Metaspace) for p in chain):
        whitespace_split = type(chain[0]) is WhitespaceSplit
        rest = chain[1:] if whitespace_split else chain
        if len(rest) > 1 or (rest and type(rest[0]) is not Metaspace):
            return f"the pre-tokenizer {pre!r} is counted in Python"
        if rest:
            meta = rest[0]
            scheme = {"never": 0, "always": 1, "first": 2}[meta.prepend_scheme]
            metaspace = (meta.replacement, scheme, bool(meta.split_))
        kind = 3
    else:
        found_pre = _pre_tokenizer(pre)
        if isinstance(found_pre, str):
            return found_pre
        scanner, add_prefix_space = found_pre
    entries = _added_entries(tok, tok.added.state)
    if isinstance(entries, str):
        return entries
    return _backend.core().PieceCounter(
        kind,
        scanner,
        add_prefix_space,
        passes or [],
        whitespace_split,
        metaspace,
        entries[0],
        entries[1],
        "".join(sorted(RUST_WHITESPACE)),
        steps,
        bert,
    )
