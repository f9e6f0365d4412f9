"""TemplateProcessing: special tokens and type ids from HF's template strings."""

from __future__ import annotations

from typing import Any

from ..errors import ConfigurationError
from ..tokenizer.encoding import Encoding
from .base import PostProcessor, _special


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
