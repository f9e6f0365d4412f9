"""Type stubs of the private native extension ``codetok._core`` (C++ in codetok/_native).

Each class has a pure-Python twin with the same interface in ``codetok/_reference``; the
models pick one through ``codetok.models._backend``. Inputs and outputs are flat: strs,
lists of ints, lists of tuples. Loops run with the GIL released; tokens are built with it.
"""

from collections.abc import Sequence
from typing import Any

class BpeCore:
    """BPE of one model: symbol table, merge ranks and options fixed at construction."""

    def __init__(
        self,
        vocab: dict[str, int],
        merges: list[tuple[int, int, int, int]],
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
    def encode(self, piece: str) -> tuple[list[int], list[tuple[int, int]]]: ...
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
