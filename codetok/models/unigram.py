"""SentencePiece-style Unigram model, encoding exactly as HF ``tokenizers``' ``Unigram``.

Handles: the Viterbi best path over all vocabulary pieces found in a piece, the unknown-char
penalty (an uncovered char scores ``min_score - 10``), fusing of consecutive unknowns,
``byte_fallback`` (``<0xNN>`` tokens for unknown text), n-best lists and subword
regularization (sampling with ``alpha``, over the whole lattice or over the n-best list).
The Viterbi loop lives in a kernel: the native ``UnigramCore`` or its twin
:class:`codetok.reference.unigram.UnigramCore` (see :mod:`codetok.engine.native`);
n-best and sampling run the loops of :mod:`codetok.reference.unigram`.

Not handled here: training (see ``codetok.trainers``), normalization and the ``▁`` space
marker (the Metaspace pre-tokenizer adds it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from codetok.engine import native as _backend
from codetok.engine.shared_random import SharedRandom, model_random
from codetok.errors import ConfigurationError, FormatError, VocabularyError
from codetok.models.base import Model, Token
from codetok.reference import unigram as _kernel

__all__ = ["Unigram"]

#: SentencePiece's penalty for an unknown char, below the lowest piece score.
UNK_PENALTY = 10.0
_MAX_CACHED_LENGTH = 256
DEFAULT_CACHE_CAPACITY = 10_000
_BYTE_TOKENS = [f"<0x{b:02X}>" for b in range(256)]


class Unigram(Model):
    """A Unigram language model: pieces with log-probability scores.

    Args:
        vocab: ``(piece, score)`` pairs; the id of a piece is its index. ``None`` gives HF's
            default, ``[("<unk>", 0.0)]`` with ``unk_id=0``.
        unk_id: id of the unknown piece, or ``None`` (then unknown text is an error).
        byte_fallback: encode unknown text as ``<0xNN>`` byte pieces when they all exist.
        alpha: when set, :meth:`tokenize` samples (subword regularization) with this
            smoothing; ``None`` gives the Viterbi path.
        nbest_size: sampling pool: ``< 0`` the whole lattice, ``> 1`` the n best paths,
            0 or 1 the Viterbi path.
        seed: seed (or a ``random.Random``) for sampling.
        cache_capacity: pieces kept in the per-piece cache (0 disables it).

    Raises:
        ConfigurationError: ``unk_id`` outside the vocabulary, or a malformed entry.

    >>> uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -2.0), ("ab", -2.5)], 0)
    >>> [t.value for t in uni.tokenize("abc")]
    ['ab', 'c']
    """

    type_name: ClassVar[str] = "Unigram"
    _DERIVED = Model._DERIVED | {"_trie"}  # built on the first n-best or sample

    def __init__(
        self,
        vocab: Iterable[tuple[str, float]] | None = None,
        unk_id: int | None = None,
        /,
        *,
        byte_fallback: bool = False,
        alpha: float | None = None,
        nbest_size: int = -1,
        seed: int | random.Random | None = None,
        cache_capacity: int = DEFAULT_CACHE_CAPACITY,
    ) -> None:
        if vocab is None:
            pieces: list[tuple[str, float]] = [("<unk>", 0.0)]
            unk_id = 0
        else:
            pieces = []
            for i, entry in enumerate(vocab):
                ok = isinstance(entry, (tuple, list)) and len(entry) == 2
                if ok:
                    piece, score = entry
                    ok = (
                        isinstance(piece, str)
                        and isinstance(score, (int, float))
                        and not isinstance(score, bool)
                    )
                if not ok:
                    raise ConfigurationError(
                        f"vocab[{i}] is {entry!r}; each entry is a (piece, score) pair"
                    )
                pieces.append((piece, float(score)))
        if unk_id is not None:
            if isinstance(unk_id, bool) or not isinstance(unk_id, int):
                raise ConfigurationError(f"unk_id={unk_id!r} must be an int or None")
            if not pieces:
                raise ConfigurationError("unk_id is set but the vocabulary is empty")
            if not 0 <= unk_id < len(pieces):
                raise ConfigurationError(
                    f"unk_id={unk_id} is outside the vocabulary (size {len(pieces)})"
                )
        self._pieces = pieces
        self._scores = [s for _, s in pieces]
        self._token_to_id = {p: i for i, (p, _) in enumerate(pieces)}
        self._trie: _kernel.PieceTrie | None = None  # for n-best and sampling
        self._unk_id = unk_id
        self._byte_fallback = bool(byte_fallback)
        self._min_score = min(self._scores, default=math.inf)
        self._unk_score = self._min_score - UNK_PENALTY
        self._rng = model_random(seed)
        self._cache_capacity = max(0, int(cache_capacity))
        self._cache: dict[str, tuple[list[Token], list[int]]] = {}
        self._built_kernel: Any = None
        self._alpha: float | None = None
        self.alpha = alpha
        self.nbest_size = nbest_size

    # -- options -----------------------------------------------------------------------------

    @property
    def unk_id(self) -> int | None:
        """Id of the unknown piece, or ``None``."""
        return self._unk_id

    @property
    def byte_fallback(self) -> bool:
        """Whether unknown text becomes ``<0xNN>`` pieces."""
        return self._byte_fallback

    @property
    def min_score(self) -> float:
        """Lowest piece score (``inf`` for an empty vocabulary)."""
        return self._min_score

    @property
    def alpha(self) -> float | None:
        """Sampling smoothing used by :meth:`tokenize`, or ``None`` for Viterbi."""
        return self._alpha

    @alpha.setter
    def alpha(self, value: float | None) -> None:
        if value is not None:
            value = float(value)
            if not math.isfinite(value) or value < 0:
                raise ConfigurationError(f"alpha={value!r} must be a finite number >= 0")
        self._alpha = value

    def seed(self, seed: int | None) -> None:
        """Reseed the sampling rng.

        Args:
            seed: any value ``random.Random`` accepts.

        >>> Unigram().seed(0)
        """
        self._rng.seed(seed)

    # -- encoding ----------------------------------------------------------------------------

    def _tokens(self, piece: str, starts: list[int], ids: list[int]) -> list[Token]:
        """Fuse unknown runs, apply byte fallback and build tokens (HF's rules)."""
        unk = self._unk_id
        bounds: list[tuple[int, int]] = []
        n = len(starts)
        for k in range(n):
            end = starts[k + 1] if k + 1 < n else len(piece)
            if unk is not None and ids[k] == unk and k and ids[k - 1] == unk:
                bounds[-1] = (bounds[-1][0], end)
            else:
                bounds.append((starts[k], end))
        out: list[Token] = []
        get = self._token_to_id.get
        for s, e in bounds:
            text = piece[s:e]
            tid = get(text)
            if tid is None:
                if self._byte_fallback:
                    raw = text.encode("utf-8", "surrogatepass")
                    byte_ids = [get(_BYTE_TOKENS[b]) for b in raw]
                    if None not in byte_ids:
                        for b, bid in zip(raw, byte_ids, strict=True):
                            out.append(Token(bid, _BYTE_TOKENS[b], (s, e)))  # type: ignore[arg-type]
                        continue
                if unk is None:
                    raise self._missing_unk(piece)
                tid = unk
            out.append(Token(tid, text, (s, e)))
        return out

    def _missing_unk(self, piece: str) -> VocabularyError:
        return VocabularyError(
            f"{piece!r} contains text no piece covers and the model has no unk_id; "
            "set unk_id (or byte_fallback with <0xNN> pieces)"
        )

    def _unk(self) -> int:
        return -1 if self._unk_id is None else self._unk_id

    def _kernel(self) -> Any:
        """The Viterbi kernel of the current backend, built on first use."""
        if self._built_kernel is None:
            self._built_kernel, _ = _backend.kernel(
                self,
                "UnigramCore",
                [p for p, _ in self._pieces],
                self._scores,
                unk_id=self._unk(),
                unk_score=self._unk_score,
            )
        return self._built_kernel

    def _lattice_trie(self) -> _kernel.PieceTrie:
        """The pieces' trie for the n-best and sampling loops, built on first use."""
        if self._trie is None:
            self._trie = _kernel.PieceTrie([p for p, _ in self._pieces])
        return self._trie

    def _finish(self, piece: str, path: _kernel.Path | None) -> tuple[list[Token], list[int]]:
        """Tokens of a Viterbi path (``None``: no path), cached."""
        if path is None:
            raise self._missing_unk(piece)
        tokens = self._tokens(piece, path[0], path[1])
        result = (tokens, [t.id for t in tokens])
        if len(piece) < _MAX_CACHED_LENGTH and len(self._cache) < self._cache_capacity:
            self._cache[piece] = result
        return result

    def _viterbi(self, piece: str) -> tuple[list[Token], list[int]]:
        hit = self._cache.get(piece)
        if hit is not None:
            return hit
        return self._finish(piece, self._kernel().viterbi(piece))

    def tokenize_many(self, pieces: Sequence[str]) -> list[list[Token]]:
        """:meth:`tokenize` of each piece; the Viterbi paths come from one kernel call.

        >>> uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0)
        >>> [[t.value for t in toks] for toks in uni.tokenize_many(["aaa", "b"])]
        [['a', 'aa'], ['b']]
        """
        if self._alpha is not None:
            return [self.tokenize(p) for p in pieces]
        out: list[list[Token]] = [[] for _ in pieces]
        todo: list[int] = []
        get = self._cache.get
        for k, p in enumerate(pieces):
            if p:
                hit = get(p)
                if hit is None:
                    todo.append(k)
                else:
                    out[k] = list(hit[0])
        if todo:
            paths = self._kernel().viterbi_batch([pieces[k] for k in todo])
            for k, path in zip(todo, paths, strict=True):
                out[k] = list(self._finish(pieces[k], path)[0])
        return out

    def tokenize(self, piece: str) -> list[Token]:
        """Split one piece into tokens: the Viterbi path, or a sample when ``alpha`` is set.

        Args:
            piece: one pre-tokenized piece.

        Returns:
            The tokens; an unknown token's value is the text it covers.

        Raises:
            VocabularyError: some text is not covered and there is no ``unk_id``.

        >>> Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0).tokenize("aab")
        [Token(id=2, value='aa', offsets=(0, 2)), Token(id=0, value='b', offsets=(2, 3))]
        """
        if not piece:
            return []
        if self._alpha is not None:
            return self.sample(piece, alpha=self._alpha, nbest_size=self.nbest_size)
        return list(self._viterbi(piece)[0])

    def sample(self, piece: str, *, alpha: float = 0.1, nbest_size: int = -1) -> list[Token]:
        """Draw one segmentation with probability proportional to ``P(path) ** alpha``.

        Args:
            piece: one pre-tokenized piece.
            alpha: smoothing; 0 is uniform over paths, large values approach Viterbi.
            nbest_size: ``< 0`` samples the whole lattice (forward-filtering
                backward-sampling), ``> 1`` samples among the n best paths, 0 or 1 returns
                the Viterbi path.

        Returns:
            The tokens.

        Raises:
            VocabularyError: some text is not covered and there is no ``unk_id``.

        >>> uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0, seed=0)
        >>> "".join(t.value for t in uni.sample("aaaa", alpha=0.5))
        'aaaa'
        """
        if not piece:
            return []
        if nbest_size in (0, 1):
            return list(self._viterbi(piece)[0])
        if isinstance(self._rng, SharedRandom) and _backend.native():
            path = self._kernel().sample(piece, alpha, nbest_size, self._rng.core)
            if path is None:
                raise self._missing_unk(piece)
            return self._tokens(piece, path[0], path[1])
        try:
            if nbest_size > 1:
                cands = _kernel.nbest(
                    piece,
                    self._lattice_trie(),
                    self._scores,
                    self._unk(),
                    self._unk_score,
                    nbest_size,
                )
                starts, ids = _kernel.sample_nbest(cands, alpha, self._rng.random)
            else:
                starts, ids = _kernel.sample(
                    piece,
                    self._lattice_trie(),
                    self._scores,
                    self._unk(),
                    self._unk_score,
                    alpha,
                    self._rng.random,
                )
        except _kernel.MissingUnknown as e:
            raise self._missing_unk(piece) from e
        return self._tokens(piece, starts, ids)

    def nbest_scored(self, piece: str, n: int) -> list[tuple[list[Token], float]]:
        """The ``n`` best segmentations with their path scores, best first.

        Args:
            piece: one pre-tokenized piece.
            n: how many paths at most.

        Returns:
            ``(tokens, score)`` pairs; the score sums piece scores (an unknown char scores
            ``min_score - 10``).

        Raises:
            VocabularyError: some text is not covered and there is no ``unk_id``.

        >>> uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0)
        >>> [(len(toks), score) for toks, score in uni.nbest_scored("aa", 2)]
        [(1, -1.5), (2, -2.0)]
        """
        if not piece:
            return [([], 0.0)] if n > 0 else []
        if _backend.native():
            paths = self._kernel().nbest(piece, n)
            if paths is None:
                raise self._missing_unk(piece)
            return [(self._tokens(piece, st, ids), score) for (st, ids), score in paths]
        try:
            cands = _kernel.nbest(
                piece, self._lattice_trie(), self._scores, self._unk(), self._unk_score, n
            )
        except _kernel.MissingUnknown as e:
            raise self._missing_unk(piece) from e
        return [(self._tokens(piece, starts, ids), score) for (starts, ids), score in cands]

    def nbest(self, piece: str, n: int) -> list[list[Token]]:
        """The ``n`` best segmentations, best first.

        Args:
            piece: one pre-tokenized piece.
            n: how many paths at most.

        Returns:
            One token list per path.

        Raises:
            VocabularyError: some text is not covered and there is no ``unk_id``.

        >>> uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0)
        >>> [[t.value for t in toks] for toks in uni.nbest("aa", 2)]
        [['aa'], ['a', 'a']]
        """
        return [tokens for tokens, _ in self.nbest_scored(piece, n)]

    def tokenize_ids(self, piece: str) -> list[int]:
        """Token ids of one piece.

        Args:
            piece: one pre-tokenized piece.

        Returns:
            The ids, in order.

        >>> Unigram([("<unk>", 0.0), ("a", -1.0)], 0).tokenize_ids("ab")
        [1, 0]
        """
        if piece and self._alpha is None:
            return list(self._viterbi(piece)[1])
        return [t.id for t in self.tokenize(piece)]

    # -- vocabulary --------------------------------------------------------------------------

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token``, or ``None``.

        >>> Unigram([("<unk>", 0.0), ("a", -1.0)], 0).token_to_id("a")
        1
        """
        return self._token_to_id.get(token)

    def id_to_token(self, id: int) -> str | None:
        """The piece with id ``id``, or ``None``.

        >>> Unigram([("<unk>", 0.0), ("a", -1.0)], 0).id_to_token(1)
        'a'
        """
        if 0 <= id < len(self._pieces):
            return self._pieces[id][0]
        return None

    def get_vocab(self) -> dict[str, int]:
        """Piece -> id.

        >>> Unigram([("<unk>", 0.0), ("a", -1.0)], 0).get_vocab()
        {'<unk>': 0, 'a': 1}
        """
        return dict(self._token_to_id)

    def get_vocab_size(self) -> int:
        """Number of pieces.

        >>> Unigram().get_vocab_size()
        1
        """
        return len(self._pieces)

    def get_pieces(self) -> list[tuple[str, float]]:
        """The ``(piece, score)`` list, by id.

        >>> Unigram().get_pieces()
        [('<unk>', 0.0)]
        """
        return list(self._pieces)

    def get_score(self, id: int) -> float:
        """Score of the piece with id ``id``.

        Raises:
            IndexError: ``id`` is outside the vocabulary.

        >>> Unigram([("<unk>", 0.0), ("a", -1.0)], 0).get_score(1)
        -1.0
        """
        return self._scores[id]

    def clear_cache(self) -> None:
        """Drop the per-piece cache.

        >>> Unigram().clear_cache()
        """
        self._cache.clear()
        self._built_kernel = None

    # -- serialization -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The HF ``tokenizer.json`` ``model`` object, keys in HF order.

        >>> Unigram().to_dict()
        {'type': 'Unigram', 'unk_id': 0, 'vocab': [['<unk>', 0.0]], 'byte_fallback': False}
        """
        return {
            "type": self.type_name,
            "unk_id": self._unk_id,
            "vocab": [[p, s] for p, s in self._pieces],
            "byte_fallback": self._byte_fallback,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> Unigram:
        """Build from the HF ``tokenizer.json`` ``model`` object.

        Args:
            data: the ``model`` object (``type`` may be omitted).
            path: the file it came from, for error messages.

        Returns:
            The model.

        Raises:
            FormatError: a key is missing or malformed; ``where`` names it.

        >>> Unigram.from_dict({"unk_id": 0, "vocab": [["<unk>", 0.0], ["a", -1.0]]})
        Unigram(vocab_size=2)
        """
        if not isinstance(data, dict):
            raise FormatError(
                f"expected an object, got {type(data).__name__}", path=path, where="model"
            )
        kind = data.get("type", cls.type_name)
        if kind != cls.type_name:
            raise FormatError(
                f"type is {kind!r}; Unigram.from_dict reads only 'Unigram' models",
                path=path,
                where="model.type",
            )
        vocab = data.get("vocab")
        if not isinstance(vocab, list):
            raise FormatError(
                "expected a list of [piece, score] pairs", path=path, where="model.vocab"
            )
        for i, entry in enumerate(vocab):
            if not (
                isinstance(entry, (list, tuple))
                and len(entry) == 2
                and isinstance(entry[0], str)
                and isinstance(entry[1], (int, float))
                and not isinstance(entry[1], bool)
            ):
                raise FormatError(
                    f"entry {i} is {entry!r}; expected [piece, score]",
                    path=path,
                    where=f"model.vocab[{i}]",
                )
        unk_id = data.get("unk_id")
        if unk_id is not None and (
            isinstance(unk_id, bool) or not isinstance(unk_id, int) or not 0 <= unk_id < len(vocab)
        ):
            raise FormatError(
                f"unk_id is {unk_id!r}; expected null or an index into the vocab "
                f"(size {len(vocab)})",
                path=path,
                where="model.unk_id",
            )
        byte_fallback = data.get("byte_fallback", False)
        if byte_fallback is None:
            byte_fallback = False
        if not isinstance(byte_fallback, bool):
            raise FormatError(
                f"expected true or false, got {byte_fallback!r}",
                path=path,
                where="model.byte_fallback",
            )
        return cls([(p, s) for p, s in vocab], unk_id, byte_fallback=byte_fallback)
