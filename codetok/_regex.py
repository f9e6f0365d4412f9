"""Compile HF ``tokenizer.json`` regexes (Oniguruma syntax) with the ``regex`` module.

The two engines agree on the syntax these files use (``\\p{L}``, ``(?i:...)``,
lookahead, possessive-free alternations), but not on ``\\w``: as HF builds it, Oniguruma's word class is Alphabetic | Mark |
Decimal_Number | Connector_Punctuation plus the six Latin-1 digits ``²³¹¼½¾`` (checked
code point by code point against ``tokenizers``), while ``regex`` also counts the joiners
U+200C/U+200D. ``\\w`` and ``\\W`` are
rewritten to the Oniguruma class so pieces match HF exactly. (``\\W`` inside a bracket
class is left as is: no HF file seen uses it.)
"""

from __future__ import annotations

import functools

import regex

from .errors import ConfigurationError

_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\xb2\xb3\xb9\xbc\xbd\xbe"


def translate(pattern: str) -> str:
    """Rewrite ``\\w`` / ``\\W`` to Oniguruma's meaning.

    >>> translate(r"a\\w") == "a[" + _WORD + "]"
    True
    """
    out: list[str] = []
    depth = 0
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt == "w":
                out.append(_WORD if depth else f"[{_WORD}]")
            elif nxt == "W" and not depth:
                out.append(f"[^{_WORD}]")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[":
            depth += 1
            out.append(c)
            # A ']' right after '[' or '[^' is a literal member.
            j = i + 1
            if j < n and pattern[j] == "^":
                out.append("^")
                j += 1
            if j < n and pattern[j] == "]":
                out.append("]")
                j += 1
            i = j
            continue
        if c == "]" and depth:
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=256)
def compile_onig(pattern: str) -> regex.Pattern[str]:
    """Compile an HF (Oniguruma) regex.

    Raises:
        ConfigurationError: the pattern does not compile.
    """
    try:
        return regex.compile(translate(pattern))
    except regex.error as e:
        raise ConfigurationError(f"invalid regex {pattern!r}: {e}") from e


def compile_pattern(pattern: dict[str, str]) -> regex.Pattern[str]:
    """Compile an HF pattern object: ``{"String": literal}`` or ``{"Regex": onig}``."""
    if "String" in pattern:
        return regex.compile(regex.escape(pattern["String"]))
    return compile_onig(pattern["Regex"])
