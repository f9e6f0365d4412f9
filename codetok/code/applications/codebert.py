"""CodeBERT-compatible encoding: a pretrained text tokenizer's ids, annotated with lexemes.

:class:`CodeBertTokenizer` wraps a RoBERTa / GPT-2 style text tokenizer (CodeBERT,
GraphCodeBERT, UniXcoder, CodeGPT, ...): a :class:`codetok.Tokenizer` built from
``tokenizer.json`` or from ``vocab.json`` + ``merges.txt``, or any object with the same
``encode(text)`` protocol (HF ``tokenizers.Tokenizer`` works too). The ids are exactly the
wrapped tokenizer's ids on the raw code, hence equal to ``transformers``' ``input_ids`` for
the same files. Each token is then aligned to the lexer's stream (:func:`codetok.code.lex`):

* **spans**: for byte-level vocabularies, a token's byte span is recovered exactly from its
  bytes (so ``Ġ(`` covers the space too, and a token holding half of ``日`` covers just
  those bytes); other tokenizers use their char offsets. Char spans cover every character a
  token touches. The ``offsets`` attribute keeps what the tokenizer itself reports
  (``transformers``' ``offset_mapping``, trimmed of spaces when ``trim_offsets`` is on).
* **lexemes**: the rule of :mod:`codetok.code.applications.align`: the token's *primary* lexeme is the
  first non-layout (not WHITESPACE / NEWLINE) lexeme it touches, else the first one; the
  half-open range ``[lexeme_starts, lexeme_ends)`` lists every lexeme it touches (zero-width
  INDENT / DEDENT markers inside the range are part of it). Special tokens added by the
  post-processor (``<s>``, ``</s>``) map to no lexeme: index -1, kind :data:`NO_KIND`.

It also does the CodeXGLUE / CodeSearchNet preprocessing (:func:`code_tokens`,
:func:`preprocess`): code tokens taken from the tree-sitter leaves (one lexeme each; strings
stay whole), comments and docstrings optionally dropped, joined by single spaces. Encoding
that text (:meth:`CodeBertTokenizer.encode_preprocessed`) aligns tokens to the original
lexemes; each separating space belongs to the lexeme after it.

Not handled here: training, CodeTokenizer routing, and truncation (enable it on the wrapped
tokenizer; alignment then covers the tokens kept).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ...errors import ConfigurationError
from ...unicode.byte_alphabet import CHAR_TO_BYTE
from ..front.kinds import LexemeKind
from ..front.language import detect_language
from ..front.languages import get_grammar
from ..front.lexemes import Lexemes
from ..front.lexer import lex
from .align import align_to_segments, byte_to_char_index, bytes_to_char_spans

__all__ = [
    "NO_KIND",
    "CodeBertEncoding",
    "CodeBertTokenizer",
    "code_tokens",
    "preprocess",
]

#: ``kinds`` value of tokens that map to no lexeme (special tokens of the post-processor).
NO_KIND = 255

_K = LexemeKind
_LAYOUT = np.array([_K.WHITESPACE, _K.NEWLINE], np.uint8)


class TextTokenizer(Protocol):
    """What :class:`CodeBertTokenizer` needs from a text tokenizer."""

    def encode(self, sequence: str, *args: Any, **kwargs: Any) -> Any: ...

    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]: ...


class CodeBertEncoding:
    """Ids of a pretrained text tokenizer plus per-token lexeme annotations.

    The ids come first: the annotations (every attribute below but ``text`` and ``ids``)
    are worked out when one of them is first read, and only then is the source parsed. So
    ``encode(src).input_ids`` runs at the speed of the text tokenizer alone.

    Attributes:
        text: the string that was encoded (the source, or the preprocessed text).
        language: the language of the source (its grammar's name).
        lexemes: the lexeme stream of the source the annotations refer to.
        ids: ``int64`` token ids (``input_ids`` gives them as a list).
        tokens: token strings.
        offsets: ``(start, end)`` char offsets as the tokenizer reports them.
        special_tokens_mask: ``uint8``, 1 for tokens added by the post-processor.
        byte_starts, byte_ends, char_starts, char_ends: ``int64`` untrimmed spans of each
            token in :attr:`text` (``(0, 0)`` for post-processor special tokens).
        lexeme_index: ``int64`` primary lexeme per token (-1 for none).
        lexeme_starts, lexeme_ends: ``int64`` half-open range of the lexemes each token
            touches (-1 for none).
        kinds: ``uint8`` :class:`LexemeKind` of the primary lexeme (:data:`NO_KIND` for none).
        node_types, parent_types: ``uint16`` indices into ``lexemes.type_names``
            (0, the empty name, for none).
    """

    __slots__ = (
        "text",
        "language",
        "_ids",
        "_tokens",
        "_offsets",
        "_encoded",
        "_encode",
        "_annotate",
        "_ann",
    )

    def __init__(
        self,
        *,
        text: str,
        language: str,
        source: Any = None,
        annotate: Callable[[], dict[str, Any]],
        ids: np.ndarray | None = None,
        encode: Callable[[], Any] | None = None,
    ) -> None:
        self.text = text
        self.language = language
        self._ids = ids
        # the wrapped tokenizer's encoding, or how to make it (when ``ids`` came without it)
        self._encoded = source
        self._encode = encode
        self._tokens: list[str] | None = None
        self._offsets: list[tuple[int, int]] | None = None
        self._annotate: Callable[[], dict[str, Any]] | None = annotate
        self._ann: dict[str, Any] | None = None

    @property
    def _source(self) -> Any:
        """The wrapped tokenizer's encoding (encoded on first need when only the ids were)."""
        if self._encoded is None:
            assert self._encode is not None
            self._encoded = self._encode()
            self._encode = None
        return self._encoded

    def _annotation(self, name: str) -> Any:
        if self._ann is None:
            assert self._annotate is not None
            self._ann = self._annotate()
            self._annotate = None  # drops what only the annotations needed
        return self._ann[name]

    @property
    def tokens(self) -> list[str]:
        """Token strings (built on first access)."""
        if self._tokens is None:
            self._tokens = list(self._source.tokens)
        return self._tokens

    @property
    def offsets(self) -> list[tuple[int, int]]:
        """``(start, end)`` char offsets as the tokenizer reports them (built on first
        access)."""
        if self._offsets is None:
            self._offsets = [tuple(o) for o in self._source.offsets]
        return self._offsets

    @property
    def ids(self) -> np.ndarray:
        """``int64`` token ids (built on first access)."""
        if self._ids is None:
            self._ids = _ids_of(self._source)
        return self._ids

    def __len__(self) -> int:
        return len(self._source.ids) if self._ids is None else int(self._ids.shape[0])

    def __repr__(self) -> str:
        return f"<CodeBertEncoding {self.language} tokens={len(self)}>"

    @property
    def input_ids(self) -> list[int]:
        """The ids as a list, as ``transformers`` returns ``input_ids``."""
        if self._ids is None:
            return list(self._source.ids)  # the wrapped tokenizer's list, copied
        return self._ids.tolist()

    @property
    def attention_mask(self) -> list[int]:
        """All ones (one sequence, no padding)."""
        return [1] * len(self)

    def kind(self, i: int) -> LexemeKind | None:
        """The lexeme kind of token ``i``, or None for a post-processor special token.

        >>> CodeBertTokenizer("path/to/codebert-base").encode("def f(): pass").kind(1)  # doctest: +SKIP
        <LexemeKind.KEYWORD: 0>
        """
        k = int(self.kinds[i])
        return None if k == NO_KIND else LexemeKind(k)

    def node_type(self, i: int) -> str:
        """The tree-sitter node type of token ``i``'s primary lexeme ("" for none)."""
        return self.lexemes.type_names[int(self.node_types[i])]

    def parent_type(self, i: int) -> str:
        """The node type enclosing token ``i``'s primary lexeme ("" for none)."""
        return self.lexemes.type_names[int(self.parent_types[i])]

    def lexemes_of(self, i: int) -> list[int]:
        """Indices of every lexeme token ``i`` touches (empty for special tokens)."""
        a, b = int(self.lexeme_starts[i]), int(self.lexeme_ends[i])
        return list(range(a, b)) if a >= 0 else []

    def rows(self) -> list[dict[str, Any]]:
        """One dict per token (id, token, offsets, span, kind, node/parent type, lexemes).

        Meant for display and JSON output, not for the hot path.
        """
        out = []
        for i in range(len(self)):
            k = self.kind(i)
            out.append(
                {
                    "id": int(self.ids[i]),
                    "token": self.tokens[i],
                    "offsets": list(self.offsets[i]),
                    "chars": [int(self.char_starts[i]), int(self.char_ends[i])],
                    "bytes": [int(self.byte_starts[i]), int(self.byte_ends[i])],
                    "kind": None if k is None else k.name,
                    "node_type": self.node_type(i),
                    "parent_type": self.parent_type(i),
                    "lexeme": int(self.lexeme_index[i]),
                    "lexemes": self.lexemes_of(i),
                }
            )
        return out


#: The annotations of a :class:`CodeBertEncoding`, worked out together on first read.
ANNOTATIONS = (
    "lexemes",
    "special_tokens_mask",
    "byte_starts",
    "byte_ends",
    "char_starts",
    "char_ends",
    "lexeme_index",
    "lexeme_starts",
    "lexeme_ends",
    "kinds",
    "node_types",
    "parent_types",
)


def _annotation_property(name: str) -> property:
    return property(lambda self: self._annotation(name), doc=f"``{name}`` (see the class).")


for _name in ANNOTATIONS:
    setattr(CodeBertEncoding, _name, _annotation_property(_name))


# ----------------------------------------------------------------------------- preprocessing


def _kept(
    lx: Lexemes, remove_comments: bool, remove_docstrings: bool
) -> tuple[np.ndarray, list[str]]:
    kinds = lx.kinds
    width = lx.byte_ends - lx.byte_starts
    keep = (width > 0) & ~np.isin(kinds, _LAYOUT)
    if remove_comments or remove_docstrings:
        names = lx.type_names
        doc = np.flatnonzero(kinds == _K.DOCSTRING)
        comment_like = np.array(
            ["comment" in names[int(lx.node_types[i])] for i in doc.tolist()], bool
        )
        if remove_comments:
            keep &= kinds != _K.COMMENT
            keep[doc[comment_like]] = False
        if remove_docstrings:
            keep[doc[~comment_like]] = False
    idx = np.flatnonzero(keep)
    texts = lx.texts()
    parts: list[str] = []
    chosen: list[int] = []
    for i in idx.tolist():
        t = texts[i]
        if t.strip():
            parts.append(t)
            chosen.append(i)
    return np.array(chosen, np.int64), parts


def code_tokens(
    source: str | bytes | Lexemes,
    /,
    language: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    remove_comments: bool = True,
    remove_docstrings: bool = False,
) -> list[str]:
    """CodeSearchNet-style code tokens: the text of each tree-sitter leaf, layout dropped.

    Args:
        source: the code (str or bytes) or an already computed :class:`Lexemes`.
        language: language name; detected from ``path`` / content when None.
        path: the file name, for language detection only.
        remove_comments: drop comments, documentation comments included (Javadoc, JSDoc,
            C# ``///``).
        remove_docstrings: drop Python-style string docstrings.

    Returns:
        The token texts in source order (a string literal is one token; whitespace-only
        leaves such as blank JSX text are dropped).

    Raises:
        LanguageError: the language is unknown or cannot be detected.

    >>> code_tokens("def f(x):  # hi\\n    return x + 1\\n", "python")
    ['def', 'f', '(', 'x', ')', ':', 'return', 'x', '+', '1']
    """
    lx = source if isinstance(source, Lexemes) else lex(source, language, path=path)
    return _kept(lx, remove_comments, remove_docstrings)[1]


def preprocess(
    source: str | bytes | Lexemes,
    /,
    language: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    remove_comments: bool = True,
    remove_docstrings: bool = False,
) -> str:
    """CodeXGLUE-style input text: :func:`code_tokens` joined by single spaces.

    Args:
        source, language, path, remove_comments, remove_docstrings: as for
            :func:`code_tokens`.

    Returns:
        The joined text.

    Raises:
        LanguageError: the language is unknown or cannot be detected.

    >>> preprocess("int f(int x) { return x; } // done", "java")
    'int f ( int x ) { return x ; }'
    """
    return " ".join(
        code_tokens(
            source,
            language,
            path=path,
            remove_comments=remove_comments,
            remove_docstrings=remove_docstrings,
        )
    )


# ----------------------------------------------------------------------------- the tokenizer


def _load_text_tokenizer(spec: Any) -> Any:
    if hasattr(spec, "encode") and hasattr(spec, "get_vocab"):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        p = Path(spec)
        if p.is_file():
            from ...tokenizer.tokenizer import Tokenizer

            return Tokenizer.from_file(p)
        from ...formats.hub import from_pretrained

        return from_pretrained(str(spec))
    raise ConfigurationError(
        f"tokenizer must be a codetok Tokenizer (or an object with encode() and get_vocab()), "
        f"a tokenizer.json path or a tokenizer folder, not {type(spec).__name__}"
    )


def _byte_table(tok: Any) -> list[bytes | None]:
    """Bytes of each vocabulary id for byte-level vocabularies (None where not byte-level)."""
    vocab = tok.get_vocab(with_added_tokens=False)
    size = max(tok.get_vocab(with_added_tokens=True).values(), default=-1) + 1
    table: list[bytes | None] = [None] * size
    for token, i in vocab.items():
        try:
            table[i] = bytes(CHAR_TO_BYTE[c] for c in token)
        except KeyError:
            pass
    return table


class CodeBertTokenizer:
    """A pretrained RoBERTa / GPT-2 style tokenizer whose tokens are aligned to lexemes.

    Args:
        tokenizer: a :class:`codetok.Tokenizer` (or any object with ``encode(text)``
            returning ``ids``/``tokens``/``offsets``/``sequence_ids`` and
            ``get_vocab(with_added_tokens=...)``, such as ``tokenizers.Tokenizer``), a path
            to a ``tokenizer.json``, or a folder / Hub name for
            :func:`codetok.formats.hub.from_pretrained` (``vocab.json`` + ``merges.txt`` +
            ``tokenizer_config.json``, as ``microsoft/codebert-base`` ships).

    Raises:
        ConfigurationError: ``tokenizer`` is none of these.
        NotFoundError: the path holds no tokenizer files.

    >>> cb = CodeBertTokenizer("path/to/codebert-base")  # doctest: +SKIP
    >>> enc = cb.encode("def f(x):\\n    return x\\n", "python")  # doctest: +SKIP
    >>> enc.tokens[:4], [k.name for k in map(enc.kind, range(1, 4))]  # doctest: +SKIP
    (['<s>', 'def', 'Ġf', '('], ['KEYWORD', 'IDENTIFIER', 'PUNCTUATION'])
    """

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = _load_text_tokenizer(tokenizer)
        table = _byte_table(self.tokenizer)
        self._bytes = table
        decoder = getattr(self.tokenizer, "get_added_tokens_decoder", dict)()
        self._lstrip = frozenset(i for i, t in decoder.items() if getattr(t, "lstrip", False))
        self._byte_level = sum(b is not None for b in table) > len(table) // 2
        self._byte_lens = np.array([-1 if b is None else len(b) for b in table], np.int64)
        #: ``add_special_tokens -> (plan, affixes)`` (see :meth:`_affixes`)
        self._affix_cache: dict[bool, tuple[Any, Any]] = {}

    def __repr__(self) -> str:
        return f"CodeBertTokenizer({self.tokenizer!r})"

    # -- encoding ---------------------------------------------------------------------
    def encode(
        self,
        source: str | bytes,
        /,
        language: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        add_special_tokens: bool = True,
    ) -> CodeBertEncoding:
        """Encode raw code with the wrapped tokenizer and align tokens to lexemes.

        Args:
            source: the code; bytes must be valid UTF-8 (text tokenizers take str).
            language: language name; detected from ``path`` / content when None.
            path: the file name, for language detection only.
            add_special_tokens: let the post-processor add ``<s>`` ... ``</s>``.

        Returns:
            A :class:`CodeBertEncoding` whose ``input_ids`` equal ``transformers``' for the
            same tokenizer files and text.

        Raises:
            ConfigurationError: ``source`` is bytes that are not valid UTF-8.
            LanguageError: the language is unknown or cannot be detected.

        >>> enc = CodeBertTokenizer(tok).encode("x = (1)\\n", "python")  # doctest: +SKIP
        >>> enc.tokens[3], enc.kind(3).name, enc.lexemes_of(3)  # doctest: +SKIP
        ('Ġ(', 'PUNCTUATION', [3, 4])
        """
        text = _as_text(source)
        if language is None:
            language = detect_language(text, path=path)
        name = get_grammar(language).name  # an unknown language fails here, not on first read
        ids = self._lean_ids(text, add_special_tokens)
        got: list[Any] = []

        def encoded() -> Any:
            if not got:
                got.append(self.tokenizer.encode(text, add_special_tokens=add_special_tokens))
            return got[0]

        if ids is None:
            encoded()

        def annotate() -> dict[str, Any]:
            enc = encoded()
            lx = lex(text, name, path=path)
            data = lx.source_bytes
            bs, be, special = self._token_byte_spans(enc, text, data)
            nz = np.flatnonzero(lx.byte_ends > lx.byte_starts)
            al = align_to_segments(
                bs, be, lx.byte_starts[nz], lx.byte_ends[nz], np.isin(lx.kinds[nz], _LAYOUT)
            )
            lexeme_index = _lift(al.primary, nz)
            first = _lift(al.first, nz)
            stop = np.where(al.stop >= 0, _lift(al.stop - 1, nz) + 1, -1)
            return _annotations(data, lx, bs, be, special, lexeme_index, first, stop)

        return CodeBertEncoding(
            text=text,
            language=name,
            source=got[0] if got else None,
            annotate=annotate,
            ids=ids,
            encode=encoded,
        )

    def _lean_ids(self, text: str, add_special_tokens: bool) -> np.ndarray | None:
        """``int64`` ids of ``text`` as ``tokenizer.encode`` gives them, written by the
        native plan straight into the array it returns (no offsets, masks or token strings:
        what asking for ids alone should cost), or None where that is not the same call:
        not a codetok tokenizer, no native plan, truncation or padding set, or a
        post-processor that does not put its tokens around the text."""
        from ...tokenizer.tokenizer import Tokenizer

        tok = self.tokenizer
        if not isinstance(tok, Tokenizer) or tok.truncation or tok.padding:
            return None
        plan = tok._call().plan
        if plan is None:
            return None
        affixes = self._affixes(plan, add_special_tokens)
        if affixes is None:
            return None
        prefix, suffix = affixes
        return plan.core.encode_ids64(text, [], prefix, suffix)  # [] : as in encode

    def _affixes(self, plan: Any, add_special_tokens: bool) -> tuple[list[int], list[int]] | None:
        """The post-processor's tokens before and after one text, for this plan (the
        tokenizer's state: a new plan when it changes), or None when they do not simply
        surround it (checked on two probe texts)."""
        key = (add_special_tokens, plan)
        cached = self._affix_cache.get(key[0])
        if cached is not None and cached[0] is plan:
            return cached[1]
        tok = self.tokenizer
        found: tuple[list[int], list[int]] | None = None
        for probe in ("a", "x = 1"):
            full = tok.encode(probe, add_special_tokens=add_special_tokens).ids
            body = tok.encode(probe, add_special_tokens=False).ids
            at = next(
                (k for k in range(len(full) - len(body) + 1) if full[k : k + len(body)] == body),
                None,
            )
            if at is None or not body:
                found = None
                break
            here = (full[:at], full[at + len(body) :])
            if found is not None and here != found:
                found = None
                break
            found = here
        self._affix_cache[key[0]] = (plan, found)
        return found

    def encode_preprocessed(
        self,
        source: str | bytes,
        /,
        language: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        remove_comments: bool = True,
        remove_docstrings: bool = False,
        add_special_tokens: bool = True,
    ) -> CodeBertEncoding:
        """Encode the CodeXGLUE-style text of the code (:func:`preprocess`), aligned.

        Args:
            source, language, path: as for :meth:`encode`.
            remove_comments, remove_docstrings: as for :func:`code_tokens`.
            add_special_tokens: let the post-processor add its special tokens.

        Returns:
            A :class:`CodeBertEncoding` whose :attr:`~CodeBertEncoding.text` is the joined
            text and whose spans index it; lexeme fields refer to the original source's
            lexemes. The space before a code token belongs to that token's lexeme.

        Raises:
            ConfigurationError: ``source`` is bytes that are not valid UTF-8.
            LanguageError: the language is unknown or cannot be detected.

        >>> cb.encode_preprocessed("f(x)  # call\\n", "python").text  # doctest: +SKIP
        'f ( x )'
        """
        lx = lex(_as_text(source), language, path=path)
        idx, parts = _kept(lx, remove_comments, remove_docstrings)
        text = " ".join(parts)
        data = text.encode("utf-8", "surrogatepass")
        lens = np.array([len(p.encode("utf-8", "surrogatepass")) for p in parts], np.int64)
        seg_ends = np.cumsum(lens + 1) - 1  # each part, then its following space
        seg_starts = np.concatenate([np.zeros(1, np.int64), seg_ends[:-1]])  # space + part
        enc = self.tokenizer.encode(text, add_special_tokens=add_special_tokens)

        def annotate() -> dict[str, Any]:
            bs, be, special = self._token_byte_spans(enc, text, data)
            al = align_to_segments(bs, be, seg_starts, seg_ends, np.zeros(len(parts), bool))
            lexeme_index = _lift(al.primary, idx)
            first = _lift(al.first, idx)
            stop = np.where(al.stop >= 0, _lift(al.stop - 1, idx) + 1, -1)
            return _annotations(data, lx, bs, be, special, lexeme_index, first, stop)

        return CodeBertEncoding(text=text, language=lx.language, source=enc, annotate=annotate)

    def __call__(self, source: str | bytes, /, language: str | None = None, **kw: Any) -> Any:
        """Same as :meth:`encode`."""
        return self.encode(source, language, **kw)

    # -- internals ----------------------------------------------------------------------
    def _token_byte_spans(
        self, enc: Any, text: str, data: bytes
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Untrimmed byte spans of every token, and the post-processor special mask."""
        id_array = _ids_of(enc)
        n = id_array.shape[0]
        seq = enc.sequence_ids
        seq = seq() if callable(seq) else seq
        special = np.fromiter((s is None for s in seq), bool, n)
        bs = np.zeros(n, np.int64)
        be = np.zeros(n, np.int64)
        content = np.flatnonzero(~special)
        if content.shape[0] == 0:
            return bs, be, special
        table = self._bytes
        if self._byte_level:
            c_ids = id_array[content]
            known = bool((c_ids < len(table)).all()) and bool((c_ids >= 0).all())
            lens = self._byte_lens[c_ids] if known else None
            if lens is not None and bool((lens >= 0).all()):
                # Every token spells bytes: they tile the text when their join starts it.
                joined = b"".join(map(table.__getitem__, c_ids.tolist()))  # type: ignore[arg-type]
                if data.startswith(joined):
                    ends = np.cumsum(lens)
                    be[content] = ends
                    bs[content] = ends - lens
                    return bs, be, special
            ids = id_array.tolist()
            pieces = [table[ids[i]] if 0 <= ids[i] < len(table) else None for i in content.tolist()]
            self._walk(enc, text, data, content, pieces, bs, be)
        else:
            self._from_offsets(enc, text, content, bs, be)
        return bs, be, special

    def _from_offsets(
        self, enc: Any, text: str, content: np.ndarray, bs: np.ndarray, be: np.ndarray
    ) -> None:
        char_to_byte = _char_to_byte(text)
        offs = np.array([enc.offsets[i] for i in content.tolist()], np.int64).reshape(-1, 2)
        bs[content] = char_to_byte[offs[:, 0]]
        be[content] = char_to_byte[offs[:, 1]]

    def _walk(
        self,
        enc: Any,
        text: str,
        data: bytes,
        content: np.ndarray,
        pieces: Sequence[bytes | None],
        bs: np.ndarray,
        be: np.ndarray,
    ) -> None:
        """Per-token walk for texts holding added tokens (with lstrip / rstrip) and the like."""
        char_to_byte = _char_to_byte(text)
        ids_ = enc.ids
        cursor = 0
        prev = -1
        for j, i in enumerate(content.tolist()):
            piece = pieces[j]
            o0, o1 = enc.offsets[i]
            if piece is not None and data.startswith(piece, cursor):
                start, end = cursor, cursor + len(piece)
            elif (
                ids_[i] in self._lstrip
                and (pos := data.find(piece or b"\0", cursor)) >= 0
                and (not data[cursor:pos].strip())
            ):  # an lstrip added token owns the whitespace before it
                start, end = cursor, pos + len(piece or b"")
            elif (
                piece is not None
                and (pos := data.find(piece, cursor)) >= 0
                and (not data[cursor:pos].strip())
            ):
                if prev >= 0:  # whitespace an rstrip added token swallowed
                    be[prev] = pos
                start, end = pos, pos + len(piece)
            else:  # an added token matched in the text: its offsets, plus lstrip'ed space
                b0, b1 = int(char_to_byte[o0]), int(char_to_byte[o1])
                start = cursor if b0 >= cursor and not data[cursor:b0].strip() else b0
                end = max(b1, start)
            bs[i], be[i] = start, end
            cursor = max(cursor, end)
            prev = i


def _annotations(
    data: bytes,
    lx: Lexemes,
    bs: np.ndarray,
    be: np.ndarray,
    special: np.ndarray,
    lexeme_index: np.ndarray,
    first: np.ndarray,
    stop: np.ndarray,
) -> dict[str, Any]:
    """Every annotation of a :class:`CodeBertEncoding` (see :data:`ANNOTATIONS`), from the
    tokens' byte spans and their alignment to the lexemes."""
    cs, ce = bytes_to_char_spans(bs, be, byte_to_char_index(data))
    has = lexeme_index >= 0
    safe = np.where(has, lexeme_index, 0)
    return {
        "lexemes": lx,
        "special_tokens_mask": special.astype(np.uint8),
        "byte_starts": bs,
        "byte_ends": be,
        "char_starts": cs,
        "char_ends": ce,
        "lexeme_index": lexeme_index,
        "lexeme_starts": first,
        "lexeme_ends": stop,
        "kinds": np.where(has, lx.kinds[safe] if len(lx) else 0, NO_KIND).astype(np.uint8),
        "node_types": np.where(has, lx.node_types[safe] if len(lx) else 0, 0).astype(np.uint16),
        "parent_types": np.where(has, lx.parent_types[safe] if len(lx) else 0, 0).astype(np.uint16),
    }


def _ids_of(enc: Any) -> np.ndarray:
    """The ids of an encoding as int64 (without a list where it has an array)."""
    array = getattr(enc, "ids_array", None)
    return np.asarray(array if array is not None else enc.ids, np.int64)


def _char_to_byte(text: str) -> np.ndarray:
    """Byte offset of every char position of ``text`` (``len(text) + 1`` entries)."""
    lens = np.fromiter((len(c.encode("utf-8", "surrogatepass")) for c in text), np.int64, len(text))
    out = np.zeros(len(text) + 1, np.int64)
    np.cumsum(lens, out=out[1:])
    return out


def _lift(seg: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Map segment positions to lexeme indices, keeping -1."""
    if index.shape[0] == 0:
        return np.full(seg.shape[0], -1, np.int64)
    return np.where(seg >= 0, index[np.maximum(seg, 0)], -1)


def _as_text(source: str | bytes) -> str:
    if isinstance(source, str):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        try:
            return bytes(source).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ConfigurationError(
                f"source bytes are not valid UTF-8 at byte {e.start}; text tokenizers need str: "
                "decode it first (for example with errors='replace')"
            ) from e
    raise TypeError(f"source must be str or bytes, not {type(source).__name__}")
