"""Training a code tokenizer: AST-aware piece counts, then a codetok trainer.

The corpus is lexed and routed exactly as :meth:`CodeTokenizer.encode` does, and only the
subword pieces are counted (reserved tokens are not), so no learned token can cross a lexeme
boundary or an identifier-part boundary. Pieces are counted in the byte-level alphabet and
the trainers of :mod:`codetok.trainers` learn a BPE, WordPiece or Unigram model on those
counts, with the 256 byte chars as initial alphabet (any input stays encodable). Comments
and docstrings feed the same counts (``comment_vocab="shared"``) or a second model
(``"separate"``).

Not handled here: the learning itself (:mod:`codetok.trainers`), encoding.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..engine.native import core
from ..errors import ConfigurationError, LanguageError, NotFoundError, TrainingError
from ..tokenizer.tokenizer import Tokenizer
from ..unicode.byte_alphabet import bytes_to_unicode
from .front.languages import CORE_LANGUAGES, get_grammar
from .front.lexemes import Lexemes
from .front.lexer import lex
from .routing import native
from .routing.channels import WORDPIECE_PREFIX
from .routing.pieces import PieceSplitter
from .routing.reserved import ReservedTokens
from .routing.router import CODE, RouterOptions, route

__all__ = ["train_models", "TrainedModels", "iter_sources", "count_code_pieces", "MODELS"]

MODELS = ("bpe", "wordpiece", "unigram")
_EXTRA_SPECIALS = ("<pad>", "<|endoftext|>", "<unk>")

Source = tuple[str | bytes, str | None, str | None]


def _extensions(languages: Sequence[str]) -> dict[str, str]:
    table: dict[str, str] = {}
    for lang in languages:
        g = get_grammar(lang)
        for ext in g.extensions:
            table[ext.lower()] = g.name
    return table


def _looks_like_paths(items: Sequence[Any]) -> bool:
    return all(
        isinstance(x, os.PathLike)
        or (isinstance(x, str) and "\n" not in x and len(x) < 4096 and os.path.exists(x))
        for x in items
    )


def iter_sources(
    paths_or_iterator: Any, languages: Sequence[str]
) -> tuple[Iterator[Source], int | None]:
    """Resolve a training corpus into ``(source, language, path)`` triples.

    Args:
        paths_or_iterator: a path, a list of paths, or an iterable of sources (str, bytes or
            ``(source, language)`` pairs).
        languages: the languages wanted; files of other languages are skipped.

    Returns:
        The triples and the total bytes of the files (None for an iterator of sources).

    Raises:
        NotFoundError: a path does not exist.
    """
    if isinstance(paths_or_iterator, (str, os.PathLike)):
        items: Sequence[Any] = [paths_or_iterator]
    elif isinstance(paths_or_iterator, (list, tuple)):
        items = paths_or_iterator
    else:
        items = []
    if items and _looks_like_paths(items) or isinstance(paths_or_iterator, (str, os.PathLike)):
        missing = [os.fspath(p) for p in items if not os.path.exists(p)]
        if missing:
            raise NotFoundError(f"training path(s) not found: {', '.join(map(repr, missing))}")
        ext = _extensions(languages)
        files: list[tuple[Path, str]] = []
        for p in map(Path, items):
            candidates = sorted(p.rglob("*")) if p.is_dir() else [p]
            for f in candidates:
                lang = ext.get(f.suffix.lower())
                if f.is_file() and (lang is not None or not p.is_dir()):
                    files.append((f, lang or ""))
        total = sum(f.stat().st_size for f, _ in files)

        def read() -> Iterator[Source]:
            for f, lang in files:
                yield f.read_bytes(), lang or None, str(f)

        return read(), total
    only = languages[0] if len(languages) == 1 else None

    def gen() -> Iterator[Source]:
        for item in paths_or_iterator:
            if isinstance(item, tuple):
                src, lang = item
                yield src, lang, None
            else:
                yield item, only, None

    return gen(), None


def count_code_pieces(
    sources: Iterable[Source],
    reserved: ReservedTokens,
    options: RouterOptions,
    *,
    separate_comments: bool = False,
    progress: Any = None,
) -> tuple[Counter[str], Counter[str]]:
    """Count the byte-level pieces of code and of comments over sources.

    Args:
        sources: ``(source, language, path)`` triples.
        reserved: the reserved tokens (keywords are not counted as pieces).
        options: router options.
        separate_comments: count comment pieces apart (else into the code counts).
        progress: a tqdm bar updated by bytes, or None.

    Returns:
        ``(code counts, comment counts)`` keyed by byte-level piece.

    Raises:
        LanguageError: the language of a source string cannot be detected.
    """
    index = {t: i for i, t in enumerate(reserved.tokens)}
    counting = native.compile_counter(reserved, index, "", options)
    if not isinstance(counting, str):  # the native router, counting
        return _count_natively(sources, reserved, index, options, separate_comments, progress)
    splitter = PieceSplitter(options.digits, max_piece=options.max_piece)
    code: Counter[str] = Counter()
    comment: Counter[str] = code if not separate_comments else Counter()
    for lexemes in _lexed(sources):
        routed = route(lexemes, reserved, index, options, splitter)
        text = lexemes.source_text
        code_raw: Counter[str] = Counter()
        comment_raw: Counter[str] = Counter() if separate_comments else code_raw
        for op, a, b in zip(routed.ops, routed.starts, routed.ends, strict=True):
            if op == CODE:
                code_raw[text[a:b]] += 1
            elif op < 0:
                comment_raw[text[a:b]] += 1
        errors = "surrogateescape" if isinstance(lexemes.source, bytes) else "surrogatepass"
        pairs = (
            [(code_raw, code), (comment_raw, comment)] if separate_comments else [(code_raw, code)]
        )
        for raw, into in pairs:
            for piece, n in raw.items():
                into[bytes_to_unicode(piece.encode("utf-8", errors))] += n
        if progress is not None:
            progress.update(len(lexemes.source_bytes))
    return code, comment


def _lexed(sources: Iterable[Source]) -> Iterator[Lexemes]:
    """The lexemes of each source; a file whose language cannot be told is skipped (a
    source string without a path raises)."""
    for src, lang, path in sources:
        try:
            lexemes = lex(src, lang, path=path)
        except LanguageError:
            if path is None:
                raise
            continue
        yield lexemes


def _count_natively(
    sources: Iterable[Source],
    reserved: ReservedTokens,
    index: dict[str, int],
    options: RouterOptions,
    separate_comments: bool,
    progress: Any,
) -> tuple[Counter[str], Counter[str]]:
    """:func:`count_code_pieces` with the native router (one per language) counting."""
    routers: dict[str, Any] = {}
    counts = core().CodeCounts(separate_comments)
    for lexemes in _lexed(sources):
        language = lexemes.language
        router = routers.get(language)
        if router is None:
            router = routers[language] = native.compile_counter(reserved, index, language, options)
        native.count_pieces(router, counts, lexemes, index, options)
        if progress is not None:
            progress.update(len(lexemes.source_bytes))
    code, comment = counts.counts()
    code_counts = Counter(code)
    return code_counts, Counter(comment) if separate_comments else code_counts


def _trainer(model: str, vocab_size: int, specials: list[str], min_frequency: int, show: bool):
    from .. import pre_tokenizers

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    if model == "bpe":
        from ..trainers.bpe import BpeTrainer

        return BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=specials,
            initial_alphabet=alphabet,
            min_frequency=min_frequency,
            show_progress=show,
        )
    if model == "wordpiece":
        from ..trainers.wordpiece import WordPieceTrainer

        return WordPieceTrainer(
            vocab_size=vocab_size,
            special_tokens=specials,
            initial_alphabet=alphabet,
            continuing_subword_prefix=WORDPIECE_PREFIX,
            min_frequency=min_frequency,
            show_progress=show,
        )
    from ..trainers.unigram import UnigramTrainer

    return UnigramTrainer(
        vocab_size=vocab_size,
        special_tokens=specials,
        unk_token="<unk>",
        initial_alphabet=alphabet,
        character_coverage=1.0,
        split_by_number=False,
        show_progress=show,
    )


def _build(model: str, trainer: Any, counts: Counter[str]) -> Tokenizer:
    from .. import decoders, pre_tokenizers

    if not counts:
        raise TrainingError(
            "no code found to train on: check the paths and the languages= argument"
        )
    trained = trainer.train(dict(counts))
    if model == "wordpiece":
        trained.max_input_chars_per_word = 10_000
        trained.unk_token = "<unk>"
        trained.clear_cache()
    tok = Tokenizer(
        trained,
        pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        decoder=decoders.ByteLevel() if model != "wordpiece" else None,
    )
    tok.add_special_tokens(trainer.special_tokens)
    tok.training_report = trainer.report
    return tok


class TrainedModels(NamedTuple):
    """What :func:`train_models` learns; ``CodeTokenizer(tokenizer, comment_tokenizer,
    languages=languages, **options)`` is the trained code tokenizer."""

    tokenizer: Tokenizer
    comment_tokenizer: Tokenizer | None
    languages: list[str]


def train_models(
    paths_or_iterator: Any,
    *,
    languages: Sequence[str] | None,
    vocab_size: int,
    model: str,
    comment_vocab: str,
    comment_vocab_size: int | None,
    min_frequency: int,
    show_progress: bool,
    options: dict[str, Any],
) -> TrainedModels:
    """The subword models of :meth:`CodeTokenizer.train` (see there for the arguments),
    which builds the code tokenizer from them."""
    model = model.lower() if isinstance(model, str) else model
    if model not in MODELS:
        raise ConfigurationError(f"model must be one of {', '.join(MODELS)}; got {model!r}")
    if comment_vocab not in ("shared", "separate"):
        raise ConfigurationError(
            f"comment_vocab must be 'shared' or 'separate'; got {comment_vocab!r}"
        )
    unknown = sorted(set(options) - set(RouterOptions.__dataclass_fields__))
    if unknown:
        raise ConfigurationError(f"unknown router option(s): {', '.join(unknown)}")
    opts = RouterOptions(**options)
    if not opts.lossless:
        raise ConfigurationError(
            "train on the lossless stream: drop_comments, drop_docstrings and "
            "normalize_whitespace are encode-time options"
        )
    langs = list(languages or CORE_LANGUAGES)
    reserved = ReservedTokens.for_languages(langs, spaced=opts.spaced_keywords)
    separate = comment_vocab == "separate"
    sources, total = iter_sources(paths_or_iterator, [reserved_lang for reserved_lang in langs])
    bar = None
    if show_progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="B", unit_scale=True, desc="lex+count", file=sys.stderr)
    try:
        code, comment = count_code_pieces(
            sources, reserved, opts, separate_comments=separate, progress=bar
        )
    finally:
        if bar is not None:
            bar.close()
    specials = [*_EXTRA_SPECIALS, *[t for t in reserved.tokens if t not in _EXTRA_SPECIALS]]
    trainer = _trainer(model, vocab_size, specials, min_frequency, show_progress)
    main = _build(model, trainer, code)
    comment_tok = None
    if separate:
        size = comment_vocab_size or max(vocab_size // 4, 512)
        comment_trainer = _trainer(model, size, ["<unk>"], min_frequency, show_progress)
        comment_tok = _build(model, comment_trainer, comment)
    return TrainedModels(main, comment_tok, langs)
