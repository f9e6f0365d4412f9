"""Compile HF ``tokenizer.json`` regexes (Oniguruma syntax) with the ``regex`` module.

The two engines agree on the syntax these files use (``\\p{L}``, ``(?i:...)``,
lookahead, possessive-free alternations), but not on ``\\w``: as HF builds it, Oniguruma's word class is Alphabetic | Mark |
Decimal_Number | Connector_Punctuation plus the six Latin-1 digits ``²³¹¼½¾`` (checked
code point by code point against ``tokenizers``), while ``regex`` also counts the joiners
U+200C/U+200D. ``\\w`` and ``\\W`` are
rewritten to the Oniguruma class so pieces match HF exactly. Also, Oniguruma reads an
interval followed by ``+`` (``\\p{N}{1,3}+``) as a repeated interval, where ``regex`` reads
a possessive one; such intervals are rewritten to ``(?:X{n,m})+``. (``\\W`` inside a bracket
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


_INTERVAL_PLUS = regex.compile(r"\{\d+(?:,\d*)?\}\+")


def _atom_start(pattern: str, end: int) -> int:
    """Start of the atom that ends just before ``end`` (a char, escape, class or group)."""
    # Mark escapes and bracket classes with a left-to-right scan, then walk back.
    starts: list[int] = []
    i = 0
    depth = 0
    stack: list[int] = []
    while i < end:
        c = pattern[i]
        if c == "\\":
            j = i + 2
            if pattern[i + 1 : i + 2] in ("p", "P") and pattern[j : j + 1] == "{":
                j = pattern.index("}", j) + 1
            if not depth:
                starts.append(i)
            i = j
            continue
        if c == "[":
            if not depth:
                starts.append(i)
            depth += 1
        elif c == "]" and depth:
            depth -= 1
        elif not depth and c == "(":
            stack.append(i)
        elif not depth and c == ")":
            starts.append(stack.pop() if stack else i)
            # drop the atoms inside the group
            while len(starts) > 1 and starts[-2] > starts[-1]:
                del starts[-2]
        elif not depth:
            starts.append(i)
        i += 1
    return starts[-1] if starts else end


def _onig_intervals(pattern: str) -> str:
    """Oniguruma (Ruby syntax) reads ``X{n,m}+`` as ``(?:X{n,m})+``, not as possessive."""
    out = pattern
    pos = 0
    while True:
        m = _INTERVAL_PLUS.search(out, pos)
        if m is None:
            return out
        start = _atom_start(out, m.start())
        body = out[start : m.end() - 1]
        out = out[:start] + "(?:" + body + ")+" + out[m.end() :]
        pos = start + len(body) + 5


@functools.lru_cache(maxsize=256)
def compile_onig(pattern: str) -> regex.Pattern[str]:
    """Compile an HF (Oniguruma) regex.

    Raises:
        ConfigurationError: the pattern does not compile.
    """
    try:
        return regex.compile(translate(_onig_intervals(pattern)))
    except regex.error as e:
        raise ConfigurationError(f"invalid regex {pattern!r}: {e}") from e


def compile_pattern(pattern: dict[str, str]) -> regex.Pattern[str]:
    """Compile an HF pattern object: ``{"String": literal}`` or ``{"Regex": onig}``."""
    if "String" in pattern:
        return regex.compile(regex.escape(pattern["String"]))
    return compile_onig(pattern["Regex"])
