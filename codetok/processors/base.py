"""The post-processor base class, the default processing (no special tokens), the helpers that
wrap sequences in special tokens, and the registry behind :func:`post_processor_from_dict`."""

from __future__ import annotations

from typing import Any

from ..components.base import Component, build
from ..components.registry import registry
from ..tokenizer.encoding import Encoding


def default_process(encodings: list[Encoding], add_special_tokens: bool) -> Encoding:
    """What happens without a post-processor: sequences are concatenated."""
    if len(encodings) == 1:
        return encodings[0]
    out = Encoding()
    for i, e in enumerate(encodings):
        e.set_sequence_id(i)
        out.merge_with(e, False)
    return out


def _mark_sequences(encodings: list[Encoding]) -> None:
    """Tag input ``i`` (and its overflowing windows) as sequence ``i`` with type id ``i``."""
    for i, e in enumerate(encodings):
        for part in (e, *e.overflowing):
            part.set_sequence_id(i)
            part.type_ids = [i] * len(part.ids)


class PostProcessor(Component):
    """Base class: :meth:`process` turns one or two encodings into the final one."""

    def added_tokens(self, is_pair: bool) -> int:
        """How many special tokens :meth:`process` adds."""
        raise NotImplementedError

    def process(
        self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True
    ) -> Encoding:
        encodings = [encoding] if pair is None else [encoding, pair]
        _mark_sequences(encodings)
        return Encoding.merge(self.process_encodings(encodings, add_special_tokens), False)

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        raise NotImplementedError


def _special(ids: list[int], tokens: list[str], type_id: int) -> Encoding:
    n = len(ids)
    return Encoding(
        list(ids), [type_id] * n, list(tokens), [(0, 0)] * n, [None] * n, [1] * n, [1] * n
    )


def _wrap(
    enc: Encoding,
    before: list[tuple[int, str]],
    after: list[tuple[int, str]],
    seq: int,
    type_before: int,
    type_after: int,
) -> Encoding:
    """``before + enc + after`` with the pieces marked special and the sequence range set."""
    nb, na = len(before), len(after)
    out = Encoding(
        [i for i, _ in before] + enc.ids + [i for i, _ in after],
        [type_before] * nb + enc.type_ids + [type_after] * na,
        [t for _, t in before] + enc.tokens + [t for _, t in after],
        [(0, 0)] * nb + enc.offsets + [(0, 0)] * na,
        [None] * nb + enc.word_ids + [None] * na,
        [1] * nb + enc.special_tokens_mask + [1] * na,
        [1] * nb + enc.attention_mask + [1] * na,
    )
    out.sequence_ranges = {seq: (nb, nb + len(enc.ids))}
    return out


REGISTRY = registry("post_processor")


def post_processor_from_dict(
    data: Any, *, path: str | None = None, where: str = "post_processor"
) -> PostProcessor | None:
    """Build a post-processor from its HF ``tokenizer.json`` object."""
    return build(REGISTRY, data, path=path, where=where)
