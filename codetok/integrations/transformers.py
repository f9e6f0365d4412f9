"""A ``transformers`` tokenizer over a codetok code tokenizer.

:class:`CodetokCodeTokenizer` is a ``transformers`` ``PreTrainedTokenizer``: ``Trainer``,
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
from typing import Any

from transformers import PreTrainedTokenizer

from ..code import CodeTokenizer
from ..code.model_inputs import _encoded
from ..code.special import CONTROL_TOKENS

__all__ = ["CodetokCodeTokenizer", "VOCAB_FILE"]

#: The file ``save_pretrained`` writes the code tokenizer to.
VOCAB_FILE = "codetok_code.json"


class CodetokCodeTokenizer(PreTrainedTokenizer):
    """A code tokenizer as a ``transformers`` tokenizer.

    Args:
        vocab_file: a code tokenizer file (``codetok_code.json``, written by
            ``save_pretrained`` or :meth:`CodeTokenizer.save`); None with
            ``code_tokenizer`` None: the default code tokenizer.
        code_tokenizer: the :class:`~codetok.code.CodeTokenizer` to wrap (shared, not copied).
        language: the language of the sources (None: detected from each one).
        **kwargs: ``transformers``' tokenizer settings (``model_max_length``,
            ``padding_side``, ...); the special tokens default to the code tokenizer's
            (``<|endoftext|>`` as BOS and EOS, ``<pad>``, ``<unk>``, ``<mask>``).

    >>> from transformers import DataCollatorForLanguageModeling  # doctest: +SKIP
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
        roles = code_tokenizer.special_tokens_map
        for name, token in roles.items():
            kwargs.setdefault(name, token)
        kwargs.setdefault("clean_up_tokenization_spaces", False)
        kwargs.setdefault("token_type_ids_pattern", "bert_style")
        super().__init__(language=language, **kwargs)

    # -- vocabulary -----------------------------------------------------------------------
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
        return self.code.decode([self._convert_token_to_id(t) for t in tokens])

    def _decode(self, token_ids: Any, skip_special_tokens: bool = False, **kwargs: Any) -> str:
        ids = [token_ids] if isinstance(token_ids, int) else list(token_ids)
        return str(self.code.decode(ids, skip_special_tokens=skip_special_tokens))

    # -- special tokens: the code tokenizer's template ----------------------------------
    def _layout(self, ids0: list[int], ids1: list[int] | None) -> list[tuple[int, int, int]]:
        """``(id, type id, special)`` of every token the template makes of the parts."""
        template = self.code.post_processor
        if template is None:
            out = [(i, 0, 0) for i in ids0]
            return out + [(i, 1, 0) for i in ids1 or []]
        items = template.single if ids1 is None else template.pair
        out = []
        for kind, name, type_id in items:
            if kind == "seq":
                out += [(i, type_id, 0) for i in (ids0 if name == "A" else ids1 or [])]
            else:
                out += [(i, type_id, 1) for i in template.special_tokens[name]["ids"]]
        return out

    def build_inputs_with_special_tokens(
        self, token_ids_0: list[int], token_ids_1: list[int] | None = None
    ) -> list[int]:
        """The ids with the template's special tokens around them."""
        return [i for i, _, _ in self._layout(token_ids_0, token_ids_1)]

    def create_token_type_ids_from_sequences(
        self, token_ids_0: list[int], token_ids_1: list[int] | None = None
    ) -> list[int]:
        """The template's type ids (0 for the first part, 1 for the pair's second)."""
        return [t for _, t, _ in self._layout(token_ids_0, token_ids_1)]

    def get_special_tokens_mask(
        self,
        token_ids_0: list[int],
        token_ids_1: list[int] | None = None,
        already_has_special_tokens: bool = False,
    ) -> list[int]:
        """1 for the template's special tokens (or, with ``already_has_special_tokens``,
        for every control token), 0 for the parts' tokens."""
        if already_has_special_tokens:
            control = {self.code.token_to_id(t) for t in CONTROL_TOKENS.values()}
            return [1 if i in control else 0 for i in token_ids_0 + (token_ids_1 or [])]
        return [s for _, _, s in self._layout(token_ids_0, token_ids_1)]

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        return len(self._layout([], [] if pair else None))

    # -- encoding -------------------------------------------------------------------------
    def _encode_plus(self, text: Any, text_pair: Any = None, **kwargs: Any) -> Any:
        """Sources (str or bytes, one or a batch) through the code tokenizer first; the rest
        (ids, pre-split words) as ``transformers`` takes them."""
        language = kwargs.pop("language", None) or self.language
        batched = (
            isinstance(text, (list, tuple)) and bool(text) and isinstance(text[0], (str, bytes))
        )
        if not (isinstance(text, (str, bytes)) or batched) or kwargs.get("is_split_into_words"):
            return super()._encode_plus(text, text_pair, **kwargs)
        first, second = language if isinstance(language, tuple) else (language, language)
        texts = list(text) if batched else [text]
        firsts = [e.ids_array.tolist() for e in _encoded(self.code, texts, first, None, None)]
        seconds: list[Any] = [None] * len(texts)
        if text_pair is not None:
            pairs = list(text_pair) if batched else [text_pair]
            seconds = [e.ids_array.tolist() for e in _encoded(self.code, pairs, second, None, None)]
        if not batched:
            return self._prepared(firsts[0], seconds[0], kwargs, batch=False)
        return self._batch(firsts, seconds, kwargs)

    def _prepared(
        self, ids: list[int], pair: list[int] | None, kw: dict[str, Any], batch: bool
    ) -> Any:
        """``prepare_for_model`` of one input's ids with the call's options (unpadded and
        without tensors inside a batch, which is padded as a whole)."""
        return self.prepare_for_model(
            ids,
            pair_ids=pair,
            add_special_tokens=kw.get("add_special_tokens", True),
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

    # -- saving ---------------------------------------------------------------------------
    def save_vocabulary(
        self, save_directory: str, filename_prefix: str | None = None
    ) -> tuple[str]:
        """Write the code tokenizer to ``save_directory`` (``[prefix-]codetok_code.json``)."""
        name = (f"{filename_prefix}-" if filename_prefix else "") + VOCAB_FILE
        path = os.path.join(save_directory, name)
        self.code.save(path)
        return (path,)
