"""Unigram trainer, as SentencePiece trains its unigram model, on word counts.

1. Required chars: the most frequent chars covering ``character_coverage`` of all char
   occurrences (plus ``initial_alphabet``); other chars become unknown.
2. Seed vocabulary: the required chars and the ``seed_size`` most frequent substrings
   (scored ``frequency * length``, at most ``max_piece_length`` chars, occurring twice or
   more, whitespace marker ``▁`` only as a prefix, digits not mixed with other chars when
   ``split_by_number``), scored by log frequency.
3. EM: ``n_sub_iterations`` rounds of E (expected counts by forward-backward over each
   word's lattice) and M (pieces expected fewer than 0.5 times dropped, scores
   ``digamma(count) - digamma(total)``).
4. Pruning: while there are more than ``1.1 * vocab_size`` pieces, keep the
   ``shrinking_factor`` share whose removal would cost the most likelihood; then EM again.
5. Finalization: required chars (scored below every piece when EM dropped them), then the
   best-scoring pieces up to ``vocab_size``; special tokens (score 0) and, with
   ``byte_fallback``, the 256 ``<0xNN>`` pieces come first.

Steps 2-4 are :func:`train_pieces`: the native loop (codetok/_native/train/unigram_train.cpp, on
``num_threads`` threads) when the models run natively, else its pure-Python reference
(:mod:`codetok.reference.unigram_train`). Both give the same pieces and scores, and training
is deterministic: the same counts give the same model on any number of threads.

Differences from SentencePiece: training runs on pre-tokenized word counts (as HF does), so
the pre-tokenizer (Metaspace) decides where words split; seeds are all frequent branching
substrings rather than the suffix array's; there is no ``split_by_unicode_script``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from codetok.engine import native as _backend
from codetok.errors import ConfigurationError, TrainingError
from codetok.models.base import Model
from codetok.models.unigram import Unigram
from codetok.reference import unigram_train as _kernel
from codetok.tokenizer.added_tokens import AddedToken
from codetok.trainers.base import (
    Trainer,
    _check_int,
    char_counts,
    check_initial_alphabet,
    check_not_empty,
    progress,
)

__all__ = ["UnigramTrainer", "required_chars", "train_pieces"]

_MIN_SCORE_PENALTY_DELTA = 0.0001
_BYTE_PIECES = [f"<0x{b:02X}>" for b in range(256)]


def required_chars(
    word_counts: Mapping[str, int],
    *,
    character_coverage: float = 0.9995,
    initial_alphabet: Iterable[str] = (),
    limit_alphabet: int | None = None,
) -> list[tuple[str, int]]:
    """The character vocabulary of a Unigram model, most frequent first.

    Chars are taken by decreasing frequency (ties by code point) until they cover
    ``character_coverage`` of all char occurrences; ``initial_alphabet`` chars are always
    kept; ``limit_alphabet`` caps the number of chars from the corpus.

    Args:
        word_counts: ``{word: count}``.
        character_coverage: share of char occurrences to cover, in (0, 1].
        initial_alphabet: chars always kept (first char of each string).
        limit_alphabet: at most this many chars from the corpus.

    Returns:
        ``(char, frequency)`` pairs, most frequent first.

    >>> required_chars({"aab": 1, "c": 1}, character_coverage=0.75)
    [('a', 2), ('b', 1)]
    """
    counts = char_counts(word_counts)
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], ord(kv[0])))
    total = sum(counts.values())
    out: list[tuple[str, int]] = []
    covered = 0
    for ch, f in ordered:
        if covered >= total * character_coverage and out:
            break
        if limit_alphabet is not None and len(out) >= limit_alphabet:
            break
        out.append((ch, f))
        covered += f
    have = {c for c, _ in out}
    for c in check_initial_alphabet(initial_alphabet):
        if c not in have:
            out.append((c, counts.get(c, 0)))
            have.add(c)
    return out


def train_pieces(
    words: list[str],
    counts: list[int],
    required: list[tuple[str, int]],
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
    on_step: Callable[[int], None] | None = None,
) -> tuple[list[str], list[float], list[float]]:
    """:func:`codetok.reference.unigram_train.train_pieces` (same arguments, same result),
    run by the native kernel on ``num_threads`` threads when the models use it.

    The native loop calls ``on_step`` at the same points as the reference, and checks for
    Ctrl-C a few times a second (a ``KeyboardInterrupt`` stops it).
    """
    options = {
        "vocab_size": vocab_size,
        "max_piece_length": max_piece_length,
        "seed_size": seed_size,
        "min_count": min_count,
        "shrinking_factor": shrinking_factor,
        "n_sub_iterations": n_sub_iterations,
        "whitespace_char": whitespace_char,
        "split_by_number": split_by_number,
    }
    if not _backend.native():
        return _kernel.train_pieces(words, counts, required, on_step=on_step, **options)
    chars = [c for c, _ in required]
    import numpy as np  # on first use: importing it costs more than a small corpus

    return _backend.core().train_unigram_pieces(  # type: ignore[no-any-return]
        words,
        np.asarray(counts, np.int64),
        chars,
        np.asarray([f for _, f in required], np.int64),
        "".join(c for c in chars if c.isdigit()),
        num_threads=num_threads,
        on_step=on_step,
        **options,
    )


class UnigramTrainer(Trainer):
    """Train a Unigram model the way SentencePiece does (EM with digamma, pruning by loss).

    Args:
        vocab_size: final size, special tokens (and byte pieces) included.
        special_tokens: pieces given the first ids with score 0 (``unk_token`` is added).
        unk_token: the unknown piece.
        shrinking_factor: share of pieces kept by each pruning step, in (0, 1).
        n_sub_iterations: EM rounds between pruning steps.
        max_piece_length: longest piece, in chars.
        seed_size: how many frequent substrings seed the vocabulary.
        character_coverage: share of char occurrences the required chars cover, in (0, 1].
        initial_alphabet: chars always kept.
        limit_alphabet: at most this many required chars from the corpus.
        byte_fallback: add the 256 ``<0xNN>`` pieces and enable byte fallback.
        split_by_number: digits never share a piece with other chars.
        min_frequency: substrings seen fewer times than this (and than 2) are not seeds.
        whitespace_char: the word-boundary marker (only allowed at the start of a piece).
        num_threads: threads of the native EM and pruning (default: every core); the
            result is the same on any number.
        show_progress: show a progress bar on stderr for each phase.

    Raises:
        ConfigurationError: an unknown option or a bad value.

    >>> t = UnigramTrainer(vocab_size=12, special_tokens=["<unk>"])
    >>> model = t.train({"▁hello": 5, "▁world": 3, "▁help": 2})
    >>> model.get_vocab_size() <= 12
    True
    """

    model_type = "Unigram"

    def __init__(
        self,
        *,
        vocab_size: int = 8000,
        special_tokens: Iterable[str | AddedToken] = (),
        unk_token: str | None = "<unk>",
        shrinking_factor: float = 0.75,
        n_sub_iterations: int = 2,
        max_piece_length: int = 16,
        seed_size: int = 1_000_000,
        character_coverage: float = 0.9995,
        initial_alphabet: Iterable[str] = (),
        limit_alphabet: int | None = None,
        byte_fallback: bool = False,
        split_by_number: bool = True,
        min_frequency: int = 0,
        whitespace_char: str = "\u2581",
        num_threads: int | None = None,
        show_progress: bool = False,
        **unknown: Any,
    ) -> None:
        self._common(
            vocab_size=vocab_size,
            special_tokens=special_tokens,
            show_progress=show_progress,
            unknown=unknown,
        )
        if unk_token is not None and not (isinstance(unk_token, str) and unk_token):
            raise ConfigurationError(
                f"unk_token must be a non-empty string or None, got {unk_token!r}"
            )
        self.unk_token = unk_token
        if unk_token is not None and unk_token not in self.special_contents():
            self.special_tokens.insert(0, AddedToken(unk_token, special=True))
        if not (isinstance(shrinking_factor, (int, float)) and 0 < shrinking_factor < 1):
            raise ConfigurationError(
                f"shrinking_factor must be a number in (0, 1), got {shrinking_factor!r}"
            )
        self.shrinking_factor = float(shrinking_factor)
        self.n_sub_iterations: int = _check_int("n_sub_iterations", n_sub_iterations, 1)  # type: ignore[assignment]
        self.max_piece_length: int = _check_int("max_piece_length", max_piece_length, 1)  # type: ignore[assignment]
        self.seed_size: int = _check_int("seed_size", seed_size, 1)  # type: ignore[assignment]
        if not (isinstance(character_coverage, (int, float)) and 0 < character_coverage <= 1):
            raise ConfigurationError(
                f"character_coverage must be a number in (0, 1], got {character_coverage!r}"
            )
        self.character_coverage = float(character_coverage)
        self.initial_alphabet = check_initial_alphabet(initial_alphabet)
        self.limit_alphabet = _check_int("limit_alphabet", limit_alphabet, 1, none_ok=True)
        self.byte_fallback = bool(byte_fallback)
        self.split_by_number = bool(split_by_number)
        self.min_frequency: int = _check_int("min_frequency", min_frequency, 0)  # type: ignore[assignment]
        if not (isinstance(whitespace_char, str) and len(whitespace_char) == 1):
            raise ConfigurationError(f"whitespace_char must be one char, got {whitespace_char!r}")
        self.whitespace_char = whitespace_char
        self.num_threads = _check_int("num_threads", num_threads, 1, none_ok=True)
        #: Filled by :meth:`train`: the objective after each E step.
        self.objectives: list[float] = []

    # ------------------------------------------------------------------ phases
    def _finalize(
        self,
        pieces: list[str],
        scores: list[float],
        required: list[tuple[str, int]],
        room: int,
    ) -> list[tuple[str, float]]:
        have = dict(zip(pieces, scores))
        min_score = min(scores) if scores else 0.0
        final: dict[str, float] = {}
        penalty = _MIN_SCORE_PENALTY_DELTA
        for ch, _ in required:  # most frequent first: the smallest penalty
            if ch in have:
                final[ch] = have[ch]
            else:
                final[ch] = min_score - penalty
                penalty += _MIN_SCORE_PENALTY_DELTA
        for p, s in sorted(have.items(), key=lambda kv: (-kv[1], kv[0])):
            if len(final) >= room:
                break
            final.setdefault(p, s)
        return sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))

    def train(self, word_counts: Mapping[str, int], model: Model | None = None) -> Unigram:
        """Learn a Unigram model from ``{word: count}`` (words as Metaspace yields them).

        Args:
            word_counts: pre-tokenized pieces and their counts.
            model: ignored (the trainer's options define the new model).

        Returns:
            The trained model; ``self.objectives`` holds the EM objective per E step.

        Raises:
            TrainingError: empty counts, or ``vocab_size`` below specials (plus byte
                pieces) plus required chars.

        >>> m = UnigramTrainer(vocab_size=8, special_tokens=["<unk>"]).train({"▁ab": 4})
        >>> [t.value for t in m.tokenize("▁ab")]
        ['▁ab']
        """
        check_not_empty(word_counts)
        report = self._begin_report(word_counts)
        words = sorted(w for w in word_counts if w)
        counts = [word_counts[w] for w in words]
        specials = self.special_contents()
        n_fixed = len(specials) + (256 if self.byte_fallback else 0)
        required = required_chars(
            word_counts,
            character_coverage=self.character_coverage,
            initial_alphabet=self.initial_alphabet,
            limit_alphabet=self.limit_alphabet,
        )
        required = [(c, f) for c, f in required if c not in specials]
        report.alphabet = len(required)
        room = self.vocab_size - n_fixed
        if room < len(required):
            raise TrainingError(
                f"vocab_size={self.vocab_size} is smaller than the {n_fixed} special/byte pieces "
                f"plus the {len(required)} required chars; raise vocab_size, or lower "
                f"character_coverage / pass limit_alphabet"
            )
        with report.phase("EM"), progress(self.show_progress, "Unigram EM", None, "step") as bar:

            def step(n_pieces: int) -> None:
                bar.update()
                bar.set_postfix(pieces=n_pieces)

            pieces, scores, self.objectives = train_pieces(
                words,
                counts,
                required,
                vocab_size=self.vocab_size,
                max_piece_length=self.max_piece_length,
                seed_size=self.seed_size,
                min_count=max(2, self.min_frequency),
                shrinking_factor=self.shrinking_factor,
                n_sub_iterations=self.n_sub_iterations,
                whitespace_char=self.whitespace_char,
                split_by_number=self.split_by_number,
                num_threads=self.num_threads or os.cpu_count() or 1,
                on_step=step if self.show_progress else None,
            )
        with report.phase("model"):
            final = self._finalize(pieces, scores, required, room)
            special_set = set(specials)
            vocab: list[tuple[str, float]] = [(s, 0.0) for s in specials]
            if self.byte_fallback:
                vocab += [(b, 0.0) for b in _BYTE_PIECES if b not in special_set]
            vocab += [(p, s) for p, s in final if p not in special_set]
            unk_id = specials.index(self.unk_token) if self.unk_token is not None else None
            trained = Unigram(vocab, unk_id, byte_fallback=self.byte_fallback)
        report.pieces = len(final)
        report.finish(
            len(vocab),
            f"the corpus offers only {len(final):,} pieces (its {len(required):,} required chars "
            f"and the substrings of at most {self.max_piece_length} chars seen at least "
            f"{max(2, self.min_frequency)} times); train on more text or ask for a smaller "
            "vocab_size",
        )
        return trained
