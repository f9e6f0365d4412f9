"""One language's tables: node type -> lexeme kind, roles of nodes, comment rules.

:class:`Grammar` joins a tree-sitter ``Language`` with what codetok knows about it, built
from the mapping of one ``grammars/*.toml`` file (see ``grammars/README.md``) into flat
lookup tables indexed by tree-sitter kind id, which the lexer reads in its hot loop. A
language without a file gets a generic mapping guessed from node type names
(:func:`generic_grammar`). Loading files and finding languages by name is
:mod:`codetok.code.front.languages`; walking trees is :mod:`codetok.code.front.lexer`.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import tree_sitter

from ...errors import FormatError, LanguageError
from .kinds import LexemeKind

__all__ = [
    "Grammar",
    "DocstringRule",
    "generic_grammar",
    "build_grammar",
    "TEXT_DEFINED",
    "text_kind",
]


#: Leaf-kind table entry meaning "decide from the lexeme's text" (unmapped named leaves).
TEXT_DEFINED = 255
_WORD = re.compile(r"^[@$]?[^\W\d]\w*$")
_NUM = re.compile(r"^\.?\d")
_PUNCT = frozenset("( ) [ ] { } , ; . : ::".split())


def text_kind(raw: bytes) -> int:
    """Kind of a named leaf the grammar file does not map (:data:`TEXT_DEFINED`), from its
    text; the Python lexer and the native one's callback both ask it."""
    t = raw.decode("utf-8", "surrogateescape")
    if _WORD.match(t):
        return LexemeKind.IDENTIFIER
    if _NUM.match(t):
        return LexemeKind.NUMBER
    if t.isspace():
        return LexemeKind.WHITESPACE
    return LexemeKind.PUNCTUATION if t in _PUNCT else LexemeKind.OPERATOR


# Role bits of a node type, looked up by kind id while walking the tree.
ROLE_STRING = 1  # content is STRING (merged into runs)
ROLE_CODE = 2  # code inside a string (interpolation)
ROLE_DECORATOR = 4
ROLE_ERROR = 8
ROLE_INDENT = 16  # opens an indented block
ROLE_DOCBODY = 32  # may hold a docstring as its first statement
ROLE_ATOMIC = 64  # emitted whole, children ignored (comments)

_KIND_NAMES = {
    "keyword": LexemeKind.KEYWORD,
    "identifier": LexemeKind.IDENTIFIER,
    "operator": LexemeKind.OPERATOR,
    "punctuation": LexemeKind.PUNCTUATION,
    "number": LexemeKind.NUMBER,
    "string": LexemeKind.STRING,
    "comment": LexemeKind.COMMENT,
    "docstring": LexemeKind.DOCSTRING,
    "whitespace": LexemeKind.WHITESPACE,
    "newline": LexemeKind.NEWLINE,
    "error": LexemeKind.ERROR,
}

_DEFAULT_PUNCTUATION = frozenset("( ) [ ] { } , ; . : :: ... ?. @".split())
_WORDLIKE = re.compile(r"^[#@]?[^\W\d]\w*(?:[- ]\w+)*$")


@dataclass(frozen=True, eq=False)
class DocstringRule:
    """Where docstrings may appear: first lone-string statement of some bodies."""

    #: body node type -> None (any parent) or the parent types it must have
    bodies: Mapping[str, frozenset[str] | None]
    statement: str
    strings: frozenset[str]


@dataclass(frozen=True, eq=False)
class Grammar:
    """One language: a tree-sitter ``Language`` plus codetok's tables for it.

    Build one with :func:`get_grammar` (by name) or :func:`load_grammar` (from a TOML file);
    the fields below are read-only.
    """

    name: str
    language: tree_sitter.Language
    aliases: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    shebangs: tuple[str, ...] = ()
    keywords: frozenset[str] = frozenset()
    contextual_keywords: frozenset[str] = frozenset()
    generic: bool = False
    origin: str = ""
    #: unique node type names; index 0 is "" (bytes no node covers)
    type_names: tuple[str, ...] = ()
    #: kind id -> index into type_names
    type_index: tuple[int, ...] = ()
    #: kind id -> LexemeKind value when the node is a leaf, or TEXT_DEFINED
    leaf_kinds: tuple[int, ...] = ()
    #: kind id -> ROLE_* bits
    roles: tuple[int, ...] = ()
    #: (anonymous kind id, parent type index) -> kind, from ``[kinds.by_parent]``
    by_parent: Mapping[tuple[int, int], int] = field(default_factory=dict)
    #: named kind id -> {text: kind}, from ``[kinds.by_text]`` (leaves whose spelling decides)
    by_text: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    #: text of a run of bytes no node covers -> kind, from ``[kinds.gaps]`` (else ERROR)
    gap_kinds: Mapping[bytes, int] = field(default_factory=dict)
    comment_line: tuple[str, ...] = ()
    comment_block: tuple[tuple[str, str], ...] = ()
    comment_doc: tuple[re.Pattern[str], ...] = ()
    docstring: DocstringRule | None = None
    #: type indices of the nodes a comment right above documents (``[comments] doc_before``)
    doc_before: frozenset[int] = frozenset()
    detect_patterns: tuple[tuple[re.Pattern[str], int], ...] = ()
    #: the grammar package's ``tree_sitter.Language`` capsule (None: not from a package)
    capsule: Any = field(default=None, repr=False)
    _local: threading.local = field(default_factory=threading.local, repr=False)

    def parser(self) -> tree_sitter.Parser:
        """Return this thread's parser for the language (parsers are not thread-safe).

        Returns:
            A ``tree_sitter.Parser`` reused by later calls on the same thread.

        >>> from codetok.code import get_grammar
        >>> get_grammar("python").parser().language.name
        'python'
        """
        parser = getattr(self._local, "parser", None)
        if parser is None or getattr(self._local, "pid", None) != os.getpid():
            parser = tree_sitter.Parser(self.language)
            self._local.parser = parser
            self._local.pid = os.getpid()
        return parser

    def comment_style(self, text: str) -> str:
        """Classify a comment's text as ``"doc"``, ``"block"``, ``"line"`` or ``"other"``.

        Args:
            text: the whole comment, delimiters included.

        Returns:
            The style, from the grammar's ``[comments]`` rules.

        >>> from codetok.code import get_grammar
        >>> get_grammar("java").comment_style("/** Returns x. */")
        'doc'
        """
        if any(p.match(text) for p in self.comment_doc):
            return "doc"
        if any(text.startswith(b) for b, _ in self.comment_block):
            return "block"
        if any(text.startswith(p) for p in self.comment_line):
            return "line"
        return "other"

    def kind_of(self, type_name: str, *, named: bool = True) -> LexemeKind | None:
        """Return the lexeme kind a leaf of this node type gets, or None when text decides.

        Args:
            type_name: a tree-sitter node type, for example ``"identifier"`` or ``"def"``.
            named: whether the node is named (anonymous tokens are keywords/operators).

        Returns:
            The kind, or None for an unmapped named type (its text decides when lexing).

        Raises:
            LanguageError: the grammar has no such node type.

        >>> from codetok.code import get_grammar
        >>> get_grammar("python").kind_of("def", named=False).name
        'KEYWORD'
        """
        kid = self.language.id_for_node_kind(type_name, named)
        if kid is None:
            raise LanguageError(f"{self.name} grammar has no node type {type_name!r}")
        value = self.leaf_kinds[kid]
        return None if value == TEXT_DEFINED else LexemeKind(value)

    def __repr__(self) -> str:
        kind = "generic" if self.generic else "toml"
        return f"Grammar({self.name!r}, {kind}, node_kinds={len(self.leaf_kinds)})"


# ----------------------------------------------------------------------------- building


def _generic_named_kind(name: str) -> int:
    low = name.lower()
    if name == "ERROR":
        return LexemeKind.ERROR
    if "comment" in low:
        return LexemeKind.COMMENT
    if "identifier" in low or low in ("name", "constant", "variable", "field_name"):
        return LexemeKind.IDENTIFIER
    if low in ("true", "false", "null", "nil", "none", "self", "this", "super", "boolean"):
        return LexemeKind.KEYWORD
    if any(w in low for w in ("string", "char", "escape", "heredoc", "regex", "fragment")):
        return LexemeKind.STRING
    if any(w in low for w in ("number", "integer", "float", "decimal", "numeric", "real_lit")):
        return LexemeKind.NUMBER
    return TEXT_DEFINED


def _anonymous_kind(name: str, punctuation: frozenset[str], words: frozenset[str]) -> int:
    if name in words or _WORDLIKE.match(name):
        return LexemeKind.KEYWORD
    if name in punctuation:
        return LexemeKind.PUNCTUATION
    return LexemeKind.OPERATOR


def _as_str_tuple(value: Any, where: str, origin: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FormatError("expected a list of strings", path=origin, where=where)
    return tuple(value)


def build_grammar(
    name: str,
    language: tree_sitter.Language,
    spec: Mapping[str, Any],
    *,
    generic: bool,
    origin: str,
    capsule: Any = None,
) -> Grammar:
    """Build the lookup tables of a grammar from a parsed TOML mapping (``capsule``: the
    grammar package's language capsule, which the native lexer parses with)."""
    kw = spec.get("keywords", {})
    reserved = frozenset(_as_str_tuple(kw.get("reserved"), "keywords.reserved", origin))
    contextual = frozenset(_as_str_tuple(kw.get("contextual"), "keywords.contextual", origin))
    rules, by_parent_spec, docstring = _node_rules(spec, origin, generic, reserved | contextual)
    by_text_spec, gap_spec = _text_maps(spec.get("kinds", {}), origin)
    count = language.node_kind_count
    # kind ids 0..count-1, then two of codetok's own: GAP (bytes no leaf covers) and ERROR
    # (tree-sitter gives ERROR nodes the id 65535, which the lexer folds to count + 1)
    names = [language.node_kind_for_id(k) or "" for k in range(count)] + ["", "ERROR"]
    named_flags = [language.node_kind_is_named(k) for k in range(count)] + [False, True]
    type_names = ("",) + tuple(sorted(set(names) - {""}))
    name_to_index = {n: i for i, n in enumerate(type_names)}
    leaf_kinds = [rules.leaf_kind(t, named) for t, named in zip(names, named_flags, strict=True)]
    roles = [rules.roles(t, named) for t, named in zip(names, named_flags, strict=True)]
    by_parent = _by_parent(names, named_flags, by_parent_spec, name_to_index)
    by_text = {
        kid: by_text_spec[t]
        for kid, (t, named) in enumerate(zip(names, named_flags, strict=True))
        if named and t in by_text_spec
    }
    comments = spec.get("comments", {})
    doc_res = _doc_comment_patterns(comments, origin)
    detect = _detect_patterns(spec, origin)
    block = comments.get("block") or []
    return Grammar(
        name=name,
        language=language,
        aliases=_as_str_tuple(spec.get("aliases"), "aliases", origin),
        extensions=tuple(
            e.lower() for e in _as_str_tuple(spec.get("extensions"), "extensions", origin)
        ),
        shebangs=_as_str_tuple(spec.get("shebangs"), "shebangs", origin),
        keywords=reserved,
        contextual_keywords=contextual,
        generic=generic,
        origin=origin,
        type_names=type_names,
        type_index=tuple(name_to_index[n] for n in names),
        leaf_kinds=tuple(leaf_kinds),
        roles=tuple(roles),
        by_parent=by_parent,
        by_text=by_text,
        gap_kinds=gap_spec,
        comment_line=_as_str_tuple(comments.get("line"), "comments.line", origin),
        comment_block=tuple((str(a), str(b)) for a, b in block),
        comment_doc=tuple(doc_res),
        docstring=docstring,
        doc_before=frozenset(
            name_to_index[t]
            for t in _as_str_tuple(comments.get("doc_before"), "comments.doc_before", origin)
            if t in name_to_index
        ),
        detect_patterns=tuple(detect),
        capsule=capsule,
    )


@dataclass(frozen=True)
class _NodeRules:
    """What a grammar file says about node types, from which :func:`build_grammar` fills
    its per-kind-id tables: the kind of a leaf of each type and the roles of each type."""

    #: ``[kinds]``: named node type -> kind
    named: Mapping[str, int]
    #: ``[kinds.anonymous]``: anonymous token -> kind
    anonymous: Mapping[str, int]
    punctuation: frozenset[str]
    #: reserved and contextual keywords
    words: frozenset[str]
    #: kinds of named types guessed from their names (no grammar file)
    generic: bool
    strings: frozenset[str]
    code: frozenset[str]
    comments: frozenset[str]
    decorators: frozenset[str]
    indents: frozenset[str]
    doc_bodies: frozenset[str]

    def leaf_kind(self, tname: str, named: bool) -> int:
        """The ``leaf_kinds`` entry of a node type: a LexemeKind value, or TEXT_DEFINED."""
        if named:
            if tname in self.named:
                kind = self.named[tname]
            elif tname in self.comments:
                kind = LexemeKind.COMMENT
            elif tname == "ERROR" or self.generic:
                kind = _generic_named_kind(tname)
            elif tname in self.strings:
                kind = LexemeKind.STRING
            else:
                kind = TEXT_DEFINED
        elif tname in self.anonymous:
            kind = self.anonymous[tname]
        else:
            kind = _anonymous_kind(tname, self.punctuation, self.words)
        return int(kind)

    def roles(self, tname: str, named: bool) -> int:
        """The ``roles`` entry of a node type: the ROLE_* bits the lexer's walk acts on."""
        role = 0
        if named:
            role |= ROLE_STRING if tname in self.strings else 0
            role |= ROLE_CODE if tname in self.code else 0
            role |= ROLE_DECORATOR if tname in self.decorators else 0
            role |= ROLE_INDENT if tname in self.indents else 0
            role |= ROLE_ATOMIC if tname in self.comments else 0
            role |= ROLE_DOCBODY if tname in self.doc_bodies else 0
        if tname == "ERROR":
            role |= ROLE_ERROR
        return role


def _node_rules(
    spec: Mapping[str, Any], origin: str, generic: bool, words: frozenset[str]
) -> tuple[_NodeRules, dict[str, dict[str, int]], DocstringRule | None]:
    """Read what fixes each node type's kind and roles, in the order errors are reported in."""
    named_map, anon_map, by_parent_spec = _kind_maps(spec.get("kinds", {}), origin)
    punctuation = frozenset(
        _as_str_tuple(spec.get("operators", {}).get("punctuation"), "operators", origin)
        or _DEFAULT_PUNCTUATION
    )
    strings = spec.get("strings", {})
    string_nodes = frozenset(_as_str_tuple(strings.get("nodes"), "strings.nodes", origin))
    code_nodes = frozenset(_as_str_tuple(strings.get("code"), "strings.code", origin))
    comments = spec.get("comments", {})
    comment_nodes = frozenset(_as_str_tuple(comments.get("nodes"), "comments.nodes", origin))
    decorator_nodes = frozenset(
        _as_str_tuple(spec.get("decorators", {}).get("nodes"), "decorators.nodes", origin)
    )
    indent_nodes = frozenset(
        _as_str_tuple(spec.get("layout", {}).get("indent_blocks"), "layout", origin)
    )
    doc_bodies, docstring = _docstring_rule(spec.get("docstring", {}), origin)
    rules = _NodeRules(
        named=named_map,
        anonymous=anon_map,
        punctuation=punctuation,
        words=words,
        generic=generic,
        strings=string_nodes,
        code=code_nodes,
        comments=comment_nodes,
        decorators=decorator_nodes,
        indents=indent_nodes,
        doc_bodies=frozenset(doc_bodies),
    )
    return rules, by_parent_spec, docstring


def _kind_maps(
    kinds_spec: Mapping[str, Any], origin: str
) -> tuple[dict[str, int], dict[str, int], dict[str, dict[str, int]]]:
    """Read ``[kinds]`` into named, anonymous and by-parent kind maps; unknown kinds fail."""
    named_map: dict[str, int] = {}
    anon_map: dict[str, int] = {}
    by_parent_spec: dict[str, dict[str, int]] = {}
    for key, value in kinds_spec.items():
        if key == "by_parent":
            for parent, toks in value.items():
                for tok, kname in toks.items():
                    if kname.lower() not in _KIND_NAMES:
                        raise FormatError(
                            f"unknown kind {kname!r}",
                            path=origin,
                            where=f"kinds.by_parent.{parent}",
                        )
                    by_parent_spec.setdefault(tok, {})[parent] = _KIND_NAMES[kname.lower()]
            continue
        if key in ("by_text", "gaps"):  # read by _text_maps
            continue
        if key == "anonymous":
            for tok, kname in value.items():
                if kname.lower() not in _KIND_NAMES:
                    raise FormatError(f"unknown kind {kname!r}", path=origin, where="kinds")
                anon_map[tok] = _KIND_NAMES[kname.lower()]
            continue
        if key.lower() not in _KIND_NAMES:
            raise FormatError(
                f"unknown kind {key!r}; use one of {sorted(_KIND_NAMES)}",
                path=origin,
                where="kinds",
            )
        for t in _as_str_tuple(value, f"kinds.{key}", origin):
            named_map[t] = _KIND_NAMES[key.lower()]
    return named_map, anon_map, by_parent_spec


def _kind_name(kname: Any, origin: str, where: str) -> int:
    if not isinstance(kname, str) or kname.lower() not in _KIND_NAMES:
        raise FormatError(f"unknown kind {kname!r}", path=origin, where=where)
    return int(_KIND_NAMES[kname.lower()])


def _text_maps(
    kinds_spec: Mapping[str, Any], origin: str
) -> tuple[dict[str, dict[str, int]], dict[bytes, int]]:
    """Read ``[kinds.by_text]`` (named type -> {spelling: kind}) and ``[kinds.gaps]``
    (spelling of uncovered bytes -> kind)."""
    by_text: dict[str, dict[str, int]] = {}
    for node, table in kinds_spec.get("by_text", {}).items():
        if not isinstance(table, Mapping):
            raise FormatError(
                "expected {text = kind, ...}", path=origin, where=f"kinds.by_text.{node}"
            )
        by_text[node] = {
            str(t): _kind_name(k, origin, f"kinds.by_text.{node}") for t, k in table.items()
        }
    gaps = {
        str(t).encode("utf-8"): _kind_name(k, origin, "kinds.gaps")
        for t, k in kinds_spec.get("gaps", {}).items()
    }
    return by_text, gaps


def _docstring_rule(
    doc_spec: Mapping[str, Any], origin: str
) -> tuple[dict[str, frozenset[str] | None], DocstringRule | None]:
    """Read ``[docstring]``: the bodies that may hold one (by parent) and the lexer's rule."""
    doc_bodies: dict[str, frozenset[str] | None] = {}
    for i, body in enumerate(doc_spec.get("bodies", [])):
        if not isinstance(body, Mapping) or not isinstance(body.get("node"), str):
            raise FormatError(
                'expected {node = "type", parents = ["type", ...]}',
                path=origin,
                where=f"docstring.bodies[{i}]",
            )
        parents = body.get("parents")
        doc_bodies[body["node"]] = (
            None if parents is None else frozenset(_as_str_tuple(parents, "docstring", origin))
        )
    docstring = None
    if doc_bodies:
        docstring = DocstringRule(
            bodies=doc_bodies,
            statement=str(doc_spec.get("statement", "expression_statement")),
            strings=frozenset(_as_str_tuple(doc_spec.get("strings"), "docstring", origin)),
        )
    return doc_bodies, docstring


def _by_parent(
    names: list[str],
    named_flags: list[bool],
    by_parent_spec: dict[str, dict[str, int]],
    name_to_index: dict[str, int],
) -> dict[tuple[int, int], int]:
    """Key ``[kinds.by_parent]`` by (kind id, parent type index), as the lexer looks it up."""
    by_parent: dict[tuple[int, int], int] = {}
    for kid, tname in enumerate(names):
        if tname in by_parent_spec and not named_flags[kid]:
            for parent, kind in by_parent_spec[tname].items():
                if parent in name_to_index:
                    by_parent[(kid, name_to_index[parent])] = int(kind)
    return by_parent


def _doc_comment_patterns(comments: Mapping[str, Any], origin: str) -> list[re.Pattern[str]]:
    """Compile ``[comments] doc``, the regexes that mark documentation comments."""
    doc_res: list[re.Pattern[str]] = []
    for pattern in _as_str_tuple(comments.get("doc"), "comments.doc", origin):
        try:
            doc_res.append(re.compile(pattern))
        except re.error as e:
            raise FormatError(
                f"bad regex {pattern!r}: {e}", path=origin, where="comments.doc"
            ) from e
    return doc_res


def _detect_patterns(spec: Mapping[str, Any], origin: str) -> list[tuple[re.Pattern[str], int]]:
    """Compile ``[detect] patterns``, the weighted regexes language detection scores."""
    detect: list[tuple[re.Pattern[str], int]] = []
    for i, entry in enumerate(spec.get("detect", {}).get("patterns", [])):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise FormatError(
                "expected [regex, weight]", path=origin, where=f"detect.patterns[{i}]"
            )
        try:
            detect.append((re.compile(entry[0], re.MULTILINE), int(entry[1])))
        except re.error as e:
            raise FormatError(f"bad regex: {e}", path=origin, where=f"detect.patterns[{i}]") from e
    return detect


def generic_grammar(name: str, language: tree_sitter.Language, *, capsule: Any = None) -> Grammar:
    """Build a grammar whose kinds are guessed from node type names (no TOML file).

    Args:
        name: the language name.
        language: the tree-sitter language.
        capsule: the language capsule it came from, for the native lexer (None: the
            Python lexer reads this language).

    Returns:
        A grammar with ``generic=True``: no docstrings, no indentation blocks.

    >>> import tree_sitter, tree_sitter_python
    >>> generic_grammar("py2", tree_sitter.Language(tree_sitter_python.language())).generic
    True
    """
    spec = {
        "strings": {
            "nodes": [
                n
                for n in _named_types(language)
                if ("string" in n or n.endswith("char_literal") or n == "character_literal")
                and not any(w in n for w in ("content", "fragment", "start", "end"))
            ],
            "code": [
                n for n in _named_types(language) if "interpolation" in n or "substitution" in n
            ],
        },
        "comments": {"nodes": [n for n in _named_types(language) if "comment" in n]},
        "decorators": {
            "nodes": [
                n
                for n in _named_types(language)
                if n in ("decorator", "annotation", "marker_annotation")
            ]
        },
    }
    return build_grammar(name, language, spec, generic=True, origin="generic", capsule=capsule)


def _named_types(language: tree_sitter.Language) -> list[str]:
    out = set()
    for kid in range(language.node_kind_count):
        if language.node_kind_is_named(kid) and language.node_kind_is_visible(kid):
            out.add(language.node_kind_for_id(kid) or "")
    out.discard("")
    out.discard("ERROR")
    return sorted(out)
