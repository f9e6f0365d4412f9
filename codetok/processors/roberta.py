"""RobertaProcessing: ``<s> A </s></s> B </s>``, with byte-level offset trimming."""

from __future__ import annotations

from typing import Any

from ..tokenizer.encoding import Encoding
from .base import PostProcessor, _wrap
from .byte_level import _trim_all


class RobertaProcessing(PostProcessor):
    """``<s> A </s>`` and ``<s> A </s> </s> B </s>``, with optional offset trimming."""

    type_name = "RobertaProcessing"

    def __init__(
        self,
        sep: tuple[str, int] = ("</s>", 2),
        cls: tuple[str, int] = ("<s>", 0),
        trim_offsets: bool = True,
        add_prefix_space: bool = True,
    ) -> None:
        self.sep = (str(sep[0]), int(sep[1]))
        self.cls = (str(cls[0]), int(cls[1]))
        self.trim_offsets = trim_offsets
        self.add_prefix_space = add_prefix_space

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type_name,
            "sep": list(self.sep),
            "cls": list(self.cls),
            "trim_offsets": self.trim_offsets,
            "add_prefix_space": self.add_prefix_space,
        }

    def added_tokens(self, is_pair: bool) -> int:
        return 4 if is_pair else 2

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        if self.trim_offsets:
            _trim_all(encodings, self.add_prefix_space)
        if not add_special_tokens:
            # As HF: every top-level encoding gets type id 0, even without special tokens
            # (their overflowing parts keep theirs).
            for e in encodings:
                e.type_ids = [0] * len(e.ids)
            return encodings
        cls, sep = (self.cls[1], self.cls[0]), (self.sep[1], self.sep[0])
        out = []
        for i, e in enumerate(encodings):
            if i == 0:

                def f(x: Encoding) -> Encoding:
                    return _wrap(x, [cls], [sep], 0, 0, 0)
            else:

                def f(x: Encoding) -> Encoding:
                    return _wrap(x, [sep], [sep], 1, 0, 0)

            new = f(e)
            new.overflowing = [f(o) for o in e.overflowing]
            if i:
                # RoBERTa has one segment: the second sequence gets type id 0 too.
                for part in (new, *new.overflowing):
                    part.type_ids = [0] * len(part.ids)
            out.append(new)
        return out
