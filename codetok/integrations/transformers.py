"""``transformers`` tokenizers over codetok tokenizers.

:class:`CodetokCodeTokenizer` (over a :class:`~codetok.code.CodeTokenizer`) and
:class:`CodetokTokenizer` (over a text :class:`~codetok.Tokenizer`) are ``transformers``
``PreTrainedTokenizer`` classes. For the code one: ``Trainer``,
the data collators (``DataCollatorForLanguageModeling`` for causal and masked language
models) and ``save_pretrained`` / ``from_pretrained`` take it as they take any tokenizer.
The sources are encoded by :class:`~codetok.code.CodeTokenizer` (the parse, the routing and
the subwords, natively, a batch on several threads); ``transformers`` then adds the special
tokens of the code tokenizer's template (``$A <|endoftext|>`` by default), truncates, pads
and makes tensors, as it does for its own tokenizers. The language of the sources is the
tokenizer's ``language`` (saved in ``tokenizer_config.json``), a call's ``language=`` (a
``(first, second)`` pair for pairs; ``"text"`` for natural language, such as a docstring
before its code), or detected from each source.

``save_pretrained(folder)`` writes the code tokenizer as ``codetok_code.json`` beside
``transformers``' own files; ``CodetokCodeTokenizer.from_pretrained(folder)`` reads it back,
with the same ids.

``transformers`` is imported by this module only (the ``transformers`` extra).

Not here: the code tokenizer itself (:mod:`codetok.code`), codetok's own
``transformers``-style call (:meth:`codetok.code.CodeTokenizer.__call__`, which needs no
``transformers``).
"""

from __future__ import annotations

import os
import threading
from typing import Any

from transformers import PreTrainedTokenizer

from ..code import CodeTokenizer
from ..code.model_inputs import _encoded
from ..code.special import CONTROL_TOKENS
from ..processors.base import default_process
from ..tokenizer.encoding import Encoding
from ..tokenizer.tokenizer import Tokenizer

__all__ = ["CodetokCodeTokenizer", "CodetokTokenizer", "TEXT_VOCAB_FILE", "VOCAB_FILE"]

#: The file ``save_pretrained`` writes the code tokenizer to.
VOCAB_FILE = "codetok_code.json"
#: The file ``save_pretrained`` writes a text tokenizer to (its ``tokenizer.json``).
TEXT_VOCAB_FILE = "codetok_tokenizer.json"


#: Per thread: tokenizer id -> whether its call in progress adds special tokens.
_CALLS = threading.local()


class _CodetokBase(PreTrainedTokenizer):
    """What both classes share: ids from the codetok tokenizer, then ``transformers``'
    own truncation and padding around the special tokens of the codetok post-processor."""

    def _texts_ids(self, texts: list[Any], language: Any) -> list[list[int]]:
        raise NotImplementedError

    def _backend(self) -> Any:
        """The codetok tokenizer: what encodes, post-processes and saves."""
        raise NotImplementedError

    def _controls(self) -> set[int]:
        raise NotImplementedError

    def _process(self, ids0: list[int], ids1: list[int] | None) -> Encoding:
        """The parts with the backend's post-processor applied (special tokens left out
        when this thread's call adds none)."""
        parts = [Encoding(list(ids0))] + ([] if ids1 is None else [Encoding(list(ids1))])
        processor = self._backend().post_processor
        if processor is None:
            return default_process(parts, self._specials())
        return processor.process(parts[0], parts[1] if len(parts) > 1 else None, self._specials())

    def save_vocabulary(
        self, save_directory: str, filename_prefix: str | None = None
    ) -> tuple[str]:
        """Write the codetok tokenizer to ``save_directory`` as ``[prefix-]`` and the
        class's vocabulary file name."""
        name = (f"{filename_prefix}-" if filename_prefix else "") + self.vocab_files_names[
            "vocab_file"
        ]
        path = os.path.join(save_directory, name)
        self._backend().save(path)
        return (path,)

    # -- special tokens: the codetok post-processor's ------------------------------------
    def build_inputs_with_special_tokens(
        self, token_ids_0: list[int], token_ids_1: list[int] | None = None
    ) -> list[int]:
        """The ids with the post-processor's special tokens around them."""
        return list(self._process(token_ids_0, token_ids_1).ids)

    def create_token_type_ids_from_sequences(
        self, token_ids_0: list[int], token_ids_1: list[int] | None = None
    ) -> list[int]:
        """The post-processor's type ids (0 for the first part, 1 for a pair's second)."""
        return list(self._process(token_ids_0, token_ids_1).type_ids)

    def get_special_tokens_mask(
        self,
        token_ids_0: list[int],
        token_ids_1: list[int] | None = None,
        already_has_special_tokens: bool = False,
    ) -> list[int]:
        """1 for the post-processor's special tokens (or, with
        ``already_has_special_tokens``, for every special token id), 0 elsewhere."""
        if already_has_special_tokens:
            special = self._controls()
            return [1 if i in special else 0 for i in token_ids_0 + (token_ids_1 or [])]
        return list(self._process(token_ids_0, token_ids_1).special_tokens_mask)

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        return len(self._process([], [] if pair else None).ids)

    # -- encoding -------------------------------------------------------------------------
    def _encode_plus(self, text: Any, text_pair: Any = None, **kwargs: Any) -> Any:
        """Texts (str or bytes, one or a batch) through the codetok tokenizer first; the
        rest (ids, pre-split words) as ``transformers`` takes them."""
        language = kwargs.pop("language", None) or getattr(self, "language", None)
        batched = (
            isinstance(text, (list, tuple)) and bool(text) and isinstance(text[0], (str, bytes))
        )
        if not (isinstance(text, (str, bytes)) or batched) or kwargs.get("is_split_into_words"):
            return super()._encode_plus(text, text_pair, **kwargs)
        first, second = language if isinstance(language, tuple) else (language, language)
        texts = list(text) if batched else [text]
        firsts = self._texts_ids(texts, first)
        seconds: list[Any] = [None] * len(texts)
        if text_pair is not None:
            seconds = self._texts_ids(list(text_pair) if batched else [text_pair], second)
        if not batched:
            return self._prepared(firsts[0], seconds[0], kwargs, batch=False)
        return self._batch(firsts, seconds, kwargs)

    def _prepared(
        self, ids: list[int], pair: list[int] | None, kw: dict[str, Any], batch: bool
    ) -> Any:
        """``prepare_for_model`` of one input's ids with the call's options (unpadded and
        without tensors inside a batch, which is padded as a whole). Without special
        tokens the post-processor still gives a pair's second part its type id, as a fast
        tokenizer does (the slow base would give 0): it runs with its special tokens left
        out, for this call only."""
        calls = _CALLS.__dict__
        calls[id(self)] = kw.get("add_special_tokens", True)
        try:
            return self._prepare(ids, pair, kw, batch)
        finally:
            calls.pop(id(self), None)

    def _specials(self) -> bool:
        """Whether this thread's call adds special tokens."""
        return bool(_CALLS.__dict__.get(id(self), True))

    def _prepare(
        self, ids: list[int], pair: list[int] | None, kw: dict[str, Any], batch: bool
    ) -> Any:
        return self.prepare_for_model(
            ids,
            pair_ids=pair,
            add_special_tokens=True,
            padding="do_not_pad" if batch else kw["padding_strategy"].value,
            truncation=kw["truncation_strategy"].value,
            max_length=kw.get("max_length"),
            stride=kw.get("stride", 0),
            pad_to_multiple_of=None if batch else kw.get("pad_to_multiple_of"),
            padding_side=None if batch else kw.get("padding_side"),
            return_tensors=None if batch else kw.get("return_tensors"),
            prepend_batch_axis=not batch,
            return_attention_mask=False if batch else kw.get("return_attention_mask"),
            return_token_type_ids=kw.get("return_token_type_ids"),
            return_overflowing_tokens=kw.get("return_overflowing_tokens", False),
            return_special_tokens_mask=kw.get("return_special_tokens_mask", False),
            return_length=kw.get("return_length", False),
            verbose=kw.get("verbose", True),
        )

    def _batch(self, firsts: list[list[int]], seconds: list[Any], kw: dict[str, Any]) -> Any:
        """A batch as ``transformers`` makes one: each input prepared, then padded together."""
        from transformers import BatchEncoding

        columns: dict[str, list[Any]] = {}
        for ids, pair in zip(firsts, seconds, strict=True):
            for key, value in self._prepared(ids, pair, kw, batch=True).items():
                columns.setdefault(key, []).append(value)
        padded = self.pad(
            columns,
            padding=kw["padding_strategy"].value,
            max_length=kw.get("max_length"),
            pad_to_multiple_of=kw.get("pad_to_multiple_of"),
            padding_side=kw.get("padding_side"),
            return_attention_mask=kw.get("return_attention_mask"),
        )
        return BatchEncoding(padded, tensor_type=kw.get("return_tensors"))


class CodetokCodeTokenizer(_CodetokBase):
    """A code tokenizer as a ``transformers`` tokenizer.

    Args:
        vocab_file: a code tokenizer file (``codetok_code.json``, written by
            ``save_pretrained`` or :meth:`CodeTokenizer.save`); None with
            ``code_tokenizer`` None: the default code tokenizer.
        code_tokenizer: the :class:`~codetok.code.CodeTokenizer` to wrap (shared, not copied).
        language: the language of the sources (None: detected from each one; ``"text"``:
            natural language).
        **kwargs: ``transformers``' tokenizer settings (``model_max_length``,
            ``padding_side``, ...); the special tokens default to the code tokenizer's
            (``<|endoftext|>`` as BOS and EOS, ``<pad>``, ``<unk>``, ``<mask>``).

    >>> tok = CodetokCodeTokenizer(language="python")
    >>> batch = tok(["x = 1\\n", "def f():\\n    return 2\\n"], padding=True)
    >>> tok.decode(batch["input_ids"][1], skip_special_tokens=True)
    'def f():\\n    return 2\\n'
    """

    vocab_files_names = {"vocab_file": VOCAB_FILE}
    model_input_names = ["input_ids", "attention_mask"]

    def __init__(
        self,
        vocab_file: str | None = None,
        code_tokenizer: CodeTokenizer | None = None,
        language: str | None = None,
        **kwargs: Any,
    ) -> None:
        if code_tokenizer is None:
            code_tokenizer = (
                CodeTokenizer.load(vocab_file) if vocab_file else CodeTokenizer.default()
            )
        self.code = code_tokenizer
        self.language = language
        for name, token in code_tokenizer.special_tokens_map.items():
            kwargs.setdefault(name, token)
        kwargs.setdefault("clean_up_tokenization_spaces", False)
        super().__init__(language=language, **kwargs)

    @property
    def vocab_size(self) -> int:
        """Ids of the code tokenizer, both channels and every reserved and control token."""
        return self.code.vocab_size

    def __len__(self) -> int:
        return self.code.vocab_size

    def get_vocab(self) -> dict[str, int]:
        """Token string -> id (the code channel's id where a comment channel repeats it)."""
        vocab: dict[str, int] = {}
        for i in reversed(range(self.code.vocab_size)):
            token = self.code.id_to_token(i)
            if token is not None:
                vocab[token] = i
        return vocab

    def _convert_token_to_id(self, token: str) -> int:
        got = self.code.token_to_id(token)
        return self.code.control_id("unk") if got is None else got

    def _convert_id_to_token(self, index: int) -> str:
        token = self.code.id_to_token(index)
        return "" if token is None else token

    def _tokenize(self, text: str, **kwargs: Any) -> list[str]:
        return self.code.encode(text, kwargs.get("language") or self.language).tokens

    def convert_tokens_to_string(self, tokens: list[str]) -> str:
        """The source the tokens spell (their ids decoded)."""
        return str(self.code.decode([self._convert_token_to_id(t) for t in tokens]))

    def _decode(self, token_ids: Any, skip_special_tokens: bool = False, **kwargs: Any) -> str:
        ids = [token_ids] if isinstance(token_ids, int) else list(token_ids)
        return str(self.code.decode(ids, skip_special_tokens=skip_special_tokens))

    def _texts_ids(self, texts: list[Any], language: Any) -> list[list[int]]:
        return [e.ids_array.tolist() for e in _encoded(self.code, texts, language, None, None)]

    def _backend(self) -> Any:
        return self.code

    def _controls(self) -> set[int]:
        return {self.code.token_to_id(t) for t in CONTROL_TOKENS.values()} - {None}  # type: ignore[return-value]


class CodetokTokenizer(_CodetokBase):
    """A codetok text tokenizer (any :class:`~codetok.Tokenizer`: BPE, WordPiece, Unigram,
    from ``tokenizer.json``, ``.tiktoken``, ``.model`` ...) as a ``transformers`` tokenizer:
    codetok encodes (natively, a batch on several threads), ``transformers`` truncates and
    pads around the special tokens of its post-processor.

    Args:
        vocab_file: a ``tokenizer.json`` (``codetok_tokenizer.json`` as ``save_pretrained``
            writes it).
        tokenizer: the :class:`~codetok.Tokenizer` to wrap instead (copied: its own padding
            and truncation are turned off in the copy, ``transformers`` does those).
        **kwargs: ``transformers``' tokenizer settings; the special tokens default to the
            tokenizer's ``special_tokens_map``.

    Raises:
        ValueError: neither ``vocab_file`` nor ``tokenizer``.
    """

    vocab_files_names = {"vocab_file": TEXT_VOCAB_FILE}

    def __init__(
        self, vocab_file: str | None = None, tokenizer: Tokenizer | None = None, **kwargs: Any
    ) -> None:
        if tokenizer is None and vocab_file is None:
            raise ValueError("CodetokTokenizer needs vocab_file= or tokenizer=")
        source = Tokenizer.from_file(vocab_file) if tokenizer is None else tokenizer
        inner = Tokenizer.from_str(source.to_str())
        inner.no_padding()
        inner.no_truncation()
        inner.special_tokens_map = dict(source.special_tokens_map)
        self.inner = inner
        for name, token in inner.special_tokens_map.items():
            kwargs.setdefault(name, token)
        kwargs.setdefault("clean_up_tokenization_spaces", False)
        super().__init__(**kwargs)

    @property
    def vocab_size(self) -> int:
        return self.inner.get_vocab_size(with_added_tokens=True)

    def __len__(self) -> int:
        return self.vocab_size

    def get_vocab(self) -> dict[str, int]:
        return dict(self.inner.get_vocab(with_added_tokens=True))

    def _convert_token_to_id(self, token: str) -> int:
        got = self.inner.token_to_id(token)
        unk = self.unk_token
        return (self.inner.token_to_id(unk) if unk else 0) if got is None else got

    def _convert_id_to_token(self, index: int) -> str:
        token = self.inner.id_to_token(index)
        return "" if token is None else token

    def _tokenize(self, text: str, **kwargs: Any) -> list[str]:
        return self.inner.encode(text, add_special_tokens=False).tokens

    def convert_tokens_to_string(self, tokens: list[str]) -> str:
        return str(self.inner.decode([self._convert_token_to_id(t) for t in tokens], False))

    def _decode(self, token_ids: Any, skip_special_tokens: bool = False, **kwargs: Any) -> str:
        ids = [token_ids] if isinstance(token_ids, int) else list(token_ids)
        return str(self.inner.decode(ids, skip_special_tokens))

    def _texts_ids(self, texts: list[Any], language: Any) -> list[list[int]]:
        strs = [t.decode("utf-8", "surrogateescape") if isinstance(t, bytes) else t for t in texts]
        return [list(e.ids) for e in self.inner.encode_batch(strs, add_special_tokens=False)]

    def _backend(self) -> Any:
        return self.inner

    def _controls(self) -> set[int]:
        return {i for i, t in self.inner.get_added_tokens_decoder().items() if t.special}
