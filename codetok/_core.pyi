"""Type stubs of the private native extension ``codetok._core`` (C++ in codetok/_native).

Each class has a pure-Python twin with the same interface in ``codetok/reference``; the
models pick one through ``codetok.models._backend``. Inputs and outputs are flat: strs,
lists of ints, lists of tuples. Loops run with the GIL released; tokens are built with it.
"""

from collections.abc import Sequence
from typing import Any, overload

class SharedRandom:
    """Python's ``random.Random`` generator (MT19937) behind a lock: a sampling model's,
    drawn from by its kernel, its plans and ``codetok.engine.shared_random``."""

    def __init__(self) -> None: ...
    def set_state(self, words: list[int]) -> None:
        """Load CPython's state: 624 words and the position."""
    def state(self) -> list[int]: ...
    def random(self) -> float: ...
    def next_u32(self) -> int: ...

class BpeCore:
    """BPE of one model: symbol table, merge ranks and options fixed at construction.

    ``merges`` is a list of ``(left, right, rank, new id)`` or an int32 array of such rows.
    """

    @overload
    def __init__(
        self,
        vocab: dict[str, int],
        merges: list[tuple[int, int, int, int]] | Any,
        values: list[str | None],
        token_type: type[tuple[Any, ...]],
        *,
        prefix: str,
        suffix: str,
        unk_id: int,
        fuse_unk: bool,
        byte_fallback: bool,
        ignore_merges: bool,
    ) -> None: ...
    @overload
    def __init__(
        self,
        utf8: Any,
        offsets: Any,
        present: Any,
        merges: Any,
        token_type: type[tuple[Any, ...]],
        *,
        prefix: str,
        suffix: str,
        unk_id: int,
        fuse_unk: bool,
        byte_fallback: bool,
        ignore_merges: bool,
        tables: tuple[Any, Any, Any] | None = None,
    ) -> None:
        """From a fast-load file's arrays (token k: utf8[offsets[k]:offsets[k + 1]] when
        present[k]; merges as int32 rows); ``tables``: the saved hash tables to borrow."""
    def tables(self) -> tuple[bytes, bytes, bytes, int]:
        """The merge and whole-token hash tables (slots, slots, keys) and their layout."""
    def tokens(self, ids: Any) -> list[str | None]:
        """Token strings of an int32 array of ids."""
    def strings(self) -> list[str | None]:
        """Every token string by id (None for ids without one)."""
    def symbol_ids(self, chars: str) -> list[int]:
        """Ids of single characters as whole tokens (-1 where none)."""
    def encode(self, piece: str) -> tuple[list[int], list[tuple[int, int]]]: ...
    def sample(
        self, piece: str, dropout: float, rng: SharedRandom
    ) -> tuple[list[int], list[tuple[int, int]]]:
        """``encode`` with BPE-dropout, drawing from ``rng`` (reference: ``BPE._sample``)."""
    def encode_batch(self, pieces: Sequence[str]) -> list[list[int]]: ...
    def tokenize_batch(self, pieces: Sequence[str]) -> list[list[Any] | None]: ...
    def encode_offsets(
        self, pieces: Sequence[str], anchors: Sequence[Any], word_start: int, word_step: int
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]] | None: ...

class WordPieceCore:
    """Greedy longest-match WordPiece of one model."""

    def __init__(
        self,
        vocab: dict[str, int],
        token_type: type[tuple[Any, ...]],
        *,
        prefix: str,
        max_input_chars_per_word: int,
    ) -> None: ...
    def tokenize_batch(self, pieces: Sequence[str]) -> list[list[Any] | None]: ...
    def encode_offsets(
        self,
        pieces: Sequence[str],
        anchors: Sequence[Any],
        word_start: int,
        word_step: int,
        unk_id: int,
        unk_token: str,
    ) -> tuple[list[int], list[str], list[tuple[int, int]], list[int]] | None: ...

class UnigramCore:
    """Unigram Viterbi best path of one model."""

    def __init__(
        self, pieces: list[str], scores: list[float], *, unk_id: int, unk_score: float
    ) -> None: ...
    def viterbi(self, piece: str) -> tuple[list[int], list[int]] | None: ...
    def viterbi_batch(self, pieces: Sequence[str]) -> list[tuple[list[int], list[int]] | None]: ...
    def sample(
        self, piece: str, alpha: float, nbest: int, rng: SharedRandom
    ) -> tuple[list[int], list[int]] | None:
        """A drawn path: the whole lattice (``nbest < 0``) or the ``nbest`` best paths."""
    def nbest(self, piece: str, n: int) -> list[tuple[tuple[list[int], list[int]], float]] | None:
        """The ``n`` best paths with their scores, best first."""

class Pipeline:
    """The native plan of a BPE tokenizer (built by ``codetok._plan``).

    One call per text runs added-token matching, the pre-tokenizer scanner, the byte-level
    alphabet, BPE (with a per-piece cache) and ByteLevel offset trimming. ``skip`` lists
    the ids of special tokens read as plain text; ``trim`` is 0 (none), 1 (trim) or 2
    (trim with ``add_prefix_space``). Batches run on ``threads`` native threads with the
    GIL released. ``None`` in place of a result: the Python pipeline decides that text.
    """

    def __init__(
        self,
        bpe: BpeCore,
        scanner: int,
        add_prefix_space: bool,
        byte_symbols: list[int],
        raw_added: list[tuple[str, int, bool, bool, bool]],
        norm_added: list[tuple[str, int, bool, bool, bool]],
        whitespace: str,
        trims: bool,
        spm: bool = False,
        prepend: int = 0,
        meta: str = "\u2581",
        spm_words: bool = False,
    ) -> None:
        """Byte-level (``scanner``, ``add_prefix_space``, 256 ``byte_symbols``) or, with
        ``spm``, SentencePiece-style character BPE after spaces become ``meta``;
        ``prepend``: 0 never, 1 always (Prepend normalizer), 2 when missing (Metaspace
        "always"), 3 when missing at the text's start (Metaspace "first"); ``spm_words``:
        Metaspace(split=True), each cut before ``meta`` is a word."""
    def encode(
        self, text: str, skip: Sequence[int], trim: int, model_core: Any, layout: Any
    ) -> Arrays | None:
        """The result as a ``NativeArrays`` (see :class:`Arrays`), or None: the Python path
        decides. ``model_core.tokens(ids)`` gives token strings; ``layout`` is None or
        ``(before, after, type_id)`` (special tokens around the sequence)."""
    def encode_encoding(
        self, text: str, skip: Sequence[int], trim: int, model_core: Any, layout: Any
    ) -> Any:
        """``encode`` as the ``codetok.encoding.Encoding`` over it (built in C)."""
    def encode_ids(self, text: str, skip: Sequence[int]) -> list[int] | None: ...
    def set_sampling(self, p: float, nbest: int, rng: SharedRandom) -> None:
        """Subword regularization from ``rng``: BPE dropout ``p``, or Unigram alpha ``p``
        over ``nbest`` paths; a batch then runs in order on one thread."""
    def set_surrogates_to_python(self, on: bool) -> None:
        """Give None for every text holding a surrogate code point (U+D800..U+DFFF), so the
        Python path rewrites it first (``Tokenizer.surrogates == "replace"``)."""
    def encode_batch(
        self,
        texts: Sequence[str],
        skip: Sequence[int],
        trim: int,
        threads: int,
        model_core: Any,
        layout: Any,
        encodings: bool,
    ) -> list[Any]:
        """``encode`` (``encodings``: ``encode_encoding``) of each text on native threads."""
    def encode_ids_batch(
        self, texts: Sequence[str], skip: Sequence[int], threads: int
    ) -> list[list[int] | None]: ...
    def encode_flat(
        self, texts: Sequence[str], skip: Sequence[int], threads: int
    ) -> tuple[Any, Any] | None:
        """All ids in one int32 array and int64 bounds (text k: ids[bounds[k]:bounds[k+1]])."""

#: Python's ``str.isspace`` characters, as the native ByteLevel offset trimming sees them.
PY_SPACE: str

def WordPiecePipeline(
    wordpiece: WordPieceCore,
    bert: tuple[bool, bool, bool, bool] | None,
    unk_id: int,
    raw_added: list[tuple[str, int, bool, bool, bool]],
    whitespace: str,
) -> Pipeline:
    """The native plan of a BERT-style WordPiece tokenizer, driven like :class:`Pipeline`.

    Added tokens are matched on the original text; ``bert`` is ``None`` (no normalizer) or
    BertNormalizer's ``(clean_text, handle_chinese_chars, strip_accents, lowercase)`` (strip
    resolved); BertPreTokenizer cuts; WordPiece with a per-word cache; an unknown word is
    ``unk_id`` over the whole word (``-1``: no unknown token, the text gets ``None``).
    """

class Arrays:
    """One native result of one sequence; ``codetok.encoding.NativeArrays`` subclasses it.
    Not made from Python: the plans make it."""

    ids: Any  # int32[n], read-only view
    offsets: Any  # int64[n, 2], read-only view
    words: Any  # int32[n], read-only view
    bare: bool
    type_id: int
    trimmed: bool
    before: tuple[tuple[int, str, int], ...]
    after: tuple[tuple[int, str, int], ...]
    pad: tuple[int, bool, int, int, str] | None
    start: int
    stop: int
    def __len__(self) -> int: ...
    def id_list(self) -> list[int]: ...
    def word_list(self) -> list[int | None]: ...
    def offset_list(self) -> list[tuple[int, int]]: ...
    def tokens(self) -> list[str]: ...
    def _with(
        self, start: int, stop: int, type_id: int, before: Any, after: Any, pad: Any
    ) -> Arrays: ...

class LazyList:
    """A list slot of ``Encoding`` built on first read as ``build(obj._native)``."""

    def __init__(self, slot: Any, native: Any, build: Any, setter: Any, doc: Any) -> None: ...
    def __get__(self, obj: Any, owner: Any = None) -> Any: ...
    def __set__(self, obj: Any, value: Any) -> None: ...

def register_encoding_types(native_arrays: type, encoding: type) -> None:
    """The classes the native plans make (``NativeArrays``, ``Encoding``)."""

def int_list(values: Any) -> list[int]:
    """``values.tolist()`` of a 1-d int32 array, sharing the int objects below 2**20."""

def pair_list(pairs: Any) -> list[tuple[int, int]]:
    """The rows of an (n, 2) int64 array as tuples (offsets), sharing ints as ``int_list``."""

def bert_flags() -> bytes:
    """bert_tables.hpp's flags of every code point 0..U+10FFFF, one byte each."""

def UnigramPipeline(
    unigram: UnigramCore,
    steps: list[tuple[Any, ...]],
    whitespace_split: bool,
    metaspace: tuple[str, int, bool] | None,
    byte_fallback: bool,
    byte_ids: list[int],
    raw_added: list[tuple[str, int, bool, bool, bool]],
    whitespace: str,
) -> Pipeline:
    """The native plan of a SentencePiece-style Unigram tokenizer, driven like :class:`Pipeline`.

    Added tokens are matched on the original text; ``steps`` are the normalizers in order:
    ``("precompiled", charsmap)``, ``("strip", left, right)``, ``("replace", pattern,
    min_run, content)`` (``min_run`` > 0: runs of the one-char ``pattern``), ``("prepend",
    content)``, ``("lowercase",)``, ``("strip_accents",)``, ``("nfc",)``, ``("nfd",)``,
    ``("nfkc",)``, ``("nfkd",)``; then WhitespaceSplit when ``whitespace_split`` and
    Metaspace when ``metaspace`` is ``(replacement, prepend 0 never / 1 always / 2 first,
    split)``; Viterbi with HF's unknown fusing and ``<0xNN>`` byte fallback (``byte_ids``).
    A text no piece covers without an unknown token gets ``None``.
    """

def norm_steps_normalize(
    steps: list[tuple[Any, ...]], text: str, whitespace: str
) -> tuple[str, list[int]]:
    """The normalizer ``steps`` of :func:`UnigramPipeline` on ``text``: the normalized text
    and each char's original index (``whitespace``: the chars ``Strip`` removes)."""

def unicode_normalize(text: str, form: str) -> tuple[str, list[int]]:
    """NFC, NFD, NFKC or NFKD (``form``) with HF's tables: the normalized text and each
    char's original index."""

def grapheme_ends(text: str) -> list[int]:
    """End index of each extended grapheme cluster of ``text`` (UAX #29 on Unicode 17.0, as
    :func:`codetok._grapheme.cluster_ends`)."""

def precompiled_normalize(charsmap: bytes, text: str) -> tuple[str, list[int]]:
    """``Precompiled(charsmap)`` of ``text``: the normalized text and each char's original
    index."""

def bert_normalize(
    text: str, clean_text: bool, handle_chinese_chars: bool, strip_accents: bool, lowercase: bool
) -> tuple[str, list[int]]:
    """BertNormalizer of ``text``: the normalized text and each char's original index."""

def scan(scanner: int, text: str) -> list[int]:
    """End positions of the pieces a pre-tokenizer scanner cuts ``text`` into (see
    ``codetok/engine/scanners.py`` for the scanner numbers)."""

def merge_table(vocab: dict[str, int], merges: list[Any]) -> Any | None:
    """HF merges -> int32 rows (left, right, rank, new id); None when one is not plain."""

def rank_merges(ranks: dict[bytes, int]) -> Any:
    """tiktoken ranks -> int32 rows (left, right, merged rank, merged rank), HF's order."""

def checksum(data: Any) -> int:
    """The binary format's checksum: sum of word[i] * (2i + 1) mod 2**64."""

def train_bpe_merges(
    symbols: Any,
    offsets: Any,
    counts: Any,
    tokens: list[str],
    vocab_size: int,
    min_frequency: int,
    max_token_length: int | None,
    prefix: str | None,
    on_merge: Any,
    every: int,
) -> tuple[Any, list[str]]:
    """BPE merges of flat words (``symbols[offsets[i]:offsets[i + 1]]`` occurring
    ``counts[i]`` times) over the vocabulary ``tokens``: ``(merges, new_tokens)``, the same
    as ``codetok._reference.bpe_train.train_merges`` (``merges``: int64 ``(n, 4)`` rows of
    ``(left, right, new_id, count)``)."""

class PieceCounter:
    """The trainers' corpus pass (codetok/engine/plan.py ``compile_counter`` builds it)."""

    def __init__(
        self,
        pre: int,
        scanner: int,
        add_prefix_space: bool,
        passes: list[tuple[int, int]],
        whitespace_split: bool,
        metaspace: tuple[str, int, bool] | None,
        raw: list[Any],
        norm: list[Any],
        whitespace: str,
        steps: list[Any],
        bert: tuple[bool, bool, bool, bool] | None,
    ) -> None: ...
    def count(
        self, texts: list[str], weights: list[int] | None = None, num_threads: int = 1
    ) -> None:
        """Count the pieces of every text (``weights[k]`` times each)."""
    def counts(self) -> dict[str, int]:
        """``{piece: count}`` so far, in order of first occurrence."""
    def __len__(self) -> int: ...

class CodeCounts:
    """The code trainers' corpus pass: pieces counted by a counting ``CodeRouter``."""

    def __init__(self, separate: bool) -> None: ...
    def add(self, router: CodeRouter, *inputs: Any) -> None:
        """Route one file (the inputs of ``CodeRouter.run``) and count its pieces."""
    def counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """``(code counts, comment counts)``."""

def train_unigram_pieces(
    words: Sequence[str],
    counts: Any,
    required: Sequence[str],
    required_counts: Any,
    digits: str,
    *,
    vocab_size: int,
    max_piece_length: int,
    seed_size: int,
    min_count: int,
    shrinking_factor: float,
    n_sub_iterations: int,
    whitespace_char: str,
    split_by_number: bool,
    num_threads: int = 1,
    on_step: Any = None,
) -> tuple[list[str], list[float], list[float]]:
    """SentencePiece's unigram training loop on word counts (seeds, EM, pruning), on
    ``num_threads`` threads: ``(pieces, scores, objectives)``, the same as
    ``codetok._reference.unigram_train.train_pieces`` (``digits``: the required chars that
    are digits)."""

#: Layout version of the hash tables saved in binary files.
TABLE_LAYOUT: int

def read_ranks(raw: bytes) -> dict[bytes, int] | int:
    """A ``.tiktoken`` file's bytes -> ranks, or the number of the first unplain line."""

#: The tree-sitter runtime compiled in for the native code lexer (None: built without it).
TREE_SITTER_VERSION: str | None

class LexPlan:
    """The native code lexer of one grammar (codetok/code/front/native.py builds it)."""

    def __init__(
        self,
        walk: tuple[Any, ...],
        columns: tuple[Any, ...],
        text_kind: Any,
        is_doc: Any,
        blank: Any,
    ) -> None: ...
    def walk(self, language: Any, body: bytes) -> tuple[Any, Any, int, int, bool]:
        """Parse and walk one file: (records, blocks, root kind id, root end, has_error)."""
    def lex(
        self, language: Any, data: bytes, base: int, text: str, from_bytes: bool
    ) -> tuple[Any, ...]:
        """Lex one file: the 10 lexeme columns and has_error."""

class CodeEncoder:
    """One language's whole code encode, parse to ids (codetok/code/fused.py builds it)."""

    def __init__(
        self,
        plan: LexPlan,
        language: Any,
        router: CodeRouter,
        sections: Any | None,
        section_ids: list[int],
        section_fallback: Any | None,
        split: Any,
    ) -> None: ...

def encode_code_files(files: list[tuple[Any, ...]], threads: int = 1) -> list[Any]:
    """Encode files ``(encoder, data, base, text, from_bytes, seconds, max_bytes)`` on up to
    ``threads`` native threads: per file the 10 lexeme columns (lines and cols None),
    has_error, ids and each id's lexeme; or the exception a failed file raises (None:
    skipped after one)."""

def syntax_nodes(language: Any, data: bytes, seconds: float = 0.0, max_bytes: int = 0) -> Any:
    """Every node below the root of ``data``'s tree, in document order, as ``(n, 5)``
    int64 rows: start byte, end byte, parent row (-1: the root), symbol, named (0/1).
    Raises ParseStopped past ``seconds`` / ``max_bytes``."""
    ...

def walk_report(language: Any, data: bytes) -> tuple[float, float, int, int]:
    """Parse, then walk the whole tree with a cursor reading each node's symbol and byte
    range: (parse seconds, walk seconds, nodes, checksum). For benchmarks."""

class CodeRouter:
    """The code tokenizer's native router (codetok/code/routing/native.py builds it)."""

    def __init__(
        self,
        spec: dict[str, Any],
        rules: tuple[list[str], list[str], list[str], list[str]],
        classes: bytes,
        code: tuple[Any, ...] | None,
        comment: tuple[Any, ...] | None,
    ) -> None: ...
    def run(
        self,
        text: str,
        from_bytes: bool,
        kinds: Any,
        starts: Any,
        ends: Any,
        doc_lex: Any,
        doc_off: Any,
        doc_id: Any,
        split: Any,
    ) -> tuple[Any, ...]:
        """Route and encode one file's lexemes: (ids, token unit, unit start, unit end, unit
        lexeme, token lexeme, byte spans, char spans, lines) arrays."""
