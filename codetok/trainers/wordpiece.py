"""WordPiece trainer in two forms, selected by ``scoring``.

- ``scoring="frequency"`` (default) is HF ``tokenizers``' ``WordPieceTrainer``: a BPE trainer
  with ``continuing_subword_prefix="##"`` whose vocabulary becomes a WordPiece model (merges
  are dropped; WordPiece encodes by greedy longest match).
- ``scoring="likelihood"`` merges the pair with the best
  ``score(a, b) = freq(ab) / (freq(a) * freq(b))`` (see
  :mod:`codetok.reference.wordpiece_train`), the criterion of the original WordPiece
  description. HF has no equivalent, so there is no parity for it.

Not handled here: counting words, the BERT pipeline around the model (``api.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from codetok.errors import ConfigurationError
from codetok.models.base import Model
from codetok.models.wordpiece import WordPiece
from codetok.reference import wordpiece_train as _kernel
from codetok.tokenizer.added_tokens import AddedToken
from codetok.trainers.base import check_not_empty, progress
from codetok.trainers.bpe import BpeTrainer

__all__ = ["WordPieceTrainer"]

_SCORINGS = ("frequency", "likelihood")


class WordPieceTrainer(BpeTrainer):
    """Train a WordPiece model (HF-compatible by default, or by likelihood score).

    Args:
        vocab_size: target size, special tokens and alphabet included.
        min_frequency: pairs occurring fewer times than this are not merged.
        special_tokens: tokens given the first ids and added to the tokenizer.
        limit_alphabet: keep at most this many chars (the most frequent).
        initial_alphabet: chars kept even when unseen.
        continuing_subword_prefix: prefix of non-initial subwords (default ``"##"``).
        end_of_word_suffix: suffix of word-final subwords (rare with WordPiece).
        max_token_length: HF's limit on merged tokens (frequency scoring only).
        scoring: ``"frequency"`` (HF) or ``"likelihood"``.
        show_progress: show a progress bar on stderr for each phase.

    Raises:
        ConfigurationError: an unknown option or a bad value.

    >>> t = WordPieceTrainer(vocab_size=28, scoring="likelihood")
    >>> model = t.train({"playing": 3, "played": 2, "player": 1})
    >>> [tok.value for tok in model.tokenize("playing")]
    ['play', '##ing']
    """

    model_type = "WordPiece"

    def __init__(
        self,
        *,
        vocab_size: int = 30000,
        min_frequency: int = 0,
        special_tokens: Iterable[str | AddedToken] = (),
        limit_alphabet: int | None = None,
        initial_alphabet: Iterable[str] = (),
        continuing_subword_prefix: str | None = "##",
        end_of_word_suffix: str | None = None,
        max_token_length: int | None = None,
        scoring: str = "frequency",
        show_progress: bool = False,
        **unknown: Any,
    ) -> None:
        super().__init__(
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            special_tokens=special_tokens,
            limit_alphabet=limit_alphabet,
            initial_alphabet=initial_alphabet,
            continuing_subword_prefix=continuing_subword_prefix,
            end_of_word_suffix=end_of_word_suffix,
            max_token_length=max_token_length,
            show_progress=show_progress,
            **unknown,
        )
        if scoring not in _SCORINGS:
            raise ConfigurationError(
                f"scoring must be one of {', '.join(_SCORINGS)}, got {scoring!r}"
            )
        self.scoring = scoring
        #: Filled by :meth:`train` with ``scoring="likelihood"``: ``(left, right, score)``.
        self.merge_scores: list[tuple[str, str, float]] = []

    def train(self, word_counts: Mapping[str, int], model: Model | None = None) -> WordPiece:  # type: ignore[override]
        """Learn a WordPiece model from ``{word: count}``.

        Args:
            word_counts: pre-tokenized pieces and their counts.
            model: a WordPiece whose ``unk_token`` and ``max_input_chars_per_word`` are kept.

        Returns:
            The trained model (prefix from this trainer).

        Raises:
            TrainingError: empty counts, or ``vocab_size`` below specials plus alphabet.

        >>> WordPieceTrainer(vocab_size=5).train({"ab": 3}).get_vocab()
        {'a': 0, 'b': 1, '##b': 2, 'ab': 3}
        """
        report = self._begin_report(word_counts)
        if self.scoring == "frequency":
            id_to_word, word_to_id, merges = self._learn(word_counts)
            pairs = [(id_to_word[a], id_to_word[b]) for a, b, _, _ in merges]
        else:
            check_not_empty(word_counts)
            with report.phase("words"):
                id_to_word, word_to_id, words, counts = self._initial_tables(word_counts)
            total = max(0, self.vocab_size - len(word_to_id))
            with (
                report.phase("merges"),
                progress(self.show_progress, "Compute merges", total, "merge") as bar,
            ):
                records = _kernel.train_likelihood(
                    words,
                    counts,
                    id_to_word,
                    word_to_id,
                    vocab_size=self.vocab_size,
                    min_frequency=self.min_frequency,
                    prefix=self.continuing_subword_prefix,
                    on_merge=(lambda n: bar.update()) if self.show_progress else None,
                )
            self.merge_scores = [(id_to_word[a], id_to_word[b], s) for a, b, _, s, _ in records]
            self.merge_counts = [(id_to_word[a], id_to_word[b], c) for a, b, _, _, c in records]
            pairs = [(a, b) for a, b, _ in self.merge_counts]
            report.merges = len(pairs)
        unk = "[UNK]"
        max_chars = 100
        if isinstance(model, WordPiece):
            unk = model.unk_token
            max_chars = model.max_input_chars_per_word
        with report.phase("model"):
            trained = WordPiece(
                word_to_id,
                unk_token=unk,
                continuing_subword_prefix=self.continuing_subword_prefix or "",
                max_input_chars_per_word=max_chars,
            )
        self._finish_report(word_to_id, pairs, word_counts)
        return trained
