"""UnicodeScripts: split where the Unicode script changes, as HF groups them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tokenizer.offsets import NormalizedString
from .base import PreTokenizer, _cut

if TYPE_CHECKING:
    import regex


class UnicodeScripts(PreTokenizer):
    """Split where the Unicode script changes (HF's ``UnicodeScripts``).

    As HF: a space belongs to no script and never starts a piece (leading spaces are
    dropped, a text of spaces gives no piece); Hiragana, Katakana and U+30FC count as Han;
    Common and Inherited are scripts of their own. Scripts come from the ``regex``
    module's Unicode tables, which may be newer than HF's for recently added characters.
    """

    type_name = "UnicodeScripts"

    def split(self, ns: NormalizedString) -> list[NormalizedString]:
        text = ns.text
        starts: list[int] = []
        last = None
        for i, c in enumerate(text):
            script = _fixed_script(c)
            if script is not None:
                if script != last:  # also at the first non-space char (last is None)
                    starts.append(i)
                last = script
        starts.append(len(text))
        spans = [(a, b) for a, b in zip(starts, starts[1:]) if b > a]
        return _cut(ns, spans)


_SCRIPT_CACHE: dict[str, int] = {}


_SCRIPT_TABLE: list[tuple[regex.Pattern[str], frozenset[int]]] = []


def _script_table() -> tuple[regex.Pattern[str], frozenset[int]]:
    """One regex with a named group per script (``s<id>``), and the ids of Han and kana."""
    if not _SCRIPT_TABLE:
        import regex

        try:
            from regex import _regex_core

            values = _regex_core.PROPERTIES["SCRIPT"][1]
        except (ImportError, AttributeError, KeyError):  # pragma: no cover - regex internals
            values = {}
        names: dict[int, str] = {}
        for name, value in values.items():
            if value and len(name) > len(names.get(value, "")):
                names[value] = name
        alts = [rf"(?P<s{v}>\p{{Script={n}}})" for v, n in sorted(names.items())]
        han = frozenset(values[k] for k in ("HAN", "HIRAGANA", "KATAKANA") if k in values)
        _SCRIPT_TABLE.append((regex.compile("|".join(alts) or r"(?!)"), han))
    return _SCRIPT_TABLE[0]


def _fixed_script(c: str) -> int | None:
    """HF's script id of a char: ``None`` for a space; kana and U+30FC count as Han (-1)."""
    if c == " ":
        return None
    script = _SCRIPT_CACHE.get(c)
    if script is None:
        table, han = _script_table()
        m = table.match(c)
        script = int(m.lastgroup[1:]) if m is not None and m.lastgroup else 0
        if script in han or c == "\u30fc":
            script = -1
        _SCRIPT_CACHE[c] = script
    return script
