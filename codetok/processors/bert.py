"""BertProcessing: ``[CLS] A [SEP] B [SEP]`` with type ids."""

from __future__ import annotations

from typing import Any

from ..tokenizer.encoding import Encoding
from .base import PostProcessor, _wrap


class BertProcessing(PostProcessor):
    """``[CLS] A [SEP]`` and ``[CLS] A [SEP] B [SEP]`` (B with type id 1).

    Args:
        sep: ``(token, id)`` of the separator.
        cls: ``(token, id)`` of the classifier token.
    """

    type_name = "BertProcessing"

    def __init__(
        self, sep: tuple[str, int] = ("[SEP]", 102), cls: tuple[str, int] = ("[CLS]", 101)
    ) -> None:
        self.sep = (str(sep[0]), int(sep[1]))
        self.cls = (str(cls[0]), int(cls[1]))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name, "sep": list(self.sep), "cls": list(self.cls)}

    def added_tokens(self, is_pair: bool) -> int:
        return 3 if is_pair else 2

    def _first(self, e: Encoding) -> Encoding:
        return _wrap(e, [(self.cls[1], self.cls[0])], [(self.sep[1], self.sep[0])], 0, 0, 0)

    def _second(self, e: Encoding) -> Encoding:
        return _wrap(e, [], [(self.sep[1], self.sep[0])], 1, 1, 1)

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        if not add_special_tokens:
            return encodings
        out = []
        for i, e in enumerate(encodings):
            f = self._first if i == 0 else self._second
            new = f(e)
            new.overflowing = [f(o) for o in e.overflowing]
            out.append(new)
        return out
