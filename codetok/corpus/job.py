"""The settings of a ``codetok corpus`` job, and the encoder each worker builds from them.

:class:`CorpusJob` is small, frozen and picklable: it is what the driver sends to a pool
process or a Dask worker, never a tokenizer (a code tokenizer pickles to over 1 MB). Each
process builds the job's encoder once (:meth:`CorpusJob.encoder`); with the local pool the
driver builds it before forking, so the workers inherit it. The cache is keyed by what
makes the encoder (the mode, the tokenizer and its content, the pairs-mode budgets), so
jobs that differ only in the shard size, size cap, languages or symlink policy share one;
it keeps the :data:`MAX_CACHED_ENCODERS` (4) used last and drops the least recently used
beyond them, and an entry whose tokenizer file changed at once (a code tokenizer is about
25 MB).

A tokenizer is named by a path (or ``None`` for the default code tokenizer), and its
fingerprint (:func:`tokenizer_fingerprint`: SHA-256 of the file, or of a folder's files)
goes into the manifest and into every shard's entry, so a rerun with another tokenizer, or
a Dask worker that sees another file at the same path, is caught instead of mixing ids.

Not handled here: what each mode writes per file (:mod:`codetok.corpus.encoders`).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import ConfigurationError
from .encoders import (
    CodeBertFileEncoder,
    CodeFileEncoder,
    FileEncoder,
    PackedFileEncoder,
    PairsFileEncoder,
    TextFileEncoder,
)
from .sources import DEFAULT_MAX_FILE_BYTES

__all__ = [
    "CorpusJob",
    "MODES",
    "DEFAULT_SHARD_BYTES",
    "DEFAULT_MAX_FILE_BYTES",
    "MAX_CACHED_ENCODERS",
    "tokenizer_fingerprint",
]

#: ``tokens``: ids of each file (or, with ``pack``, sequences of N ids); ``codebert``: a pretrained tokenizer's ids with lexeme
#: kinds; ``pairs``: (docstring, function) pairs.
MODES = ("tokens", "codebert", "pairs")

#: Source bytes per shard by default: about 2M tokens, and enough shards that two to
#: eight workers finish together on a few hundred MB.
DEFAULT_SHARD_BYTES = 8 << 20

#: Largest shard, and largest file: a shard's id lists are indexed with 32-bit offsets.
MAX_SHARD_BYTES = 1 << 30

#: How many encoders a process keeps (least recently used first out): a code tokenizer
#: holds about 25 MB.
MAX_CACHED_ENCODERS = 4

#: (what makes the encoder: :meth:`CorpusJob._encoder_key`, tokenizer fingerprint) ->
#: encoder, least recently used first.
_ENCODERS: OrderedDict[tuple[tuple[Any, ...], str], FileEncoder] = OrderedDict()
_ENCODERS_LOCK = threading.Lock()


@dataclass(frozen=True)
class CorpusJob:
    """What ``codetok corpus`` makes of each file.

    Args:
        mode: ``"tokens"``, ``"codebert"`` or ``"pairs"`` (see :data:`MODES`).
        tokenizer: a tokenizer file or folder; None for the default code tokenizer
            (``"codebert"`` needs one: a CodeBERT / RoBERTa folder or ``tokenizer.json``).
        languages: languages to read (None: all with a grammar file).
        shard_bytes: source bytes per shard.
        max_tokens: pairs mode: code token budget per function.
        max_docstring_tokens: pairs mode: docstring token budget.
        keep_docstring: pairs mode: keep Python docstrings inside the code.
        follow_symlinks: follow symlinks to folders and files below the inputs (each
            folder entered once; a loop is reported); False lists each symlink in the
            manifest's failures as not followed.
        max_file_bytes: a larger file is left out, with its size in the manifest (64 MiB
            by default; at most 1 GiB).
        pack: tokens mode with a code tokenizer: rows are sequences of this many ids
            (files joined, each ended by ``<|endoftext|>``) instead of one row per file.
        fim_rate: with ``pack``: the share of files laid out for fill-in-the-middle
            (:class:`~codetok.code.fim.FimTransform`, keyed by each file's path).
        fim_mode: ``"psm"``, ``"spm"`` or ``"mixed"``.
        fim_spans: ``"ast"`` (whole syntax nodes) or ``"random"`` (character positions).
        fim_seed: the FIM transform's seed.
        repo_packing: with ``pack``: StarCoder2's repository layout, each input a
            repository: ``<repo_name>`` name, then per file ``<file_sep>`` its path and a
            newline and its ids, and ``<|endoftext|>`` after the repository's last file
            of the shard.

    Raises:
        ConfigurationError: an unknown mode, CodeBERT mode without a tokenizer, a budget
            below 1 or outside pairs mode, or ``shard_bytes`` or ``max_file_bytes``
            outside 1 to 1 GiB.

    >>> CorpusJob(mode="pairs", max_tokens=256).mode
    'pairs'
    """

    mode: str = "tokens"
    tokenizer: str | None = None
    languages: tuple[str, ...] | None = None
    shard_bytes: int = DEFAULT_SHARD_BYTES
    max_tokens: int | None = None
    max_docstring_tokens: int | None = None
    keep_docstring: bool = False
    follow_symlinks: bool = True
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    pack: int | None = None
    fim_rate: float = 0.0
    fim_mode: str = "psm"
    fim_spans: str = "ast"
    fim_seed: int = 0
    repo_packing: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigurationError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.mode == "codebert" and self.tokenizer is None:
            raise ConfigurationError(
                "CodeBERT mode needs tokenizer= (a CodeBERT / RoBERTa folder with vocab.json "
                "and merges.txt, or its tokenizer.json)"
            )
        for name in ("max_tokens", "max_docstring_tokens"):
            value = getattr(self, name)
            if value is None:
                continue
            if self.mode != "pairs":
                raise ConfigurationError(f"{name}= is a pairs-mode budget; pass mode='pairs'")
            if value < 1:
                raise ConfigurationError(f"{name} must be at least 1 (got {value})")
        if self.keep_docstring and self.mode != "pairs":
            raise ConfigurationError("keep_docstring= is a pairs-mode option; pass mode='pairs'")
        for name in ("shard_bytes", "max_file_bytes"):
            value = getattr(self, name)
            if not 1 <= value <= MAX_SHARD_BYTES:
                raise ConfigurationError(
                    f"{name} must be from 1 to {MAX_SHARD_BYTES} (1 GiB), got {value}"
                )
        if self.languages is not None:
            object.__setattr__(self, "languages", tuple(self.languages))
        self._check_packing()

    def _check_packing(self) -> None:
        """``pack`` and the FIM settings: tokens mode, a length of 1 at least, FIM only
        in packed sequences, rates in [0, 1], known modes."""
        from ..code.fim import FIM_MODES, FIM_SPANS

        if self.pack is not None:
            if self.mode != "tokens":
                raise ConfigurationError(
                    "pack= makes sequences of a code tokenizer's ids: tokens mode only"
                )
            if self.pack < 1:
                raise ConfigurationError(f"pack must be at least 1 (got {self.pack})")
        if not 0.0 <= self.fim_rate <= 1.0:
            raise ConfigurationError(f"fim_rate must be in [0, 1] (got {self.fim_rate})")
        if self.repo_packing and self.pack is None:
            raise ConfigurationError(
                "repo_packing= lays repositories out in packed sequences: pass pack="
            )
        if self.fim_rate and self.pack is None:
            raise ConfigurationError("fim_rate= lays files out in packed sequences: pass pack=")
        if self.fim_mode not in FIM_MODES:
            raise ConfigurationError(
                f"fim_mode must be one of {', '.join(FIM_MODES)}, not {self.fim_mode!r}"
            )
        if self.fim_spans not in FIM_SPANS:
            raise ConfigurationError(
                f"fim_spans must be one of {', '.join(FIM_SPANS)}, not {self.fim_spans!r}"
            )

    def settings(self) -> dict[str, Any]:
        """The job as JSON-ready settings (the manifest's ``job``; a rerun must match)."""
        out = asdict(self)
        out["languages"] = None if self.languages is None else list(self.languages)
        return out

    def encoder(self) -> FileEncoder:
        """This process's encoder for the job: loaded on first use, then cached for as
        long as the tokenizer file's content stays the same. Jobs that differ only in
        settings the encoder does not use (shard size, size cap, languages, symlinks)
        share it; a process keeps at most :data:`MAX_CACHED_ENCODERS`, least recently
        used first out.

        Raises:
            NotFoundError, FormatError: the tokenizer cannot be loaded.
        """
        return self._loaded()[0]

    def tokenizer_sha256(self) -> str:
        """:func:`tokenizer_fingerprint` of the tokenizer :meth:`encoder` uses."""
        return self._loaded()[1]

    def _encoder_key(self) -> tuple[Any, ...]:
        """The settings :meth:`_build` reads: jobs equal in these share an encoder."""
        return (
            self.mode,
            self.tokenizer,
            self.max_tokens,
            self.max_docstring_tokens,
            self.keep_docstring,
            self.pack is not None,
            self.fim_rate,
            self.fim_mode,
            self.fim_spans,
            self.fim_seed,
            self.repo_packing,
        )

    def _loaded(self) -> tuple[FileEncoder, str]:
        sha = tokenizer_fingerprint(self.tokenizer)  # a few ms: the file is hashed each time
        key = (self._encoder_key(), sha)
        with _ENCODERS_LOCK:  # one build per key, even with threads (a Dask worker's)
            enc = _ENCODERS.get(key)
            if enc is not None:
                _ENCODERS.move_to_end(key)
                return enc, sha
            enc = self._build()
            for old in [k for k in _ENCODERS if k[0] == key[0]]:  # the file changed
                del _ENCODERS[old]
            _ENCODERS[key] = enc
            while len(_ENCODERS) > MAX_CACHED_ENCODERS:
                _ENCODERS.popitem(last=False)
        return enc, sha

    def _build(self) -> FileEncoder:
        if self.mode == "codebert":
            from ..code.applications.codebert import CodeBertTokenizer

            return CodeBertFileEncoder(CodeBertTokenizer(self.tokenizer))
        if self.mode == "pairs":
            from ..formats.any_tokenizer import load_tokenizer

            return PairsFileEncoder(
                load_tokenizer(self.tokenizer),
                max_tokens=self.max_tokens,
                max_docstring_tokens=self.max_docstring_tokens,
                keep_docstring=self.keep_docstring,
            )
        from ..code import CodeTokenizer

        if self.tokenizer is None:
            tok: Any = CodeTokenizer.default()
        else:
            from ..formats.any_tokenizer import load_any_tokenizer

            tok = load_any_tokenizer(self.tokenizer)
        if self.pack is not None:
            if not isinstance(tok, CodeTokenizer):
                raise ConfigurationError(
                    "pack= joins files with a code tokenizer's <|endoftext|>: use the default "
                    "or a code tokenizer file from `codetok train`"
                )
            return self._packed(tok)
        if isinstance(tok, CodeTokenizer):
            return CodeFileEncoder(tok)
        return TextFileEncoder(tok)

    def _packed(self, tok: Any) -> FileEncoder:
        """The encoder of packed sequences: each file's ids (FIM laid out at the job's
        rate), then ``<|endoftext|>``."""
        from ..code.fim import FimTransform

        fim = None
        if self.fim_rate:
            fim = FimTransform(
                tok, self.fim_rate, self.fim_mode, self.fim_spans, seed=self.fim_seed
            )
        return PackedFileEncoder(tok, fim, repo=self.repo_packing)


def tokenizer_fingerprint(spec: str | None) -> str:
    """SHA-256 of the tokenizer ``spec`` names: the default code tokenizer's data, a file's
    bytes, or a folder's files (names and bytes, sorted); a name that is neither (a Hub
    id) is hashed as the name.

    >>> len(tokenizer_fingerprint(None))
    64
    """
    h = hashlib.sha256()
    if spec is None:
        from importlib import resources

        h.update((resources.files("codetok") / "data" / "default_code_tokenizer.json").read_bytes())
    elif os.path.isfile(spec):
        with open(spec, "rb") as f:
            h.update(f.read())
    elif os.path.isdir(spec):
        for name in sorted(os.listdir(spec)):
            path = os.path.join(spec, name)
            if os.path.isfile(path):
                h.update(name.encode("utf-8", "surrogateescape") + b"\0")
                with open(path, "rb") as f:
                    h.update(f.read())
    else:
        h.update(spec.encode("utf-8", "surrogateescape"))
    return h.hexdigest()
