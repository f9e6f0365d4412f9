"""Post-processors: add special tokens and assemble single or pair encodings.

TemplateProcessing (``"[CLS] $A [SEP] $B:1 [SEP]:1"``), BertProcessing,
RobertaProcessing, ByteLevel (offset trimming) and Sequence, with HF's JSON schema and
HF's exact handling of overflowing parts, type ids and sequence ranges.
"""

from __future__ import annotations

from typing import Any

from ._registry import registry
from ._serde import Component, build, build_items
from .encoding import Encoding
from .errors import ConfigurationError

__all__ = [
    "PostProcessor",
    "TemplateProcessing",
    "BertProcessing",
    "RobertaProcessing",
    "ByteLevel",
    "Sequence",
    "post_processor_from_dict",
    "default_process",
]


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


def trim_byte_level_offsets(enc: Encoding, add_prefix_space: bool) -> None:
    """Drop leading/trailing spaces (``Ġ``) from byte-level token offsets."""
    space = "\u0120"
    offsets = enc.offsets
    for i, tok in enumerate(enc.tokens):
        if not tok or (
            tok[0] != space and tok[-1] != space and not tok[0].isspace() and not tok[-1].isspace()
        ):
            continue
        lead = 0
        for c in tok:
            if c == space or c.isspace():
                lead += 1
            else:
                break
        trail = 0
        for c in reversed(tok):
            if c == space or c.isspace():
                trail += 1
            else:
                break
        s, e = offsets[i]
        if lead:
            if (i == 0 or s == 0) and add_prefix_space and lead == 1:
                lead = 0
            s = min(s + lead, e)
        if trail and e >= trail:
            e = max(e - trail, s)
        offsets[i] = (s, e)


def _trim_all(encodings: list[Encoding], add_prefix_space: bool) -> None:
    for e in encodings:
        trim_byte_level_offsets(e, add_prefix_space)
        for o in e.overflowing:
            trim_byte_level_offsets(o, add_prefix_space)


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


class ByteLevel(PostProcessor):
    """Trims byte-level offsets (leading/trailing spaces); adds no tokens."""

    type_name = "ByteLevel"

    def __init__(
        self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True
    ) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def added_tokens(self, is_pair: bool) -> int:
        return 0

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        if self.trim_offsets:
            _trim_all(encodings, self.add_prefix_space)
        return encodings


def _u32(value: Any, what: str = "a type_id") -> int:
    """A template type id or special-token id: an int in HF's u32 range."""
    if type(value) is not int or not 0 <= value < 2**32:
        raise ValueError(f"{what} is an int in 0..4294967295, got {value!r}")
    return value


def _special_entry(name: Any, d: Any) -> dict[str, Any]:
    """One entry of ``special_tokens`` as HF reads it: ``ids`` (u32 ints) and ``tokens``
    (strings), one token per id."""
    if not isinstance(d, dict) or "ids" not in d or "tokens" not in d:
        raise ValueError(f"special token {name!r} needs 'ids' and 'tokens', got {d!r}")
    ids, tokens = d["ids"], d["tokens"]
    if not isinstance(ids, list):
        raise ValueError(f"special token {name!r}: 'ids' is a list, got {ids!r}")
    for i in ids:
        _u32(i, f"each id of special token {name!r}")
    if not isinstance(tokens, list) or any(not isinstance(t, str) for t in tokens):
        raise ValueError(f"special token {name!r}: 'tokens' is a list of strings")
    if len(ids) != len(tokens):
        raise ValueError(f"special token {name!r}: {len(ids)} ids for {len(tokens)} tokens")
    key = d.get("id", name)
    if not isinstance(key, str):
        raise ValueError(f"special token {name!r}: 'id' is a string, got {key!r}")
    return {"id": key, "ids": list(ids), "tokens": list(tokens)}


def _parse_piece(item: Any) -> tuple[str, str, int]:
    """One template item: ``("seq", "A"|"B", type_id)`` or ``("special", token, type_id)``."""
    if isinstance(item, dict):
        if "Sequence" in item:
            d = item["Sequence"]
            if d.get("id") not in ("A", "B"):
                raise ValueError(f"a template Sequence id is 'A' or 'B', got {d.get('id')!r}")
            return ("seq", d["id"], _u32(d["type_id"]))
        if "SpecialToken" in item:
            d = item["SpecialToken"]
            if not isinstance(d.get("id"), str):
                raise ValueError(f"a template SpecialToken id is a str, got {d.get('id')!r}")
            return ("special", d["id"], _u32(d["type_id"]))
        raise ValueError(f"template item must be Sequence or SpecialToken, got {item!r}")
    if not isinstance(item, str) or not item:
        raise ValueError(f"template item must be a non-empty string, got {item!r}")
    name, type_id = item, 0
    if ":" in item:
        head, _, tail = item.rpartition(":")
        if tail.isdigit() and head:
            name, type_id = head, _u32(int(tail))
    if name.startswith("$"):
        rest = name[1:]
        if rest in ("", "A", "a"):
            return ("seq", "A", type_id)
        if rest in ("B", "b"):
            return ("seq", "B", type_id)
        if rest.isdigit():
            return ("seq", "A", _u32(int(rest)))
        raise ValueError(f"cannot parse template sequence {item!r}; use $A, $B or $A:1")
    return ("special", name, type_id)


def _parse_template(template: Any) -> list[tuple[str, str, int]]:
    if isinstance(template, str):
        template = template.split()
    return [_parse_piece(p) for p in template]


class TemplateProcessing(PostProcessor):
    """Place special tokens around the sequences following a template.

    Args:
        single: template for one sequence, e.g. ``"[CLS] $A [SEP]"``.
        pair: template for two, e.g. ``"[CLS] $A [SEP] $B:1 [SEP]:1"``.
        special_tokens: ``(token, id)`` pairs, or HF's ``{name: {"id", "ids", "tokens"}}``.

    >>> tp = TemplateProcessing("[CLS] $A [SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1", [("[CLS]", 1), ("[SEP]", 2)])
    >>> tp.added_tokens(True)
    3
    """

    type_name = "TemplateProcessing"

    def __init__(self, single: Any = "$0", pair: Any = None, special_tokens: Any = None) -> None:
        self.special_tokens: dict[str, dict[str, Any]] = {}
        if isinstance(special_tokens, dict):
            for name, d in special_tokens.items():
                self.special_tokens[name] = _special_entry(name, d)
        else:
            for item in special_tokens or []:
                if isinstance(item, dict):
                    entry = _special_entry(item.get("id"), item)
                    self.special_tokens[entry["id"]] = entry
                else:
                    tok, tid = item
                    if isinstance(tok, int) and isinstance(tid, str):
                        tok, tid = tid, tok
                    self.special_tokens[tok] = {"id": tok, "ids": [int(tid)], "tokens": [tok]}
        self.single = _parse_template(single)
        if pair is None:
            pair = [p for p in _unparse(self.single)] + ["$B:1"]
        self.pair = _parse_template(pair)
        for kind, name, _ in self.single + self.pair:
            if kind == "special" and name not in self.special_tokens:
                raise ConfigurationError(
                    f"TemplateProcessing: the template uses {name!r} but special_tokens does not define it"
                )
        if not any(k == "seq" and n == "A" for k, n, _ in self.single):
            raise ConfigurationError("TemplateProcessing: the single template must contain $A")
        if not (
            any(n == "A" for k, n, _ in self.pair if k == "seq")
            and any(n == "B" for k, n, _ in self.pair if k == "seq")
        ):
            raise ConfigurationError(
                "TemplateProcessing: the pair template must contain both $A and $B"
            )

    def to_dict(self) -> dict[str, Any]:
        def items(tpl: list[tuple[str, str, int]]) -> list[dict[str, Any]]:
            return [
                {"Sequence": {"id": n, "type_id": t}}
                if k == "seq"
                else {"SpecialToken": {"id": n, "type_id": t}}
                for k, n, t in tpl
            ]

        return {
            "type": self.type_name,
            "single": items(self.single),
            "pair": items(self.pair),
            "special_tokens": {k: dict(v) for k, v in self.special_tokens.items()},
        }

    def added_tokens(self, is_pair: bool) -> int:
        tpl = self.pair if is_pair else self.single
        return sum(len(self.special_tokens[n]["ids"]) for k, n, _ in tpl if k == "special")

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        tpl = self.pair if len(encodings) == 2 else self.single
        out = []
        for kind, name, type_id in tpl:
            if kind == "seq":
                i = 0 if name == "A" else 1
                e = encodings[i].copy()
                # Only the window itself gets the template's type id: HF leaves the
                # overflowing windows as marked by process() (visible with "$B:0").
                e.type_ids = [type_id] * len(e.ids)
                e.set_sequence_id(i)
                out.append(e)
            elif add_special_tokens:
                st = self.special_tokens[name]
                out.append(_special(st["ids"], st["tokens"], type_id))
        return out


def _unparse(tpl: list[tuple[str, str, int]]) -> list[str]:
    return [(f"${n}" if k == "seq" else n) + f":{t}" for k, n, t in tpl]


class Sequence(PostProcessor):
    """Run post-processors in order (each on the output of the previous)."""

    type_name = "Sequence"
    tracked_lists = ("processors",)

    def __init__(self, processors: list[PostProcessor]) -> None:
        self.processors = list(processors)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Sequence", "processors": [p.to_dict() for p in self.processors]}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = ""
    ) -> Sequence:
        return cls(
            build_items(
                post_processor_from_dict, data["processors"], "processors", path=path, where=where
            )
        )

    def added_tokens(self, is_pair: bool) -> int:
        return sum(p.added_tokens(is_pair) for p in self.processors)

    def process_encodings(
        self, encodings: list[Encoding], add_special_tokens: bool
    ) -> list[Encoding]:
        for p in self.processors:
            encodings = p.process_encodings(encodings, add_special_tokens)
        return encodings


REGISTRY = registry("post_processor")
REGISTRY.register(TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence)


def post_processor_from_dict(
    data: Any, *, path: str | None = None, where: str = "post_processor"
) -> PostProcessor | None:
    """Build a post-processor from its HF ``tokenizer.json`` object."""
    return build(REGISTRY, data, path=path, where=where)
