"""BPE trainer: learns merges from word counts, as HF ``tokenizers``' ``BpeTrainer`` does.

Steps: special tokens get the first ids; the alphabet (chars seen, plus ``initial_alphabet``,
cut to ``limit_alphabet``) follows, sorted by code point; each word becomes a list of symbol
ids (with ``continuing_subword_prefix`` on every char but the first and
``end_of_word_suffix`` on the last, such variants getting ids as they are first met); then
the most frequent pair is merged repeatedly, with incremental pair counts and a lazy priority
queue (:mod:`codetok.reference.bpe_train`), until the vocabulary reaches ``vocab_size`` or
the best pair occurs fewer than ``min_frequency`` times.

Tie rule: among pairs with the same count, the pair with the smallest ``(left_id, right_id)``
is merged first, as in HF. Ids of plain chars are deterministic in both libraries, so plain
and byte-level BPE learn identical merges. Ids of prefixed/suffixed variants (``##a``,
``a</w>``) depend on HF's hash-map order, which changes from run to run; codetok assigns them
in sorted-word order. With a prefix or suffix, merges of pairs with equal counts may
therefore come in a different order than in any one HF run (see ``merges_equal_modulo_ties``
in the tests).

Not handled here: counting words (``corpus.py``), the tokenizer pipeline (``api.py``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import accumulate, chain
from typing import Any

from codetok.engine import native as _backend
from codetok.errors import ConfigurationError
from codetok.models.base import Model
from codetok.models.bpe import BPE
from codetok.reference import bpe_train as _kernel
from codetok.tokenizer.added_tokens import AddedToken
from codetok.trainers.base import (
    Trainer,
    _check_int,
    build_alphabet,
    check_alphabet_fits,
    check_initial_alphabet,
    check_not_empty,
    progress,
)

__all__ = ["BpeTrainer"]


def _check_affix(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigurationError(f"{name} must be a string or None, got {value!r}")
    return value or None


def train_merges(
    words: list[list[int]] | tuple[Sequence[int], Sequence[int]],
    counts: Sequence[int],
    id_to_word: list[str],
    word_to_id: dict[str, int],
    *,
    vocab_size: int,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    prefix: str | None = None,
    on_merge: Callable[[int], None] | None = None,
) -> list[_kernel.MergeRecord]:
    """The merge loop of :func:`codetok.reference.bpe_train.train_merges` (same result),
    run by the native kernel when the models use it.

    ``words`` is a list of symbol-id lists, or flat ``(symbols, offsets)`` (word ``i`` is
    ``symbols[offsets[i]:offsets[i + 1]]``). New tokens are appended to ``id_to_word`` and
    ``word_to_id``; unlike the reference, the native loop leaves ``words`` as they were.
    ``on_merge`` is called every 64 merges and at the end.
    """
    if not _backend.native():
        if isinstance(words, tuple):
            flat, ends = words
            words = [list(flat[ends[i] : ends[i + 1]]) for i in range(len(counts))]
        return _kernel.train_merges(
            words,
            list(counts),
            id_to_word,
            word_to_id,
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            max_token_length=max_token_length,
            prefix=prefix,
            on_merge=on_merge,
        )
    # Flat int32/int64 buffers (array.array: no numpy import for a small corpus).
    if isinstance(words, tuple):
        symbols = words[0] if _typed(words[0], "i") else array("i", words[0])
        offsets = words[1] if _typed(words[1], "q") else array("q", words[1])
    else:
        offsets = array("q", accumulate(map(len, words), initial=0))
        symbols = array("i", chain.from_iterable(words))
    table, fresh = _backend.core().train_bpe_merges(
        symbols,
        offsets,
        counts if _typed(counts, "q") else array("q", counts),
        id_to_word,
        vocab_size,
        min_frequency,
        max_token_length,
        prefix,
        on_merge,
        64,
    )
    for token in fresh:
        word_to_id[token] = len(id_to_word)
        id_to_word.append(token)
    return table


def _typed(values: Any, code: str) -> bool:
    """Whether ``values`` is an ``array.array`` of typecode ``code`` (passed as it is)."""
    return isinstance(values, array) and values.typecode == code


class BpeTrainer(Trainer):
    """Train a BPE model (HF ``BpeTrainer`` semantics and defaults).

    Args:
        vocab_size: target size, special tokens and alphabet included.
        min_frequency: stop when the best pair occurs fewer times than this.
        special_tokens: tokens given the first ids and added to the tokenizer.
        limit_alphabet: keep at most this many chars (the most frequent).
        initial_alphabet: chars kept even when unseen (the first char of each string).
        continuing_subword_prefix: prefix of every non-initial subword (``"##"``).
        end_of_word_suffix: suffix of every word-final subword (``"</w>"``).
        max_token_length: HF's limit on merged tokens (see :mod:`codetok.reference.bpe_train`).
        show_progress: show a progress bar on stderr for each phase.

    Raises:
        ConfigurationError: an unknown option or a value of the wrong type.

    >>> trainer = BpeTrainer(vocab_size=13)
    >>> model = trainer.train({"low": 5, "lower": 2, "newest": 6, "widest": 3})
    >>> model.get_merges()[:2]
    [('e', 's'), ('es', 't')]
    """

    model_type = "BPE"

    def __init__(
        self,
        *,
        vocab_size: int = 30000,
        min_frequency: int = 0,
        special_tokens: Iterable[str | AddedToken] = (),
        limit_alphabet: int | None = None,
        initial_alphabet: Iterable[str] = (),
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        max_token_length: int | None = None,
        show_progress: bool = False,
        **unknown: Any,
    ) -> None:
        self._common(
            vocab_size=vocab_size,
            special_tokens=special_tokens,
            show_progress=show_progress,
            unknown=unknown,
        )
        self.min_frequency: int = _check_int("min_frequency", min_frequency, 0)  # type: ignore[assignment]
        self.limit_alphabet = _check_int("limit_alphabet", limit_alphabet, 0, none_ok=True)
        self.initial_alphabet = check_initial_alphabet(initial_alphabet)
        self.continuing_subword_prefix = _check_affix(
            "continuing_subword_prefix", continuing_subword_prefix
        )
        self.end_of_word_suffix = _check_affix("end_of_word_suffix", end_of_word_suffix)
        self.max_token_length = _check_int("max_token_length", max_token_length, 1, none_ok=True)
        #: Filled by :meth:`train`: the learned merges as ``(left, right, count)``.
        self.merge_counts: list[tuple[str, str, int]] = []

    # ------------------------------------------------------------------ phases
    def _initial_flat(
        self, word_counts: Mapping[str, int]
    ) -> tuple[list[str], dict[str, int], array, array, array]:
        """Special tokens, alphabet, then each word as symbol ids (variants added as met):
        ``(id_to_word, word_to_id, symbols, offsets, counts)``, word ``i`` being
        ``symbols[offsets[i]:offsets[i + 1]]`` (flat arrays: a list per word cost more
        memory than the native merge loop itself)."""
        id_to_word: list[str] = []
        word_to_id: dict[str, int] = {}
        for tok in self.special_contents():
            word_to_id[tok] = len(id_to_word)
            id_to_word.append(tok)
        alphabet = build_alphabet(
            word_counts,
            limit_alphabet=self.limit_alphabet,
            initial_alphabet=self.initial_alphabet,
        )
        n_new = sum(1 for c in alphabet if c not in word_to_id)
        if self.report is not None:
            self.report.alphabet = len(alphabet)
        check_alphabet_fits(len(word_to_id), n_new, self.vocab_size)
        for c in alphabet:
            if c not in word_to_id:
                word_to_id[c] = len(id_to_word)
                id_to_word.append(c)
        prefix = self.continuing_subword_prefix
        suffix = self.end_of_word_suffix
        symbols = array("i")
        offsets = array("q", [0])
        counts = array("q")
        with progress(self.show_progress, "Tokenize words", len(word_counts), "word") as bar:
            for word in sorted(word_counts):
                counts.append(word_counts[word])
                last = len(word) - 1
                for i, ch in enumerate(word):
                    if ch not in word_to_id:
                        continue  # dropped by limit_alphabet
                    s = ch
                    if prefix and i:
                        s = prefix + s
                    if suffix and i == last:
                        s = s + suffix
                    tid = word_to_id.get(s)
                    if tid is None:
                        tid = word_to_id[s] = len(id_to_word)
                        id_to_word.append(s)
                    symbols.append(tid)
                offsets.append(len(symbols))
                bar.update()
        return id_to_word, word_to_id, symbols, offsets, counts

    def _initial_tables(
        self, word_counts: Mapping[str, int]
    ) -> tuple[list[str], dict[str, int], list[list[int]], list[int]]:
        """:meth:`_initial_flat` with a list of ids per word (the reference kernels')."""
        id_to_word, word_to_id, symbols, offsets, counts = self._initial_flat(word_counts)
        words = [symbols[offsets[i] : offsets[i + 1]].tolist() for i in range(len(counts))]
        return id_to_word, word_to_id, words, counts.tolist()

    def _learn(
        self, word_counts: Mapping[str, int]
    ) -> tuple[list[str], dict[str, int], list[_kernel.MergeRecord]]:
        check_not_empty(word_counts)
        report = self.report
        assert report is not None  # begun by train
        with report.phase("words"):
            id_to_word, word_to_id, symbols, offsets, counts = self._initial_flat(word_counts)
        total = max(0, self.vocab_size - len(word_to_id))
        with (
            report.phase("merges"),
            progress(self.show_progress, "Compute merges", total, "merge") as bar,
        ):
            merges = train_merges(
                (symbols, offsets),
                counts,
                id_to_word,
                word_to_id,
                vocab_size=self.vocab_size,
                min_frequency=self.min_frequency,
                max_token_length=self.max_token_length,
                prefix=self.continuing_subword_prefix,
                on_merge=(lambda n: bar.update(n - bar.n)) if self.show_progress else None,
            )
        self.merge_counts = [(id_to_word[a], id_to_word[b], c) for a, b, _, c in merges]
        report.merges = len(merges)
        return id_to_word, word_to_id, merges

    def _shortfall(
        self, word_to_id: dict[str, int], pairs: list[tuple[str, str]], counts: Mapping[str, int]
    ) -> str:
        """Why merging stopped before ``vocab_size``: the pairs left in the corpus's words,
        each word encoded with the merges learned."""
        words = list(counts)
        model = BPE(
            word_to_id,
            pairs,
            continuing_subword_prefix=self.continuing_subword_prefix,
            end_of_word_suffix=self.end_of_word_suffix,
        )
        left: dict[tuple[int, int], int] = {}
        get = left.get
        for word, ids in zip(words, map(model.tokenize_ids, words)):
            c = counts[word]
            for p in zip(ids, ids[1:]):
                left[p] = get(p, 0) + c
        n = f"{len(words):,} distinct words"
        if not left:
            return (
                f"after {len(pairs):,} merges each of the {n} is one token, so no pair is "
                "left to merge; train on more text or ask for a smaller vocab_size"
            )
        best = max(left.values())
        if best < self.min_frequency:
            return (
                f"the most frequent pair left occurs {best:,} times, below min_frequency="
                f"{self.min_frequency}; lower min_frequency or train on more text"
            )
        if self.max_token_length is not None:
            return (
                f"the {len(left):,} pairs left would make tokens longer than max_token_length="
                f"{self.max_token_length}; raise it or train on more text"
            )
        return f"no pair of the {n} qualifies for a merge"

    def train(self, word_counts: Mapping[str, int], model: Model | None = None) -> BPE:
        """Learn a BPE model from ``{word: count}``.

        Args:
            word_counts: pre-tokenized pieces and their counts.
            model: a BPE whose other options (``unk_token``, ``dropout``, ``fuse_unk``,
                ``byte_fallback``, ``ignore_merges``) the new model keeps, as HF does.

        Returns:
            The trained model. ``self.merge_counts`` holds each merge's pair count.

        Raises:
            TrainingError: empty counts, or ``vocab_size`` below specials plus alphabet.

        >>> BpeTrainer(vocab_size=4).train({"ab": 3}).get_vocab()
        {'a': 0, 'b': 1, 'ab': 2}
        """
        self._begin_report(word_counts)
        id_to_word, word_to_id, merges = self._learn(word_counts)
        # HF keeps a pair's last rank when it was merged twice (see the kernel).
        last: dict[tuple[int, int], int] = {}
        for rank, (a, b, _, _) in enumerate(merges):
            last[(a, b)] = rank
        ordered = sorted(last.items(), key=lambda kv: kv[1])
        pairs = [(id_to_word[a], id_to_word[b]) for (a, b), _ in ordered]
        opts: dict[str, Any] = {}
        if isinstance(model, BPE):
            opts = {
                "dropout": model.dropout,
                "unk_token": model.unk_token,
                "fuse_unk": model.fuse_unk,
                "byte_fallback": model.byte_fallback,
                "ignore_merges": model.ignore_merges,
                "continuing_subword_prefix": model.continuing_subword_prefix,
                "end_of_word_suffix": model.end_of_word_suffix,
            }
        if self.continuing_subword_prefix is not None:
            opts["continuing_subword_prefix"] = self.continuing_subword_prefix
        if self.end_of_word_suffix is not None:
            opts["end_of_word_suffix"] = self.end_of_word_suffix
        assert self.report is not None  # begun above
        with self.report.phase("model"):
            trained = BPE(word_to_id, pairs, **opts)
        self._finish_report(word_to_id, pairs, word_counts)
        return trained

    def _finish_report(
        self, word_to_id: dict[str, int], pairs: list[tuple[str, str]], counts: Mapping[str, int]
    ) -> None:
        """Close :attr:`report`; on a shortfall, find out why (and warn)."""
        assert self.report is not None  # begun by train
        size = len(word_to_id)
        why = None
        if size < self.vocab_size:
            with self.report.phase("shortfall"):
                why = self._shortfall(word_to_id, pairs, counts)
        self.report.finish(size, why)
