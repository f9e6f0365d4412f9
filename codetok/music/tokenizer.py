"""MusicTokenizer: REMI tokens of MIDI files, with BPE over them, as a codetok Tokenizer.

A MIDI file becomes REMI base tokens (:mod:`codetok.music.remi`), each base token one
character (:mod:`codetok.music.vocab`), and that text goes through an ordinary codetok
:class:`~codetok.Tokenizer` (:attr:`MusicTokenizer.tokenizer`):

- model: character BPE over the base characters. Untrained it has no merges, so an id is
  one base token; :meth:`MusicTokenizer.train` learns merges with codetok's BPE trainer,
  and an id may then stand for several base tokens (``Pitch_60+Velocity_79+Duration_1``).
- pre-tokenizer: ``Metaspace`` with the ``Bar`` character as its separator, so that a
  merge never crosses a bar line (BPE words are bars);
- special tokens ``[PAD]``, ``[BOS]``, ``[EOS]``, ``[MASK]`` (ids 0-3), and a template
  that puts ``[BOS]`` and ``[EOS]`` around each sequence.

So ids, padding, truncation, batches, ``__call__`` with tensors and the native engine are
those of :class:`~codetok.Tokenizer`. The :class:`~codetok.Encoding` has readable token
names, and its offsets are spans of base tokens (token ``k`` covers base tokens
``offsets[k][0]`` to ``offsets[k][1]`` of :meth:`MusicTokenizer.base_tokens`).

Save format: one JSON file, the inner ``tokenizer.json`` (HF keys, with the codetok
settings) plus a ``"codetok_music"`` key: format version, scheme and REMI config.

Not handled here: MIDI reading (``score.py``), the token scheme (``remi.py``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, FormatError, TrainingError, VocabularyError
from ..formats.files import parse_json, read_text_file
from ..models import BPE
from ..pre_tokenizers import Metaspace
from ..processors import TemplateProcessing
from ..tokenizer.encoding import BatchEncoding, Encoding
from ..tokenizer.tokenizer import Tokenizer, _as_id_list, _from_pickle
from .config import RemiConfig
from .remi import decode_tokens, encode_score
from .score import Score, read_midi
from .vocab import FIRST_CHAR, RemiVocab

__all__ = ["MusicTokenizer", "SPECIAL_TOKENS", "FORMAT_KEY", "FORMAT_VERSION", "MIDI_SUFFIXES"]

FORMAT_KEY = "codetok_music"
FORMAT_VERSION = 1
SPECIAL_TOKENS = ("[PAD]", "[BOS]", "[EOS]", "[MASK]")
_SPECIALS_MAP = {
    "pad_token": "[PAD]",
    "bos_token": "[BOS]",
    "eos_token": "[EOS]",
    "mask_token": "[MASK]",
}
#: File name endings :meth:`MusicTokenizer.train` reads in a folder.
MIDI_SUFFIXES = (".mid", ".midi", ".kar", ".smf")


class MusicTokenizer:
    """REMI tokenizer for MIDI files, with optional BPE (see the module docstring).

    Args:
        config: the quantization (default: :class:`RemiConfig` defaults).
        tokenizer: the inner character tokenizer; None builds the one without merges.
            (:meth:`train` and :meth:`from_file` pass theirs.)

    Raises:
        FormatError: ``tokenizer`` lacks a base character of ``config``.

    >>> from codetok.music import Note, Score, Track
    >>> tok = MusicTokenizer()
    >>> song = Score(480, [Track(0, False, [Note(0, 480, 60, 80)])])
    >>> enc = tok.encode(song, add_special_tokens=False)
    >>> enc.tokens
    ['Bar', 'TimeSig_4/4', 'Position_0', 'Tempo_120', 'Program_0', 'Pitch_60', 'Velocity_78', 'Duration_1']
    >>> tok.decode(enc.ids).tracks[0].notes
    [Note(start=0, end=480, pitch=60, velocity=78)]
    """

    def __init__(
        self, config: RemiConfig | None = None, *, tokenizer: Tokenizer | None = None
    ) -> None:
        self.config = config or RemiConfig()
        self.vocab = RemiVocab(self.config)
        if tokenizer is None:
            ids = {t: i for i, t in enumerate(SPECIAL_TOKENS)}
            for c in self.vocab.alphabet():
                ids[c] = len(ids)
            tokenizer = Tokenizer(BPE(ids, []))
        self.tokenizer = tokenizer
        self._setup()

    def _setup(self, path: str | None = None) -> None:
        """Give the inner tokenizer its pipeline and check that it holds every base char."""
        tok = self.tokenizer
        tok.pre_tokenizer = Metaspace(self.vocab.bar_char, prepend_scheme="never", split=True)
        tok.add_special_tokens(list(SPECIAL_TOKENS))
        bos, eos = (tok.token_to_id(t) for t in ("[BOS]", "[EOS]"))
        tok.post_processor = TemplateProcessing(
            single="[BOS] $A [EOS]",
            pair="[BOS] $A [EOS] $B:1 [EOS]:1",
            special_tokens=[("[BOS]", bos), ("[EOS]", eos)],
        )
        tok.special_tokens_map.update(_SPECIALS_MAP)
        missing = [
            n for n, c in zip(self.vocab.names, self.vocab.alphabet()) if tok.token_to_id(c) is None
        ]
        if missing:
            raise FormatError(
                f"the tokenizer has no token for {len(missing)} REMI base token(s) "
                f"({', '.join(missing[:3])}...); build it with MusicTokenizer.train",
                path=path,
            )
        self._names: list[str] | None = None

    # ------------------------------------------------------------------ vocabulary
    def _tables(self) -> tuple[list[str], dict[str, int], list[tuple[int, ...] | None]]:
        """Readable name, name -> id, and base indices (None: special) of every id."""
        tok = self.tokenizer
        size = tok.get_vocab_size()
        if self._names is None or len(self._names) != size:
            added = tok.get_added_tokens_decoder()
            names, expansions = [], []
            for i in range(size):
                text = tok.id_to_token(i)
                if text is None or i in added:
                    names.append(text if text is not None else f"<unused {i}>")
                    expansions.append(None)
                    continue
                base = tuple(self.vocab.from_chars(text))
                names.append("+".join(self.vocab.names[b] for b in base))
                expansions.append(base)
            self._names = names
            self._index = {n: i for i, n in enumerate(names)}
            self._expansions = expansions
        return self._names, self._index, self._expansions

    def get_vocab(self) -> dict[str, int]:
        """Token name -> id, special tokens included; a merged token's name joins its base
        tokens with ``+``."""
        return dict(self._tables()[1])

    def get_vocab_size(self) -> int:
        """The number of ids."""
        return self.tokenizer.get_vocab_size()

    @property
    def vocab_size(self) -> int:
        """The number of ids."""
        return self.tokenizer.get_vocab_size()

    def token_to_id(self, token: str) -> int | None:
        """The id of a token name (``"Pitch_60"``, ``"[PAD]"``), or None."""
        return self._tables()[1].get(token)

    def id_to_token(self, id: int) -> str | None:
        """The name of an id, or None."""
        names = self._tables()[0]
        return names[id] if 0 <= id < len(names) else None

    @property
    def special_tokens_map(self) -> dict[str, Any]:
        """``pad_token``, ``bos_token``, ``eos_token``, ``mask_token`` (``transformers``
        style; shared with the inner tokenizer)."""
        return self.tokenizer.special_tokens_map

    def add_special_tokens(self, tokens: Iterable[str]) -> int:
        """Add special tokens (never produced from MIDI; skipped by :meth:`decode`).

        Returns:
            How many were new.
        """
        return self.tokenizer.add_special_tokens(tokens)

    # ------------------------------------------------------------------ padding, truncation
    def enable_padding(self, **options: Any) -> None:
        """Pad every encoding (:meth:`codetok.Tokenizer.enable_padding`; ``[PAD]`` by
        default)."""
        options.setdefault("pad_token", "[PAD]")
        options.setdefault("pad_id", self.tokenizer.token_to_id(options["pad_token"]))
        self.tokenizer.enable_padding(**options)

    def no_padding(self) -> None:
        """Stop padding."""
        self.tokenizer.no_padding()

    @property
    def padding(self) -> dict[str, Any] | None:
        """The padding settings, or None."""
        return self.tokenizer.padding

    def enable_truncation(self, max_length: int, **options: Any) -> None:
        """Cut every encoding to ``max_length`` ids (:meth:`codetok.Tokenizer.enable_truncation`)."""
        self.tokenizer.enable_truncation(max_length, **options)

    def no_truncation(self) -> None:
        """Stop truncating."""
        self.tokenizer.no_truncation()

    @property
    def truncation(self) -> dict[str, Any] | None:
        """The truncation settings, or None."""
        return self.tokenizer.truncation

    @property
    def engine(self) -> str:
        """``"native"`` or ``"python"``: which path the inner tokenizer runs."""
        return self.tokenizer.engine

    # ------------------------------------------------------------------ encoding
    def score(self, midi: Any, /) -> Score:
        """The :class:`Score` of a MIDI input: a path, ``bytes``, a ``mido.MidiFile`` or a
        Score (returned as is).

        Raises:
            NotFoundError, FormatError: see :func:`codetok.music.read_midi`.
        """
        return midi if isinstance(midi, Score) else read_midi(midi)

    def base_tokens(self, midi: Any, /) -> list[str]:
        """The REMI base token names of a MIDI input (no BPE, no special tokens).

        >>> from codetok.music import Note, Score, Track
        >>> MusicTokenizer().base_tokens(Score(480, [Track(0, True, [Note(0, 60, 36, 127)])]))[-4:]
        ['Program_drums', 'Pitch_36', 'Velocity_127', 'Duration_1/8']
        """
        names = self.vocab.names
        return [names[i] for i in encode_score(self.score(midi), self.vocab)]

    def _text(self, midi: Any) -> str:
        return self.vocab.chars(encode_score(self.score(midi), self.vocab))

    def _named(self, enc: Encoding) -> Encoding:
        names = self._tables()[0]
        enc.tokens = [names[i] for i in enc.ids]
        for sub in enc.overflowing:
            self._named(sub)
        return enc

    def encode(self, midi: Any, /, *, add_special_tokens: bool = True) -> Encoding:
        """Encode one MIDI input.

        Args:
            midi: a path, ``bytes``, ``mido.MidiFile`` or :class:`Score`.
            add_special_tokens: put ``[BOS]`` and ``[EOS]`` around the tokens.

        Returns:
            An :class:`~codetok.Encoding`: ids, token names, offsets as base-token spans,
            masks; padded and truncated as the tokenizer is set to.

        Raises:
            NotFoundError, FormatError: the input cannot be read as MIDI (names the file).
        """
        text = self._text(midi)
        return self._named(self.tokenizer.encode(text, add_special_tokens=add_special_tokens))

    def encode_batch(
        self,
        midis: Iterable[Any],
        /,
        *,
        add_special_tokens: bool = True,
        num_threads: int | None = None,
    ) -> list[Encoding]:
        """:meth:`encode` over several inputs (BPE on ``num_threads`` native threads)."""
        texts = [self._text(m) for m in midis]
        encs = self.tokenizer.encode_batch(
            texts, add_special_tokens=add_special_tokens, num_threads=num_threads
        )
        return [self._named(e) for e in encs]

    def __call__(self, midis: Any, /, **options: Any) -> BatchEncoding:
        """Model inputs as :meth:`codetok.Tokenizer.__call__` makes them (``padding``,
        ``truncation``, ``max_length``, ``return_tensors``, ...), from one MIDI input or a
        list of them.

        >>> from codetok.music import Note, Score, Track
        >>> tok = MusicTokenizer()
        >>> songs = [Score(480, [Track(0, False, [Note(0, 480, p, 80)])]) for p in (60, 62)]
        >>> tok(songs, padding=True, return_tensors="np")["input_ids"].shape
        (2, 10)
        """
        single = isinstance(midis, (str, bytes, bytearray, os.PathLike, Score)) or _is_mido(midis)
        texts: Any = self._text(midis) if single else [self._text(m) for m in midis]
        batch = self.tokenizer(texts, **options)
        return BatchEncoding(
            batch.data,
            encodings=lambda: [self._named(e) for e in batch.encodings],
            n_sequences=batch.n_sequences,
        )

    # ------------------------------------------------------------------ decoding
    def base_ids(self, ids: Sequence[int] | Any, /) -> list[int]:
        """The base token indices ids stand for (special tokens left out).

        Raises:
            VocabularyError: an id is not an int or has no token.
        """
        expansions = self._tables()[2]
        out: list[int] = []
        for pos, i in enumerate(_as_id_list(ids)):
            if not 0 <= i < len(expansions):
                raise VocabularyError(
                    f"id {i} at position {pos} has no token (vocabulary size {len(expansions)}); "
                    "decode ids this tokenizer produced"
                )
            base = expansions[i]
            if base is not None:
                out.extend(base)
        return out

    def decode(
        self,
        ids: Sequence[int] | Any,
        /,
        *,
        strict: bool = True,
        ticks_per_quarter: int | None = None,
    ) -> Score:
        """The :class:`Score` that ids describe (``.save(path)`` writes the MIDI file).

        Args:
            ids: token ids (a list, numpy array or tensor); special tokens are skipped.
            strict: raise on a malformed sequence (False: skip the broken notes).
            ticks_per_quarter: time resolution of the result (default 480).

        Raises:
            VocabularyError: an id has no token, or (``strict``) the tokens break the REMI
                grammar (the message names the token).
        """
        base = self.base_ids(ids)
        return decode_tokens(base, self.vocab, ticks_per_quarter=ticks_per_quarter, strict=strict)

    def decode_base_tokens(
        self, tokens: Sequence[str], /, *, strict: bool = True, ticks_per_quarter: int | None = None
    ) -> Score:
        """:meth:`decode` for REMI base token names (as :meth:`base_tokens` gives them)."""
        base = self.vocab.lookup(list(tokens))
        return decode_tokens(base, self.vocab, ticks_per_quarter=ticks_per_quarter, strict=strict)

    # ------------------------------------------------------------------ training
    @classmethod
    def train(
        cls,
        midis: Iterable[Any],
        /,
        *,
        vocab_size: int,
        config: RemiConfig | None = None,
        min_frequency: int = 2,
        show_progress: bool = False,
    ) -> MusicTokenizer:
        """Learn BPE merges over the REMI tokens of MIDI files (bars are the words).

        Args:
            midis: paths (a folder stands for its ``.mid``/``.midi`` files, recursively),
                ``bytes``, ``mido.MidiFile`` s or :class:`Score` s; read once, one at a time.
            vocab_size: the size of the result, special and base tokens included.
            config: the quantization (default: :class:`RemiConfig`).
            min_frequency: merge pairs seen at least this often.
            show_progress: progress bars on stderr.

        Raises:
            TrainingError: ``vocab_size`` is smaller than the base vocabulary.
            NotFoundError, FormatError: a file cannot be read as MIDI.

        >>> from codetok.music import Note, Score, Track
        >>> notes = [Note(480 * i, 480 * i + 240, 60 + i % 2 * 4, 80) for i in range(32)]
        >>> song = Score(480, [Track(0, False, notes)])
        >>> tok = MusicTokenizer.train([song], vocab_size=500)
        >>> len(MusicTokenizer().encode(song).ids), len(tok.encode(song).ids)
        (172, 68)
        >>> tok.encode(song).tokens[-3:]
        ['Position_24', 'Program_0+Pitch_64+Velocity_78+Duration_1/2', '[EOS]']
        """
        tok = cls(config)
        base = len(SPECIAL_TOKENS) + len(tok.vocab)
        if not isinstance(vocab_size, int) or vocab_size < base:
            raise TrainingError(
                f"vocab_size must be at least {base} (the special and REMI base tokens), "
                f"got {vocab_size!r}"
            )
        from ..trainers import BpeTrainer

        trainer = BpeTrainer(
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            special_tokens=list(SPECIAL_TOKENS),
            initial_alphabet=tok.vocab.alphabet(),
            show_progress=show_progress,
        )
        tok.tokenizer.train_from_iterator((tok._text(m) for m in iter_midis(midis)), trainer)
        tok._setup()
        return tok

    # ------------------------------------------------------------------ save and load
    def to_dict(self) -> dict[str, Any]:
        """The saved object: the inner ``tokenizer.json`` plus the ``"codetok_music"`` key."""
        data = self.tokenizer.to_dict(settings=True)
        data[FORMAT_KEY] = {
            "version": FORMAT_VERSION,
            "scheme": "REMI",
            "first_char": FIRST_CHAR,
            "config": self.config.to_dict(),
        }
        return data

    def to_str(self, pretty: bool = False) -> str:
        """The JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2 if pretty else None)

    def save(self, path: str | os.PathLike[str], /, *, pretty: bool = False) -> None:
        """Write the tokenizer to one JSON file (read it back with :meth:`from_file`).

        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "remi.json")
        >>> MusicTokenizer().save(p)
        >>> MusicTokenizer.from_file(p).vocab_size
        494
        """
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_str(pretty))

    @classmethod
    def from_dict(cls, data: Any, *, path: str | None = None) -> MusicTokenizer:
        """Build from the object :meth:`to_dict` writes.

        Raises:
            FormatError: no valid ``"codetok_music"`` section, or a vocabulary that lacks
                base tokens (names ``path``).
        """
        ext = data.get(FORMAT_KEY) if isinstance(data, dict) else None
        if not isinstance(ext, dict):
            raise FormatError(
                f"not a music tokenizer file: no {FORMAT_KEY!r} section (write one with "
                "MusicTokenizer.save)",
                path=path,
            )
        if ext.get("version") != FORMAT_VERSION:
            raise FormatError(
                f"unsupported music tokenizer version {ext.get('version')!r} (this codetok "
                f"reads {FORMAT_VERSION}); upgrade codetok",
                path=path,
                where=f"{FORMAT_KEY}.version",
            )
        if ext.get("scheme") != "REMI" or ext.get("first_char") != FIRST_CHAR:
            raise FormatError(
                f"unknown token scheme {ext.get('scheme')!r} / first_char "
                f"{ext.get('first_char')!r}; this codetok writes REMI from U+{FIRST_CHAR:04X}",
                path=path,
                where=FORMAT_KEY,
            )
        config = RemiConfig.from_dict(ext.get("config"), path=path)
        inner = Tokenizer.from_dict({k: v for k, v in data.items() if k != FORMAT_KEY}, path=path)
        self = cls.__new__(cls)
        self.config = config
        self.vocab = RemiVocab(config)
        self.tokenizer = inner
        self._setup(path)
        return self

    @classmethod
    def from_str(cls, text: str, *, path: str | None = None) -> MusicTokenizer:
        """Build from the JSON text of :meth:`to_str`.

        Raises:
            FormatError: invalid JSON or not a music tokenizer.
        """
        return cls.from_dict(parse_json(text, path=path), path=path)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], /) -> MusicTokenizer:
        """Load a tokenizer written by :meth:`save`.

        Raises:
            NotFoundError: no such file.
            FormatError: not a music tokenizer file.
        """
        p, text = read_text_file(path, "music tokenizer file")
        return cls.from_str(text, path=p)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _from_pickle, (type(self), self.to_str())

    def __repr__(self) -> str:
        merges = (
            len(self.tokenizer.model.get_merges())
            if hasattr(self.tokenizer.model, "get_merges")
            else 0
        )
        return f"MusicTokenizer(REMI, vocab={self.vocab_size}, merges={merges})"


def _is_mido(x: Any) -> bool:
    """Whether ``x`` is a ``mido.MidiFile`` (without importing mido: if it is not loaded,
    ``x`` cannot be one)."""
    mido = sys.modules.get("mido")
    return mido is not None and isinstance(x, mido.MidiFile)


def iter_midis(midis: Iterable[Any]) -> Iterator[Any]:
    """The inputs of ``midis`` with each folder replaced by its MIDI files (sorted, recursive).

    Raises:
        ConfigurationError: ``midis`` is one path or bytes instead of an iterable of them.
    """
    if isinstance(midis, (str, bytes, os.PathLike, Score)):
        raise ConfigurationError(
            "pass an iterable of MIDI inputs (wrap one in a list; a folder as [folder])"
        )
    for m in midis:
        if isinstance(m, (str, os.PathLike)) and os.path.isdir(m):
            yield from sorted(p for p in Path(m).rglob("*") if p.suffix.lower() in MIDI_SUFFIXES)
        else:
            yield m
