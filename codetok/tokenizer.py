"""The Tokenizer: normalizer -> pre-tokenizer -> model -> post-processor, plus a decoder.

This module owns the rules around the model: added and special tokens, truncation and
padding (HF ``tokenizers`` semantics), the ``transformers``-style ``__call__``, and saving
and loading the HF ``tokenizer.json`` schema. codetok's own settings (those ``transformers``
keeps in ``tokenizer_config.json``) go under the single top-level key ``"codetok"`` only
when asked for, because HF ``tokenizers`` refuses files with unknown top-level keys.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ._plan import Plan, compile_plan, plan_key
from .added_tokens import AddedToken, AddedVocabulary
from .decoders import Decoder, cleanup_tokenization, decoder_from_dict
from .encoding import BatchEncoding, Encoding
from .errors import ConfigurationError, FormatError, TruncationError, VocabularyError
from .models import Model, model_from_dict
from .normalizers import Normalizer, normalizer_from_dict
from .offsets import NormalizedString
from .pre_tokenizers import Anchor, PreTokenizer, pre_tokenizer_from_dict
from .processors import ByteLevel as ByteLevelProcessor
from .processors import PostProcessor, default_process, post_processor_from_dict

__all__ = ["Tokenizer", "TRUNCATION_STRATEGIES"]

TRUNCATION_STRATEGIES = ("longest_first", "only_first", "only_second")
_JSON_STRATEGY = {
    "longest_first": "LongestFirst",
    "only_first": "OnlyFirst",
    "only_second": "OnlySecond",
}
_JSON_DIRECTION = {"right": "Right", "left": "Left"}
_LARGE = int(1e20)
_SPECIAL_ATTRS = (
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
)

InputSequence = str | Sequence[str]


def _lower_key(value: Any, table: dict[str, str], what: str) -> str:
    if isinstance(value, str):
        low = value.lower()
        for k, v in table.items():
            if low in (k, v.lower()):
                return k
    raise ConfigurationError(f"{what} must be one of {', '.join(table)}; got {value!r}")


class Tokenizer:
    """A text tokenizer: a pipeline of components around one subword model.

    Args:
        model: the subword model (BPE, WordPiece, Unigram, WordLevel).
        normalizer, pre_tokenizer, post_processor, decoder: optional components.

    >>> from codetok.models import WordPiece
    >>> from codetok.pre_tokenizers import BertPreTokenizer
    >>> tok = Tokenizer(WordPiece({"[UNK]": 0, "hi": 1, "there": 2, "!": 3}))
    >>> tok.pre_tokenizer = BertPreTokenizer()
    >>> tok.encode("hi there!").tokens
    ['hi', 'there', '!']
    """

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
        self._truncation: dict[str, Any] | None = None
        self._padding: dict[str, Any] | None = None
        # transformers-style settings used by __call__ (see to_dict(settings=True)).
        self.model_max_length: int = int(1e30)
        self.padding_side = "right"
        self.truncation_side = "right"
        self.model_input_names: list[str] = ["input_ids", "token_type_ids", "attention_mask"]
        self.clean_up_tokenization_spaces = False
        self.special_tokens_map: dict[str, str] = {}
        self._plan_cache: tuple[Any, Plan | str] | None = None

    # ------------------------------------------------------------------ components
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

    def __repr__(self) -> str:
        return (
            f"Tokenizer(model={self.model!r}, normalizer={self.normalizer!r}, pre_tokenizer={self.pre_tokenizer!r}, "
            f"post_processor={self.post_processor!r}, decoder={self.decoder!r}, added_tokens={len(self.added)})"
        )

    # ------------------------------------------------------------------ engine
    def _plan(self) -> Plan | None:
        """The compiled native plan, rebuilt when a component changed (``None``: Python)."""
        key = plan_key(self)
        cached = self._plan_cache
        if cached is None or cached[0] != key:
            cached = self._plan_cache = (key, compile_plan(self))
        plan = cached[1]
        return plan if isinstance(plan, Plan) else None

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
        plan = self._plan_cache[1]  # type: ignore[index]
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
        if not isinstance(max_length, int) or max_length < 0:
            raise ConfigurationError(f"max_length must be a non-negative int, got {max_length!r}")
        if not isinstance(stride, int) or stride < 0:
            raise ConfigurationError(f"stride must be a non-negative int, got {stride!r}")
        strategy = _lower_key(strategy, _JSON_STRATEGY, "truncation strategy")
        direction = _lower_key(direction, _JSON_DIRECTION, "truncation direction")
        self._truncation = {
            "max_length": max_length,
            "stride": stride,
            "strategy": strategy,
            "direction": direction,
        }

    def no_truncation(self) -> None:
        self._truncation = None

    @property
    def truncation(self) -> dict[str, Any] | None:
        """The truncation settings, or ``None``."""
        return None if self._truncation is None else dict(self._truncation)

    def enable_padding(
        self,
        direction: str = "right",
        pad_id: int = 0,
        pad_type_id: int = 0,
        pad_token: str = "[PAD]",
        length: int | None = None,
        pad_to_multiple_of: int | None = None,
    ) -> None:
        """Pad to ``length``, or to the longest encoding of a batch when ``length`` is None."""
        direction = _lower_key(direction, _JSON_DIRECTION, "padding direction")
        if length is not None and (not isinstance(length, int) or length < 0):
            raise ConfigurationError(
                f"padding length must be a non-negative int or None, got {length!r}"
            )
        if pad_to_multiple_of is not None and (
            not isinstance(pad_to_multiple_of, int) or pad_to_multiple_of < 0
        ):
            raise ConfigurationError(
                f"pad_to_multiple_of must be a non-negative int, got {pad_to_multiple_of!r}"
            )
        self._padding = {
            "length": length,
            "pad_to_multiple_of": pad_to_multiple_of,
            "pad_id": pad_id,
            "pad_token": pad_token,
            "pad_type_id": pad_type_id,
            "direction": direction,
        }

    def no_padding(self) -> None:
        self._padding = None

    @property
    def padding(self) -> dict[str, Any] | None:
        """The padding settings, or ``None``."""
        return None if self._padding is None else dict(self._padding)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return 0 if self.post_processor is None else self.post_processor.added_tokens(is_pair)

    # ------------------------------------------------------------------ encoding
    def _special_policy(
        self, text: str, allowed_special: Any, disallowed_special: Any
    ) -> frozenset[str] | None:
        """Contents of special tokens to treat as plain text (``None``: match them all)."""
        specials = self.added.special_contents()
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
        self, text: str, skip: frozenset[str] | None
    ) -> tuple[list[str], list[Anchor], list[int | None]]:
        """Added tokens cut out, the rest normalized and pre-tokenized.

        Returns parallel lists: the piece texts, their anchors (an ``int`` original start
        for identity-aligned pieces, else the piece's :class:`NormalizedString`; see
        :meth:`PreTokenizer.split_many`) and the added-token id (``None``: a model piece).
        Identity-aligned text never becomes one object per piece.
        """
        raw, norm = self.added.matchers(self._norm_fn)
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
        texts, anchors, tids = self._splits(_check_str(text), None)
        return [_piece(t, a, tid) for t, a, tid in zip(texts, anchors, tids)]

    def _encode_one(
        self,
        text: str,
        type_id: int,
        word_idx: int | None,
        skip: frozenset[str] | None,
        trim: bool = False,
    ) -> Encoding:
        if word_idx is None:
            plan = self._plan()
            if plan is not None:
                enc = plan.encode(text, type_id, skip, trim)
                if enc is not None:
                    return enc
        texts, anchors, tids = self._splits(text, skip)
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
        trim: bool = False,
    ) -> Encoding:
        if is_pretokenized:
            if isinstance(seq, str):
                raise ConfigurationError("is_pretokenized=True needs a list of words, got a str")
            parts = [self._encode_one(_check_str(w), type_id, i, skip) for i, w in enumerate(seq)]
            return Encoding.merge(parts, False) if parts else Encoding()
        return self._encode_one(_check_str(seq), type_id, None, skip, trim)

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
            An :class:`~codetok.encoding.Encoding`.

        Raises:
            VocabularyError: a disallowed special token occurs in the text, or the model
                cannot represent a piece and has no unknown token.
            TruncationError: the truncation settings cannot be met.
        """
        skip = None
        if allowed_special != "all" or disallowed_special:
            texts = [sequence] if pair is None else [sequence, pair]
            for t in texts:
                for s in [t] if isinstance(t, str) else t:
                    skip = self._special_policy(_check_str(s), allowed_special, disallowed_special)
        # The native plan may apply the ByteLevel post-processor's offset trimming itself;
        # with a pair or truncation, the Python post-processor does it on the final parts.
        trim = pair is None and self._truncation is None
        enc = self._encode_sequence(sequence, 0, is_pretokenized, skip, trim)
        penc = None if pair is None else self._encode_sequence(pair, 1, is_pretokenized, skip)
        return self.post_process(enc, penc, add_special_tokens)

    def post_process(
        self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True
    ) -> Encoding:
        """Truncate, add special tokens, then pad (fixed length only), as HF does."""
        native = encoding._native
        if pair is None and self._truncation is None and native is not None:
            # Nothing to add and the offsets are final: the arrays stay as they are.
            post = self.post_processor
            if post is None or (
                isinstance(post, ByteLevelProcessor) and (native.trimmed or not post.trim_offsets)
            ):
                if post is not None:
                    encoding.sequence_ranges = {0: (0, len(encoding))}
                if self._padding is not None:
                    _pad_encodings([encoding], self._padding)
                return encoding
        if self._truncation is not None:
            t = self._truncation
            max_length = t["max_length"]
            n_added = self.num_special_tokens_to_add(pair is not None) if add_special_tokens else 0
            if n_added > max_length:
                raise TruncationError(
                    f"max_length={max_length} leaves no room for the {n_added} special tokens the "
                    f"post-processor adds; use max_length >= {n_added}"
                )
            _truncate_encodings(
                encoding, pair, max_length - n_added, t["stride"], t["strategy"], t["direction"]
            )
        if self.post_processor is not None:
            final = self.post_processor.process(encoding, pair, add_special_tokens)
        else:
            final = default_process(
                [encoding] if pair is None else [encoding, pair], add_special_tokens
            )
        if self._padding is not None:
            _pad_encodings([final], self._padding)
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
                return self.encode(
                    a,
                    b,
                    is_pretokenized,
                    add_special_tokens,
                    allowed_special=allowed_special,
                    disallowed_special=disallowed_special,
                )
            return self.encode(
                item,
                None,
                is_pretokenized,
                add_special_tokens,
                allowed_special=allowed_special,
                disallowed_special=disallowed_special,
            )

        items = list(inputs)
        plan = None if is_pretokenized else self._plan()
        if plan is not None and all(type(x) is str for x in items):
            skip = self._batch_skip(items, allowed_special, disallowed_special)
            encodings = self._native_batch(plan, items, skip, add_special_tokens, num_threads)
        elif num_threads and num_threads > 1 and len(items) > 1:
            with ThreadPoolExecutor(num_threads) as ex:
                encodings = list(ex.map(one, items))
        else:
            encodings = [one(x) for x in items]
        if self._padding is not None:
            _pad_encodings(encodings, self._padding)
        return encodings

    def _batch_skip(
        self, texts: list[str], allowed_special: Any, disallowed_special: Any
    ) -> frozenset[str] | None:
        """The special-token policy of a batch (raises on a disallowed special, as encode)."""
        skip = None
        if allowed_special != "all" or disallowed_special:
            for t in texts:
                skip = self._special_policy(t, allowed_special, disallowed_special)
        return skip

    def _native_batch(
        self,
        plan: Plan,
        texts: list[str],
        skip: frozenset[str] | None,
        add_special_tokens: bool,
        num_threads: int | None,
    ) -> list[Encoding]:
        trim = self._truncation is None
        trim_mode = plan.trim if trim else 0
        outs = plan.core.encode_batch(
            texts, plan.skip_ids(skip), trim_mode, _threads(num_threads, len(texts))
        )
        encodings = []
        for text, out in zip(texts, outs):
            if out is None:
                enc = self._encode_one(text, 0, None, skip, trim)
            else:
                enc = plan.wrap(text, out, 0, trim_mode != 0)
            encodings.append(self.post_process(enc, None, add_special_tokens))
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
        skip = self._ordinary_skip()
        plan = self._plan()
        if plan is not None:
            ids = plan.core.encode_ids(text, plan.skip_ids(skip))
            if ids is not None:
                return ids
        return self._encode_one(text, 0, None, skip).ids

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
        skip = self._ordinary_skip()
        plan = self._plan()
        threads = _threads(num_threads, len(texts))
        if plan is not None:
            skip_ids = plan.skip_ids(skip)
            if flat:
                out = plan.core.encode_flat(texts, skip_ids, threads)
                if out is not None:
                    return out
            else:
                lists = plan.core.encode_ids_batch(texts, skip_ids, threads)
                return [
                    ids if ids is not None else self._encode_one(t, 0, None, skip).ids
                    for t, ids in zip(texts, lists)
                ]
        lists = [self._encode_one(t, 0, None, skip).ids for t in texts]
        if not flat:
            return lists
        import numpy as np

        bounds = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in lists], out=bounds[1:])
        ids = np.fromiter((i for x in lists for i in x), dtype=np.int32, count=int(bounds[-1]))
        return ids, bounds

    def _ordinary_skip(self) -> frozenset[str] | None:
        specials = self.added.special_contents()
        return frozenset(specials) if specials else None

    # ------------------------------------------------------------------ decoding
    def decode(
        self,
        ids: Sequence[int],
        skip_special_tokens: bool = True,
        clean_up_tokenization_spaces: bool | None = None,
    ) -> str:
        """Ids back to text through the decoder.

        Args:
            ids: token ids (a list, numpy array or tensor of ints).
            skip_special_tokens: leave special tokens out.
            clean_up_tokenization_spaces: remove spaces before punctuation (BERT-style);
                defaults to the tokenizer's ``clean_up_tokenization_spaces`` setting.

        Raises:
            VocabularyError: an id is not an int.
        """
        tokens: list[str] = []
        added = self.added.tokens
        model_id_to_token = self.model.id_to_token
        # HF decides "special" by the shown string: a normalized special token whose
        # normalized form differs from its content is kept (mirrored for parity).
        specials = self.added.special_contents() if skip_special_tokens else ()
        for i in _as_id_list(ids):
            if i in added:
                shown = self.added.display(i, self._norm_fn)
                if shown is None or shown in specials:
                    continue
                tokens.append(shown)
                continue
            t = model_id_to_token(i)
            if t is not None:
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
        """:meth:`decode` over a batch."""
        return [
            self.decode(s, skip_special_tokens, clean_up_tokenization_spaces) for s in sequences
        ]

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
            A :class:`~codetok.encoding.BatchEncoding`.
        """
        pad_strategy, trunc_strategy, max_length = self._strategies(
            padding, truncation, max_length, pad_to_multiple_of
        )
        if is_split_into_words:
            is_batched = (
                isinstance(text, (list, tuple))
                and bool(text)
                and isinstance(text[0], (list, tuple))
            )
        else:
            is_batched = isinstance(text, (list, tuple))
        if is_batched:
            if isinstance(text_pair, str):
                raise ConfigurationError(
                    "when text is a batch, text_pair must be a list of the same length"
                )
            if text_pair is not None and len(text) != len(text_pair):
                raise ConfigurationError(
                    f"text has {len(text)} items but text_pair has {len(text_pair)}; they must match"
                )
            batch = list(zip(text, text_pair)) if text_pair is not None else list(text)
        else:
            batch = [(text, text_pair)] if text_pair else [text]

        saved = (self._truncation, self._padding)
        try:
            if trunc_strategy is None:
                self._truncation = None
            else:
                self.enable_truncation(max_length, stride, trunc_strategy, self.truncation_side)  # type: ignore[arg-type]
            if pad_strategy is None:
                self._padding = None
            else:
                pad_token = self.special_tokens_map.get("pad_token")
                pad_id = None if pad_token is None else self.token_to_id(pad_token)
                if pad_token is None or pad_id is None:
                    raise ConfigurationError(
                        "padding needs a pad token: set tok.special_tokens_map['pad_token'] to a token "
                        "of the vocabulary (or call enable_padding with pad_token/pad_id)"
                    )
                self.enable_padding(
                    padding_side or self.padding_side,
                    pad_id,
                    0,
                    pad_token,
                    max_length if pad_strategy == "max_length" else None,
                    pad_to_multiple_of,
                )
            encodings = self.encode_batch(
                batch,
                is_pretokenized=is_split_into_words,
                add_special_tokens=add_special_tokens,
            )
        finally:
            self._truncation, self._padding = saved

        want_types = (
            "token_type_ids" in self.model_input_names
            if return_token_type_ids is None
            else return_token_type_ids
        )
        want_mask = (
            "attention_mask" in self.model_input_names
            if return_attention_mask is None
            else return_attention_mask
        )
        data: dict[str, list[Any]] = {"input_ids": []}
        if want_types:
            data["token_type_ids"] = []
        if want_mask:
            data["attention_mask"] = []
        if return_special_tokens_mask:
            data["special_tokens_mask"] = []
        if return_offsets_mapping:
            data["offset_mapping"] = []
        if return_length:
            data["length"] = []
        if return_position_ids:
            data["position_ids"] = []
        flat: list[Encoding] = []
        mapping: list[int] = []
        for i, enc in enumerate(encodings):
            parts = [enc, *enc.overflowing] if return_overflowing_tokens else [enc]
            for e in parts:
                flat.append(e)
                mapping.append(i)
                data["input_ids"].append(e.ids)
                if want_types:
                    data["token_type_ids"].append(e.type_ids)
                if want_mask:
                    data["attention_mask"].append(e.attention_mask)
                if return_special_tokens_mask:
                    data["special_tokens_mask"].append(e.special_tokens_mask)
                if return_offsets_mapping:
                    data["offset_mapping"].append(e.offsets)
                if return_length:
                    data["length"].append(len(e.ids))
                if return_position_ids:
                    data["position_ids"].append(_position_ids(e.attention_mask))
        if return_overflowing_tokens:
            data["overflow_to_sample_mapping"] = mapping
        out = BatchEncoding(data, flat, tensor_type=return_tensors)
        if not is_batched and return_tensors is None and not return_overflowing_tokens:
            out = BatchEncoding(
                {k: (v[0] if v and isinstance(v[0], list) else v) for k, v in out.data.items()},
                out.encodings,
            )
        return out

    def _strategies(
        self, padding: Any, truncation: Any, max_length: int | None, pad_to_multiple_of: int | None
    ) -> tuple[str | None, str | None, int | None]:
        if max_length is not None and padding is False and truncation is None:
            truncation = "longest_first"
        if padding is True:
            pad: str | None = "longest"
        elif padding in (False, None, "do_not_pad"):
            pad = None
        elif padding in ("longest", "max_length"):
            pad = padding
        else:
            raise ConfigurationError(
                f"padding must be True, False, 'longest', 'max_length' or 'do_not_pad'; got {padding!r}"
            )
        if truncation is True:
            trunc: str | None = "longest_first"
        elif truncation in (False, None, "do_not_truncate"):
            trunc = None
        elif truncation in TRUNCATION_STRATEGIES:
            trunc = truncation
        else:
            raise ConfigurationError(
                f"truncation must be True, False, {', '.join(map(repr, TRUNCATION_STRATEGIES))} or "
                f"'do_not_truncate'; got {truncation!r}"
            )
        if max_length is None:
            if pad == "max_length":
                if self.model_max_length > _LARGE:
                    pad = None
                else:
                    max_length = self.model_max_length
            if trunc is not None:
                if self.model_max_length > _LARGE:
                    trunc = None
                else:
                    max_length = self.model_max_length
        if (
            trunc is not None
            and pad is not None
            and pad_to_multiple_of is not None
            and max_length is not None
            and max_length % pad_to_multiple_of != 0
        ):
            raise ConfigurationError(
                f"truncation and padding with pad_to_multiple_of={pad_to_multiple_of} need a max_length that is "
                f"a multiple of it; got max_length={max_length}"
            )
        return pad, trunc, max_length

    # ------------------------------------------------------------------ serialization
    def to_dict(self, settings: bool = False) -> dict[str, Any]:
        """The HF ``tokenizer.json`` object.

        Args:
            settings: also write the ``transformers``-style settings (``model_max_length``,
                sides, ``special_tokens_map``, ...) under the top-level key ``"codetok"``.
                HF ``tokenizers`` rejects files with unknown top-level keys, so this is off
                by default; :meth:`save_pretrained` keeps them in ``tokenizer_config.json``.
        """
        trunc = None
        if self._truncation is not None:
            t = self._truncation
            trunc = {
                "direction": _JSON_DIRECTION[t["direction"]],
                "max_length": t["max_length"],
                "strategy": _JSON_STRATEGY[t["strategy"]],
                "stride": t["stride"],
            }
        pad = None
        if self._padding is not None:
            p = self._padding
            pad = {
                "strategy": "BatchLongest" if p["length"] is None else {"Fixed": p["length"]},
                "direction": _JSON_DIRECTION[p["direction"]],
                "pad_to_multiple_of": p["pad_to_multiple_of"],
                "pad_id": p["pad_id"],
                "pad_type_id": p["pad_type_id"],
                "pad_token": p["pad_token"],
            }
        out: dict[str, Any] = {
            "version": "1.0",
            "truncation": trunc,
            "padding": pad,
            "added_tokens": [tok.to_dict(tid) for tid, tok in sorted(self.added.tokens.items())],
            "normalizer": None if self.normalizer is None else self.normalizer.to_dict(),
            "pre_tokenizer": None if self.pre_tokenizer is None else self.pre_tokenizer.to_dict(),
            "post_processor": None
            if self.post_processor is None
            else self.post_processor.to_dict(),
            "decoder": None if self.decoder is None else self.decoder.to_dict(),
            "model": self.model.to_dict(),
        }
        ext = self._codetok_settings() if settings else None
        if ext:
            out["codetok"] = ext
        return out

    def _codetok_settings(self) -> dict[str, Any]:
        ext: dict[str, Any] = {}
        if self.model_max_length < _LARGE:
            ext["model_max_length"] = self.model_max_length
        if self.padding_side != "right":
            ext["padding_side"] = self.padding_side
        if self.truncation_side != "right":
            ext["truncation_side"] = self.truncation_side
        if self.model_input_names != ["input_ids", "token_type_ids", "attention_mask"]:
            ext["model_input_names"] = list(self.model_input_names)
        if self.clean_up_tokenization_spaces:
            ext["clean_up_tokenization_spaces"] = True
        if self.special_tokens_map:
            ext["special_tokens_map"] = dict(self.special_tokens_map)
        return ext

    def to_str(self, pretty: bool = False, settings: bool = False) -> str:
        """The ``tokenizer.json`` text (see :meth:`to_dict` for ``settings``)."""
        return json.dumps(self.to_dict(settings), ensure_ascii=False, indent=2 if pretty else None)

    def save(
        self, path: str | os.PathLike[str], pretty: bool = True, settings: bool = False
    ) -> None:
        """Write ``tokenizer.json`` to ``path``; HF ``tokenizers`` loads it unless ``settings``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_str(pretty, settings))

    def train(self, files: Any, trainer: Any, /, *, num_workers: int = 1) -> Tokenizer:
        """Train this tokenizer's model on files or folders (see :mod:`codetok.trainers`).

        The files are streamed line by line through this tokenizer's normalizer and
        pre-tokenizer; the trained model replaces :attr:`model` and the trainer's special
        tokens are added. Returns ``self``.
        """
        from .trainers.api import train

        return train(self, files, trainer, num_workers=num_workers)

    def train_from_iterator(
        self, iterator: Any, trainer: Any, /, *, num_workers: int = 1, length: int | None = None
    ) -> Tokenizer:
        """Train this tokenizer's model on an iterator of strings; returns ``self``."""
        from .trainers.api import train_from_iterator

        return train_from_iterator(self, iterator, trainer, num_workers=num_workers, length=length)

    def save_pretrained(self, folder: str | os.PathLike[str]) -> list[str]:
        """Write the folder ``transformers`` expects (tokenizer.json, tokenizer_config.json, ...).

        Returns:
            The paths written.
        """
        from .formats.pretrained import save_pretrained

        return save_pretrained(self, folder)

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
        from .formats.hub import from_pretrained

        return from_pretrained(
            name_or_path, revision=revision, cache_dir=cache_dir, local_files_only=local_files_only
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> Tokenizer:
        """Build from a parsed ``tokenizer.json`` object.

        Raises:
            FormatError: missing or malformed sections (the message names the JSON path).
            UnknownComponentError: a component ``type`` codetok does not implement.
        """
        if not isinstance(data, dict):
            raise FormatError("a tokenizer.json must hold a JSON object", path=path)
        if "model" not in data:
            raise FormatError("no 'model' section", path=path)
        model = model_from_dict(data["model"], path=path, where="model")
        tok = cls(
            model,
            normalizer=normalizer_from_dict(data.get("normalizer"), path=path),
            pre_tokenizer=pre_tokenizer_from_dict(data.get("pre_tokenizer"), path=path),
            post_processor=post_processor_from_dict(data.get("post_processor"), path=path),
            decoder=decoder_from_dict(data.get("decoder"), path=path),
        )
        added = data.get("added_tokens") or []
        if not isinstance(added, list):
            raise FormatError("'added_tokens' must be a list", path=path, where="added_tokens")
        for i, d in enumerate(added):
            where = f"added_tokens[{i}]"
            if not isinstance(d, dict) or "id" not in d:
                raise FormatError(
                    "each added token needs an 'id' and a 'content'", path=path, where=where
                )
            tok.added.set_with_id(AddedToken.from_dict(d, path=path, where=where), int(d["id"]))
        trunc = data.get("truncation")
        if trunc:
            try:
                tok.enable_truncation(
                    int(trunc["max_length"]),
                    int(trunc.get("stride", 0)),
                    trunc.get("strategy", "LongestFirst"),
                    trunc.get("direction", "Right"),
                )
            except (KeyError, TypeError, ValueError) as e:
                raise FormatError(
                    f"malformed truncation: {e}", path=path, where="truncation"
                ) from e
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
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                raise FormatError(f"malformed padding: {e}", path=path, where="padding") from e
        ext = data.get("codetok") or {}
        if ext:
            tok.model_max_length = int(ext.get("model_max_length", tok.model_max_length))
            tok.padding_side = ext.get("padding_side", "right")
            tok.truncation_side = ext.get("truncation_side", "right")
            tok.model_input_names = list(ext.get("model_input_names", tok.model_input_names))
            tok.clean_up_tokenization_spaces = bool(ext.get("clean_up_tokenization_spaces", False))
            tok.special_tokens_map = dict(ext.get("special_tokens_map", {}))
        return tok

    @classmethod
    def from_str(cls, text: str, *, path: str | None = None) -> Tokenizer:
        """Build from ``tokenizer.json`` text.

        Raises:
            FormatError: the text is not valid JSON (the message gives line and column).
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise FormatError(
                f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}",
                path=path,
                where=f"line {e.lineno}",
            ) from e
        return cls.from_dict(data, path=path)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Tokenizer:
        """Load a ``tokenizer.json`` file.

        Raises:
            NotFoundError: the file does not exist.
            FormatError: the file is not a valid tokenizer.json.
        """
        from ._files import read_text_file

        p, text = read_text_file(path, "tokenizer.json")
        return cls.from_str(text, path=p)


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


def _position_ids(attention_mask: list[int]) -> list[int]:
    """Positions of attended tokens counted from 0; padding positions get 1 (HF's convention)."""
    out = []
    pos = 0
    for m in attention_mask:
        if m:
            out.append(pos)
            pos += 1
        else:
            out.append(1)
    return out


def _truncate_encodings(
    enc: Encoding,
    pair: Encoding | None,
    max_length: int,
    stride: int,
    strategy: str,
    direction: str,
) -> None:
    if max_length == 0:
        enc.truncate(0, stride, direction)
        if pair is not None:
            pair.truncate(0, stride, direction)
        return
    total = len(enc) + (len(pair) if pair is not None else 0)
    if total <= max_length:
        return
    to_remove = total - max_length
    if strategy == "longest_first":
        if pair is None:
            enc.truncate(total - to_remove, stride, direction)
            return
        n1, n2 = len(enc), len(pair)
        swap = n1 > n2
        if swap:
            n1, n2 = n2, n1
        n2 = n1 if n1 > max_length else max(n1, max_length - n1)
        if n1 + n2 > max_length:
            n1 = max_length // 2
            n2 = n1 + max_length % 2
        if swap:
            n1, n2 = n2, n1
        enc.truncate(n1, stride, direction)
        pair.truncate(n2, stride, direction)
        return
    if strategy == "only_first":
        target = enc
    else:
        if pair is None:
            raise TruncationError("truncation strategy 'only_second' needs a pair of sequences")
        target = pair
    if len(target) > to_remove:
        target.truncate(len(target) - to_remove, stride, direction)
    else:
        raise TruncationError(
            f"cannot truncate with strategy {strategy!r}: the sequence it may cut has {len(target)} tokens but "
            f"{to_remove} must go; use 'longest_first' or a larger max_length"
        )


def _pad_encodings(encodings: list[Encoding], params: dict[str, Any]) -> None:
    if not encodings:
        return
    length = params["length"]
    if length is None:
        length = max(len(e) for e in encodings)
    multiple = params["pad_to_multiple_of"]
    if multiple and length % multiple:
        length += multiple - length % multiple
    for e in encodings:
        e.pad(
            length,
            params["pad_id"],
            params["pad_type_id"],
            params["pad_token"],
            params["direction"],
        )
