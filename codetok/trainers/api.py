"""Training a tokenizer: count its pieces, run a trainer, install the model.

``train_from_iterator`` / ``train`` work on any :class:`~codetok.Tokenizer`: they count the
pieces ``tokenizer.pre_tokenize`` yields (added tokens already in the tokenizer are cut out
and not counted; HF counts them as words), train, set ``tokenizer.model`` (keeping the old
model's other options, as HF does) and add the trainer's special tokens.

``train_bpe``, ``train_wordpiece`` and ``train_unigram`` build a tokenizer with a sensible
default pipeline first:

- BPE: byte-level (ByteLevel pre-tokenizer, decoder and post-processor; the 256 byte chars as
  initial alphabet), or with ``byte_level=False`` BERT pre-tokenization and a ``</w>`` suffix;
- WordPiece: BERT (BertNormalizer, BertPreTokenizer, ``[CLS] $A [SEP]`` template, WordPiece
  decoder);
- Unigram: NFKC, Metaspace pre-tokenizer and decoder.

Not handled here: the learning itself (``bpe.py``, ``wordpiece.py``, ``unigram.py``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from typing import Any

from codetok.engine.plan import compile_counter
from codetok.errors import ConfigurationError
from codetok.models.base import Model
from codetok.tokenizer.added_tokens import AddedToken
from codetok.tokenizer.tokenizer import Tokenizer
from codetok.trainers.base import Trainer
from codetok.trainers.report import CorpusTally
from codetok.trainers.word_counts import count_words, iter_file_lines, resolve_files

__all__ = [
    "train_from_iterator",
    "train",
    "count_pieces",
    "train_bpe",
    "train_wordpiece",
    "train_unigram",
]

PathArg = str | os.PathLike[str]


class _Pieces:
    """The pieces of a text a trainer counts: ``tokenizer.pre_tokenize`` minus added tokens.

    A class, not a closure, so it pickles for ``spawn`` workers.
    """

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer

    def __call__(self, text: str) -> list[str]:
        return [p for p, _, tid in self.tokenizer.pre_tokenize(text) if tid is None]

    def native_counter(self) -> Any:
        """A native counter of the same pieces (``codetok.engine.plan.compile_counter``), or None
        when this tokenizer's pieces are counted in Python."""
        counter = compile_counter(self.tokenizer)
        return None if isinstance(counter, str) else counter


def count_pieces(
    tokenizer: Tokenizer,
    texts: Iterable[str],
    /,
    *,
    num_workers: int = 1,
    show_progress: bool = False,
    length: int | None = None,
) -> dict[str, int]:
    """Count the pieces ``tokenizer`` would hand its model, over all ``texts``.

    Args:
        tokenizer: supplies normalization and pre-tokenization.
        texts: strings, consumed once.
        num_workers: counting processes.
        show_progress: progress bar on stderr.
        length: number of texts, for the progress bar.

    Returns:
        ``{piece: count}``.

    >>> from codetok.models import WordLevel
    >>> from codetok.pre_tokenizers import WhitespaceSplit
    >>> tok = Tokenizer(WordLevel({}, None), pre_tokenizer=WhitespaceSplit())
    >>> count_pieces(tok, ["a b", "a"])
    {'a': 2, 'b': 1}
    """
    return count_words(
        texts,
        _Pieces(tokenizer),
        num_workers=num_workers,
        show_progress=show_progress,
        progress_total=length,
    )


def _check_trainer(trainer: Any) -> None:
    if not isinstance(trainer, Trainer):
        raise ConfigurationError(
            f"trainer must be a codetok trainer (BpeTrainer, WordPieceTrainer, UnigramTrainer), "
            f"got {type(trainer).__name__}"
        )


def _count_and_install(
    tokenizer: Tokenizer, trainer: Trainer, texts: Iterable[str], **counting: Any
) -> Tokenizer:
    """Count the pieces of ``texts``, train, install the model; the trainer's report,
    with the reading added, goes to ``tokenizer.training_report``."""
    _check_trainer(trainer)
    tally = CorpusTally(texts)
    start = time.perf_counter()
    counts = count_words(tally, _Pieces(tokenizer), **counting)
    seconds = time.perf_counter() - start
    model: Model = trainer.train(counts, tokenizer.model)
    tokenizer.model = model
    tokenizer.add_special_tokens(trainer.special_tokens)
    report = trainer.report
    if report is not None:
        report.texts, report.bytes = tally.texts, tally.bytes
        report.seconds = {"count": seconds, **report.seconds}
    tokenizer.training_report = report
    return tokenizer


def train_from_iterator(
    tokenizer: Tokenizer,
    iterator: Iterable[str],
    trainer: Trainer,
    /,
    *,
    num_workers: int = 1,
    length: int | None = None,
) -> Tokenizer:
    """Train ``tokenizer``'s model on texts, in place; returns the tokenizer.

    Args:
        tokenizer: its normalizer and pre-tokenizer define the pieces counted.
        iterator: strings (lines or documents), consumed once.
        trainer: a :class:`~codetok.trainers.BpeTrainer`, ``WordPieceTrainer`` or
            ``UnigramTrainer``.
        num_workers: counting processes (2 uses both cores).
        length: number of texts, for the progress bar.

    Returns:
        ``tokenizer``, with its new model and the trainer's special tokens added.

    Raises:
        TrainingError: the corpus is empty or ``vocab_size`` is too small.
        ConfigurationError: ``trainer`` is not a codetok trainer.

    >>> from codetok.models import BPE
    >>> from codetok.trainers import BpeTrainer
    >>> from codetok.pre_tokenizers import Whitespace
    >>> tok = Tokenizer(BPE(), pre_tokenizer=Whitespace())
    >>> _ = train_from_iterator(tok, ["low lower lowest"] * 3, BpeTrainer(vocab_size=10))
    >>> tok.encode("lowest").tokens
    ['lowe', 's', 't']
    """
    return _count_and_install(
        tokenizer,
        trainer,
        iterator,
        num_workers=num_workers,
        show_progress=getattr(trainer, "show_progress", False),
        progress_total=length,
    )


def train(
    tokenizer: Tokenizer,
    files: PathArg | Iterable[PathArg],
    trainer: Trainer,
    /,
    *,
    num_workers: int = 1,
) -> Tokenizer:
    """Train ``tokenizer``'s model on files (read line by line, as HF does), in place.

    Args:
        tokenizer: its normalizer and pre-tokenizer define the pieces counted.
        files: a file, a directory (every file under it) or a list of them; UTF-8 text.
        trainer: a codetok trainer.
        num_workers: counting processes.

    Returns:
        ``tokenizer``, with its new model and the trainer's special tokens added.

    Raises:
        NotFoundError: a path does not exist (all missing ones are named).
        TrainingError: a file cannot be read or decoded (named), an empty corpus, or a
            ``vocab_size`` that is too small.

    >>> from codetok.models import BPE
    >>> from codetok.trainers import BpeTrainer
    >>> train(Tokenizer(BPE()), ["/no/such/file.txt"], BpeTrainer())
    Traceback (most recent call last):
    ...
    codetok.errors.NotFoundError: training file(s) not found: '/no/such/file.txt' ...
    """
    paths = resolve_files(files)
    show = getattr(trainer, "show_progress", False)
    total = 0
    if show:
        for p in paths:
            try:
                total += os.path.getsize(p)
            except OSError:
                pass
    return _count_and_install(
        tokenizer,
        trainer,
        iter_file_lines(paths),
        num_workers=num_workers,
        show_progress=show,
        progress_total=total or None,
        progress_chars=True,
    )


def _run(
    tokenizer: Tokenizer,
    trainer: Trainer,
    files: PathArg | Iterable[PathArg] | None,
    texts: Iterable[str] | None,
    num_workers: int,
) -> Tokenizer:
    if (files is None) == (texts is None):
        raise ConfigurationError(
            "pass exactly one corpus: files (a path, a directory or a list of paths) as the "
            "first argument, or texts=<iterable of str>"
        )
    if files is not None:
        return train(tokenizer, files, trainer, num_workers=num_workers)
    if isinstance(texts, str):
        texts = [texts]
    return train_from_iterator(tokenizer, texts, trainer, num_workers=num_workers)  # type: ignore[arg-type]


def train_bpe(
    files: PathArg | Iterable[PathArg] | None = None,
    *,
    texts: Iterable[str] | None = None,
    vocab_size: int = 30000,
    byte_level: bool = True,
    special_tokens: Iterable[str | AddedToken] | None = None,
    unk_token: str | None = None,
    num_workers: int = 1,
    **options: Any,
) -> Tokenizer:
    """Train a ready-to-use BPE tokenizer (byte-level unless ``byte_level=False``).

    Args:
        files: training files or directories, positional or ``files=`` (or use ``texts``).
        texts: training strings instead of files.
        vocab_size: target vocabulary size.
        byte_level: GPT-2 style byte-level BPE (no unknown tokens); otherwise BERT
            pre-tokenization, a ``</w>`` end-of-word suffix and ``unk_token``.
        special_tokens: defaults to ``["<|endoftext|>"]`` (byte-level) or ``["<unk>"]``.
        unk_token: the model's unknown token (default ``"<unk>"`` when not byte-level).
        num_workers: counting processes.
        **options: any other :class:`~codetok.trainers.BpeTrainer` option.

    Returns:
        The trained tokenizer.

    Raises:
        ConfigurationError: an unknown option, or both/neither of ``files`` and ``texts``.
        TrainingError: empty corpus or a ``vocab_size`` below the alphabet.

    >>> tok = train_bpe(texts=["hello world"] * 10, vocab_size=270)
    >>> tok.decode(tok.encode("hello world").ids)
    'hello world'
    """
    from codetok import decoders, pre_tokenizers, processors
    from codetok.models.bpe import BPE
    from codetok.trainers.bpe import BpeTrainer

    if byte_level:
        specials = ["<|endoftext|>"] if special_tokens is None else list(special_tokens)
        alphabet = list(options.pop("initial_alphabet", ())) + pre_tokenizers.ByteLevel.alphabet()
        trainer = BpeTrainer(
            vocab_size=vocab_size, special_tokens=specials, initial_alphabet=alphabet, **options
        )
        tok = Tokenizer(
            BPE(unk_token=unk_token),
            pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=False),
            post_processor=processors.ByteLevel(trim_offsets=False),
            decoder=decoders.ByteLevel(),
        )
    else:
        unk = "<unk>" if unk_token is None else unk_token
        specials = [unk] if special_tokens is None else list(special_tokens)
        options.setdefault("end_of_word_suffix", "</w>")
        trainer = BpeTrainer(vocab_size=vocab_size, special_tokens=specials, **options)
        tok = Tokenizer(
            BPE(unk_token=unk),
            pre_tokenizer=pre_tokenizers.BertPreTokenizer(),
            decoder=decoders.BPEDecoder(trainer.end_of_word_suffix or ""),
        )
    return _run(tok, trainer, files, texts, num_workers)


def train_wordpiece(
    files: PathArg | Iterable[PathArg] | None = None,
    *,
    texts: Iterable[str] | None = None,
    vocab_size: int = 30000,
    special_tokens: Iterable[str | AddedToken] | None = None,
    unk_token: str = "[UNK]",
    lowercase: bool = True,
    num_workers: int = 1,
    **options: Any,
) -> Tokenizer:
    """Train a ready-to-use BERT-style WordPiece tokenizer.

    Args:
        files: training files or directories, positional or ``files=`` (or use ``texts``).
        texts: training strings instead of files.
        vocab_size: target vocabulary size.
        special_tokens: default ``["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]``; the
            template uses ``[CLS]`` and ``[SEP]`` when they are there.
        unk_token: the model's unknown token.
        lowercase: lowercase (and strip accents) in the BertNormalizer.
        num_workers: counting processes.
        **options: any other :class:`~codetok.trainers.WordPieceTrainer` option
            (``scoring="likelihood"`` among them).

    Returns:
        The trained tokenizer.

    Raises:
        ConfigurationError: an unknown option, or both/neither of ``files`` and ``texts``.
        TrainingError: empty corpus or a ``vocab_size`` below the alphabet.

    >>> tok = train_wordpiece(texts=["playing played player"] * 5, vocab_size=40)
    >>> tok.encode("played").tokens
    ['[CLS]', 'played', '[SEP]']
    """
    from codetok import decoders, normalizers, pre_tokenizers, processors
    from codetok.models.wordpiece import WordPiece
    from codetok.trainers.wordpiece import WordPieceTrainer

    specials = (
        ["[PAD]", unk_token, "[CLS]", "[SEP]", "[MASK]"]
        if special_tokens is None
        else list(special_tokens)
    )
    trainer = WordPieceTrainer(vocab_size=vocab_size, special_tokens=specials, **options)
    tok = Tokenizer(
        WordPiece({}, unk_token=unk_token),
        normalizer=normalizers.BertNormalizer(lowercase=lowercase),
        pre_tokenizer=pre_tokenizers.BertPreTokenizer(),
        decoder=decoders.WordPiece(trainer.continuing_subword_prefix or "##"),
    )
    _run(tok, trainer, files, texts, num_workers)
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    if cls_id is not None and sep_id is not None:
        tok.post_processor = processors.TemplateProcessing(
            "[CLS] $A [SEP]",
            "[CLS] $A [SEP] $B:1 [SEP]:1",
            [("[CLS]", cls_id), ("[SEP]", sep_id)],
        )
    return tok


def train_unigram(
    files: PathArg | Iterable[PathArg] | None = None,
    *,
    texts: Iterable[str] | None = None,
    vocab_size: int = 8000,
    special_tokens: Iterable[str | AddedToken] | None = None,
    unk_token: str = "<unk>",
    num_workers: int = 1,
    **options: Any,
) -> Tokenizer:
    """Train a ready-to-use SentencePiece-style Unigram tokenizer (NFKC + Metaspace).

    Args:
        files: training files or directories, positional or ``files=`` (or use ``texts``).
        texts: training strings instead of files.
        vocab_size: target vocabulary size, special tokens included.
        special_tokens: default ``["<unk>", "<s>", "</s>"]`` (SentencePiece's).
        unk_token: the unknown piece.
        num_workers: counting processes.
        **options: any other :class:`~codetok.trainers.UnigramTrainer` option.

    Returns:
        The trained tokenizer.

    Raises:
        ConfigurationError: an unknown option, or both/neither of ``files`` and ``texts``.
        TrainingError: empty corpus or a ``vocab_size`` below the required chars.

    >>> tok = train_unigram(texts=["hello world, hello there"] * 20, vocab_size=30)
    >>> tok.decode(tok.encode("hello world").ids)
    'hello world'
    """
    from codetok import decoders, normalizers, pre_tokenizers
    from codetok.models.unigram import Unigram
    from codetok.trainers.unigram import UnigramTrainer

    specials = [unk_token, "<s>", "</s>"] if special_tokens is None else list(special_tokens)
    trainer = UnigramTrainer(
        vocab_size=vocab_size, special_tokens=specials, unk_token=unk_token, **options
    )
    tok = Tokenizer(
        Unigram(),
        normalizer=normalizers.NFKC(),
        pre_tokenizer=pre_tokenizers.Metaspace(),
        decoder=decoders.Metaspace(),
    )
    return _run(tok, trainer, files, texts, num_workers)
