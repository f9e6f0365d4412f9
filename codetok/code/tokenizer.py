"""CodeTokenizer: the lexer as a pre-tokenizer, a router, and codetok subword models.

``encode`` runs :func:`~codetok.code.lex` (tree-sitter), :func:`~codetok.code.routing.router.route`
(kind -> reserved token or pieces) and then the subword model of a codetok
:class:`~codetok.Tokenizer` on each piece (:class:`~codetok.code.routing.channels.Channel`).
Reserved tokens (keywords, ``<INDENT>``, ``<NL>``, comment markers) are added special tokens
of that tokenizer, each standing for an exact surface text, so ``decode`` is a table look-up
and ``decode(encode(src).ids) == src`` for every str, ``decode(ids, as_bytes=True) == src``
for every bytes source (``from_bytes=True`` gives its ``surrogateescape`` text). Comments and docstrings use the same
model (``comment_vocab="shared"``) or a second one whose ids follow the first.

Save format: one JSON file, the code tokenizer's ``tokenizer.json`` (HF keys) plus a
``"codetok_code"`` key with the format version, router options, keyword lists and the
comment tokenizer, if any.

Not handled here: training (:mod:`codetok.code.training`), lexing, splitting.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

import numpy as np

from ..components.base import as_format_error, check_options
from ..engine import plan as _plan
from ..errors import (
    CodetokError,
    ConfigurationError,
    FormatError,
    NotFoundError,
    VocabularyError,
)
from ..formats.files import parse_json, read_text_file
from ..processors.template import TemplateProcessing
from ..tokenizer.added_tokens import AddedToken
from ..tokenizer.encoding import BatchEncoding
from ..tokenizer.serialization import json_text, write_json_file
from ..tokenizer.tokenizer import Tokenizer, _from_pickle
from .encoding import CodeEncoding, token_positions
from .front.budget import DEFAULT_BUDGET, ParseBudget
from .front.languages import CORE_LANGUAGES
from .front.lexemes import Lexemes
from .front.lexer import Prepared, char_to_byte, lex, lex_prepared, prepare
from .fused import compile_encoder, encode_files
from .routing.channels import Channel
from .routing.native import compile_router, run_router, run_router_ids
from .routing.pieces import DIGIT_POLICIES, PieceSplitter
from .routing.reserved import ReservedTokens
from .routing.router import CODE, RouterOptions, route
from .special import CONTROL_TOKENS, ROLES, default_template
from .training import train_models

__all__ = ["CodeTokenizer", "FORMAT_KEY", "FORMAT_VERSION", "CORE_LANGUAGES"]

FORMAT_KEY = "codetok_code"
FORMAT_VERSION = 1
#: The embedded code tokenizers by name (``CodeTokenizer.default(name)``): "polyglot", the
#: default, covers the core four and the twelve curated languages; "core4" is the previous
#: default (Python, Java, C#, JavaScript), kept so that ids made with it can be decoded and
#: reproduced.
DEFAULT_FILES = {"polyglot": "default_code_tokenizer.json", "core4": "core4_code_tokenizer.json"}
_OPTION_NAMES = tuple(RouterOptions.__dataclass_fields__)
#: What a copy keeps that the saved file does not hold.
_UNSAVED = (
    "parse_budget",
    "model_max_length",
    "padding_side",
    "truncation_side",
    "model_input_names",
)
#: Words with the blanks before them, and trailing blanks: the pieces of plain text.
_PLAIN_PIECES = re.compile(r"\s*\S+|\s+")
_CALL_OPTIONS = frozenset(
    """paths add_special_tokens padding truncation max_length stride pad_to_multiple_of
    padding_side truncation_side return_tensors return_token_type_ids return_attention_mask
    return_overflowing_tokens return_special_tokens_mask return_offsets_mapping return_length
    return_position_ids return_kinds return_node_types num_threads""".split()
)


class CodeTokenizer:
    """Syntax-aware, lossless tokenizer for source code (Python, Java, C#, JavaScript).

    Args:
        tokenizer: a byte-level codetok :class:`~codetok.Tokenizer` (BPE, WordPiece or
            Unigram) whose vocabulary holds the 256 byte-level chars; None loads the default
            code tokenizer shipped with codetok.
        comment_tokenizer: a second byte-level tokenizer for comments and docstrings;
            None shares ``tokenizer``.
        languages: languages whose keywords get reserved tokens (default: the four core
            languages, or those of the default tokenizer).
        parse_budget: the time and memory each parse may take (default:
            :data:`~codetok.code.front.budget.DEFAULT_BUDGET`, proportional to the file's
            size); past it, encoding raises :class:`~codetok.errors.ParseLimitError`. A
            setting of this object (:attr:`parse_budget`), not saved with the vocabulary.
        **options: router options (see :class:`~codetok.code.routing.router.RouterOptions`):
            ``digits`` (``"single"``, ``"group3"``, ``"whole"``), ``max_piece``,
            ``split_identifiers``, ``statistical_split``, ``keyword_tokens``,
            ``comment_markers``, ``doc_sections``, ``drop_comments``, ``drop_docstrings``,
            ``normalize_whitespace``.

    Raises:
        ConfigurationError: an unknown option.
        VocabularyError: a tokenizer lacks byte-level tokens for some bytes.

    >>> tok = CodeTokenizer()
    >>> enc = tok.encode("def add(a, b):\\n    return a + b\\n", "python")
    >>> enc.tokens[:3]
    ['<py:def>', 'Ġadd', '(a']
    >>> tok.decode(enc.ids) == "def add(a, b):\\n    return a + b\\n"
    True
    """

    #: The time and memory each parse may take (see the constructor).
    parse_budget: ParseBudget = DEFAULT_BUDGET

    def __init__(
        self,
        tokenizer: Tokenizer | None = None,
        comment_tokenizer: Tokenizer | None = None,
        *,
        languages: Iterable[str] | None = None,
        parse_budget: ParseBudget | None = None,
        **options: Any,
    ) -> None:
        if parse_budget is not None and not isinstance(parse_budget, ParseBudget):
            raise ConfigurationError(
                f"parse_budget must be a codetok.code.ParseBudget, got {type(parse_budget).__name__}"
            )
        self.parse_budget = DEFAULT_BUDGET if parse_budget is None else parse_budget
        unknown = sorted(set(options) - set(_OPTION_NAMES))
        if unknown:
            raise ConfigurationError(
                f"unknown CodeTokenizer option(s) {', '.join(unknown)}; "
                f"valid: {', '.join(_OPTION_NAMES)}"
            )
        reserved = None
        if tokenizer is None:
            default = CodeTokenizer.default()
            tokenizer = default.tokenizer
            if comment_tokenizer is None:
                comment_tokenizer = default.comment_tokenizer
            spaced = default.options.spaced_keywords
            if languages is None and options.get("spaced_keywords", spaced) == spaced:
                # the default's own keyword table: no grammar of its languages is loaded
                # (the curated ones need the languages extra only when used)
                reserved = default.reserved
            elif languages is None:
                languages = list(default.reserved.keywords)
            options = {**default.options.to_dict(), **options}
        self.options = RouterOptions(**options)
        self.reserved = reserved or ReservedTokens.for_languages(
            languages or CORE_LANGUAGES, spaced=self.options.spaced_keywords
        )
        self._splitter = PieceSplitter(self.options.digits, max_piece=self.options.max_piece)
        self.tokenizer = tokenizer
        self.comment_tokenizer = comment_tokenizer
        self._setup(control=True)

    def _setup(self, control: bool = False) -> None:
        """Build the channels and tables; ``control``: first add the control tokens the
        tokenizer lacks (after the reserved ones) and the default template when it has
        none (a new tokenizer; a loaded one keeps what its file holds, so ids never move)."""
        tok = self.tokenizer
        tok.add_special_tokens(
            [AddedToken(t, special=True, normalized=False) for t in self.reserved.tokens]
        )
        if control:
            tok.add_special_tokens(
                [AddedToken(t, special=True, normalized=False) for t in CONTROL_TOKENS.values()]
            )
            if tok.post_processor is None:
                tok.post_processor = _template(tok, *default_template())
        self._code = Channel(tok, 0, self.reserved.surfaces)
        self._index = {t: tok.token_to_id(t) for t in self.reserved.tokens}
        channels = [self._code]
        if self.comment_tokenizer is not None:
            self._comment = Channel(self.comment_tokenizer, self._code.size)
            channels.append(self._comment)
        else:
            self._comment = self._code
        self._routers: dict[tuple[Any, ...], Any] = {}
        self._last_encoder: tuple[Any, RouterOptions, tuple[bool, bool], Any] | None = None
        self._tokens = [t for ch in channels for t in ch.tokens]
        self._bytes = [b for ch in channels for b in ch.token_bytes]
        self._lengths = np.concatenate([ch.lengths for ch in channels])
        self._token_table: np.ndarray | None = None  # _token_array(), made on first use
        reserved = set(self.reserved.tokens)
        self._control = {
            tid: t.content
            for tid, t in tok.get_added_tokens_decoder().items()
            if t.special and t.content not in reserved
        }
        #: ``transformers``-style settings of :meth:`__call__` (not saved).
        self.model_max_length: int = int(1e30)
        self.padding_side = "right"
        self.truncation_side = "right"
        self.model_input_names: list[str] = ["input_ids", "attention_mask"]

    # ------------------------------------------------------------------ construction
    @classmethod
    def default(cls, name: str = "polyglot") -> CodeTokenizer:
        """Load an embedded code tokenizer shipped with codetok (offline, cached).

        Args:
            name: ``"polyglot"`` (the default: trained on real Python, Java, C#,
                JavaScript, Go, Rust, TypeScript, TSX, C, C++, PHP, Ruby, Kotlin, Swift,
                Scala and Bash code) or ``"core4"`` (the previous default: the first four
                only, 32,000 ids); see ``corpora/PROVENANCE.md``.

        Returns:
            A :class:`CodeTokenizer`; a fresh copy on every call.

        Raises:
            ConfigurationError: ``name`` is not an embedded tokenizer.
            NotFoundError: the package data file is missing (a broken install).

        >>> CodeTokenizer.default().vocab_size > CodeTokenizer.default("core4").vocab_size
        True
        """
        file = DEFAULT_FILES.get(name)
        if file is None:
            raise ConfigurationError(
                f"no embedded code tokenizer {name!r}; names: {', '.join(DEFAULT_FILES)}"
            )
        text = _DEFAULT_TEXTS.get(name)
        if text is None:
            try:
                text = (resources.files("codetok") / "data" / file).read_text(encoding="utf-8")
            except (FileNotFoundError, OSError) as e:
                raise NotFoundError(
                    f"the embedded code tokenizer {name!r} (codetok/data/{file}) is missing; "
                    "reinstall codetok or rebuild it with corpora/build_default_tokenizer.py"
                ) from e
            _DEFAULT_TEXTS[name] = text
        return cls.from_str(text, path=f"codetok/data/{file}")

    @classmethod
    def train(
        cls,
        paths_or_iterator: Any,
        /,
        *,
        languages: Sequence[str] | None = None,
        vocab_size: int = 16000,
        model: str = "bpe",
        comment_vocab: str = "shared",
        comment_vocab_size: int | None = None,
        min_frequency: int = 2,
        show_progress: bool = True,
        **options: Any,
    ) -> CodeTokenizer:
        """Train a code tokenizer with AST-aware pre-tokenization.

        No piece crosses a lexeme boundary or an identifier-part boundary: the pieces counted
        are exactly the pieces :meth:`encode` hands the model.

        Args:
            paths_or_iterator: a file or directory, a list of them (``pathlib.Path`` or
                existing path strings), or an iterable of sources (str, bytes, or
                ``(source, language)`` pairs).
            languages: languages to read from directories and to reserve keywords for
                (default: the four core languages).
            vocab_size: size of the code vocabulary, reserved tokens included.
            model: ``"bpe"``, ``"wordpiece"`` or ``"unigram"``.
            comment_vocab: ``"shared"`` (one model) or ``"separate"`` (a second model
                trained on comments and docstrings only).
            comment_vocab_size: size of the separate comment vocabulary (default
                ``vocab_size // 4``).
            min_frequency: pieces/pairs rarer than this are not learned.
            show_progress: progress bars on stderr.
            **options: router options, as for the constructor.

        Returns:
            The trained tokenizer.

        Raises:
            ConfigurationError: an unknown model, comment_vocab or option.
            TrainingError: an empty corpus or a vocabulary too small.
            NotFoundError: a path does not exist.

        >>> src = ["def f(x):\\n    return x + 1\\n"] * 5
        >>> tok = CodeTokenizer.train(src, languages=["python"], vocab_size=400,
        ...                           show_progress=False)
        >>> tok.decode(tok.encode(src[0], "python").ids) == src[0]
        True
        """
        trained = train_models(
            paths_or_iterator,
            languages=languages,
            vocab_size=vocab_size,
            model=model,
            comment_vocab=comment_vocab,
            comment_vocab_size=comment_vocab_size,
            min_frequency=min_frequency,
            show_progress=show_progress,
            options=options,
        )
        return cls(
            trained.tokenizer,
            trained.comment_tokenizer,
            languages=trained.languages,
            **options,
        )

    # ------------------------------------------------------------------ vocabulary
    @property
    def vocab_size(self) -> int:
        """Number of ids (both channels, reserved tokens included)."""
        return len(self._tokens)

    def id_to_token(self, id: int) -> str | None:
        """Return the token string of an id, or None when out of range."""
        return self._tokens[id] if 0 <= id < len(self._tokens) else None

    def token_to_id(self, token: str) -> int | None:
        """Return the id of a code-channel or reserved token, or None."""
        return self.tokenizer.token_to_id(token)

    def reserved_id(self, token: str) -> int:
        """Return the id of a reserved token such as ``"<py:def>"`` or ``"<INDENT>"``.

        Raises:
            VocabularyError: ``token`` is not reserved.

        >>> tok = CodeTokenizer()
        >>> tok.id_to_token(tok.reserved_id("<INDENT>"))
        '<INDENT>'
        """
        try:
            return self._index[token]
        except KeyError:
            raise VocabularyError(f"{token!r} is not a reserved token of this tokenizer") from None

    @property
    def special_tokens_map(self) -> dict[str, str]:
        """``transformers``' roles of the control tokens this tokenizer has
        (``eos_token``, ``pad_token``, ``unk_token``, ``mask_token``; ``bos_token`` is the
        EOS token, as in GPT-2 and StarCoder).

        >>> CodeTokenizer().special_tokens_map["pad_token"]
        '<pad>'
        """
        have = set(self._control.values())
        out: dict[str, str] = {}
        for role, name in ROLES.items():
            token = CONTROL_TOKENS["eos" if role == "bos" else role]
            if token in have:
                out[name] = token
        return out

    def control_id(self, role: str) -> int:
        """Return the id of a control token by role: ``"eos"``, ``"pad"``, ``"unk"``,
        ``"mask"``, ``"fim_prefix"``, ``"fim_middle"``, ``"fim_suffix"``, ``"fim_pad"``,
        ``"file_sep"``, ``"repo_name"`` (see :mod:`codetok.code.special`).

        Raises:
            VocabularyError: an unknown role, or this tokenizer lacks the token (a file
                saved before codetok had it: build a new ``CodeTokenizer`` over its
                ``tokenizer`` to add it).

        >>> tok = CodeTokenizer()
        >>> tok.id_to_token(tok.control_id("fim_middle"))
        '<fim_middle>'
        """
        token = CONTROL_TOKENS.get("eos" if role == "bos" else role)
        if token is None:
            raise VocabularyError(
                f"unknown control token role {role!r}; roles: bos, {', '.join(CONTROL_TOKENS)}"
            )
        tid = self.tokenizer.token_to_id(token)
        if tid is None or self._control.get(tid) != token:
            raise VocabularyError(
                f"this code tokenizer has no {token!r} token (saved before codetok added "
                "control tokens); CodeTokenizer(old.tokenizer, languages=..., **options) adds "
                "them after the existing ids"
            )
        return tid

    @property
    def post_processor(self) -> TemplateProcessing | None:
        """The template :meth:`__call__` places special tokens with (``add_special_tokens``):
        the code model's :class:`~codetok.processors.TemplateProcessing`, saved with the
        tokenizer; a new code tokenizer starts with ``$A <|endoftext|>``. None: no special
        tokens (a wrapped tokenizer with another kind of post-processor).

        >>> from codetok.processors import TemplateProcessing
        >>> tok = CodeTokenizer()
        >>> eos = tok.control_id("eos")
        >>> tok.post_processor = TemplateProcessing(
        ...     "<|endoftext|> $A <|endoftext|>", special_tokens=[("<|endoftext|>", eos)])
        >>> tok("x = 1\\n", "python")["input_ids"][0] == eos
        True
        """
        pp = self.tokenizer.post_processor
        return pp if isinstance(pp, TemplateProcessing) else None

    @post_processor.setter
    def post_processor(self, value: TemplateProcessing | None) -> None:
        if value is not None and not isinstance(value, TemplateProcessing):
            raise ConfigurationError(
                "a code tokenizer's post_processor is a codetok.processors.TemplateProcessing "
                f"or None, not {type(value).__name__}"
            )
        self.tokenizer.post_processor = value

    # ------------------------------------------------------------------ encode / decode
    def lex(
        self,
        source: str | bytes,
        /,
        language: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
    ) -> Lexemes:
        """Lex ``source`` (the pre-tokenization step); see :func:`codetok.code.lex`."""
        return lex(source, language, path=path, budget=self.parse_budget)

    def _options(self, overrides: dict[str, bool | None]) -> RouterOptions:
        changed = {k: v for k, v in overrides.items() if v is not None}
        if not changed:
            return self.options
        return RouterOptions(**{**self.options.to_dict(), **changed})

    def encode(
        self,
        source: str | bytes,
        /,
        language: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        drop_comments: bool | None = None,
        drop_docstrings: bool | None = None,
        normalize_whitespace: bool | None = None,
    ) -> CodeEncoding:
        """Encode source code into ids annotated with kinds, node types, spans and lines.

        Args:
            source: the code, str or bytes (any bytes; invalid UTF-8 is kept).
            language: language name or alias; None detects it from ``path`` and content.
            path: the file the code came from (language detection only).
            drop_comments: leave comments out (default: the tokenizer's option).
            drop_docstrings: leave docstrings and doc comments out.
            normalize_whitespace: normalize blanks and line ends (see
                :class:`~codetok.code.routing.router.RouterOptions`).

        Returns:
            A :class:`CodeEncoding`; ``decode(enc.ids)`` is the source exactly when
            ``enc.lossless`` (otherwise the normalized source); for bytes, pass
            ``as_bytes=True`` (the bytes) or ``from_bytes=True`` (their text).

        Raises:
            LanguageError: unknown language, or it cannot be detected.
            TypeError: ``source`` is neither str nor bytes.

        >>> tok = CodeTokenizer()
        >>> enc = tok.encode("int x = 42; // answer\\n", "java")
        >>> [t for t in enc.tokens if t.startswith("<")]
        ['<java:int>', '<comment>', '</comment>', '<NL>']
        >>> tok.encode("x = 1  # c\\n", "python", drop_comments=True).lossless
        False
        """
        src = prepare(source, language, path=path, budget=self.parse_budget)
        if drop_comments is None and drop_docstrings is None and normalize_whitespace is None:
            opts = self.options
        else:
            opts = self._options(
                {
                    "drop_comments": drop_comments,
                    "drop_docstrings": drop_docstrings,
                    "normalize_whitespace": normalize_whitespace,
                }
            )
        encoder = self._encoder(src.grammar, opts)
        if encoder is None:
            return self._encode_lexemes(lex_prepared(src), opts)
        return self._fused_encoding(src, encode_files([(encoder, src)])[0])

    def encode_batch(
        self,
        sources: Sequence[str | bytes],
        /,
        language: str | None = None,
        *,
        paths: Sequence[str | os.PathLike[str] | None] | None = None,
        num_threads: int | None = None,
        drop_comments: bool | None = None,
        drop_docstrings: bool | None = None,
        normalize_whitespace: bool | None = None,
    ) -> list[CodeEncoding]:
        """Encode many sources, as :meth:`encode` does each, on several threads.

        Each file's parse, tree walk, routing and subwords run in one native call, the files
        on ``num_threads`` native threads with the GIL released (Python then only wraps each
        result in its :class:`CodeEncoding`).

        Args:
            sources: the code of each file, str or bytes.
            language: one language for every source; None detects each one's.
            paths: the file of each source (language detection only), or None.
            num_threads: threads to use; None: one per CPU.
            drop_comments: as for :meth:`encode`.
            drop_docstrings: as for :meth:`encode`.
            normalize_whitespace: as for :meth:`encode`.

        Returns:
            One :class:`CodeEncoding` per source, in order.

        Raises:
            ValueError: ``paths`` and ``sources`` differ in length, or ``num_threads`` < 1.
            LanguageError, TypeError: as :meth:`encode`, for the first source that fails.

        >>> tok = CodeTokenizer()
        >>> [len(e) for e in tok.encode_batch(["x = 1\\n", "y = 22\\n"], "python")]
        [4, 4]
        """
        sources = list(sources)
        where = [None] * len(sources) if paths is None else list(paths)
        if len(where) != len(sources):
            raise ValueError(f"{len(sources)} sources but {len(where)} paths")
        threads = (os.cpu_count() or 1) if num_threads is None else num_threads
        if threads < 1:
            raise ValueError(f"num_threads must be at least 1, got {num_threads}")
        opts = self._options(
            {
                "drop_comments": drop_comments,
                "drop_docstrings": drop_docstrings,
                "normalize_whitespace": normalize_whitespace,
            }
        )

        srcs = [
            prepare(s, language, path=p, budget=self.parse_budget)
            for s, p in zip(sources, where, strict=True)
        ]
        encoders = [self._encoder(src.grammar, opts) for src in srcs]
        if all(e is not None for e in encoders):  # every file in native threads
            results = encode_files(list(zip(encoders, srcs, strict=True)), threads)
            return [self._fused_encoding(s, r) for s, r in zip(srcs, results, strict=True)]

        def one(k: int) -> CodeEncoding:
            return self._encode_lexemes(lex_prepared(srcs[k]), opts)

        if threads == 1 or len(sources) < 2:
            return [one(k) for k in range(len(sources))]
        with ThreadPoolExecutor(max_workers=min(threads, len(sources))) as pool:
            return list(pool.map(one, range(len(sources))))

    def __call__(
        self,
        source: str | bytes | Sequence[str | bytes],
        /,
        language: str | tuple[str | None, str | None] | None = None,
        *,
        source_pair: str | bytes | Sequence[str | bytes] | None = None,
        **options: Any,
    ) -> BatchEncoding:
        """Model inputs for one source, a batch, or pairs, as ``transformers`` makes them.

        The sources are encoded as :meth:`encode_batch` encodes them (native threads); the
        ids are then laid out as a ``transformers`` tokenizer lays out its own, with the
        special tokens of :attr:`post_processor` (``$A <|endoftext|>`` by default). Nothing
        of the tokenizer is changed, so threads may share it.

        Args:
            source: a source (str or bytes) or a list of them.
            language: the language of every source, or ``(first, second)`` for pairs;
                None detects each one's (from ``paths`` and content); ``"text"``: natural
                language (a docstring, a query), its words through the comment channel
                (:meth:`encode_plain`), no parse, kinds and node types -1.
            source_pair: the second source of each pair (a list when ``source`` is one),
                encoded after the first (type id 1 in the default template).
            **options: ``paths`` (file names, for detection), ``add_special_tokens``,
                ``padding`` (True / ``"longest"`` / ``"max_length"``), ``truncation``
                (True / ``"longest_first"`` / ``"only_first"`` / ``"only_second"``, or
                ``"statement"``: single sources cut at the end of a statement),
                ``max_length``, ``stride``, ``pad_to_multiple_of``, ``padding_side``,
                ``truncation_side``, ``return_tensors`` (``"np"`` / ``"pt"``),
                ``return_token_type_ids``, ``return_attention_mask``,
                ``return_overflowing_tokens``, ``return_special_tokens_mask``,
                ``return_offsets_mapping`` (char spans into each source),
                ``return_length``, ``return_position_ids``, ``return_kinds`` and
                ``return_node_types`` (each token's :class:`~codetok.code.LexemeKind` and
                node type id, -1 for special tokens and padding), ``num_threads``.

        Returns:
            A :class:`~codetok.tokenizer.encoding.BatchEncoding`: lists for one source,
            lists of lists for a batch, arrays or tensors with ``return_tensors``.

        Raises:
            ConfigurationError: an unknown option value, padding without a ``<pad>`` token,
                or ``truncation="statement"`` with pairs or windows.
            TruncationError: ``max_length`` leaves no room for the special tokens.
            LanguageError, ParseLimitError: as :meth:`encode`.

        >>> tok = CodeTokenizer()
        >>> batch = tok(["x = 1\\n", "def f():\\n    return 2\\n"], "python", padding=True)
        >>> [len(ids) for ids in batch["input_ids"]], batch["attention_mask"][0][-2:]
        ([10, 10], [0, 0])
        """
        from .model_inputs import code_call

        unknown = sorted(set(options) - _CALL_OPTIONS)
        if unknown:
            raise ConfigurationError(
                f"unknown option(s) {', '.join(unknown)} of CodeTokenizer.__call__; "
                f"valid: {', '.join(sorted(_CALL_OPTIONS))}"
            )
        return code_call(self, source, source_pair, language, **options)

    def encode_plain(self, text: str) -> list[int]:
        """Ids of ``text`` as natural language, without a parse: each word with the blanks
        before it through the comment channel, as the router encodes a comment's words
        (file paths and repository names in packed sequences, prose). Lossless:
        ``decode(encode_plain(t)) == t``.

        >>> tok = CodeTokenizer()
        >>> tok.decode(tok.encode_plain("src/app/main.py\\n"))
        'src/app/main.py\\n'
        """
        ids: list[int] = []
        for piece in _PLAIN_PIECES.findall(text):
            ids += self._comment.encode(piece.encode("utf-8", "surrogatepass"))
        return ids

    def _token_array(self) -> np.ndarray:
        """Every id's token string in an object array (indexed by id arrays)."""
        if self._token_table is None:
            self._token_table = np.array(self._tokens, dtype=object)
        return self._token_table

    def _encoder(self, grammar: Any, opts: RouterOptions) -> Any | None:
        """The native encoder of ``grammar`` and ``opts`` (built once), or None when the
        lexer and router run as separate calls (see :mod:`codetok.code.fused`).

        The last answer is kept with what it was for (one tuple, replaced whole, so threads
        read a consistent one): a run of files of one language skips hashing the options."""
        switches = _plan.switches()
        last = self._last_encoder
        if last is not None and last[0] is grammar and last[1] is opts and last[2] == switches:
            return last[3]
        key = ("fused", grammar.name, opts, *switches)
        if key not in self._routers:
            router = self._router(grammar.name, opts)
            self._routers[key] = compile_encoder(grammar, router, self._index, opts)
        encoder = self._routers[key]
        self._last_encoder = (grammar, opts, switches, encoder)
        return encoder

    def _fused_encoding(self, src: Prepared, result: tuple[Any, ...]) -> CodeEncoding:
        """The lazy encoding of one result of :func:`~codetok.code.fused.encode_files`."""
        *columns, has_error, ids, lexeme_indices = result
        lexemes = src.lexemes(columns, has_error)
        return self._encoding(lexemes, ids, lexeme_indices, None, None, None, True)

    def _router(self, language: str, opts: RouterOptions) -> Any:
        """The native router for ``language`` and ``opts`` (built once), or why the Python
        router runs (a str; see :func:`codetok.code.routing.native.compile_router`)."""
        key = (language, opts, *_plan.switches())
        router = self._routers.get(key)
        if router is None:
            router = self._routers[key] = compile_router(
                self._code, self._comment, self.reserved, self._index, language, opts
            )
        return router

    def _encode_lexemes(self, lexemes: Lexemes, opts: RouterOptions) -> CodeEncoding:
        router = self._router(lexemes.language, opts)
        if not isinstance(router, str) and opts.lossless:
            # Ids and lexemes only: the encoding works its spans and lines out when read.
            ids, lexeme_indices = run_router_ids(router, lexemes, self._index, opts)
            return self._encoding(lexemes, ids, lexeme_indices, None, None, None, True)
        if not isinstance(router, str):
            r = run_router(router, lexemes, self._index, opts)
            return self._encoding(
                lexemes, r.ids, r.lexeme_indices, r.spans, r.byte_spans, r.lines, opts.lossless
            )
        splitter = self._splitter
        if opts.digits != splitter.digits or opts.max_piece != splitter.max_piece:
            splitter = PieceSplitter(opts.digits, max_piece=opts.max_piece)
        routed = route(lexemes, self.reserved, self._index, opts, splitter)
        text = lexemes.source_text
        data = lexemes.source_bytes
        from_bytes = isinstance(lexemes.source, bytes)
        errors = "surrogateescape" if from_bytes else "surrogatepass"
        code_enc = self._code.encode
        comment_enc = self._comment.encode
        replaced = routed.replaced
        ids: list[int] = []
        tok_unit: list[int] = []
        extend = ids.extend
        for u, (op, a, b) in enumerate(zip(routed.ops, routed.starts, routed.ends, strict=True)):
            if op >= 0:
                ids.append(op)
                tok_unit.append(u)
                continue
            piece = replaced.get(u) if replaced else None
            if piece is None:
                piece = text[a:b]
            got = (code_enc if op == CODE else comment_enc)(piece.encode("utf-8", errors))
            extend(got)
            tok_unit.extend([u] * len(got))
        return self._annotate(lexemes, routed, ids, tok_unit, text, data)

    def _annotate(
        self,
        lexemes: Lexemes,
        routed: Any,
        ids: list[int],
        tok_unit: list[int],
        text: str,
        data: bytes,
    ) -> CodeEncoding:
        id_arr = np.asarray(ids, np.int64)
        ascii_ = len(text) == len(data)
        u_start = np.array(routed.starts, np.int64)
        u_end = np.array(routed.ends, np.int64)
        if ascii_:
            char_byte = None
            ub_start, ub_end = u_start, u_end
        else:
            char_byte = char_to_byte(text, isinstance(lexemes.source, bytes))
            ub_start, ub_end = char_byte[u_start], char_byte[u_end]
        tu = np.array(tok_unit, np.int64)
        lens = self._lengths[id_arr] if id_arr.size else np.zeros(0, np.int64)
        run = np.cumsum(lens) - lens
        first = np.searchsorted(tu, tu, "left")
        bstart = ub_start[tu] + (run - run[first]) if tu.size else np.zeros(0, np.int64)
        bend = bstart + lens
        if routed.replaced or not routed.lossless:
            ue = ub_end[tu]
            bstart = np.minimum(bstart, ue)
            bend = np.minimum(bend, ue)
        spans, lines = token_positions(text, data, isinstance(lexemes.source, bytes), bstart, bend)
        lex_idx = np.array(routed.lexemes, np.int64)[tu] if tu.size else np.zeros(0, np.int64)
        byte_spans = np.stack([bstart, bend], axis=1) if tu.size else np.zeros((0, 2), np.int64)
        return self._encoding(lexemes, id_arr, lex_idx, spans, byte_spans, lines, routed.lossless)

    def _encoding(
        self,
        lexemes: Lexemes,
        ids: np.ndarray,
        lexeme_indices: np.ndarray,
        spans: np.ndarray | None,
        byte_spans: np.ndarray | None,
        lines: np.ndarray | None,
        lossless: bool,
    ) -> CodeEncoding:
        """The encoding of ``lexemes`` from its per-token arrays (either router's); with
        ``spans`` None (a lossless encoding), its annotations are worked out when read."""
        lazy = spans is None
        return CodeEncoding(
            ids=ids,
            tokens=None,
            vocab=self._tokens,
            kinds=None if lazy else lexemes.kinds[lexeme_indices],
            node_type_ids=None if lazy else lexemes.node_types[lexeme_indices],
            type_names=lexemes.type_names,
            lexeme_indices=lexeme_indices,
            spans=spans,
            byte_spans=byte_spans,
            lines=lines,
            language=lexemes.language,
            source_is_bytes=isinstance(lexemes.source, bytes),
            lossless=lossless,
            lexemes=lexemes,
            lengths=self._lengths if lazy else None,
        )

    def decode(
        self,
        ids: Iterable[int],
        /,
        *,
        as_bytes: bool = False,
        from_bytes: bool = False,
        skip_special_tokens: bool = True,
    ) -> str | bytes:
        """Turn ids back into source code.

        The ids stand for UTF-8 bytes (a str source is encoded with ``surrogatepass``, so a
        lone surrogate is three bytes ``ED xx xx``; a bytes source is taken as is). Those
        bytes alone cannot say which kind of source they came from: ``b"\\xed\\xa0\\x80"``
        is both the str ``"\\ud800"`` and three invalid bytes. So:

        - ``decode(ids)`` inverts a str source: ``decode(encode(s).ids) == s`` for every
          str, lone surrogates included. Bytes that are not even surrogate-tolerant UTF-8
          can only come from a bytes source and are read with ``surrogateescape``.
        - ``decode(ids, as_bytes=True)`` gives the bytes: ``== src`` for every bytes source.
        - ``decode(ids, from_bytes=True)`` gives a bytes source's text,
          ``src.decode("utf-8", "surrogateescape")`` (its :attr:`Lexemes.source_text`, which
          the spans index), for every bytes source: distinct bytes give distinct text.
          Without it a bytes source holding encoded surrogates (``ED A0..BF xx``) would come
          back as lone surrogates, the same text as other bytes (``ED B2 80`` and ``80``
          would both read ``"\\udc80"``).

        Args:
            ids: ids from :meth:`encode`.
            as_bytes: return the UTF-8 bytes (use it for bytes input, to get invalid UTF-8
                back byte for byte).
            from_bytes: the ids came from a bytes source: return its ``surrogateescape``
                text (:attr:`CodeEncoding.source_is_bytes` says which).
            skip_special_tokens: control tokens (``<|endoftext|>``, ``<pad>``, the FIM
                tokens; :mod:`codetok.code.special`) decode to nothing; False writes their
                text. Reserved tokens always decode to the source text they stand for.

        Returns:
            The source as str, or bytes with ``as_bytes``.

        Raises:
            VocabularyError: an id outside the vocabulary.
            ConfigurationError: both ``as_bytes`` and ``from_bytes``.

        >>> tok = CodeTokenizer()
        >>> enc = tok.encode(b"x = '\\xed\\xa0\\x80'\\n", "python")
        >>> tok.decode(enc.ids, as_bytes=True)
        b"x = '\\xed\\xa0\\x80'\\n"
        >>> tok.decode(enc.ids, from_bytes=enc.source_is_bytes)
        "x = '\\udced\\udca0\\udc80'\\n"
        >>> tok.decode(enc.ids)  # what the str "x = '\\ud800'\\n" encodes to, too
        "x = '\\ud800'\\n"
        """
        if as_bytes and from_bytes:
            raise ConfigurationError(
                "decode takes as_bytes or from_bytes, not both: as_bytes=True returns the "
                "bytes, from_bytes=True their surrogateescape text"
            )
        table = self._bytes
        if not skip_special_tokens and self._control:
            table = list(table)
            for tid, content in self._control.items():
                table[tid] = content.encode("utf-8")
        n = len(table)
        ids = list(ids)
        for pos, i in enumerate(ids):
            if not 0 <= i < n:
                raise VocabularyError(
                    f"id {i} at position {pos} is not in this tokenizer's vocabulary "
                    f"(size {n}, ids 0-{n - 1}); decode ids this tokenizer produced"
                )
        data = b"".join([table[i] for i in ids])
        if as_bytes:
            return data
        if from_bytes:
            return data.decode("utf-8", "surrogateescape")
        try:
            return data.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return data.decode("utf-8", "surrogateescape")

    def pre_tokenize(
        self,
        source: str | bytes,
        /,
        language: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
    ) -> list[tuple[str, tuple[int, int], str]]:
        """Return what the models see: ``(piece or reserved token, char span, channel)``.

        The channel is ``"code"``, ``"comment"`` or ``"reserved"``.

        >>> CodeTokenizer().pre_tokenize("getUser()", "javascript")[:3]
        [('get', (0, 3), 'code'), ('User', (3, 7), 'code'), ('()', (7, 9), 'code')]
        """
        lexemes = lex(source, language, path=path, budget=self.parse_budget)
        routed = route(lexemes, self.reserved, self._index, self.options, self._splitter)
        text = lexemes.source_text
        out: list[tuple[str, tuple[int, int], str]] = []
        for u, (op, a, b) in enumerate(zip(routed.ops, routed.starts, routed.ends, strict=True)):
            if op >= 0:
                out.append((self._tokens[op], (a, b), "reserved"))
            else:
                piece = routed.replaced.get(u, text[a:b])
                out.append((piece, (a, b), "code" if op == CODE else "comment"))
        return out

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        """The one-file JSON object: ``tokenizer.json`` keys plus ``"codetok_code"``."""
        data = self.tokenizer.to_dict()
        data[FORMAT_KEY] = {
            "version": FORMAT_VERSION,
            "options": self.options.to_dict(),
            "reserved": self.reserved.to_dict(),
            "comment_tokenizer": None
            if self.comment_tokenizer is None
            else self.comment_tokenizer.to_dict(),
        }
        return data

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle (and ``copy``) as the saved file's text: the configuration, not the
        native routers and kernels, which the copy builds again on its first encode; the
        parse budget and the settings of :meth:`__call__` go along (a data loader's worker
        processes get the tokenizer as it was set up)."""
        state = {name: getattr(self, name) for name in _UNSAVED}
        return _from_pickle, (type(self), self.to_str()), state

    def to_str(self, pretty: bool = False) -> str:
        """The JSON text of :meth:`to_dict`; lone surrogates are ``\\uXXXX`` escapes
        (:func:`codetok.tokenizer.serialization.json_text`)."""
        return json_text(self.to_dict(), pretty)

    def save(self, path: str | os.PathLike[str], /, *, pretty: bool = False) -> None:
        """Write the tokenizer to ONE JSON file (see :meth:`to_dict`).

        Args:
            path: the file to write.
            pretty: indent the JSON.

        The file is written whole or not at all; a token that is a lone surrogate is a
        JSON escape (``"\\ud800"``), read back as the same token.

        Raises:
            FormatError: a token holds a high surrogate followed by a low one, which JSON
                cannot keep apart; nothing is written.

        >>> import tempfile, os
        >>> tok = CodeTokenizer()
        >>> p = os.path.join(tempfile.mkdtemp(), "code.json")
        >>> tok.save(p)
        >>> CodeTokenizer.load(p).encode("a+b", "javascript").ids == tok.encode("a+b", "javascript").ids
        True
        """
        write_json_file(path, self.to_str(pretty), "code tokenizer file")

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> CodeTokenizer:
        """Build from the object :meth:`to_dict` writes.

        Every entry of ``"codetok_code"`` is type- and range-checked: the version, each
        option (a known name, a value of its type and range), the reserved keywords (see
        :meth:`ReservedTokens.from_dict`; each keyword's token must be an added token of the
        saved tokenizer, as :meth:`save` wrote it, or ids would move) and the comment
        tokenizer (``null`` or a ``tokenizer.json`` object).

        Raises:
            FormatError: the object has no valid ``"codetok_code"`` section; the error
                names the file and the key (``codetok_code.reserved.keywords.python[3]``).
        """
        ext = _code_section(data, path)
        options, splitter = _saved_options(ext["options"], path)
        reserved = ReservedTokens.from_dict(
            ext["reserved"], path=path, where=f"{FORMAT_KEY}.reserved"
        )
        tok = Tokenizer.from_dict(data, path=path)
        _check_reserved_added(reserved, tok, path)
        comment_tok = _saved_comment_tokenizer(ext["comment_tokenizer"], path)
        self = cls.__new__(cls)
        self.reserved = reserved
        self.options = options
        self._splitter = splitter
        self.tokenizer = tok
        self.comment_tokenizer = comment_tok
        try:
            self._setup()
        except (CodetokError, TypeError, ValueError, KeyError) as e:
            raise as_format_error(e, "the tokenizer does not fit its code options", path, "") from e
        return self

    @classmethod
    def from_str(cls, text: str, *, path: str | None = None) -> CodeTokenizer:
        """Build from the JSON text of :meth:`to_str`.

        Raises:
            FormatError: invalid JSON or not a code tokenizer.
        """
        return cls.from_dict(parse_json(text, path=path), path=path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], /) -> CodeTokenizer:
        """Load a tokenizer written by :meth:`save`.

        Raises:
            NotFoundError: no such file.
            FormatError: not a code tokenizer file.
        """
        name, text = read_text_file(path, "code tokenizer file")
        return cls.from_str(text, path=name)

    def __repr__(self) -> str:
        comment = "separate" if self.comment_tokenizer is not None else "shared"
        model = type(self.tokenizer.model).__name__
        langs = ",".join(sorted(self.reserved.keywords))
        return f"CodeTokenizer({model}, vocab={self.vocab_size}, comments={comment}, {langs})"


def _code_section(data: Any, path: str | None) -> dict[str, Any]:
    """The checked ``codetok_code`` section, so plain or newer files fail clearly."""
    ext = data.get(FORMAT_KEY) if isinstance(data, dict) else None
    if not isinstance(ext, dict):
        raise FormatError(
            f"not a code tokenizer file: no {FORMAT_KEY!r} section (for a plain "
            "tokenizer.json use codetok.Tokenizer.from_file, or wrap it with "
            "CodeTokenizer(Tokenizer.from_file(path)))",
            path=path,
        )
    version = ext.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise FormatError(
            f"unsupported code tokenizer version {version!r} (this codetok reads "
            f"{FORMAT_VERSION}); upgrade codetok",
            path=path,
            where=f"{FORMAT_KEY}.version",
        )
    keys = ("version", "options", "reserved", "comment_tokenizer")
    odd = sorted(set(keys) ^ set(ext))
    if odd:
        raise FormatError(
            f"{'unknown' if odd[0] in ext else 'missing'} key {odd[0]!r}; this section "
            f"holds exactly {', '.join(keys)}",
            path=path,
            where=FORMAT_KEY,
        )
    return ext


def _saved_options(saved: Any, path: str | None) -> tuple[RouterOptions, PieceSplitter]:
    """The checked saved router options and their splitter; options a file predates are off."""
    if not isinstance(saved, dict):
        raise FormatError("expected an object of options", path=path, where=f"{FORMAT_KEY}.options")
    unknown = sorted(set(saved) - set(_OPTION_NAMES))
    if unknown:
        raise FormatError(
            f"unknown option {unknown[0]!r}; valid: {', '.join(_OPTION_NAMES)}",
            path=path,
            where=f"{FORMAT_KEY}.options.{unknown[0]}",
        )
    check_options(RouterOptions, saved, path=path, where=f"{FORMAT_KEY}.options")
    # Files from before these options were trained without them.
    older = {
        "fold_whitespace": False,
        "join_punctuation": False,
        "fold_blank_lines": False,
        "spaced_keywords": False,
    }
    options = RouterOptions(**{**older, **saved})
    try:
        splitter = PieceSplitter(options.digits, max_piece=options.max_piece)
    except CodetokError as e:
        field = "digits" if options.digits not in DIGIT_POLICIES else "max_piece"
        where = f"{FORMAT_KEY}.options.{field}"
        raise as_format_error(e, "malformed option", path, where) from e
    return options, splitter


def _check_reserved_added(reserved: ReservedTokens, tok: Tokenizer, path: str | None) -> None:
    """Check every reserved token is an added token of ``tok``, or ids would move."""
    added = {t.content for t in tok.get_added_tokens_decoder().values()}
    missing = [t for t in reserved.tokens if t not in added]
    if missing:
        lang = next((g for g, t in reserved.keywords.items() if missing[0] in t.values()), "")
        raise FormatError(
            f"the reserved token {missing[0]!r} is not an added token of the saved "
            "tokenizer, where saving puts every reserved token: the keyword lists were "
            "edited after saving, and would give other ids",
            path=path,
            where=f"{FORMAT_KEY}.reserved" + (f".keywords.{lang}" if lang else ""),
        )


def _saved_comment_tokenizer(comment: Any, path: str | None) -> Tokenizer | None:
    """The saved comment tokenizer or None, errors located under its key."""
    where = f"{FORMAT_KEY}.comment_tokenizer"
    if comment is not None and not isinstance(comment, dict):
        raise FormatError(
            f"expected null or a tokenizer.json object, got {type(comment).__name__} "
            f"{comment!r:.80}",
            path=path,
            where=where,
        )
    try:
        return None if comment is None else Tokenizer.from_dict(comment, path=path)
    except FormatError as e:
        inner = f"{where}.{e.where}" if e.where else where
        raise type(e)(e.message, path=path, where=inner) from e


def _template(tok: Tokenizer, single: str, pair: str) -> TemplateProcessing:
    """A template over the control tokens it names, with their ids in ``tok``."""
    names = {t for t in (single + " " + pair).split() if not t.startswith("$")}
    names = {t.rsplit(":", 1)[0] if t.rsplit(":", 1)[-1].isdigit() else t for t in names}
    return TemplateProcessing(single, pair, [(t, tok.token_to_id(t)) for t in sorted(names)])


#: the embedded files' text by name, read once
_DEFAULT_TEXTS: dict[str, str] = {}
