"""Compiling a Tokenizer's components into a native plan, or saying why not.

The components in ``normalizers.py``, ``pre_tokenizers.py``, ``models/`` and
``processors.py`` describe a pipeline and run it in Python (the readable specification).
When every component of a tokenizer has a native twin, :func:`compile_plan` builds one
``codetok._core`` object that runs the whole path, text to arrays, in one call per text
(and on native threads for batches). Otherwise the tokenizer runs the Python pipeline as a
whole, never partly native: :func:`compile_plan` returns the reason instead.

Native today (the BPE family): no normalizer; ``ByteLevel`` with its GPT-2 regex, or
``Sequence([Split(<known pattern>, "isolated"), ByteLevel(use_regex=False)])`` with the
cl100k / o200k / Llama-3 patterns (codetok/_scanners.py lists them); a ``BPE`` model over
the byte-level alphabet without dropout or affixes; added tokens without ``single_word``;
any post-processor (``ByteLevel`` offset trimming runs natively, the others in Python on
the arrays). Everything else runs in Python with identical output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._bytes import BYTE_TO_CHAR
from ._scanners import scanner_for
from .encoding import Encoding, NativeArrays
from .models import BPE, _backend
from .normalizers import RUST_WHITESPACE
from .pre_tokenizers import GPT2_PATTERN, ByteLevel, Sequence, Split
from .processors import ByteLevel as ByteLevelProcessor

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

__all__ = ["Plan", "compile_plan", "plan_key", "use_plans"]

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
    return previous


class Plan:
    """A compiled native pipeline of one tokenizer (see the module docstring).

    Args:
        core: the ``codetok._core.BytePipeline``.
        values: the model's token strings by id (for ``Encoding.tokens``).
        trim: 1 or 2 when the post-processor is ``ByteLevel`` with ``trim_offsets``
            (2: with ``add_prefix_space``), else 0.
        added: the tokenizer's added vocabulary (to name skipped specials by id).
    """

    def __init__(self, core: Any, values: list[str | None], trim: int, added: Any) -> None:
        self.core = core
        self.values = values
        self.trim = trim
        self._added = added
        self._skip_ids: dict[frozenset[str] | None, list[int]] = {None: []}

    def skip_ids(self, skip: frozenset[str] | None) -> list[int]:
        """Ids of the special tokens whose contents ``skip`` names (read as text)."""
        ids = self._skip_ids.get(skip)
        if ids is None:
            ids = sorted(
                tid for tid, t in self._added.tokens.items() if t.special and t.content in skip
            )
            self._skip_ids[skip] = ids
        return ids

    def encode(
        self, text: str, type_id: int, skip: frozenset[str] | None, trim: bool
    ) -> Encoding | None:
        """One sequence as an :class:`Encoding` over arrays (``None``: run the Python path)."""
        trim_mode = self.trim if trim else 0
        out = self.core.encode(text, self.skip_ids(skip), trim_mode)
        if out is None:
            return None
        return self.wrap(text, out, type_id, trim_mode != 0)

    def wrap(
        self, text: str, out: tuple[Any, Any, Any, Any], type_id: int, trimmed: bool
    ) -> Encoding:
        """An :class:`Encoding` over one result of the native pipeline."""
        ids, offsets, words, added = out
        values = self.values

        def tokens() -> list[str]:
            ids_list = ids.tolist()
            matches = added.tolist()
            for i, _, _ in matches:
                ids_list[i] = 0  # an added id may lie beyond the model's vocabulary
            toks = list(map(values.__getitem__, ids_list))
            for i, s, e in matches:
                toks[i] = text[s:e]  # HF shows the matched text of an added token
            return toks

        return Encoding._from_native(NativeArrays(ids, offsets, words, type_id, tokens, trimmed))


def plan_key(tok: Tokenizer) -> tuple[Any, ...]:
    """What a compiled plan depends on; a different key means compile again."""
    model = tok.model
    return (
        _enabled,
        _backend.native(),
        id(model),
        getattr(model, "_core", None),
        getattr(model, "_dropout", None),
        id(tok.normalizer),
        _describe(tok.pre_tokenizer),
        _describe(tok.post_processor),
        tok.added.version,
    )


def _describe(component: Any) -> Any:
    if component is None:
        return None
    if isinstance(component, Sequence):
        return (id(component), tuple(_describe(p) for p in component.pretokenizers))
    return (id(component), tuple(repr(v) for k, v in vars(component).items() if k[0] != "_"))


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


def compile_plan(tok: Tokenizer) -> Plan | str:
    """The native plan of ``tok``, or the reason it runs the Python pipeline."""
    if not _enabled:
        return "native plans are switched off (codetok._plan.use_plans)"
    if not _backend.native():
        return "the pure-Python backend is selected (codetok.models._backend.use_native)"
    if tok.normalizer is not None:
        return f"the normalizer {tok.normalizer!r} has no native twin yet"
    model = tok.model
    if not isinstance(model, BPE) or type(model).encode_pieces is not BPE.encode_pieces:
        return f"the model {type(model).__name__} has no native pipeline yet"
    if model.dropout:
        return "BPE dropout samples per call; it runs in Python"
    if model.continuing_subword_prefix or model.end_of_word_suffix:
        return "byte-level BPE with a subword prefix or suffix runs in Python"
    pre = _pre_tokenizer(tok.pre_tokenizer)
    if isinstance(pre, str):
        return pre
    scanner, add_prefix_space = pre
    symbols = [model.token_to_id(c) for c in BYTE_TO_CHAR]
    if None in symbols:
        return "the vocabulary lacks some byte-level characters"
    core = model._kernel()
    values = model._values
    if not model._core_native or values is None:
        return "the model's kernel is not native"
    raw_matcher, norm_matcher = tok.added.matchers(None)
    entries: list[list[tuple[str, int, bool, bool, bool]]] = []
    for matcher in (raw_matcher, norm_matcher):
        rows = []
        for content, tid in matcher.ids.items():
            t = tok.added.tokens[tid]
            if t.single_word:
                return f"the added token {t.content!r} is single_word"
            rows.append((content, tid, t.lstrip, t.rstrip, t.special))
        entries.append(rows)
    post = tok.post_processor
    trim = 0
    if isinstance(post, ByteLevelProcessor) and post.trim_offsets:
        trim = 2 if post.add_prefix_space else 1
    native = _backend._CORE.BytePipeline(  # type: ignore[union-attr]
        core,
        values,
        scanner,
        add_prefix_space,
        symbols,
        entries[0],
        entries[1],
        "".join(sorted(RUST_WHITESPACE)),
    )
    return Plan(native, values, trim, tok.added)
