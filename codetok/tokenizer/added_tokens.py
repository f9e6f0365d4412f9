"""Added and special tokens: their options and how they are found in text.

HF semantics: tokens with ``normalized=False`` are matched on the original text before
normalization; the others are matched, in their normalized form, on the normalized text
that remains. Matching is leftmost-longest in one pass: all contents go into one trie that
is compiled to a single regex, so thousands of added tokens cost about as much as a few.

- ``single_word``: only match when not glued to a word character on either side.
- ``lstrip`` / ``rstrip``: the match swallows whitespace on its left / right.
- ``special``: skipped by ``decode(skip_special_tokens=True)``; subject to the
  tiktoken-style ``allowed_special`` / ``disallowed_special`` policy.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..errors import FormatError, VocabularyError
from ..normalizers import RUST_WHITESPACE
from .offsets import Span

if TYPE_CHECKING:
    import regex

__all__ = ["AddedToken", "AddedVocabulary", "trie_pattern"]

# ``regex`` is imported where a pattern is built: ``import codetok`` does not load it.


class AddedToken:
    """A token added on top of the model's vocabulary.

    Args:
        content: the token text.
        single_word: match only as a whole word.
        lstrip: also swallow whitespace to the left of a match.
        rstrip: also swallow whitespace to the right of a match.
        normalized: match against normalized text (default: ``not special``).
        special: a special token (skipped when decoding with ``skip_special_tokens``).

    >>> AddedToken("<mask>", lstrip=True, special=True).normalized
    False
    """

    # What a dataclass of these fields would generate, written out (``dataclasses`` imports
    # ``inspect``, which ``import codetok`` does not load): the constructor, ``repr``,
    # ``==`` on all fields, and the fields in order for ``match``.
    __match_args__ = ("content", "single_word", "lstrip", "rstrip", "normalized", "special")

    content: str
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool | None = None
    special: bool = False

    def __init__(
        self,
        content: str,
        single_word: bool = False,
        lstrip: bool = False,
        rstrip: bool = False,
        normalized: bool | None = None,
        special: bool = False,
    ) -> None:
        self.content = content
        self.single_word = single_word
        self.lstrip = lstrip
        self.rstrip = rstrip
        self.normalized = normalized
        self.special = special
        if not isinstance(self.content, str) or not self.content:
            raise VocabularyError(
                f"an added token needs non-empty string content, got {self.content!r}"
            )
        if self.normalized is None:
            self.normalized = not self.special

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__qualname__}({args})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return self.content

    def __hash__(self) -> int:
        return hash(self.content)

    def to_dict(self, id: int) -> dict[str, Any]:
        """The HF ``added_tokens`` entry."""
        return {
            "id": id,
            "content": self.content,
            "single_word": self.single_word,
            "lstrip": self.lstrip,
            "rstrip": self.rstrip,
            "normalized": self.normalized,
            "special": self.special,
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, path: str | None = None, where: str = "added_tokens"
    ) -> AddedToken:
        try:
            return cls(
                data["content"],
                single_word=bool(data.get("single_word", False)),
                lstrip=bool(data.get("lstrip", False)),
                rstrip=bool(data.get("rstrip", False)),
                normalized=data.get("normalized"),
                special=bool(data.get("special", False)),
            )
        except (KeyError, TypeError, VocabularyError) as e:
            raise FormatError(f"malformed added token: {e}", path=path, where=where) from e


def trie_pattern(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, longest alternative first at each position.

    >>> import regex
    >>> regex.findall(trie_pattern(["<a>", "<ab>", "b"]), "x<ab>b")
    ['<ab>', 'b']
    """
    import regex

    words = list(words)
    trie: dict[str, Any] = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = True

    def emit(node: dict[str, Any]) -> str:
        alts = [regex.escape(ch) + emit(child) for ch, child in node.items() if ch != ""]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if "" in node:
            return "(?:" + body + ")?"
        return body

    depth = max(map(len, words), default=0)
    if depth + 100 > sys.getrecursionlimit():  # emit() recurses once per character
        sys.setrecursionlimit(depth + 200)
    return emit(trie)


def _is_word_char(c: str) -> bool:
    """Whether ``c`` glues a ``single_word`` token to a word: HF's test is Rust regex's
    ``\\w`` (pinned in :mod:`codetok.unicode.generated.bert_tables`, as the ``Whitespace`` pre-tokenizer's;
    the ``regex`` module's ``\\w`` differs on 17,559 code points)."""
    return _word_char_re().match(c) is not None


@functools.lru_cache(maxsize=1)
def _word_char_re() -> regex.Pattern[str]:
    import regex

    from ..unicode.generated import bert_tables as bu
    from ..unicode.hf_regex import fast_class

    near, exact = fast_class(bu.WORD, r"\w")
    return regex.compile(f"(?=[{near}]){exact}")


class _Matcher:
    """One trie over some contents, mapping each content to its token id; compiled to a
    regex on first use (the Python pipeline's; a native plan reads only :attr:`ids`, and
    compiling 40k contents takes seconds)."""

    def __init__(self, contents: dict[str, int], tokens: dict[int, AddedToken]) -> None:
        self.ids = contents
        #: The tokens the contents were taken from (one state: see :class:`AddedVocabulary`).
        self.tokens = tokens
        self._regex: regex.Pattern[str] | None = None

    @property
    def regex(self) -> regex.Pattern[str] | None:
        """The compiled trie (``None``: no contents)."""
        if self._regex is None and self.ids:
            import regex

            self._regex = regex.compile(trie_pattern(self.ids))
        return self._regex


class _State:
    """One version of an added vocabulary: never changed once published, so a reader that
    took it sees one consistent vocabulary (its matchers are built on first use)."""

    __slots__ = ("tokens", "by_content", "version", "top", "built")

    def __init__(
        self, tokens: dict[int, AddedToken], by_content: dict[str, int], version: int, top: int
    ) -> None:
        self.tokens = tokens
        self.by_content = by_content
        self.version = version
        #: The highest id (-1 when empty): a new id is found in O(1), not by ``max``.
        self.top = top
        #: ``(normalize, (raw, norm), display)`` of the last :meth:`matchers` call.
        self.built: tuple[Any, tuple[_Matcher, _Matcher], dict[int, str]] | None = None

    def matchers(
        self, normalize: Callable[[str], str] | None
    ) -> tuple[tuple[_Matcher, _Matcher], dict[int, str]]:
        built = self.built
        if built is not None and built[0] is normalize:
            return built[1], built[2]
        raw: dict[str, int] = {}
        norm: dict[str, int] = {}
        display: dict[int, str] = {}
        for tid, tok in self.tokens.items():
            if tok.normalized and normalize is not None:
                key = normalize(tok.content)
                display[tid] = key
                if key:
                    norm.setdefault(key, tid)
            elif tok.normalized:
                norm.setdefault(tok.content, tid)
            else:
                raw.setdefault(tok.content, tid)
        pair = (_Matcher(raw, self.tokens), _Matcher(norm, self.tokens))
        # Two threads may build at once: both build the same, either result is kept.
        self.built = (normalize, pair, display)
        return pair, display

    def special_contents(self) -> set[str]:
        return {t.content for t in self.tokens.values() if t.special}

    def display(self, tid: int, normalize: Callable[[str], str] | None) -> str | None:
        """The string HF shows for an added id: normalized tokens appear normalized."""
        tok = self.tokens.get(tid)
        if tok is None:
            return None
        return self.matchers(normalize)[1].get(tid, tok.content)


class AddedVocabulary:
    """The tokens added on top of a model, in insertion order, and their matchers.

    Safe to share between threads: a change builds a new :class:`_State` under a lock and
    publishes it with one assignment, then bumps :attr:`version`. A reader takes the state
    once (:attr:`state`) and sees either the old or the new vocabulary, never a mix; one
    that reads :attr:`version` before the state never keys a new state with an old
    version. Adding ``n`` tokens in one call costs O(n + size) (one copy per call).
    """

    def __init__(self) -> None:
        self.state = _State({}, {}, 0, -1)
        #: Bumped after every change, so compiled plans (codetok/engine/plan.py) know they are
        #: stale. It is a plain attribute (the native ``encode`` reads it from ``__dict__``).
        self.version = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.state.tokens)

    def __getstate__(self) -> dict[str, Any]:
        return {"state": self.state, "version": self.version}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.state = data["state"]
        self.version = data["version"]
        self._lock = threading.Lock()

    @property
    def tokens(self) -> dict[int, AddedToken]:
        """Id -> token of the current state (read-only: change it with :meth:`add`)."""
        return self.state.tokens

    def _publish(self, tokens: dict[int, AddedToken], by_content: dict[str, int], top: int) -> None:
        """Make ``tokens`` the current state (the caller holds the lock)."""
        version = self.state.version + 1
        self.state = _State(tokens, by_content, version, top)
        self.version = version

    def add(
        self,
        tokens: Iterable[AddedToken],
        model_token_to_id: Callable[[str], int | None],
        model_size: int,
    ) -> int:
        """Add tokens; returns how many changed the vocabulary (HF counting).

        A token identical (content and options) to one already added is ignored; a known
        content gets its new options; a content in the model's vocabulary keeps its id; a
        new content gets the model size, or the id after the highest added one once that
        is at or past it (HF's numbering).
        """
        tokens = list(tokens)
        with self._lock:
            old = self.state
            ids = dict(old.tokens)
            by_content = dict(old.by_content)
            top = old.top
            added = 0
            for tok in tokens:
                existing = by_content.get(tok.content)
                if existing is not None:
                    if ids[existing] != tok:
                        ids[existing] = tok
                        added += 1
                    continue
                added += 1
                new_id = model_token_to_id(tok.content)
                if new_id is None:
                    new_id = top + 1 if (top >= model_size or model_size == 0) else model_size
                    while new_id in ids:
                        new_id += 1
                ids[new_id] = tok
                by_content[tok.content] = new_id
                top = max(top, new_id)
            self._publish(ids, by_content, top)
        return added

    def set_with_id(self, tok: AddedToken, tid: int) -> None:
        """Insert a token at a fixed id (when loading a ``tokenizer.json``)."""
        self.set_many([(tok, tid)])

    def set_many(self, rows: Iterable[tuple[AddedToken, int]]) -> None:
        """Insert tokens at fixed ids, in order (a later row for an id replaces an earlier)."""
        rows = list(rows)
        with self._lock:
            old = self.state
            ids = dict(old.tokens)
            by_content = dict(old.by_content)
            top = old.top
            for tok, tid in rows:
                was = ids.get(tid)
                if was is not None:
                    by_content.pop(was.content, None)
                ids[tid] = tok
                by_content[tok.content] = tid
                top = max(top, tid)
            self._publish(ids, by_content, top)

    def id_of(self, content: str) -> int | None:
        return self.state.by_content.get(content)

    def token_of(self, tid: int) -> AddedToken | None:
        return self.state.tokens.get(tid)

    def is_special_id(self, tid: int) -> bool:
        t = self.state.tokens.get(tid)
        return t is not None and t.special

    def special_contents(self) -> set[str]:
        return self.state.special_contents()

    def display(self, tid: int, normalize: Callable[[str], str] | None) -> str | None:
        """The string HF shows for an added id: normalized tokens appear normalized."""
        return self.state.display(tid, normalize)

    def matchers(self, normalize: Callable[[str], str] | None) -> tuple[_Matcher, _Matcher]:
        """The raw and normalized matchers of the current state (one state for both)."""
        return self.state.matchers(normalize)[0]

    def find(
        self, text: str, matcher: _Matcher, skip: frozenset[str] | None
    ) -> list[tuple[int | None, Span]]:
        """Split ``text`` into ``(token_id | None, span)`` parts covering it in order."""
        if matcher.regex is None or not text:
            return [(None, (0, len(text)))]
        out: list[tuple[int | None, Span]] = []
        pos = 0
        n = len(text)
        tokens = matcher.tokens
        for m in matcher.regex.finditer(text):
            start, stop = m.span()
            tid = matcher.ids[m.group()]
            tok = tokens[tid]
            if skip is not None and tok.special and tok.content in skip:
                continue
            if tok.single_word:
                if (start > 0 and _is_word_char(text[start - 1])) or (
                    stop < n and _is_word_char(text[stop])
                ):
                    continue
            if tok.lstrip:
                s = start
                while s > 0 and text[s - 1] in RUST_WHITESPACE:
                    s -= 1
                start = max(s, pos)
            if tok.rstrip:
                while stop < n and text[stop] in RUST_WHITESPACE:
                    stop += 1
            if pos < start:
                out.append((None, (pos, start)))
            out.append((tid, (start, stop)))
            pos = stop
        if pos < n:
            out.append((None, (pos, n)))
        return out

    def find_disallowed(self, text: str, disallowed: Iterable[str]) -> str | None:
        """The first disallowed special token content occurring in ``text``, if any."""
        for content in disallowed:
            if content in text:
                return content
        return None
