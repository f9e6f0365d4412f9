"""The reserved tokens of a code tokenizer: keywords, layout markers and comment markers.

A code tokenizer reserves one token per (language, keyword), taken from the grammar files
(reserved and contextual keywords), plus a fixed set of structural tokens:

- layout: ``<INDENT>``, ``<DEDENT>`` (zero-width), ``<NL>`` (``"\\n"``), ``<CRLF>``
  (``"\\r\\n"``) and ``<CR>`` (``"\\r"``);
- comment channel: ``<comment>`` / ``</comment>`` and ``<doc>`` / ``</doc>`` around comments
  and docstrings (zero-width);
- docstring sections: ``<doc:summary>``, ``<doc:param>``, ``<doc:returns>``,
  ``<doc:raises>``, ``<doc:example>``, ``<doc:see>``, ``<doc:note>``, ``<doc:deprecated>``
  (zero-width, placed right before a section header such as ``Args:``, ``@param`` or
  ``<summary>``).

Each reserved token has a *surface*: the exact text it stands for in the source ("" for
zero-width markers), so decoding never needs the lexer. This module only names tokens and
surfaces; deciding which lexeme gets which token is :mod:`codetok.code.routing.router`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...errors import FormatError

__all__ = [
    "INDENT",
    "DEDENT",
    "NEWLINES",
    "COMMENT_OPEN",
    "COMMENT_CLOSE",
    "DOC_OPEN",
    "DOC_CLOSE",
    "SECTION_NAMES",
    "ReservedTokens",
    "keyword_token",
    "LANGUAGE_TAGS",
]

INDENT = "<INDENT>"
DEDENT = "<DEDENT>"
#: newline spelling -> reserved token
NEWLINES = {"\n": "<NL>", "\r\n": "<CRLF>", "\r": "<CR>"}
COMMENT_OPEN = "<comment>"
COMMENT_CLOSE = "</comment>"
DOC_OPEN = "<doc>"
DOC_CLOSE = "</doc>"
SECTION_NAMES = (
    "summary",
    "param",
    "returns",
    "raises",
    "example",
    "see",
    "note",
    "deprecated",
)
#: short tags used in keyword token names
LANGUAGE_TAGS = {
    "python": "py", "java": "java", "csharp": "cs", "javascript": "js", "typescript": "ts",
    "rust": "rs", "ruby": "rb", "kotlin": "kt", "bash": "sh", "haskell": "hs",
}  # fmt: skip


def keyword_token(language: str, keyword: str) -> str:
    """Return the reserved token name of a keyword of a language.

    Args:
        language: canonical language name (``"python"``).
        keyword: the keyword as spelled in source (``"def"``).

    Returns:
        The token, for example ``"<py:def>"``.

    >>> keyword_token("java", "class"), keyword_token("java", " class")
    ('<java:class>', '<java: class>')
    """
    return f"<{LANGUAGE_TAGS.get(language, language)}:{keyword}>"


@dataclass
class ReservedTokens:
    """The reserved tokens of a code tokenizer, in id order, with their surfaces.

    Attributes:
        tokens: token strings in the order they get ids.
        surfaces: token -> the exact source text it stands for ("" for markers).
        keywords: language -> {keyword spelling -> token}.

    >>> r = ReservedTokens.build({"python": ["def", "if"]})
    >>> r.keywords["python"]["def"], r.surfaces["<NL>"]
    ('<py:def>', '\\n')
    """

    tokens: list[str] = field(default_factory=list)
    surfaces: dict[str, str] = field(default_factory=dict)
    keywords: dict[str, dict[str, str]] = field(default_factory=dict)

    def _add(self, token: str, surface: str) -> None:
        if token not in self.surfaces:
            self.tokens.append(token)
            self.surfaces[token] = surface

    @classmethod
    def build(cls, keywords: dict[str, Iterable[str]]) -> ReservedTokens:
        """Build the reserved set for languages and their keywords.

        Args:
            keywords: language -> keywords (reserved and contextual, any order).

        Returns:
            The structural tokens first, then keyword tokens per language (sorted).
        """
        out = cls()
        out._add(INDENT, "")
        out._add(DEDENT, "")
        for nl, tok in NEWLINES.items():
            out._add(tok, nl)
        for tok in (COMMENT_OPEN, COMMENT_CLOSE, DOC_OPEN, DOC_CLOSE):
            out._add(tok, "")
        for name in SECTION_NAMES:
            out._add(f"<doc:{name}>", "")
        for lang in sorted(keywords):
            table: dict[str, str] = {}
            for kw in sorted(set(keywords[lang])):
                tok = keyword_token(lang, kw)
                out._add(tok, kw)
                table[kw] = tok
            out.keywords[lang] = table
        return out

    @classmethod
    def for_languages(cls, languages: Iterable[str], spaced: bool = False) -> ReservedTokens:
        """Build the reserved set from the grammar files of ``languages``.

        Args:
            languages: language names or aliases (``"python"``, ``"cs"``...).
            spaced: also a spaced twin of every keyword (``" def"``, the token
                ``"<py: def>"``), for a single space before the keyword (the router's
                ``spaced_keywords``).

        Returns:
            A :class:`ReservedTokens` with every reserved and contextual keyword.

        Raises:
            LanguageError: a language is unknown.

        >>> "<py:def>" in ReservedTokens.for_languages(["python"]).surfaces
        True
        """
        from ..front.languages import get_grammar

        table: dict[str, list[str]] = {}
        for lang in languages:
            g = get_grammar(lang)
            words = sorted(g.keywords | g.contextual_keywords)
            table[g.name] = words + [" " + w for w in words] if spaced else words
        return cls.build(table)

    def to_dict(self) -> dict[str, object]:
        """The JSON form: ``{"keywords": {language: [keyword, ...]}}`` (the rest is fixed)."""
        return {"keywords": {lang: sorted(t) for lang, t in sorted(self.keywords.items())}}

    @classmethod
    def from_dict(
        cls, data: dict[str, object], *, path: str | None = None, where: str = "reserved"
    ) -> ReservedTokens:
        """Inverse of :meth:`to_dict`, refusing anything :meth:`to_dict` does not write.

        Args:
            data: ``{"keywords": {language: [keyword, ...]}}``.
            path: the file ``data`` came from, for errors.
            where: the place of ``data`` in that file, for errors.

        Raises:
            FormatError: naming the key: ``data`` is not that object, a language is not a
                canonical name (``"python"``, not ``"py"``), a keyword list is not a list of
                distinct non-empty strings (an int, an object or a string in its place used
                to load as other keywords, and so other ids).

        >>> ReservedTokens.from_dict({"keywords": {"python": ["def"]}}).keywords
        {'python': {'def': '<py:def>'}}
        >>> ReservedTokens.from_dict({"keywords": {"python": ["def", 1]}})
        Traceback (most recent call last):
        ...
        codetok.errors.FormatError: at reserved.keywords.python[1]: expected a non-empty string (a keyword), got int 1
        """
        from ..front.languages import resolve_language_name

        def fail(message: str, at: str = "") -> FormatError:
            return FormatError(message, path=path, where=where + at)

        if not isinstance(data, dict) or set(data) != {"keywords"}:
            got = f"the keys {sorted(data)}" if isinstance(data, dict) else type(data).__name__
            raise fail(f'expected {{"keywords": {{language: [keyword, ...]}}}}, got {got:.100}')
        kw = data["keywords"]
        if not isinstance(kw, dict):
            raise fail(
                f"expected an object mapping languages to lists of keywords, got "
                f"{type(kw).__name__} {kw!r:.80}",
                ".keywords",
            )
        table: dict[str, list[str]] = {}
        for lang, words in kw.items():
            at = f".keywords.{lang}"
            if not lang or resolve_language_name(lang) != lang:
                raise fail(
                    f"{lang!r} is not a canonical language name (lowercase, no alias: "
                    f"{resolve_language_name(lang)!r})",
                    at,
                )
            if not isinstance(words, list):
                raise fail(
                    f"expected a list of keywords, got {type(words).__name__} {words!r:.80}", at
                )
            for i, w in enumerate(words):
                if not isinstance(w, str) or not w:
                    raise fail(
                        f"expected a non-empty string (a keyword), got {type(w).__name__} {w!r:.80}",
                        f"{at}[{i}]",
                    )
            if len(set(words)) != len(words):
                twice = next(w for i, w in enumerate(words) if w in words[:i])
                raise fail(f"keyword {twice!r} is listed twice", at)
            table[lang] = words
        return cls.build(table)
