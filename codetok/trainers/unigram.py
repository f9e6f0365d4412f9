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

Differences from SentencePiece: training runs on pre-tokenized word counts (as HF does), so
the pre-tokenizer (Metaspace) decides where words split; seeds are all frequent substrings
rather than the suffix array's branching ones; there is no ``split_by_unicode_script``.

Not handled here: the EM/pruning loops themselves (:mod:`codetok._reference.unigram_train`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from codetok._reference import unigram_train as _kernel
from codetok.added_tokens import AddedToken
from codetok.errors import ConfigurationError, TrainingError
from codetok.models.base import Model
from codetok.models.unigram import Unigram
from codetok.trainers.base import (
    Trainer,
    _check_int,
    char_counts,
    check_initial_alphabet,
    check_not_empty,
    progress,
)

__all__ = ["UnigramTrainer", "required_chars"]

_EXPECTED_FREQUENCY_THRESHOLD = 0.5
_UNK_PENALTY = 10.0
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
        show_progress: show a progress bar on stderr for each phase.
        seed: accepted for a uniform interface; training is deterministic.

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
        show_progress: bool = False,
        seed: int | None = None,
        **unknown: Any,
    ) -> None:
        self._common(
            vocab_size=vocab_size,
            special_tokens=special_tokens,
            show_progress=show_progress,
            seed=seed,
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
        #: Filled by :meth:`train`: the objective after each E step.
        self.objectives: list[float] = []

    # ------------------------------------------------------------------ phases
    def _valid(self, required: set[str]) -> Any:
        ws = self.whitespace_char
        split_num = self.split_by_number

        def ok(s: str) -> bool:
            if ws in s[1:]:
                return False
            for ch in s:
                if ch not in required:
                    return False
            if split_num:
                body = s[1:] if s[0] == ws else s
                digits = sum(1 for ch in body if ch.isdigit())
                if digits and digits != len(body):
                    return False
            return True

        return ok

    def _seed(
        self, words: list[str], counts: list[int], required: list[tuple[str, int]]
    ) -> tuple[list[str], list[float]]:
        req = {c for c, _ in required}
        subs = _kernel.seed_substrings(
            words,
            counts,
            self.max_piece_length,
            self._valid(req),
            min_count=max(2, self.min_frequency),
        )
        ranked = sorted(subs.items(), key=lambda kv: (-kv[1] * len(kv[0]), kv[0]))
        pieces = [c for c, _ in required]
        freqs = [float(max(f, 1)) for _, f in required]
        for s, f in ranked[: self.seed_size]:
            pieces.append(s)
            freqs.append(float(f * len(s)))
        log_total = math.log(sum(freqs))
        return pieces, [math.log(f) - log_total for f in freqs]

    def _em(
        self, pieces: list[str], scores: list[float], words: list[str], counts: list[int]
    ) -> tuple[list[str], list[float]]:
        for _ in range(self.n_sub_iterations):
            index = {p: i for i, p in enumerate(pieces)}
            unk = min(scores) - _UNK_PENALTY
            expected, objective = _kernel.e_step(
                words, counts, index, scores, self.max_piece_length, unk
            )
            self.objectives.append(objective)
            kept = [(p, f) for p, f in zip(pieces, expected) if f >= _EXPECTED_FREQUENCY_THRESHOLD]
            if not kept:
                break
            log_total = _kernel.digamma(sum(f for _, f in kept))
            pieces = [p for p, _ in kept]
            scores = [_kernel.digamma(f) - log_total for _, f in kept]
        return pieces, scores

    def _prune(
        self,
        pieces: list[str],
        scores: list[float],
        words: list[str],
        counts: list[int],
        desired: int,
    ) -> tuple[list[str], list[float]]:
        unk = min(scores) - _UNK_PENALTY
        keep, candidates = _kernel.prune_losses(
            pieces, scores, words, counts, self.max_piece_length, unk
        )
        target = max(desired, int(self.shrinking_factor * len(pieces)))
        chosen = list(keep)
        candidates.sort(key=lambda iv: (-iv[1], pieces[iv[0]]))
        for i, _ in candidates:
            if len(chosen) >= target:
                break
            chosen.append(i)
        chosen.sort()
        return [pieces[i] for i in chosen], [scores[i] for i in chosen]

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
        room = self.vocab_size - n_fixed
        if room < len(required):
            raise TrainingError(
                f"vocab_size={self.vocab_size} is smaller than the {n_fixed} special/byte pieces "
                f"plus the {len(required)} required chars; raise vocab_size, or lower "
                f"character_coverage / pass limit_alphabet"
            )
        self.objectives = []
        desired = int(self.vocab_size * 1.1)
        with progress(self.show_progress, "Unigram EM", None, "step") as bar:
            pieces, scores = self._seed(words, counts, required)
            bar.update()
            while True:
                pieces, scores = self._em(pieces, scores, words, counts)
                bar.update()
                if len(pieces) <= desired:
                    break
                n_before = len(pieces)
                pieces, scores = self._prune(pieces, scores, words, counts, desired)
                if len(pieces) >= n_before:
                    break
                if self.show_progress:
                    bar.set_postfix(pieces=len(pieces))
        final = self._finalize(pieces, scores, required, room)
        special_set = set(specials)
        vocab: list[tuple[str, float]] = [(s, 0.0) for s in specials]
        if self.byte_fallback:
            vocab += [(b, 0.0) for b in _BYTE_PIECES if b not in special_set]
        vocab += [(p, s) for p, s in final if p not in special_set]
        unk_id = specials.index(self.unk_token) if self.unk_token is not None else None
        return Unigram(vocab, unk_id, byte_fallback=self.byte_fallback)
