"""The Tokenizer: normalizer -> pre-tokenizer -> model -> post-processor, plus a decoder.

This module is the pipeline core: the components, added and special tokens (with the
tiktoken-style special-token policy), the Python reference pipeline (``_splits``,
``_encode_one``), ``encode`` / ``encode_batch`` / ``encode_ordinary*``, ``post_process``,
``decode``, and the choice between the compiled native plan (:mod:`codetok.engine.plan`) and
the Python pipeline (:attr:`Tokenizer.engine`).

Not here, though :class:`Tokenizer` keeps the methods as thin delegations: the
truncation and padding rules (:mod:`codetok.tokenizer.truncation`), the
``transformers``-style ``__call__`` (:mod:`codetok.tokenizer.call`), ``tokenizer.json``
in and out (:mod:`codetok.tokenizer.serialization`), folders of files and the Hub
(:mod:`codetok.formats`), and training (:mod:`codetok.trainers`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..components.base import CHANGES
from ..decoders import Decoder, cleanup_tokenization
from ..engine import native as _backend
from ..engine.collector import gc_paused
from ..engine.plan import Plan, compile_plan
from ..errors import ConfigurationError, TruncationError, VocabularyError
from ..models import Model
from ..normalizers import Normalizer
from ..pre_tokenizers import Anchor, PreTokenizer
from ..processors import PostProcessor, default_process
from . import call as tokenizer_call
from . import entry_points
from . import serialization as tokenizer_json
from .added_tokens import AddedToken, AddedVocabulary
from .encoding import BatchEncoding, Encoding
from .offsets import NormalizedString, remap_offsets, replace_surrogates
from .truncation import (
    TRUNCATION_STRATEGIES,
    CallSettings,
    pad_encodings,
    padding_settings,
    truncate_encodings,
    truncation_settings,
)

__all__ = ["Tokenizer", "TRUNCATION_STRATEGIES"]

InputSequence = str | Sequence[str]


class _Call(NamedTuple):
    """What one call reads of a tokenizer that other threads may change, read once at its
    start: the truncation and padding, the compiled plan (``None``: the Python pipeline)
    and the state of the added vocabulary (the plan's own, so the Python path of a text
    the plan leaves to it sees the same tokens). Every part of a call (both sequences of
    a pair, every input of a batch) uses the same one."""

    settings: CallSettings
    plan: Plan | None
    added: Any


class Tokenizer:
    """A text tokenizer: a pipeline of components around one subword model.

    Args:
        model: the subword model (BPE, WordPiece, Unigram, WordLevel).
        normalizer: optional; the first component.
        pre_tokenizer: optional; cuts the normalized text into pieces.
        post_processor: optional; adds special tokens and type ids.
        decoder: optional; turns tokens back into text.

    >>> from codetok.models import WordPiece
    >>> from codetok.pre_tokenizers import BertPreTokenizer
    >>> tok = Tokenizer(WordPiece({"[UNK]": 0, "hi": 1, "there": 2, "!": 3}))
    >>> tok.pre_tokenizer = BertPreTokenizer()
    >>> tok.encode("hi there!").tokens
    ['hi', 'there', '!']
    """

    #: What the last training of this tokenizer did (a
    #: :class:`~codetok.trainers.report.TrainingReport`), or ``None``.
    training_report: Any = None

    def __init__(
        self,
        model: Model,
        *,
        normalizer: Normalizer | None = None,
        pre_tokenizer: PreTokenizer | None = None,
        post_processor: PostProcessor | None = None,
        decoder: Decoder | None = None,
    ) -> None:
        if not isinstance(model, Model):
            raise ConfigurationError(
                f"model must be a codetok model (BPE, WordPiece, ...), got {type(model).__name__}"
            )
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.decoder = decoder
        self.added = AddedVocabulary()
        self._settings = CallSettings()
        # transformers-style settings used by __call__ (see to_dict(settings=True)).
        self.model_max_length: int = int(1e30)
        self.padding_side = "right"
        self.truncation_side = "right"
        self.model_input_names: list[str] = ["input_ids", "token_type_ids", "attention_mask"]
        self.clean_up_tokenization_spaces = False
        self.special_tokens_map: dict[str, str] = {}
        self.surrogates = "keep"
        #: ``(plan or reason, CHANGES[0], added version, plan or None, the plan's fast state
        #: or None, the added vocabulary)`` (see :meth:`_plan`; the C entry of :meth:`encode`
        #: reads it).
        self._plan_cache: tuple[Plan | str, int, int, Plan | None, Any, Any] | None = None

    # ------------------------------------------------------------------ components
    #: Attributes a compiled plan reads: replacing one counts as a change (``CHANGES``).
    _PLAN_PARTS = frozenset(
        {"model", "_normalizer", "pre_tokenizer", "post_processor", "added", "_surrogates"}
    )

    #: What :attr:`surrogates` says when ``__init__`` did not run.
    _surrogates = "keep"

    #: The truncation and padding of every encode (:meth:`enable_truncation`,
    #: :meth:`enable_padding`), replaced whole under :data:`_SETTINGS_LOCK`, read once per
    #: call. The instance attribute ``_plain`` says it is neither (the C entry of
    #: :meth:`encode` reads it).
    _settings = CallSettings()
    #: How many times :attr:`_settings` was replaced (under :data:`_SETTINGS_LOCK`).
    _settings_changes = 0

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle (and ``copy``) as the ``tokenizer.json`` text with codetok's settings:
        the configuration, not the native kernels and caches, which the copy builds again
        on its first encode (so a tokenizer crosses ``multiprocessing`` and
        ``datasets.map(num_proc=...)``).

        >>> import pickle
        >>> from codetok.models import WordLevel
        >>> tok = Tokenizer(WordLevel({"a": 0, "<unk>": 1}, "<unk>"))
        >>> [pickle.loads(pickle.dumps(tok)).encode(t).ids for t in ("a", "b")]
        [[0], [1]]
        """
        return _from_pickle, (type(self), self.to_str(settings=True))

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_settings":
            if not isinstance(value, CallSettings):
                raise ConfigurationError(f"_settings must be a CallSettings, got {value!r}")
            with _SETTINGS_LOCK:
                # ``_plain`` never says plain while other settings are in place: it turns
                # false before they come and true after they went.
                if not value.plain:
                    object.__setattr__(self, "_plain", False)
                # Counted first, so a call that saw the count unchanged after reading the
                # plan read the settings of that moment (see _call).
                object.__setattr__(self, "_settings_changes", self._settings_changes + 1)
                object.__setattr__(self, name, value)
                if value.plain:
                    object.__setattr__(self, "_plain", True)
            return
        object.__setattr__(self, name, value)
        if name in Tokenizer._PLAN_PARTS:
            CHANGES[0] += 1

    @property
    def normalizer(self) -> Normalizer | None:
        return self._normalizer

    @normalizer.setter
    def normalizer(self, value: Normalizer | None) -> None:
        if value is not None and not isinstance(value, Normalizer):
            raise ConfigurationError(
                f"normalizer must be a codetok Normalizer, got {type(value).__name__}"
            )
        self._normalizer = value
        self._norm_fn = None if value is None else value.normalize_str

    @property
    def surrogates(self) -> str:
        """What encoding does with a surrogate code point (U+D800..U+DFFF) in a str.

        Such a str has no UTF-8 form. HF ``tokenizers`` refuses it (``TypeError``);
        tiktoken reads it again through UTF-16 with ``errors="replace"``. codetok takes it
        either way, chosen per tokenizer:

        - ``"keep"`` (the default, and what a ``tokenizer.json`` loads with): a surrogate
          is a character like any other; byte-level models see the three bytes
          ``surrogatepass`` writes (``ED A0 80`` for U+D800), so ``decode`` gives it back.
          Native and Python pipelines agree.
        - ``"replace"`` (what :func:`~codetok.formats.tiktoken_file.tokenizer_from_tiktoken`
          sets): tiktoken's rule, so the ids are tiktoken's: a high surrogate followed by a
          low one is the character the pair spells, any other surrogate is U+FFFD (see
          :func:`codetok.tokenizer.offsets.replace_surrogates`). Offsets still index the caller's
          str. A text holding a surrogate then takes the Python path for the rewrite and
          is encoded natively after it.

        Saved with codetok's settings (``to_str(settings=True)``, pickling, the binary
        format), not in a plain ``tokenizer.json``, whose schema has no such field.

        Raises:
            ConfigurationError: set to anything but ``"keep"`` or ``"replace"``.

        >>> from codetok.models import WordLevel
        >>> from codetok.pre_tokenizers import WhitespaceSplit
        >>> vocab = {"a": 0, "\\ufffd": 1, "<unk>": 2}
        >>> tok = Tokenizer(WordLevel(vocab, "<unk>"), pre_tokenizer=WhitespaceSplit())
        >>> tok.encode("a \\ud800").ids
        [0, 2]
        >>> tok.surrogates = "replace"
        >>> tok.encode("a \\ud800").ids
        [0, 1]
        """
        return self._surrogates

    @surrogates.setter
    def surrogates(self, value: str) -> None:
        if value not in ("keep", "replace"):
            raise ConfigurationError(
                f"surrogates must be 'keep' (encode a surrogate as it is) or 'replace' "
                f"(tiktoken's rule: U+FFFD, pairs joined), got {value!r}"
            )
        self._surrogates = value

    def __repr__(self) -> str:
        return (
            f"Tokenizer(model={self.model!r}, normalizer={self.normalizer!r}, pre_tokenizer={self.pre_tokenizer!r}, "
            f"post_processor={self.post_processor!r}, decoder={self.decoder!r}, added_tokens={len(self.added)})"
        )

    # ------------------------------------------------------------------ engine
    def _plan(self) -> Plan | None:
        """The compiled native plan, rebuilt when a component changed (``None``: Python).

        Every change a plan depends on is counted in ``CHANGES`` (this tokenizer's parts
        replaced, component and model attributes, lists of parts, the plan and backend
        switches) or in the added vocabulary's version; the plan is kept while neither
        moved. Both are read before compiling, and the added vocabulary's state once: a
        change that another thread makes meanwhile is either in the plan or seen at the
        next call, never lost (writers set first, then count).
        """
        cached = self._plan_cache
        added = self.added
        version = added.version
        changes = CHANGES[0]
        if cached is not None and cached[1] == changes and cached[2] == version:
            return cached[3]
        compiled = compile_plan(self, added.state)
        plan = compiled if isinstance(compiled, Plan) else None
        fast = None if plan is None else plan.fast_state()
        object.__setattr__(self, "_plan_cache", (compiled, changes, version, plan, fast, added))
        return plan

    def _call(self, settings: CallSettings | None = None) -> _Call:
        """The :class:`_Call` of a call starting now (``settings``: the call's own
        truncation and padding, by default the tokenizer's).

        The tokenizer's settings, its plan and its added vocabulary are three reads; another
        thread may change the tokenizer between them. The settings count is read before
        and after: when it did not move, the settings were those of the moment the plan and
        the added vocabulary were read, so the call sees one state of the tokenizer, never
        the settings of one and the tokens of another."""
        while True:
            seen = self._settings_changes
            own = self._settings
            plan = self._plan()
            added = plan.added_state if plan is not None else self.added.state
            if settings is not None:
                return _Call(settings, plan, added)
            if self._settings_changes == seen:
                return _Call(own, plan, added)

    @property
    def engine(self) -> str:
        """Which pipeline encodes: ``"native"`` (one compiled pass per text) or ``"python"``.

        A tokenizer runs natively when every component has a native twin (the README lists
        them); otherwise the Python pipeline runs as a whole, with identical output.
        :attr:`engine_reason` says why.

        >>> from codetok.models import WordLevel
        >>> Tokenizer(WordLevel({"a": 0}, None)).engine
        'python'
        """
        return "native" if self._plan() is not None else "python"

    @property
    def engine_reason(self) -> str | None:
        """Why the tokenizer runs the Python pipeline (``None`` when it runs natively)."""
        self._plan()
        plan = self._plan_cache[0]  # type: ignore[index]
        return None if isinstance(plan, Plan) else plan

    # ------------------------------------------------------------------ vocabulary
    def add_tokens(self, tokens: Iterable[str | AddedToken]) -> int:
        """Add tokens to the vocabulary; returns how many were new.

        >>> from codetok.models import WordLevel
        >>> tok = Tokenizer(WordLevel({"a": 0, "<unk>": 1}, "<unk>"))
        >>> tok.add_tokens(["<new>", "a"])  # "a" keeps its model id; both count, as in HF
        2
        """
        return self.added.add(
            [t if isinstance(t, AddedToken) else AddedToken(t) for t in tokens],
            self.model.token_to_id,
            self.model.get_vocab_size(),
        )

    def add_special_tokens(self, tokens: Iterable[str | AddedToken]) -> int:
        """Add special tokens (never split, skipped by ``decode(skip_special_tokens=True)``)."""
        toks = []
        for t in tokens:
            if isinstance(t, AddedToken):
                t.special = True
                toks.append(t)
            else:
                toks.append(AddedToken(t, special=True))
        return self.added.add(toks, self.model.token_to_id, self.model.get_vocab_size())

    def token_to_id(self, token: str) -> int | None:
        """Id of a token (added tokens first), or ``None``."""
        tid = self.added.id_of(token)
        return tid if tid is not None else self.model.token_to_id(token)

    def id_to_token(self, id: int) -> str | None:
        """Token string of an id, or ``None``."""
        shown = self.added.display(id, self._norm_fn)
        return shown if shown is not None else self.model.id_to_token(id)

    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]:
        """Token -> id for the model (and added tokens)."""
        vocab = self.model.get_vocab()
        if with_added_tokens:
            for tid, tok in self.added.tokens.items():
                vocab[tok.content] = tid
        return vocab

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        """Size of the vocabulary (HF counts added tokens not already in the model)."""
        if not with_added_tokens:
            return self.model.get_vocab_size()
        return len(self.get_vocab(True))

    @property
    def vocab_size(self) -> int:
        return self.get_vocab_size(True)

    def get_added_tokens_decoder(self) -> dict[int, AddedToken]:
        return dict(sorted(self.added.tokens.items()))

    # ------------------------------------------------------------------ truncation/padding
    def enable_truncation(
        self,
        max_length: int,
        stride: int = 0,
        strategy: str = "longest_first",
        direction: str = "right",
    ) -> None:
        """Truncate every encoding to ``max_length`` tokens (special tokens included).

        Raises:
            ConfigurationError: unknown strategy or direction, or negative numbers.
        """
        settings = truncation_settings(max_length, stride, strategy, direction)
        with _SETTINGS_LOCK:
            self._settings = self._settings._replace(truncation=settings)

    def no_truncation(self) -> None:
        with _SETTINGS_LOCK:
            self._settings = self._settings._replace(truncation=None)

    @property
    def truncation(self) -> dict[str, Any] | None:
        """The truncation settings, or ``None``."""
        t = self._settings.truncation
        return None if t is None else dict(t)

    def enable_padding(
        self,
        direction: str = "right",
        pad_id: int = 0,
        pad_type_id: int = 0,
        pad_token: str = "[PAD]",
        length: int | None = None,
        pad_to_multiple_of: int | None = None,
    ) -> None:
        """Pad to ``length``, or to the longest encoding of a batch when ``length`` is None.

        Raises:
            ConfigurationError: unknown direction, or a negative length or multiple.
        """
        settings = padding_settings(
            direction, pad_id, pad_type_id, pad_token, length, pad_to_multiple_of
        )
        with _SETTINGS_LOCK:
            self._settings = self._settings._replace(padding=settings)

    def no_padding(self) -> None:
        with _SETTINGS_LOCK:
            self._settings = self._settings._replace(padding=None)

    @property
    def padding(self) -> dict[str, Any] | None:
        """The padding settings, or ``None``."""
        p = self._settings.padding
        return None if p is None else dict(p)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return 0 if self.post_processor is None else self.post_processor.added_tokens(is_pair)

    # ------------------------------------------------------------------ encoding
    def _special_policy(
        self, text: str, allowed_special: Any, disallowed_special: Any, added: Any
    ) -> frozenset[str] | None:
        """Contents of special tokens to treat as plain text (``None``: match them all),
        by the added vocabulary's state ``added``."""
        specials = added.special_contents()
        if allowed_special == "all":
            allowed = specials
        else:
            allowed = set(allowed_special)
        if disallowed_special == "all":
            disallowed = specials - allowed
        else:
            disallowed = set(disallowed_special)
        if disallowed:
            hit = self.added.find_disallowed(text, sorted(disallowed))
            if hit is not None:
                raise VocabularyError(
                    f"the text contains the special token {hit!r}, which is disallowed; pass "
                    f"allowed_special={{{hit!r}}} (or 'all') to encode it as a special token, or "
                    f"disallowed_special=() to encode it as ordinary text"
                )
        skip = specials - allowed
        return frozenset(skip) if skip else None

    def _splits(
        self, text: str, skip: frozenset[str] | None, added: Any
    ) -> tuple[list[str], list[Anchor], list[int | None]]:
        """Added tokens cut out (those of the added vocabulary's state ``added``), the rest
        normalized and pre-tokenized.

        Returns parallel lists: the piece texts, their anchors (an ``int`` original start
        for identity-aligned pieces, else the piece's :class:`NormalizedString`; see
        :meth:`PreTokenizer.split_many`) and the added-token id (``None``: a model piece).
        Identity-aligned text never becomes one object per piece.
        """
        raw, norm = added.matchers(self._norm_fn)[0]
        texts: list[str] = []
        anchors: list[Anchor] = []
        tids: list[int | None] = []
        normalizer = self._normalizer
        pre = self.pre_tokenizer
        for tid, (s, e) in self.added.find(text, raw, skip):
            if tid is not None:
                texts.append(text[s:e])
                anchors.append(s)
                tids.append(tid)
                continue
            ns = NormalizedString(text[s:e], s)
            if normalizer is not None:
                normalizer.normalize(ns)
            for tid2, (a, b) in self.added.find(ns.text, norm, skip):
                if a == b:
                    continue
                piece = ns.slice(a, b) if (a, b) != (0, len(ns.text)) else ns
                anchor: Anchor = piece.base if piece.align is None else piece
                if tid2 is not None or pre is None:
                    texts.append(piece.text)
                    anchors.append(anchor)
                    tids.append(tid2)
                    continue
                ptexts, panchors = pre.split_many([piece.text], [anchor])
                if "" in ptexts:
                    keep = [i for i, t in enumerate(ptexts) if t]
                    ptexts = [ptexts[i] for i in keep]
                    panchors = [panchors[i] for i in keep]
                texts.extend(ptexts)
                anchors.extend(panchors)
                tids.extend([None] * len(ptexts))
        return texts, anchors, tids

    def pre_tokenize(self, text: str) -> list[tuple[str, tuple[int, int], int | None]]:
        """The pieces the model would see: ``(piece, original span, added-token id)``.

        Added tokens are cut out first (their id is given and the model never sees them);
        the rest is normalized and pre-tokenized. Trainers count these pieces.

        >>> from codetok.models import WordLevel
        >>> from codetok.pre_tokenizers import WhitespaceSplit
        >>> tok = Tokenizer(WordLevel({}, None), pre_tokenizer=WhitespaceSplit())
        >>> tok.pre_tokenize("hi  there")
        [('hi', (0, 2), None), ('there', (4, 9), None)]
        """
        text = _check_str(text)
        starts = None
        if self._surrogates == "replace":
            replaced = replace_surrogates(text)
            if replaced is not None:
                text, starts = replaced  # tiktoken's rewrite (see ``surrogates``)
        texts, anchors, tids = self._splits(text, None, self.added.state)
        pieces = [_piece(t, a, tid) for t, a, tid in zip(texts, anchors, tids)]
        if starts is not None:
            spans = remap_offsets([span for _, span, _ in pieces], starts)
            pieces = [(t, span, tid) for (t, _, tid), span in zip(pieces, spans)]
        return pieces

    def _encode_one(
        self,
        text: str,
        type_id: int,
        word_idx: int | None,
        skip: frozenset[str] | None,
        call: _Call,
        trim: bool = False,
    ) -> Encoding:
        if word_idx is None:
            plan = call.plan
            if plan is not None:
                enc = plan.encode(text, type_id, skip, trim)
                if enc is not None:
                    return enc
        if self._surrogates == "replace":
            replaced = replace_surrogates(text)
            if replaced is not None:
                fixed, starts = replaced
                # The rewrite has no surrogate: the plan (if any) encodes it. With pairs
                # joined the offsets move, so the post-processor trims them afterwards.
                enc = self._encode_one(
                    fixed, type_id, word_idx, skip, call, trim and starts is None
                )
                if starts is not None:
                    enc.offsets = remap_offsets(enc.offsets, starts)
                return enc
        texts, anchors, tids = self._splits(text, skip, call.added)
        # Word ids: the piece index, or word_idx for every piece of a pre-tokenized word.
        w0, step = (0, 1) if word_idx is None else (word_idx, 0)
        encode = self.model.encode_pieces
        n = len(texts)
        if tids.count(None) == n:
            # No added token: all pieces in one model call (one native call when built).
            if not n:
                return Encoding()
            ids, tokens, offsets, words = encode(texts, anchors, w0, step)
        else:
            ids, tokens, offsets, words = [], [], [], []
            start = 0
            for i in [i for i, t in enumerate(tids) if t is not None] + [n]:
                if i > start:
                    run = encode(texts[start:i], anchors[start:i], w0 + step * start, step)
                    ids += run[0]
                    tokens += run[1]
                    offsets += run[2]
                    words += run[3]
                if i < n:
                    ids.append(tids[i])  # type: ignore[arg-type]
                    # HF keeps the matched text (normalized, stripped spaces included).
                    tokens.append(texts[i])
                    offsets.append(_piece(texts[i], anchors[i], None)[1])
                    words.append(w0 + step * i)
                start = i + 1
        n = len(ids)
        return Encoding(ids, [type_id] * n, tokens, offsets, words, [0] * n, [1] * n)

    def _encode_sequence(
        self,
        seq: InputSequence,
        type_id: int,
        is_pretokenized: bool,
        skip: frozenset[str] | None,
        call: _Call,
        trim: bool = False,
    ) -> Encoding:
        if is_pretokenized:
            if isinstance(seq, str):
                raise ConfigurationError("is_pretokenized=True needs a list of words, got a str")
            parts = [
                self._encode_one(_check_str(w), type_id, i, skip, call) for i, w in enumerate(seq)
            ]
            return Encoding.merge(parts, False) if parts else Encoding()
        return self._encode_one(_check_str(seq), type_id, None, skip, call, trim)

    def encode(
        self,
        sequence: InputSequence,
        pair: InputSequence | None = None,
        is_pretokenized: bool = False,
        add_special_tokens: bool = True,
        *,
        allowed_special: Any = "all",
        disallowed_special: Any = (),
    ) -> Encoding:
        """Encode one sequence (or a pair) with the full pipeline.

        Args:
            sequence: the text, or a list of words when ``is_pretokenized``.
            pair: an optional second sequence.
            is_pretokenized: inputs are lists of words; offsets are relative to each word.
            add_special_tokens: let the post-processor add its special tokens.
            allowed_special: special tokens that may be matched in the text (``"all"``,
                the HF behaviour, or a set of contents). Others are encoded as plain text.
            disallowed_special: special tokens whose presence in the text raises
                (``"all"`` means every special token not allowed), as tiktoken does.

        Returns:
            An :class:`~codetok.tokenizer.encoding.Encoding`.

        Raises:
            VocabularyError: a disallowed special token occurs in the text, or the model
                cannot represent a piece and has no unknown token.
            TruncationError: the truncation settings cannot be met.
        """
        seen = self._settings_changes
        settings = self._settings
        if (
            pair is None
            and not is_pretokenized
            and allowed_special == "all"
            and not disallowed_special
            and settings.plain
            and type(sequence) is str
        ):
            # The common call, in one native call when the plan finishes it: a short text
            # costs more in Python around the call than in tokenizing, so this inlines
            # ``_plan()``'s cache check and ``Plan.encode_final``.
            cached = self._plan_cache
            if cached is not None and cached[1] == CHANGES[0] and cached[2] == self.added.version:
                plan = cached[3]
            else:
                plan = self._plan()
            if plan is not None and plan.final_layouts is not None:
                final = plan.core.encode_encoding(
                    sequence,
                    (),
                    plan.trim,
                    plan.model_kernel,
                    plan.final_layouts[add_special_tokens],
                )
                # Plain settings and this plan: one state, unless the settings moved
                # meanwhile (then the general path reads them again with the plan).
                if final is not None and self._settings_changes == seen:
                    return final
        return self._encode(
            sequence,
            pair,
            is_pretokenized,
            add_special_tokens,
            allowed_special,
            disallowed_special,
            self._call(),
        )

    def _encode(
        self,
        sequence: InputSequence,
        pair: InputSequence | None,
        is_pretokenized: bool,
        add_special_tokens: bool,
        allowed_special: Any,
        disallowed_special: Any,
        call: _Call,
    ) -> Encoding:
        """:meth:`encode` with what ``call`` read of the tokenizer."""
        truncation, padding = call.settings
        plan = call.plan
        skip = None
        if allowed_special != "all" or disallowed_special:
            texts = [sequence] if pair is None else [sequence, pair]
            for t in texts:
                for s in [t] if isinstance(t, str) else t:
                    skip = self._special_policy(
                        _check_str(s), allowed_special, disallowed_special, call.added
                    )
        # The native plan may apply the post-processor's ByteLevel offset trimming itself;
        # with a pair or truncation, the Python post-processor trims the final parts.
        trim = pair is None and truncation is None
        if pair is None and not trim and not is_pretokenized:
            # One text with truncation: over arrays when the plan allows (post_process).
            if plan is not None and not plan.trim:
                enc = plan.encode(_check_str(sequence), 0, skip, False)
                if enc is not None:
                    return self._post_process(enc, None, add_special_tokens, call)
        if trim and not is_pretokenized:
            # One text, no truncation: the plan (computed once) encodes and post-processes.
            if plan is not None:
                text = _check_str(sequence)
                final = plan.encode_final(text, skip, add_special_tokens)
                if final is not None:
                    if padding is not None:
                        pad_encodings([final], padding)
                    return final
                enc = plan.encode(text, 0, skip, True)
                if enc is not None:
                    return self._post_process(enc, None, add_special_tokens, call)
        enc = self._encode_sequence(sequence, 0, is_pretokenized, skip, call, trim)
        penc = None if pair is None else self._encode_sequence(pair, 1, is_pretokenized, skip, call)
        return self._post_process(enc, penc, add_special_tokens, call)

    def post_process(
        self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True
    ) -> Encoding:
        """Truncate, add special tokens, then pad (fixed length only), as HF does."""
        return self._post_process(encoding, pair, add_special_tokens, self._call())

    def _post_process(
        self,
        encoding: Encoding,
        pair: Encoding | None,
        add_special_tokens: bool,
        call: _Call,
    ) -> Encoding:
        """:meth:`post_process` with what ``call`` read of the tokenizer."""
        truncation, padding = call.settings
        if pair is None and encoding._native is not None:
            # One sequence over arrays stays on arrays when the plan can finish it.
            plan = call.plan
            if plan is None:
                final = None
            elif truncation is None:
                final = plan.finish(encoding, add_special_tokens)
            else:
                final = plan.truncate_finish(encoding, truncation, add_special_tokens)
            if final is not None:
                if padding is not None:
                    pad_encodings([final], padding)
                return final
        if truncation is not None:
            t = truncation
            max_length = t["max_length"]
            n_added = self.num_special_tokens_to_add(pair is not None) if add_special_tokens else 0
            if n_added > max_length:
                raise TruncationError(
                    f"max_length={max_length} leaves no room for the {n_added} special tokens the "
                    f"post-processor adds; use max_length >= {n_added}"
                )
            truncate_encodings(
                encoding, pair, max_length - n_added, t["stride"], t["strategy"], t["direction"]
            )
        if self.post_processor is not None:
            final = self.post_processor.process(encoding, pair, add_special_tokens)
        else:
            final = default_process(
                [encoding] if pair is None else [encoding, pair], add_special_tokens
            )
        if padding is not None:
            pad_encodings([final], padding)
        return final

    def encode_batch(
        self,
        inputs: Sequence[InputSequence | tuple[InputSequence, InputSequence]],
        is_pretokenized: bool = False,
        add_special_tokens: bool = True,
        *,
        allowed_special: Any = "all",
        disallowed_special: Any = (),
        num_threads: int | None = None,
    ) -> list[Encoding]:
        """Encode many inputs (strs, or ``(text, pair)`` tuples); pads the batch if set.

        A tokenizer with a native plan (:attr:`engine`) encodes a batch of strs on
        ``num_threads`` native threads (default: every core) with the GIL released; the
        result equals a loop of :meth:`encode`.

        >>> from codetok.models import WordLevel
        >>> tok = Tokenizer(WordLevel({"a": 0, "<unk>": 1}, "<unk>"))
        >>> [e.ids for e in tok.encode_batch(["a", "b"])]
        [[0], [1]]
        """
        return self._encode_batch(
            inputs,
            is_pretokenized,
            add_special_tokens,
            allowed_special,
            disallowed_special,
            num_threads,
            None,
        )

    def _encode_batch(
        self,
        inputs: Sequence[InputSequence | tuple[InputSequence, InputSequence]],
        is_pretokenized: bool,
        add_special_tokens: bool,
        allowed_special: Any,
        disallowed_special: Any,
        num_threads: int | None,
        settings: CallSettings | None,
    ) -> list[Encoding]:
        """:meth:`encode_batch` with the truncation and padding of ``settings`` (None: the
        tokenizer's own); the tokenizer is read once, for every input (see :class:`_Call`)."""
        if isinstance(inputs, str):
            raise ConfigurationError(
                "encode_batch takes a list of inputs; use encode() for one str"
            )

        def one(item: Any) -> Encoding:
            if isinstance(item, tuple) or (
                isinstance(item, list)
                and not is_pretokenized
                and len(item) == 2
                and all(isinstance(x, str) for x in item)
            ):
                a, b = item
            else:
                a, b = item, None
            return self._encode(
                a,
                b,
                is_pretokenized,
                add_special_tokens,
                allowed_special,
                disallowed_special,
                call,
            )

        items = list(inputs)
        call = self._call(settings)
        plan = None if is_pretokenized else call.plan
        if plan is not None and all(type(x) is str for x in items):
            skip = self._batch_skip(items, allowed_special, disallowed_special, call.added)
            encodings = self._native_batch(plan, items, skip, add_special_tokens, num_threads, call)
        elif num_threads and num_threads > 1 and len(items) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(num_threads) as ex:
                encodings = list(ex.map(one, items))
        else:
            encodings = [one(x) for x in items]
        if call.settings.padding is not None:
            pad_encodings(encodings, call.settings.padding)
        return encodings

    def _batch_skip(
        self, texts: list[str], allowed_special: Any, disallowed_special: Any, added: Any
    ) -> frozenset[str] | None:
        """The special-token policy of a batch (raises on a disallowed special, as encode)."""
        skip = None
        if allowed_special != "all" or disallowed_special:
            for t in texts:
                skip = self._special_policy(t, allowed_special, disallowed_special, added)
        return skip

    def _native_batch(
        self,
        plan: Plan,
        texts: list[str],
        skip: frozenset[str] | None,
        add_special_tokens: bool,
        num_threads: int | None,
        call: _Call,
    ) -> list[Encoding]:
        settings = call.settings
        trim = settings.truncation is None
        trim_mode = plan.trim if trim else 0
        # Post-processed natively (one Encoding per text, built in C) when nothing else
        # follows; else bare results for post_process.
        direct = trim and settings.padding is None and plan.layouts != "python"
        with gc_paused():
            outs = plan.core.encode_batch(
                texts,
                plan.skip_ids(skip),
                trim_mode,
                _threads(num_threads, len(texts)),
                plan.model_kernel,
                plan.layout(add_special_tokens) if direct else None,
                True,
            )
            if direct and None not in outs:
                return outs
            encodings = []
            for text, enc in zip(texts, outs):
                if enc is None:
                    enc = self._encode_one(text, 0, None, skip, call, trim)
                elif direct:
                    encodings.append(enc)
                    continue
                encodings.append(self._post_process(enc, None, add_special_tokens, call))
        return encodings

    # ------------------------------------------------------------------ ordinary ids
    def encode_ordinary(self, text: str) -> list[int]:
        """Token ids of ``text`` with every special token read as plain text (tiktoken's).

        No post-processor tokens, truncation or padding: the ids the model gives.

        Args:
            text: the text.

        Returns:
            The token ids.

        >>> from codetok.models import WordLevel
        >>> from codetok.pre_tokenizers import WhitespaceSplit
        >>> tok = Tokenizer(WordLevel({"a": 0, "<unk>": 1}, "<unk>"), pre_tokenizer=WhitespaceSplit())
        >>> tok.encode_ordinary("a b a")
        [0, 1, 0]
        """
        text = _check_str(text)
        call = self._call()
        plan = call.plan
        if plan is not None:
            ids = plan.core.encode_ids(text, plan.ordinary_skip)
            if ids is not None:
                return ids
        return self._encode_one(text, 0, None, _ordinary_skip(call.added), call).ids

    def encode_ordinary_batch(
        self, texts: Sequence[str], *, num_threads: int | None = None, flat: bool = False
    ) -> Any:
        """:meth:`encode_ordinary` of many texts, on native threads when the plan allows.

        Args:
            texts: the texts.
            num_threads: threads for the native plan (default: every core).
            flat: return ``(ids, bounds)`` numpy arrays instead of lists: all ids in one
                ``int32`` array, text ``k`` being ``ids[bounds[k]:bounds[k + 1]]``.

        Returns:
            A list of id lists, or with ``flat`` the two arrays.

        >>> from codetok.models import WordLevel
        >>> from codetok.pre_tokenizers import WhitespaceSplit
        >>> tok = Tokenizer(WordLevel({"a": 0, "<unk>": 1}, "<unk>"), pre_tokenizer=WhitespaceSplit())
        >>> ids, bounds = tok.encode_ordinary_batch(["a b", "a"], flat=True)
        >>> ids.tolist(), bounds.tolist()
        ([0, 1, 0], [0, 2, 3])
        """
        if isinstance(texts, str):
            raise ConfigurationError(
                "encode_ordinary_batch takes a list of texts; use encode_ordinary() for one str"
            )
        texts = [_check_str(t) for t in texts]
        call = self._call()
        skip = _ordinary_skip(call.added)
        plan = call.plan
        threads = _threads(num_threads, len(texts))
        if plan is not None:
            skip_ids = plan.ordinary_skip
            if flat:
                out = plan.core.encode_flat(texts, skip_ids, threads)
                if out is not None:
                    return out
            else:
                with gc_paused():  # a list per text, none in a cycle (engine/collector.py)
                    lists = plan.core.encode_ids_batch(texts, skip_ids, threads)
                    return [
                        ids if ids is not None else self._encode_one(t, 0, None, skip, call).ids
                        for t, ids in zip(texts, lists)
                    ]
        lists = [self._encode_one(t, 0, None, skip, call).ids for t in texts]
        if not flat:
            return lists
        import numpy as np

        bounds = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in lists], out=bounds[1:])
        ids = np.fromiter((i for x in lists for i in x), dtype=np.int32, count=int(bounds[-1]))
        return ids, bounds

    # ------------------------------------------------------------------ decoding
    def decode(
        self,
        ids: Sequence[int],
        skip_special_tokens: bool = True,
        clean_up_tokenization_spaces: bool | None = None,
    ) -> str:
        """Ids back to text through the decoder.

        Every id must name a token. HF ``tokenizers`` (0.23) drops an id it has no token
        for and decodes the rest; codetok refuses to lose part of the input silently and
        raises instead, as :meth:`CodeTokenizer.decode <codetok.code.CodeTokenizer.decode>`
        does. The check holds whatever ``skip_special_tokens`` says: a skipped special
        token is still a token.

        Args:
            ids: token ids (a list, numpy array or tensor of ints).
            skip_special_tokens: leave special tokens out.
            clean_up_tokenization_spaces: remove spaces before punctuation (BERT-style);
                defaults to the tokenizer's ``clean_up_tokenization_spaces`` setting.

        Returns:
            The text.

        Raises:
            VocabularyError: an id is not an int, or is negative, or has no token (past
                the vocabulary or in a gap of it); the message names the id, its position
                and the vocabulary size.

        >>> from codetok.models import WordLevel
        >>> tok = Tokenizer(WordLevel({"a": 0, "b": 1, "<unk>": 2}, "<unk>"))
        >>> tok.decode([0, 1])
        'a b'
        >>> tok.decode([0, 7])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        codetok.errors.VocabularyError: id 7 at position 1 has no token ... (vocabulary size 3, ids 0-2); ...
        """
        tokens: list[str] = []
        state = self.added.state  # one state for the whole call
        added = state.tokens
        model_id_to_token = self.model.id_to_token
        # HF decides "special" by the shown string: a normalized special token whose
        # normalized form differs from its content is kept (mirrored for parity).
        specials = state.special_contents() if skip_special_tokens else ()
        for pos, i in enumerate(_as_id_list(ids)):
            if i in added:
                shown = state.display(i, self._norm_fn)
                if shown is None or shown in specials:
                    continue
                tokens.append(shown)
                continue
            t = model_id_to_token(i) if i >= 0 else None
            if t is None:
                raise self._no_token_error(i, pos)
            tokens.append(t)
        text = self.decoder.decode(tokens) if self.decoder is not None else " ".join(tokens)
        if clean_up_tokenization_spaces is None:
            clean_up_tokenization_spaces = self.clean_up_tokenization_spaces
        if clean_up_tokenization_spaces:
            text = cleanup_tokenization(text)
        return text

    def decode_batch(
        self,
        sequences: Sequence[Sequence[int]],
        skip_special_tokens: bool = True,
        clean_up_tokenization_spaces: bool | None = None,
    ) -> list[str]:
        """:meth:`decode` over a batch.

        Raises:
            VocabularyError: as :meth:`decode`, with the index of the sequence.
        """
        out = []
        for k, s in enumerate(sequences):
            try:
                out.append(self.decode(s, skip_special_tokens, clean_up_tokenization_spaces))
            except VocabularyError as e:
                raise VocabularyError(f"sequence {k}: {e}") from e
        return out

    def _no_token_error(self, i: int, pos: int) -> VocabularyError:
        """The error :meth:`decode` raises for id ``i`` at ``pos``, which has no token."""
        size = self.get_vocab_size()
        highest = max(self.get_vocab().values(), default=-1)
        span = f"ids 0-{highest}" if highest >= 0 else "no ids"
        if i < 0:
            what = "is negative: token ids count from 0"
        else:
            what = "has no token in this tokenizer"
        return VocabularyError(
            f"id {i} at position {pos} {what} (vocabulary size {size}, {span}); "
            "decode ids this tokenizer produced, or add the token first"
        )

    # ------------------------------------------------------------------ transformers-style call
    def __call__(
        self,
        text: Any,
        text_pair: Any = None,
        add_special_tokens: bool = True,
        padding: bool | str = False,
        truncation: bool | str | None = None,
        max_length: int | None = None,
        stride: int = 0,
        is_split_into_words: bool = False,
        pad_to_multiple_of: int | None = None,
        padding_side: str | None = None,
        return_tensors: str | None = None,
        return_token_type_ids: bool | None = None,
        return_attention_mask: bool | None = None,
        return_overflowing_tokens: bool = False,
        return_special_tokens_mask: bool = False,
        return_offsets_mapping: bool = False,
        return_length: bool = False,
        return_position_ids: bool = False,
    ) -> BatchEncoding:
        """Prepare model inputs as ``transformers`` tokenizers do.

        Args:
            text: a str, a list of str (a batch), or with ``is_split_into_words`` a list of
                words / a list of lists of words.
            text_pair: the second sequence(s), same shape as ``text``.
            padding: ``True``/``"longest"``, ``"max_length"``, or ``False``/``"do_not_pad"``.
            truncation: ``True``/``"longest_first"``, ``"only_first"``, ``"only_second"``,
                or ``False``/``"do_not_truncate"``. Only ``max_length`` turns it on.
            max_length: defaults to ``model_max_length`` when padding/truncating needs it.
            stride: overlap between overflowing windows.
            pad_to_multiple_of, padding_side: padding details.
            return_tensors: ``None``, ``"np"`` or ``"pt"``.
            return_position_ids: also return ``position_ids``: attended tokens count from 0,
                padding positions get 1 (the convention of HF generation code).

        Returns:
            A :class:`~codetok.tokenizer.encoding.BatchEncoding`.
        """
        return tokenizer_call.call(
            self,
            text=text,
            text_pair=text_pair,
            add_special_tokens=add_special_tokens,
            padding=padding,
            truncation=truncation,
            max_length=max_length,
            stride=stride,
            is_split_into_words=is_split_into_words,
            pad_to_multiple_of=pad_to_multiple_of,
            padding_side=padding_side,
            return_tensors=return_tensors,
            return_token_type_ids=return_token_type_ids,
            return_attention_mask=return_attention_mask,
            return_overflowing_tokens=return_overflowing_tokens,
            return_special_tokens_mask=return_special_tokens_mask,
            return_offsets_mapping=return_offsets_mapping,
            return_length=return_length,
            return_position_ids=return_position_ids,
        )

    # ------------------------------------------------------------------ serialization
    def to_dict(self, settings: bool = False) -> dict[str, Any]:
        """The HF ``tokenizer.json`` object.

        Args:
            settings: also write the ``transformers``-style settings (``model_max_length``,
                sides, ``special_tokens_map``, ...) under the top-level key ``"codetok"``.
                HF ``tokenizers`` rejects files with unknown top-level keys, so this is off
                by default; :meth:`save_pretrained` keeps them in ``tokenizer_config.json``.
        """
        return tokenizer_json.to_dict(self, settings)

    def to_str(self, pretty: bool = False, settings: bool = False) -> str:
        """The ``tokenizer.json`` text (see :meth:`to_dict` for ``settings``)."""
        return tokenizer_json.to_str(self, pretty, settings)

    def save(
        self, path: str | os.PathLike[str], pretty: bool = True, settings: bool = False
    ) -> None:
        """Write ``tokenizer.json`` to ``path``; HF ``tokenizers`` loads it unless ``settings``."""
        tokenizer_json.save(self, path, pretty, settings)

    def save_binary(self, path: str | os.PathLike[str]) -> None:
        """Write the fast-load binary format (see :mod:`codetok.formats.binary`).

        :meth:`from_file` loads it memory-mapped, in milliseconds for a 200k vocabulary;
        codetok's settings are kept. HF ``tokenizers`` does not read it: use :meth:`save`
        for a ``tokenizer.json``.

        >>> import tempfile, os
        >>> from codetok.models import BPE
        >>> tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, ["a b"]))
        >>> path = os.path.join(tempfile.mkdtemp(), "tok.ctk")
        >>> tok.save_binary(path)
        >>> Tokenizer.from_file(path).encode("abab").ids
        [2, 2]
        """
        entry_points.job("save_binary")(self, path)

    def save_pretrained(self, folder: str | os.PathLike[str]) -> list[str]:
        """Write the folder ``transformers`` expects (tokenizer.json, tokenizer_config.json, ...).

        Returns:
            The paths written.
        """
        return entry_points.job("save_pretrained")(self, folder)

    @classmethod
    def from_pretrained(
        cls,
        name_or_path: str | os.PathLike[str],
        *,
        revision: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        local_files_only: bool = False,
    ) -> Tokenizer:
        """Load from a folder, the HF cache, or the Hub (see :func:`codetok.from_pretrained`)."""
        return entry_points.job("from_pretrained")(
            name_or_path, revision=revision, cache_dir=cache_dir, local_files_only=local_files_only
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> Tokenizer:
        """Build from a parsed ``tokenizer.json`` object.

        Raises:
            FormatError: missing or malformed sections (the message names the JSON path).
            UnknownComponentError: a component ``type`` codetok does not implement.
        """
        return tokenizer_json.from_dict(cls, data, path=path)

    @classmethod
    def from_str(cls, text: str, *, path: str | None = None) -> Tokenizer:
        """Build from ``tokenizer.json`` text.

        Raises:
            FormatError: the text is not valid JSON (the message gives line and column).
        """
        return tokenizer_json.from_str(cls, text, path=path)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Tokenizer:
        """Load any tokenizer file or folder codetok reads, told apart by content.

        The same as :func:`codetok.load` (see :mod:`codetok.formats.detect`): an HF
        ``tokenizer.json``, codetok's binary format (both built as ``cls``), a
        ``.tiktoken`` file, a SentencePiece ``.model``, a ``vocab.txt``, a ``vocab.json``
        or ``merges.txt`` with its partner next to it, or a pretrained folder.

        Raises:
            NotFoundError: nothing at ``path`` (or a file's partner is missing).
            FormatError: no format matches (the message lists those tried), or the file
                is malformed (the message names the file and place).
        """
        return entry_points.job("load_as")(cls, path)

    # ------------------------------------------------------------------ training
    def train(self, files: Any, trainer: Any, /, *, num_workers: int = 1) -> Tokenizer:
        """Train this tokenizer's model on files or folders (see :mod:`codetok.trainers`).

        The files are streamed line by line through this tokenizer's normalizer and
        pre-tokenizer; the trained model replaces :attr:`model` and the trainer's special
        tokens are added. Returns ``self``.
        """
        return entry_points.job("train")(self, files, trainer, num_workers=num_workers)

    def train_from_iterator(
        self, iterator: Any, trainer: Any, /, *, num_workers: int = 1, length: int | None = None
    ) -> Tokenizer:
        """Train this tokenizer's model on an iterator of strings; returns ``self``."""
        train = entry_points.job("train_from_iterator")
        return train(self, iterator, trainer, num_workers=num_workers, length=length)


if _backend.available():
    # The common calls of ``encode`` (one str; no truncation, padding or special-token
    # policy) and of ``encode_ordinary`` are answered in C; every other call runs the
    # methods above, which stay the specification (codetok/_native/bindings/bind_method.hpp).
    Tokenizer.encode = _backend.core().tokenizer_encode(Tokenizer.encode, CHANGES)  # type: ignore[method-assign]
    Tokenizer.encode_ordinary = _backend.core().tokenizer_encode_ordinary(  # type: ignore[method-assign]
        Tokenizer.encode_ordinary, CHANGES
    )


#: Serializes changes of a tokenizer's truncation and padding (``Tokenizer._settings``).
_SETTINGS_LOCK = threading.RLock()


def _ordinary_skip(added: Any) -> frozenset[str] | None:
    """Every special token of the added vocabulary's state ``added``, read as text."""
    specials = added.special_contents()
    return frozenset(specials) if specials else None


def _piece(text: str, anchor: Anchor, tid: int | None) -> tuple[str, tuple[int, int], int | None]:
    """``(text, original span, tid)`` of one piece of :meth:`Tokenizer._splits`."""
    if type(anchor) is int:
        return text, (anchor, anchor + len(text)), tid
    return text, anchor.original_span(0, len(text)), tid  # type: ignore[union-attr]


def _threads(num_threads: int | None, n: int) -> int:
    """Native threads for ``n`` texts: ``num_threads``, by default every core."""
    if num_threads is None:
        num_threads = os.cpu_count() or 1
    if num_threads < 1:
        raise ConfigurationError(f"num_threads must be >= 1, got {num_threads}")
    return max(1, min(num_threads, n))


def _check_str(x: Any) -> str:
    if not isinstance(x, str):
        raise ConfigurationError(f"expected a str to encode, got {type(x).__name__}: {x!r:.60}")
    return x


def _as_id_list(ids: Any) -> list[int]:
    if hasattr(ids, "tolist"):
        ids = ids.tolist()
    out = []
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, int):
            raise VocabularyError(f"token ids must be ints, got {type(i).__name__} {i!r}")
        out.append(i)
    return out


def _from_pickle(cls: Any, text: str) -> Any:
    """Rebuild a pickled tokenizer from its saved text: ``cls.from_str(text)`` (see
    ``Tokenizer.__reduce__``; :class:`~codetok.code.CodeTokenizer` pickles the same way)."""
    return cls.from_str(text)
