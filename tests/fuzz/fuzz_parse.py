"""Pathological parse inputs of the fuzzing harness (not a test module): ``parse:<language>``.

Inputs that make a tree-sitter grammar's error recovery blow up (issue 28, finding 1:
``"a<" * 40000`` as Java took minutes and 19 GB, or aborted the process): runs of one
unit (``a<``, ``(``, ``$"{``, ``<div``...), deep nesting, long unclosed strings and
comments, repeated error tokens, real code of the language with such runs spliced in; any
size from a few bytes to about 100 KB, as str or bytes (invalid UTF-8, a BOM). Each goes
through ``CodeTokenizer.encode`` or ``lex``, with the language given or detected from the
path, under the default :class:`~codetok.code.ParseBudget` or a small fixed one, on the
native lexer or (``python_share``) the Python lexer (the ``tree-sitter`` bindings).

The property: the input encodes losslessly (``decode`` gives it back; ``lex`` tiles it),
or a :class:`~codetok.errors.ParseLimitError` stops it whose message names the path
passed and the limit it went past. Anything else (another exception, a ``MemoryError``)
is an error; a crash or a hang is the runner's to see.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from fuzz_generators import CODE_BITS, code_samples, mutate_bytes, random_chars

LANGUAGES = ("python", "java", "csharp", "javascript")
EXTENSIONS = {"python": "py", "java": "java", "csharp": "cs", "javascript": "js"}

#: Units every language gets runs of: brackets, quotes, comment openers, operators,
#: characters that are errors in every grammar.
COMMON_UNITS = [
    "(", "[", "{", ")", "]", "}", "((", "([{", ")]}", '"', "'", "`", "/*", "*/", "//", "#",
    "@", "\\", "\x00", "?", ":", ";", ",", ".", "<", ">", "<<", ">>", "=", "==", "=>", "a",
    "a.", "a(", "a[", "a<", "f(x,", "1+", "-", "!", "~", "\n", " ", "\t", "\r", "$", "%",
    "^", "&", "|", "*", "**", "...", "0x", "1e", "é", "😀", "\ud800", "a,", "a b ", "\\u",
]  # fmt: skip

#: Units that go deep in one grammar's error recovery.
UNITS = {
    "python": [
        "a[", "lambda:", "not ", "f(", 'f"{', "f'{", "'''", '"""', "*", "**", "@d\n",
        "def f(", "class A(", "if a:\n ", "\n    ", "await ", "x if y else ", "[a for a in ",
        "{a:", "match a:\n case ", "print ", "\\\n", "u'", "rb'", ":=", "->", "a<", "yield ",
    ],
    "java": [
        "a<", "List<Map<", "a<b,", "<T extends ", "@A(", "class A{", "new a[", "(a)", "->",
        "::", "a<a<a>>", "if(a)", "try{", '"""', "switch(a){case 1->", "record R(", "int[]",
        "a?b:", "/**", "'\\u", "a<?", "A<B>.", "(A<B>)", "@interface ",
    ],
    "csharp": [
        "a<", "a<a<a>>", '$"{', '@"', '$@"{', "#if ", "#region ", "[A(", "=>", "?.", "??",
        "class A{", "new a[", "(a)", "a?", "async ", "await ", "from a in ", '"""', "<T>(",
        "where T:", '$$"""{{', "a<b,", "(a<b,c>d)", "unsafe{*", "delegate*<",
    ],
    "javascript": [
        "<a>", "<div", "</", "`${", "${", "=>", "(a)=>", "a?.", "/a/", "/", "{a:", "function(",
        "async ", "yield*", "class{", "#x", "import(", "[...", "<>", "</>", "a<b>", "\\u{",
        "a=>b=>", "({", "<a b={", "?.(", "/*", "`",
    ],
}  # fmt: skip

#: The units whose runs take a grammar's error recovery longest (seconds per 20 KB, or its
#: budget: Java ``a<`` and C# ``a<a<a>>`` go past the default one).
BOMBS = {
    "python": ["\\\n", "\\u", "/*", "class A(", "a["],
    "java": ["a<", "List<Map<", "a<a<a>>", "a<?", "([{"],
    "csharp": ["a<a<a>>", "a<", "unsafe{*", "where T:", "?."],
    "javascript": ["'", '"', "({", "([{", "<div"],
}

#: ``(opener, fillers)`` of an unclosed string or comment.
UNCLOSED = [
    ('"', "x"), ("'", "x"), ("`", "x"), ("/*", "x "), ('"""', "x\n"), ("'''", "x\n"),
    ('@"', "x\n"), ('$"', "x"), ('f"', "x"), ('r"', "x"), ("<!--", "x"), ("#", "x"),
    ('"', "\\"), ("`", "${"), ("/**", "* @p\n"), ("//", "x\\\n"), ('$"""', "{"),
]  # fmt: skip

#: ``(open, middle, close)`` of deep nesting.
NESTS = [
    ("(", "a", ")"), ("[", "a", "]"), ("{", "a", "}"), ("a<", "b", ">"), ("f(", "x", ")"),
    ("<a>", "x", "</a>"), ("`${", "x", "}`"), ('f"{', "x", '}"'), ('$"{', "x", '}"'),
    ("if(a){", "b;", "}"), ("(a?", "b", ":c)"), ("[[", "1", "]]"), ("(", "", ""),
    ("def f():\n" + " ", "pass", ""), ("lambda:", "0", ""), ("new A(", "", ")"),
]  # fmt: skip

_SAMPLES: dict[str, list[str]] = {}


def parse_samples(language: str) -> list[str]:
    """Real code of ``language``: the harness's samples and the repository's
    ``corpora/samples``."""
    if not _SAMPLES:
        for lang in LANGUAGES:
            _SAMPLES[lang] = [src for la, src in code_samples() if la == lang and src]
        root = Path(__file__).resolve().parents[2] / "corpora" / "samples"
        for path in sorted(root.rglob("*")):
            lang = {".java": "java", ".cs": "csharp", ".py": "python", ".js": "javascript"}.get(
                path.suffix
            )
            if lang:
                text = path.read_text(encoding="utf-8", errors="replace")
                _SAMPLES[lang] += [text[k : k + 20000] for k in range(0, len(text), 20000)][:3]
    return _SAMPLES[language]


@dataclass
class ParseCase:
    """One pathological input: ``how`` is ``"encode"``, ``"lex"`` or ``"detect"``
    (``encode`` with no language: the path's extension names it); ``budget`` is
    ``(seconds, memory_mb)`` of ``ParseBudget.fixed`` or None (the default budget);
    ``engine`` is ``"native"`` or ``"python"`` (native plans off: the Python lexer)."""

    source: str | bytes
    language: str
    path: str
    how: str
    budget: tuple[float, float] | None
    engine: str


def _unit(rng: Random, language: str) -> str:
    unit = rng.choice(UNITS[language] if rng.random() < 0.6 else COMMON_UNITS)
    if rng.random() < 0.25:
        unit += rng.choice(COMMON_UNITS + UNITS[language])
    return unit


def _run(rng: Random, unit: str, length: int) -> str:
    return unit * max(1, length // max(1, len(unit)))


def _part(rng: Random, language: str, left: int) -> str:
    """One piece of at most about ``left`` chars."""
    kind = rng.randrange(12)
    length = max(1, int(left * rng.random() ** 0.5))
    if kind < 4:
        return _run(rng, _unit(rng, language), length)
    if kind < 6:
        samples = parse_samples(language)
        if samples:
            src = rng.choice(samples)
            a = rng.randrange(len(src) + 1)
            return src[a : a + length]
        return _run(rng, _unit(rng, language), length)
    if kind < 7:
        opener, filler = rng.choice(UNCLOSED)
        return opener + _run(rng, filler, length - len(opener))
    if kind < 9:
        open_, middle, close = rng.choice(NESTS)
        depth = max(1, length // max(1, len(open_) + len(close)))
        return open_ * depth + middle + close * rng.choice([depth, depth, depth // 2, 0])
    if kind < 10:  # an error token repeated, with code around it
        bad = rng.choice(["@", "\x00", "?", "#", "$", "\\", "}", "]", ")", "\x7f", "\u200b"])
        word = rng.choice(CODE_BITS)
        return (word + bad * rng.randint(1, 8)) * max(1, length // (len(word) + 4))
    if kind < 11:
        return "".join(rng.choice(CODE_BITS) for _ in range(min(200, max(1, length // 6))))
    return random_chars(rng, min(500, length))


def gen_parse(
    rng: Random, language: str, *, max_size: int = 100_000, python_share: float = 0.1
) -> ParseCase:
    """A pathological input of ``language`` of up to about ``max_size`` chars (sizes spread
    evenly on a log scale), with how it is tokenized."""
    size = int(math.exp(rng.uniform(math.log(8), math.log(max_size))))
    parts: list[str] = []
    n = 0
    template = rng.randrange(4)
    if template == 0:  # one run of one unit: the shape of finding 1
        unit = rng.choice(BOMBS[language]) if rng.random() < 0.5 else _unit(rng, language)
        parts.append(_run(rng, unit, size))
    elif template == 1:  # real code with a pathological run inside
        samples = parse_samples(language)
        src = rng.choice(samples) if samples else ""
        k = rng.randrange(len(src) + 1)
        a = max(0, k - size // 3)
        parts += [src[a:k], _run(rng, _unit(rng, language), size // 2), src[k : k + size // 3]]
    else:
        while n < size:
            part = _part(rng, language, size - n)
            parts.append(part)
            n += len(part)
    text = "".join(parts)[: int(max_size * 1.2)]
    source: str | bytes = text
    if rng.random() < 0.35:
        data = text.encode("utf-8", "surrogatepass")
        for _ in range(rng.choice([0, 0, 1, 3])):
            data = mutate_bytes(rng, data, max_len=int(max_size * 1.2))
        if rng.random() < 0.1:
            data = b"\xef\xbb\xbf" + data
        source = data
    elif rng.random() < 0.05:
        source = "\ufeff" + text
    how = rng.choice(["encode", "encode", "encode", "lex", "detect"])
    budget = None
    if rng.random() < 0.3:
        seconds = rng.choice([0.0, 0.002, 0.02, 0.1, 0.5, 1.0])
        memory = rng.choice([0.0, 1.0, 4.0, 16.0, 64.0, 200.0])
        budget = (seconds, memory) if seconds or memory else (0.05, 0.0)
    engine = "python" if rng.random() < python_share else "native"
    name = rng.choice(["x", "src/a b", "dir.v2/ünï", "deep/" * 8 + "f", "-n"])
    return ParseCase(source, language, f"{name}.{EXTENSIONS[language]}", how, budget, engine)


def _limit_named(msg: str, case: ParseCase, budget: Any) -> bool:
    """Whether a ParseLimitError message names the case's path and a limit of its budget."""
    data = case.source
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    size = len(data) - 3 if data.startswith(b"\xef\xbb\xbf") else len(data)
    seconds, max_bytes = budget.limits(size)
    limits = (f"time limit of {seconds:.1f} s", f"memory limit of {max_bytes / 1e6:,.0f} MB")
    return msg.startswith(f"{case.path}: ") and any(x in msg for x in limits)


def check_parse_case(tok: Any, case: ParseCase) -> tuple[str, str] | None:
    """``None`` when the property holds, else ``(kind, detail)``."""
    from fuzz_checks import _code_loss, _describe, engines

    from codetok.code import ParseBudget, lex
    from codetok.errors import ParseLimitError

    budget = ParseBudget() if case.budget is None else ParseBudget.fixed(*case.budget)
    tok.parse_budget = budget
    with engines(case.engine == "native", True):
        try:
            if case.how == "lex":
                lx = lex(case.source, case.language, path=case.path, budget=budget)
                try:
                    lx.check()
                except ValueError as e:
                    return "loss", f"Lexemes.check: {e}"
                if "".join(lx.texts()) != lx.source_text or lx.language != case.language:
                    return "loss", f"the lexemes do not give the source back ({lx.language})"
                return None
            language = None if case.how == "detect" else case.language
            enc = tok.encode(case.source, language, path=case.path)
            loss = _code_loss(tok, case.source, enc)
            return None if loss is None else ("loss", loss)
        except ParseLimitError as e:
            msg = str(e)
            if e.path != case.path or not _limit_named(msg, case, budget):
                return "error", f"the ParseLimitError names no path or limit: {msg[:300]}"
            return None
        except Exception as e:  # noqa: BLE001 - the property: nothing else, MemoryError included
            return "error", f"{case.how} raised {_describe(e)}"


__all__ = ["LANGUAGES", "ParseCase", "gen_parse", "check_parse_case", "parse_samples"]
