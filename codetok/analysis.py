"""Measure tokenizers on a corpus: compression, unknown tokens, coverage, side by side.

:func:`analyze` runs one tokenizer over a corpus and returns one row of statistics;
:func:`compare` does it for several tokenizers in a single pass over the corpus (so the
corpus may be a generator) and returns a :class:`Table` with ``to_markdown()``.

Statistics (totals over the corpus, not averages of per-text ratios):

- ``chars_per_token``, ``bytes_per_token`` (UTF-8): compression; higher is shorter output.
- ``tokens_per_word``: words are whitespace-separated runs (``str.split``) unless
  ``word_splitter`` says otherwise.
- ``unk_rate``: share of tokens that are the unknown token.
- ``word_coverage``: share of words whose tokens contain no unknown token.
- ``vocab_used``: share of the vocabulary's entries that occur at least once.

Any codetok :class:`~codetok.Tokenizer` works, and, duck-typed, any object whose
``encode(text)`` returns ids or something with ``.ids`` (HF ``tokenizers.Tokenizer``,
``transformers`` tokenizers). A ``tiktoken.Encoding`` is recognised and encoded with
``encode_ordinary``. Post-processor tokens (``[CLS]``…) are not counted, and neither is
padding: a tokenizer configured to pad or truncate (a BERT ``tokenizer.json`` pads and
truncates to 128, say) is measured through a copy with both turned off, so every text counts
whole and unpadded; the tokenizer passed in keeps its settings. No pandas needed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigurationError

__all__ = ["Encoder", "as_encoder", "analyze", "compare", "Table", "COLUMNS"]

COLUMNS = (
    "tokenizer",
    "texts",
    "chars",
    "bytes",
    "words",
    "tokens",
    "chars_per_token",
    "bytes_per_token",
    "tokens_per_word",
    "unk_rate",
    "word_coverage",
    "vocab_size",
    "vocab_used",
)
_WORD = re.compile(r"\S+")


@dataclass
class Encoder:
    """A uniform view of a tokenizer for analysis.

    Attributes:
        name: shown in tables.
        encode_ids: text -> token ids (no post-processor tokens).
        unk_id: the unknown token's id, or ``None`` when the tokenizer has none.
        vocab_size: number of ids, or ``None`` when unknown.
    """

    name: str
    encode_ids: Callable[[str], list[int]]
    unk_id: int | None = None
    vocab_size: int | None = None


def _unk_id(tok: Any) -> int | None:
    model = getattr(tok, "model", None)
    unk = getattr(model, "unk_token", None)
    if unk is None:
        unk = getattr(tok, "unk_token", None)
    if not isinstance(unk, str) or not unk:
        return None
    for getter in ("token_to_id", "convert_tokens_to_ids"):
        fn = getattr(tok, getter, None)
        if fn is not None:
            tid = fn(unk)
            return tid if isinstance(tid, int) else None
    return None


def _vocab_size(tok: Any) -> int | None:
    for attr in ("get_vocab_size", "n_vocab", "vocab_size"):
        v = getattr(tok, attr, None)
        if callable(v):
            try:
                v = v()
            except TypeError:
                continue
        if isinstance(v, int):
            return v
    return None


def _whole_text_tokenizer(tok: Any) -> Any:
    """``tok``, or a copy with padding and truncation off when it has them on (the HF
    ``tokenizers`` API: ``padding`` / ``truncation`` properties, ``no_padding()`` /
    ``no_truncation()``); padding would count pad tokens, truncation would drop text."""
    pads = getattr(tok, "padding", None) and callable(getattr(tok, "no_padding", None))
    cuts = getattr(tok, "truncation", None) and callable(getattr(tok, "no_truncation", None))
    if not (pads or cuts):
        return tok
    tok = copy.deepcopy(tok)
    if pads:
        tok.no_padding()
    if cuts:
        tok.no_truncation()
    return tok


def as_encoder(tokenizer: Any, name: str | None = None) -> Encoder:
    """Wrap a tokenizer for :func:`analyze` / :func:`compare`.

    Args:
        tokenizer: a codetok ``Tokenizer``, HF ``tokenizers.Tokenizer``, ``transformers``
            tokenizer, ``tiktoken.Encoding``, an :class:`Encoder`, or any object whose
            ``encode(text)`` returns a list of ids or an object with ``.ids``.
        name: the table label (defaults to the class name).

    Returns:
        An :class:`Encoder`. It encodes whole texts without padding: a tokenizer set to pad
        or truncate is used through a copy with both off.

    Raises:
        ConfigurationError: the object has no ``encode`` method.

    >>> from codetok.text import byte_tokenizer
    >>> enc = as_encoder(byte_tokenizer(), "bytes")
    >>> enc.encode_ids("hé"), enc.vocab_size
    ([104, 195, 169], 256)
    """
    if isinstance(tokenizer, Encoder):
        return tokenizer
    label = name or type(tokenizer).__name__
    ordinary = getattr(tokenizer, "encode_ordinary", None)
    if ordinary is not None and hasattr(tokenizer, "n_vocab"):  # tiktoken.Encoding
        return Encoder(label, lambda t: list(ordinary(t)), None, int(tokenizer.n_vocab))
    if callable(getattr(tokenizer, "encode", None)):
        tokenizer = _whole_text_tokenizer(tokenizer)
    encode = getattr(tokenizer, "encode", None)
    if not callable(encode):
        raise ConfigurationError(
            f"cannot analyze a {type(tokenizer).__name__}: it needs an encode(text) method "
            f"returning ids (or an object with .ids); wrap it in codetok.analysis.Encoder"
        )

    def encode_ids(text: str) -> list[int]:
        try:
            out = encode(text, add_special_tokens=False)
        except TypeError:
            out = encode(text)
        ids = getattr(out, "ids", out)
        return list(ids)

    return Encoder(label, encode_ids, _unk_id(tokenizer), _vocab_size(tokenizer))


@dataclass
class _Stats:
    enc: Encoder
    texts: int = 0
    chars: int = 0
    nbytes: int = 0
    words: int = 0
    tokens: int = 0
    unk: int = 0
    covered_words: int = 0
    seen: set[int] = field(default_factory=set)

    def add(
        self, text: str, n_bytes: int, word_spans: list[tuple[int, int]], ids: list[int]
    ) -> None:
        self.texts += 1
        self.chars += len(text)
        self.nbytes += n_bytes
        self.words += len(word_spans)
        self.tokens += len(ids)
        self.seen.update(ids)
        unk = self.enc.unk_id
        if unk is None:
            self.covered_words += len(word_spans)
            return
        self.unk += ids.count(unk)
        self.covered_words += sum(unk not in self.enc.encode_ids(text[s:e]) for s, e in word_spans)

    def row(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float | None:
            return a / b if b else None

        vs = self.enc.vocab_size
        return {
            "tokenizer": self.enc.name,
            "texts": self.texts,
            "chars": self.chars,
            "bytes": self.nbytes,
            "words": self.words,
            "tokens": self.tokens,
            "chars_per_token": ratio(self.chars, self.tokens),
            "bytes_per_token": ratio(self.nbytes, self.tokens),
            "tokens_per_word": ratio(self.tokens, self.words),
            "unk_rate": ratio(self.unk, self.tokens),
            "word_coverage": ratio(self.covered_words, self.words),
            "vocab_size": vs,
            "vocab_used": ratio(len(self.seen), vs) if vs else None,
        }


WordSplitter = Callable[[str], list[tuple[int, int]]]


def _default_words(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WORD.finditer(text)]


def _run(
    encoders: list[Encoder], corpus: Iterable[str], word_splitter: WordSplitter | None
) -> list[dict[str, Any]]:
    if isinstance(corpus, str):
        raise ConfigurationError(
            "corpus must be an iterable of texts, not one str; wrap it: [text]"
        )
    split_words = word_splitter or _default_words
    stats = [_Stats(e) for e in encoders]
    for i, text in enumerate(corpus):
        if not isinstance(text, str):
            raise ConfigurationError(f"corpus item {i} is a {type(text).__name__}, expected str")
        n_bytes = len(text.encode("utf-8", "surrogatepass"))
        spans = split_words(text)
        for s in stats:
            s.add(text, n_bytes, spans, s.enc.encode_ids(text))
    return [s.row() for s in stats]


def analyze(
    tokenizer: Any,
    corpus: Iterable[str],
    *,
    name: str | None = None,
    word_splitter: WordSplitter | None = None,
) -> dict[str, Any]:
    """Statistics of one tokenizer on a corpus (see the module docstring for the keys).

    Args:
        tokenizer: anything :func:`as_encoder` accepts.
        corpus: an iterable of texts (read once).
        name: the ``"tokenizer"`` value of the row.
        word_splitter: text -> word spans; whitespace-separated runs by default.

    Returns:
        A dict with the keys of :data:`COLUMNS` (ratios are ``None`` when undefined).

    Raises:
        ConfigurationError: the corpus is one str or holds a non-str.

    >>> from codetok.text import whitespace_tokenizer
    >>> row = analyze(whitespace_tokenizer(corpus=["a b"]), ["a b c"])
    >>> row["tokens"], row["unk_rate"], row["chars_per_token"]
    (3, 0.3333333333333333, 1.6666666666666667)
    """
    return _run([as_encoder(tokenizer, name)], corpus, word_splitter)[0]


def compare(
    tokenizers: Mapping[str, Any] | Sequence[Any],
    corpus: Iterable[str],
    *,
    word_splitter: WordSplitter | None = None,
) -> Table:
    """Analyze several tokenizers on the same corpus in one pass.

    Args:
        tokenizers: ``{name: tokenizer}`` or a list (names from the class names).
        corpus: an iterable of texts (read once, so a generator works).
        word_splitter: text -> word spans; whitespace-separated runs by default.

    Returns:
        A :class:`Table`, one row per tokenizer in the given order.

    Raises:
        ConfigurationError: no tokenizers, or a bad corpus.

    >>> from codetok.text import byte_tokenizer, char_tokenizer
    >>> t = compare({"bytes": byte_tokenizer(), "chars": char_tokenizer(corpus=["hé"])}, ["hé"])
    >>> [(r["tokenizer"], r["tokens"]) for r in t]
    [('bytes', 3), ('chars', 2)]
    """
    if isinstance(tokenizers, Mapping):
        encoders = [as_encoder(t, str(n)) for n, t in tokenizers.items()]
    else:
        encoders = [as_encoder(t) for t in tokenizers]
    if not encoders:
        raise ConfigurationError("compare needs at least one tokenizer")
    return Table(_run(encoders, corpus, word_splitter))


class Table:
    """Rows of statistics (a list of dicts) with a Markdown rendering.

    Args:
        rows: one dict per tokenizer.
        columns: column order (defaults to :data:`COLUMNS` present in the rows).

    >>> print(Table([{"tokenizer": "a", "tokens": 3, "unk_rate": 0.5}]).to_markdown())
    | tokenizer | tokens | unk_rate |
    | --- | ---: | ---: |
    | a | 3 | 0.500 |
    """

    def __init__(
        self, rows: Iterable[Mapping[str, Any]], columns: Sequence[str] | None = None
    ) -> None:
        self.rows = [dict(r) for r in rows]
        if columns is None:
            present = {k for r in self.rows for k in r}
            columns = [c for c in COLUMNS if c in present]
            columns += sorted(present - set(columns))
        self.columns = list(columns)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.rows[i]

    def __repr__(self) -> str:
        return f"Table({len(self.rows)} rows, columns={self.columns})"

    def to_dicts(self) -> list[dict[str, Any]]:
        """The rows as plain dicts (copies)."""
        return [dict(r) for r in self.rows]

    def to_markdown(self, float_format: str = ".3f", columns: Sequence[str] | None = None) -> str:
        """Render as a GitHub-flavoured Markdown table (numbers right-aligned).

        Args:
            float_format: format spec for floats.
            columns: a subset / order of columns (default: all).

        Returns:
            The table text (no trailing newline).
        """
        cols = list(columns or self.columns)

        def cell(v: Any) -> str:
            if v is None:
                return ""
            if isinstance(v, float):
                return format(v, float_format)
            return str(v).replace("|", "\\|").replace("\n", " ")

        numeric = [
            all(isinstance(r.get(c), (int, float)) or r.get(c) is None for r in self.rows)
            and any(isinstance(r.get(c), (int, float)) for r in self.rows)
            for c in cols
        ]
        lines = [
            "| " + " | ".join(cols) + " |",
            "| " + " | ".join("---:" if n else "---" for n in numeric) + " |",
        ]
        lines += ["| " + " | ".join(cell(r.get(c)) for c in cols) + " |" for r in self.rows]
        return "\n".join(lines)
