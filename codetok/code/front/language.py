"""Language detection from a file name, a shebang line, or the content itself.

The order is: the file name (its extension, when one grammar file lists it, or a name the
generic languages table knows), then a ``#!`` line, then content. A file name that names a
language always wins: content only chooses between the languages that list the extension
(a ``.h`` file is C unless its content reads as C++, which lists ``.h`` among its
``shared_extensions``). Content detection scores the ``[detect] patterns`` of every grammar
file whose grammar package is installed on the first 64 KiB and, when two languages score
close, parses the text with both and keeps the one with clearly fewer syntax errors.
Anything still ambiguous raises :class:`~codetok.errors.LanguageError`, which names the
file, the candidates and the languages codetok knows, and says to pass ``language=``.
"""

from __future__ import annotations

import functools
import os
import re

from ...engine import native as _backend
from ...errors import LanguageError, ParseLimitError
from .budget import DEFAULT_BUDGET, ParseBudget, parse_tree
from .generic_languages import GENERIC_EXTENSIONS, GENERIC_FILENAMES, GENERIC_SHEBANGS
from .languages import (
    available_languages,
    get_grammar,
    grammar_installed,
    grammar_specs,
    pack_installed,
)
from .native import native_lexer

__all__ = ["detect_language", "language_from_path", "language_from_shebang"]

_SAMPLE = 65536
_MIN_SCORE = 3
_VERSION_SUFFIX = re.compile(r"[-.\d]+$")


def _extension(path: str | os.PathLike[str]) -> str:
    return os.path.splitext(os.fspath(path))[1].lower()


def _listing(key: str, ext: str) -> list[str]:
    """The grammar files whose ``key`` (``extensions`` or ``shared_extensions``) has ``ext``."""
    return [
        name
        for name, spec in grammar_specs().items()
        if ext in (e.lower() for e in spec.get(key, []))
    ]


def language_from_path(path: str | os.PathLike[str]) -> str | None:
    """Return the language a file name names, or None.

    A grammar file's ``extensions`` come first, then the names and extensions of the
    languages read with a generic grammar (``tree-sitter-language-pack``).

    Args:
        path: a file name or path; only its base name is used.

    Returns:
        A canonical language name, or None when nothing (or several grammar files) list it.

    >>> language_from_path("src/Main.java"), language_from_path("cmd/main.go")
    ('java', 'go')
    """
    ext = _extension(path)
    if ext:
        owners = _listing("extensions", ext)
        if owners:
            return owners[0] if len(owners) == 1 else None
    base = os.path.basename(os.fspath(path))
    return GENERIC_FILENAMES.get(base) or GENERIC_EXTENSIONS.get(ext)


def _known() -> str:
    """The languages codetok can read here, for error messages."""
    names = [name for name in available_languages() if grammar_installed(name)]
    text = ", ".join(names)
    missing = [name for name in grammar_specs() if not grammar_installed(name)]
    if missing:
        text += f"; with pip install 'codetok[languages]' also {', '.join(missing)}"
    if pack_installed():
        text += "; and, with a generic grammar, every language of tree-sitter-language-pack"
    return text


def _shebang_program(first_line: str) -> str | None:
    if not first_line.startswith("#!") or first_line[2:].lstrip().startswith("["):
        return None  # "#![...]" is a Rust inner attribute, not a shebang
    words = first_line[2:].strip().split()
    if not words:
        return None
    prog = os.path.basename(words[0])
    if prog == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        if not rest:
            return None
        prog = os.path.basename(rest[0])
    return prog


def language_from_shebang(source: str | bytes) -> str | None:
    """Return the language named by a ``#!`` first line, or None when there is no shebang.

    Args:
        source: the code (only the first line is read).

    Returns:
        A canonical language name, or None when the code has no shebang line.

    Raises:
        LanguageError: the shebang names an interpreter no grammar file lists.

    >>> language_from_shebang("#!/usr/bin/env python3\\nprint(1)\\n")
    'python'
    """
    head = source[:512]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    head = head.lstrip("\ufeff")
    prog = _shebang_program(head.split("\n", 1)[0].rstrip("\r"))
    if prog is None:
        return None
    base = _VERSION_SUFFIX.sub("", prog) or prog
    for name, spec in grammar_specs().items():
        names = spec.get("shebangs", [])
        if prog in names or base in names:
            return name
    generic = GENERIC_SHEBANGS.get(prog) or GENERIC_SHEBANGS.get(base)
    if generic is not None:
        return generic
    raise LanguageError(
        f"the shebang names {prog!r}, an interpreter no grammar file lists "
        f"(known: {_known()}); pass language= explicitly"
    )


def _error_bytes(language: str, data: bytes, budget: ParseBudget | None) -> int:
    """Bytes inside ERROR nodes plus MISSING nodes, after parsing ``data`` (natively when
    the native lexer runs; a parse past its budget counts every byte as an error: that
    grammar is no candidate)."""
    grammar = get_grammar(language)
    if native_lexer(grammar) is not None:
        core = _backend.core()
        seconds, max_bytes = (budget or DEFAULT_BUDGET).limits(len(data))
        try:
            return int(core.error_bytes(grammar.capsule, data, seconds, max_bytes))
        except core.ParseStopped:
            return len(data) + 1
    try:
        root = parse_tree(grammar, data, budget).root_node
    except ParseLimitError:
        return len(data) + 1
    if not root.has_error:
        return 0
    total = 0
    todo = [root]
    while todo:
        node = todo.pop()
        if node.is_error:
            total += max(1, node.end_byte - node.start_byte)
        elif node.is_missing:
            total += 1
        elif node.has_error:
            todo.extend(node.children)
    return total


@functools.cache
def _patterns(name: str) -> tuple[tuple[re.Pattern[str], int], ...]:
    """The compiled ``[detect] patterns`` of a grammar file (its grammar stays unloaded)."""
    spec = grammar_specs()[name]
    return tuple(
        (re.compile(p, re.MULTILINE), int(w)) for p, w in spec.get("detect", {}).get("patterns", [])
    )


def score_languages(text: str, candidates: list[str] | None = None) -> dict[str, int]:
    """Score the ``[detect] patterns`` of grammar files on a text.

    Args:
        text: the code (the caller truncates it).
        candidates: the languages to score; by default every grammar file whose grammar
            package is installed.

    Returns:
        Language name -> summed weight of the patterns that match.

    >>> score_languages("import os\\ndef f(x):\\n    return x\\n")["python"] > 0
    True
    """
    if candidates is None:
        candidates = [name for name in grammar_specs() if grammar_installed(name)]
    return {name: sum(w for p, w in _patterns(name) if p.search(text)) for name in candidates}


def _sample_text(source: str | bytes) -> str:
    sample = source[:_SAMPLE]
    return sample.decode("utf-8", "replace") if isinstance(sample, bytes) else sample


def _by_shared_extension(owner: str, path: str | os.PathLike[str], source: str | bytes) -> str:
    """The owner of an extension, or a language that shares it when the content says so."""
    sharers = _listing("shared_extensions", _extension(path))
    if not sharers:
        return owner
    scores = score_languages(_sample_text(source), [owner, *sharers])
    best = max(sharers, key=lambda name: scores[name])
    return best if scores[best] >= _MIN_SCORE and scores[best] > scores[owner] else owner


def detect_language(
    source: str | bytes | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    budget: ParseBudget | None = None,
) -> str:
    """Detect the language of source code from its path, shebang or content.

    Args:
        source: the code (str or bytes), or None to decide from ``path`` alone.
        path: the file name; a known extension decides at once.
        budget: the budget of each parse that tells two close candidates apart (see
            :class:`~codetok.code.front.budget.ParseBudget`).

    Returns:
        A canonical language name such as ``"python"``.

    Raises:
        LanguageError: the extension, shebang and content do not point to one language
            with confidence; the message lists the candidates.

    >>> detect_language(path="app.mjs")
    'javascript'
    >>> detect_language("package a.b;\\nimport java.util.List;\\nclass A {}\\n")
    'java'
    """
    where = f"{os.fspath(path)!r}" if path is not None else "the source"
    if path is not None:
        by_path = language_from_path(path)
        if by_path is not None:
            return by_path if source is None else _by_shared_extension(by_path, path, source)
    if source is None:
        raise LanguageError(
            f"cannot tell the language of {where} from its name "
            f"(known: {_known()}); pass language= explicitly"
        )
    by_shebang = language_from_shebang(source)
    if by_shebang is not None:
        return by_shebang
    text = _sample_text(source)
    if not text.strip():
        raise LanguageError(
            f"cannot detect the language of {where}: it is empty or blank; "
            "pass language= explicitly"
        )
    return _by_content(text, where, budget)


def _by_content(text: str, where: str, budget: ParseBudget | None) -> str:
    """The language whose patterns clearly score highest (parse errors break near ties)."""
    scores = score_languages(text)
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (top, top_score), (second, second_score) = ranked[0], ranked[1]
    if top_score < _MIN_SCORE:
        raise LanguageError(
            f"cannot detect the language of {where}: no language looks likely "
            f"(known: {_known()}); pass language= explicitly"
        )
    if second_score * 3 >= top_score * 2:
        data = text.encode("utf-8", "surrogatepass")
        errors = {
            name: _error_bytes(name, data, budget) for name, sc in ranked if sc * 3 >= top_score * 2
        }
        best = sorted(errors.items(), key=lambda kv: (kv[1], -scores[kv[0]]))
        if len(best) > 1 and best[1][1] - best[0][1] >= max(2, len(data) // 200):
            return best[0][0]
        raise LanguageError(
            f"cannot detect the language of {where}: it could be {top} or {second} "
            f"(scores {dict(ranked[:4])}, syntax-error bytes {errors}); pass language= explicitly"
        )
    return top
