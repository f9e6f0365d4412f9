"""SentencePiece ``.model`` files: read, write, and turn into a codetok :class:`Tokenizer`.

A ``.model`` file is a serialized protobuf ``ModelProto``: the pieces (string, score,
type), the ``TrainerSpec`` the model was trained with (model type, byte fallback, special
ids, ...) and the ``NormalizerSpec`` (the compiled charsmap and the whitespace options).
It is read and written with the small wire-format codec of :mod:`codetok.formats._protobuf`
rather than the ``protobuf`` package, so codetok has no runtime dependency for it; fields
this schema does not know are kept and written back, and a read -> write round trip of a
file SentencePiece wrote is byte-identical.

:func:`tokenizer_from_sentencepiece` builds the pipeline ``transformers``' converters
build: for Unigram models (T5, ALBERT, XLNet style) the ``Precompiled`` charsmap, right
strip and space-run collapsing, a ``Metaspace`` pre-tokenizer and decoder; for BPE models
(LLaMA style) ``Prepend``/``Replace`` normalizers, BPE with merges derived from the piece
scores (the order of ``transformers``' ``generate_merges``), byte fallback, and the
ByteFallback/Fuse/Strip decoders. :func:`save_sentencepiece` writes a model back.

Not handled: ``WORD`` and ``CHAR`` model types; SentencePiece's own whitespace rules where
HF's pipeline differs from them (see the parity tests for the documented cases).
"""

from __future__ import annotations

import os
from enum import IntEnum
from typing import Any

from codetok import decoders, normalizers
from codetok.components.base import as_format_error
from codetok.errors import CodetokError, ConfigurationError, FormatError, NotFoundError
from codetok.formats._protobuf import Field, Message
from codetok.formats.precompiled import Precompiled
from codetok.models import BPE, Unigram
from codetok.pre_tokenizers import Metaspace
from codetok.processors import TemplateProcessing
from codetok.tokenizer.added_tokens import AddedToken
from codetok.tokenizer.tokenizer import Tokenizer

__all__ = [
    "PieceType",
    "ModelType",
    "SentencePiece",
    "TrainerSpec",
    "NormalizerSpec",
    "ModelProto",
    "load_sentencepiece_model",
    "tokenizer_from_sentencepiece",
    "save_sentencepiece",
    "merges_from_pieces",
]

SPACE = "\u2581"


class PieceType(IntEnum):
    """``ModelProto.SentencePiece.Type``."""

    NORMAL = 1
    UNKNOWN = 2
    CONTROL = 3
    USER_DEFINED = 4
    UNUSED = 5
    BYTE = 6


class ModelType(IntEnum):
    """``TrainerSpec.ModelType``."""

    UNIGRAM = 1
    BPE = 2
    WORD = 3
    CHAR = 4


class SentencePiece(Message):
    """One vocabulary entry: ``piece``, ``score`` and ``type`` (a :class:`PieceType`)."""

    FIELDS = {
        1: Field("piece", "string", ""),
        2: Field("score", "float", 0.0),
        3: Field("type", "enum", PieceType.NORMAL),
    }


class TrainerSpec(Message):
    """The training options stored in the model (only a few matter for encoding)."""

    FIELDS = {
        1: Field("input", "string", repeated=True),
        2: Field("model_prefix", "string", ""),
        3: Field("model_type", "enum", ModelType.UNIGRAM),
        4: Field("vocab_size", "int32", 8000),
        5: Field("accept_language", "string", repeated=True),
        6: Field("self_test_sample_size", "int32", 0),
        7: Field("input_format", "string", ""),
        10: Field("character_coverage", "float", 0.9995),
        11: Field("input_sentence_size", "uint64", 0),
        12: Field("mining_sentence_size", "int32", 0),
        13: Field("training_sentence_size", "int32", 0),
        14: Field("seed_sentencepiece_size", "int32", 1000000),
        15: Field("shrinking_factor", "float", 0.75),
        16: Field("num_threads", "int32", 16),
        17: Field("num_sub_iterations", "int32", 2),
        18: Field("max_sentence_length", "int32", 4192),
        19: Field("shuffle_input_sentence", "bool", True),
        20: Field("max_sentencepiece_length", "int32", 16),
        21: Field("split_by_unicode_script", "bool", True),
        22: Field("split_by_whitespace", "bool", True),
        23: Field("split_by_number", "bool", True),
        24: Field("treat_whitespace_as_suffix", "bool", False),
        25: Field("split_digits", "bool", False),
        26: Field("allow_whitespace_only_pieces", "bool", False),
        30: Field("control_symbols", "string", repeated=True),
        31: Field("user_defined_symbols", "string", repeated=True),
        32: Field("vocabulary_output_piece_score", "bool", True),
        33: Field("hard_vocab_limit", "bool", True),
        34: Field("use_all_vocab", "bool", False),
        35: Field("byte_fallback", "bool", False),
        36: Field("required_chars", "string", ""),
        40: Field("unk_id", "int32", 0),
        41: Field("bos_id", "int32", 1),
        42: Field("eos_id", "int32", 2),
        43: Field("pad_id", "int32", -1),
        44: Field("unk_surface", "string", " \u2047 "),
        45: Field("unk_piece", "string", "<unk>"),
        46: Field("bos_piece", "string", "<s>"),
        47: Field("eos_piece", "string", "</s>"),
        48: Field("pad_piece", "string", "<pad>"),
        49: Field("train_extremely_large_corpus", "bool", False),
        50: Field("enable_differential_privacy", "bool", False),
        51: Field("differential_privacy_noise_level", "float", 0.0),
        52: Field("differential_privacy_clipping_threshold", "uint64", 0),
        53: Field("pretokenization_delimiter", "string", ""),
        54: Field("seed_sentencepieces_file", "string", ""),
        55: Field("auto_character_coverage", "bool", False),
    }


class NormalizerSpec(Message):
    """Normalization: rule ``name``, ``precompiled_charsmap`` and the whitespace options."""

    FIELDS = {
        1: Field("name", "string", ""),
        2: Field("precompiled_charsmap", "bytes", b""),
        3: Field("add_dummy_prefix", "bool", True),
        4: Field("remove_extra_whitespaces", "bool", True),
        5: Field("escape_whitespaces", "bool", True),
        6: Field("normalization_rule_tsv", "string", ""),
    }


class ModelProto(Message):
    """A whole SentencePiece model (``ModelProto``).

    Fields: ``pieces`` (list of :class:`SentencePiece`), ``trainer_spec``,
    ``normalizer_spec``, ``denormalizer_spec``; ``self_test_data`` and any other field
    is kept as raw bytes in ``unknown_fields``.

    >>> m = ModelProto()
    >>> m.pieces.append(SentencePiece(piece="<unk>", score=0.0, type=PieceType.UNKNOWN))
    >>> m.trainer_spec.model_type = ModelType.UNIGRAM
    >>> ModelProto.from_bytes(m.to_bytes()).pieces[0].piece
    '<unk>'
    """

    FIELDS = {
        1: Field("pieces", "message", repeated=True, message=SentencePiece),
        2: Field("trainer_spec", "message", message=TrainerSpec),
        3: Field("normalizer_spec", "message", message=NormalizerSpec),
        5: Field("denormalizer_spec", "message", message=NormalizerSpec),
    }

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ModelProto:
        """Read a ``.model`` file.

        Args:
            path: the file.

        Returns:
            The parsed model.

        Raises:
            NotFoundError: the file does not exist.
            FormatError: the file is not a valid ModelProto (the message names the field
                and byte offset).

        >>> ModelProto.load("/nonexistent.model")
        Traceback (most recent call last):
        ...
        codetok.errors.NotFoundError: /nonexistent.model: no such file (looked for a SentencePiece .model there)
        """
        p = os.fspath(path)
        try:
            with open(p, "rb") as f:
                data = f.read()
        except FileNotFoundError as e:
            raise NotFoundError(
                f"{p}: no such file (looked for a SentencePiece .model there)"
            ) from e
        except IsADirectoryError as e:
            raise NotFoundError(f"{p}: is a directory; pass the path of its .model file") from e
        model = cls.from_bytes(data, path=p)
        assert isinstance(model, ModelProto)
        model._check(p)
        return model

    def _check(self, path: str | None) -> None:
        if not self.pieces:
            raise FormatError("the model has no pieces; not a SentencePiece model", path=path)
        for i, p in enumerate(self.pieces):
            if p.type not in PieceType._value2member_map_:
                raise FormatError(
                    f"piece {p.piece!r} has unknown type {p.type}", path=path, where=f"pieces[{i}]"
                )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model to ``path``.

        >>> import os, tempfile
        >>> m = ModelProto(); m.pieces.append(SentencePiece(piece="a"))
        >>> p = os.path.join(tempfile.mkdtemp(), "m.model"); m.save(p)
        >>> ModelProto.load(p).pieces[0].piece
        'a'
        """
        with open(path, "wb") as f:
            f.write(self.to_bytes())


def load_sentencepiece_model(path: str | os.PathLike[str]) -> ModelProto:
    """Read a SentencePiece ``.model`` file; same as :meth:`ModelProto.load`.

    Args:
        path: the file.

    Returns:
        The parsed :class:`ModelProto`.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: the file is malformed (field and byte offset in the message).

    >>> load_sentencepiece_model("/nonexistent.model")
    Traceback (most recent call last):
    ...
    codetok.errors.NotFoundError: /nonexistent.model: no such file (looked for a SentencePiece .model there)
    """
    return ModelProto.load(path)


# ---------------------------------------------------------------------------- to Tokenizer
def merges_from_pieces(pieces: list[tuple[str, float]]) -> list[tuple[str, str]]:
    """BPE merges implied by SentencePiece pieces, in ``transformers``' ``generate_merges`` order.

    Every split of a piece into two pieces of the vocabulary is a merge; merges are ranked
    by the score of the merged piece (highest first), then by the length of the left and
    right parts (longest first); splits of one piece are ordered by the ids of their parts.

    Args:
        pieces: ``(piece, score)`` by id.

    Returns:
        The merges, best first.

    >>> merges_from_pieces([("a", -3.0), ("b", -4.0), ("ab", -1.0), ("abb", -2.0)])
    [('a', 'b'), ('ab', 'b')]
    """
    vocab: dict[str, int] = {}
    for i, (p, _) in enumerate(pieces):
        vocab[p] = i  # a repeated piece keeps its last id, as a dict built from the list does
    scores = dict(pieces)
    merges: list[tuple[str, str, float]] = []
    for piece, score in scores.items():
        local = []
        for k in range(1, len(piece)):
            left, right = piece[:k], piece[k:]
            if left in vocab and right in vocab:
                local.append((left, right, score))
        local.sort(key=lambda m: (vocab[m[0]], vocab[m[1]]))
        merges.extend(local)
    merges.sort(key=lambda m: (m[2], len(m[0]), len(m[1])), reverse=True)
    return [(a, b) for a, b, _ in merges]


def _as_model(source: Any) -> ModelProto:
    if isinstance(source, ModelProto):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        m = ModelProto.from_bytes(bytes(source))
        assert isinstance(m, ModelProto)
        m._check(None)
        return m
    if isinstance(source, (str, os.PathLike)):
        return ModelProto.load(source)
    raise ConfigurationError(
        f"expected a .model path, its bytes or a ModelProto, got {type(source).__name__}"
    )


def _unk_id(model: ModelProto) -> int | None:
    for i, p in enumerate(model.pieces):
        if p.type == PieceType.UNKNOWN:
            return i
    return None


def tokenizer_from_sentencepiece(
    source: str | os.PathLike[str] | bytes | ModelProto,
    *,
    add_bos: bool = False,
    add_eos: bool = False,
) -> Tokenizer:
    """Build a codetok :class:`~codetok.tokenizer.tokenizer.Tokenizer` from a SentencePiece model.

    The pipeline is the one ``transformers``' ``SpmConverter`` (Unigram) or
    ``LlamaConverter`` (BPE) builds, so the result encodes like the ``tokenizer.json``
    those converters write. Control pieces become special added tokens and user-defined
    pieces plain added tokens (both matched before normalization), as there. Where the
    model's spec asks for something those converters ignore, the spec wins: a compiled
    charsmap is applied to BPE models too, ``add_dummy_prefix=False`` turns the prefix
    space off, and a BPE model with ``remove_extra_whitespaces`` strips and collapses
    spaces as SentencePiece does.

    Args:
        source: a ``.model`` path, its bytes, or a :class:`ModelProto`.
        add_bos: add the ``bos`` piece before each sequence (SentencePiece's ``add_bos``).
        add_eos: add the ``eos`` piece after each sequence (``add_eos``; T5 does this).

    Returns:
        The tokenizer.

    Raises:
        NotFoundError: the file does not exist.
        FormatError: the file is malformed, or its model type is WORD or CHAR.

    >>> import os, tempfile
    >>> m = ModelProto()
    >>> for p, s, t in [("<unk>", 0.0, 2), ("\u2581a", -1.0, 1), ("b", -2.0, 1)]:
    ...     m.pieces.append(SentencePiece(piece=p, score=s, type=t))
    >>> tokenizer_from_sentencepiece(m).encode("a b").tokens
    ['▁a', '▁', 'b']
    """
    model = _as_model(source)
    if not isinstance(source, (str, os.PathLike)):
        return _tokenizer(model, add_bos, add_eos)
    try:
        return _tokenizer(model, add_bos, add_eos)
    except CodetokError as e:  # the model's pieces or specs do not make a tokenizer
        raise as_format_error(
            e, "the model does not make a tokenizer", os.fspath(source), ""
        ) from e


def _tokenizer(model: ModelProto, add_bos: bool, add_eos: bool) -> Tokenizer:
    ts, ns = model.trainer_spec, model.normalizer_spec
    pieces = [(p.piece, p.score) for p in model.pieces]
    unk_id = _unk_id(model)
    if ts.model_type == ModelType.UNIGRAM:
        tok = _unigram_pipeline(ts, ns, pieces, unk_id)
    elif ts.model_type == ModelType.BPE:
        tok = _bpe_pipeline(ts, ns, pieces, unk_id)
    else:
        kind = ModelType(ts.model_type).name if ts.model_type in (3, 4) else ts.model_type
        raise FormatError(
            f"model_type {kind} is not supported; codetok builds UNIGRAM and BPE models",
            where="trainer_spec.model_type",
        )
    added = [
        AddedToken(p.piece, normalized=False, special=p.type == PieceType.CONTROL)
        for p in model.pieces
        if p.type in (PieceType.CONTROL, PieceType.USER_DEFINED)
    ]
    if added:
        tok.added.add(added, tok.model.token_to_id, tok.model.get_vocab_size())
    specials: dict[str, str] = {}
    for name in ("unk", "bos", "eos", "pad"):
        pid = getattr(ts, f"{name}_id")
        if 0 <= pid < len(pieces):
            specials[f"{name}_token"] = pieces[pid][0]
    tok.special_tokens_map = specials
    _set_bos_eos_template(tok, ts, specials, add_bos, add_eos)
    return tok


def _unigram_pipeline(
    ts: TrainerSpec, ns: NormalizerSpec, pieces: list[tuple[str, float]], unk_id: int | None
) -> Tokenizer:
    """The Unigram model and pipeline ``transformers``' ``SpmConverter`` builds, with the
    spec's charsmap and whitespace options honoured."""
    charsmap = ns.precompiled_charsmap
    prefix = bool(ns.add_dummy_prefix)
    scheme = "always" if prefix else "never"
    byte_fallback = bool(ts.byte_fallback)
    tok = Tokenizer(Unigram(pieces, unk_id, byte_fallback=byte_fallback))
    steps: list[normalizers.Normalizer] = []
    if charsmap:
        steps.append(Precompiled(charsmap))
    if ns.remove_extra_whitespaces:
        steps += [
            normalizers.Strip(strip_left=False, strip_right=True),
            normalizers.Replace({"Regex": " {2,}"}, SPACE),
        ]
    tok.normalizer = normalizers.Sequence(steps) if steps else None
    tok.pre_tokenizer = Metaspace(SPACE, scheme, True)
    if byte_fallback:
        tok.decoder = _bpe_style_decoder(prefix, True)
    else:
        tok.decoder = decoders.Metaspace(SPACE, scheme, True)
    return tok


def _bpe_pipeline(
    ts: TrainerSpec, ns: NormalizerSpec, pieces: list[tuple[str, float]], unk_id: int | None
) -> Tokenizer:
    """The BPE model (merges from the piece scores) and pipeline ``transformers``'
    ``LlamaConverter`` builds, with the spec's charsmap and whitespace options honoured."""
    charsmap = ns.precompiled_charsmap
    prefix = bool(ns.add_dummy_prefix)
    byte_fallback = bool(ts.byte_fallback)
    unk = None if unk_id is None else pieces[unk_id][0]
    vocab = {p: i for i, (p, _) in enumerate(pieces)}
    tok = Tokenizer(
        BPE(
            vocab,
            merges_from_pieces(pieces),
            unk_token=unk,
            fuse_unk=True,
            byte_fallback=byte_fallback,
        )
    )
    steps: list[normalizers.Normalizer] = []
    if charsmap:
        steps.append(Precompiled(charsmap))
    if ns.remove_extra_whitespaces:
        steps += [
            normalizers.Replace({"Regex": "^ +| +$"}, ""),
            normalizers.Replace({"Regex": " {2,}"}, " "),
        ]
    if prefix:
        steps.append(normalizers.Prepend(SPACE))
    steps.append(normalizers.Replace(" ", SPACE))
    tok.normalizer = normalizers.Sequence(steps)
    tok.decoder = _bpe_style_decoder(prefix, byte_fallback)
    return tok


def _set_bos_eos_template(
    tok: Tokenizer, ts: TrainerSpec, specials: dict[str, str], add_bos: bool, add_eos: bool
) -> None:
    """Set the post-processor adding the bos / eos pieces SentencePiece's ``add_bos`` and
    ``add_eos`` ask for, refusing a flag whose piece the model lacks."""
    special_ids: list[tuple[str, int]] = []
    for flag, name in ((add_bos, "bos"), (add_eos, "eos")):
        if not flag:
            continue
        content = specials.get(f"{name}_token")
        if content is None:
            raise ConfigurationError(
                f"add_{name}=True but the model has no {name} piece (trainer_spec.{name}_id)"
            )
        special_ids.append((content, int(getattr(ts, f"{name}_id"))))
    if special_ids:
        bos = [c for c, _ in special_ids[:1]] if add_bos else []
        eos = [special_ids[-1][0]] if add_eos else []
        single = [*bos, "$A", *eos]
        pair = [*bos, "$A", *eos, *bos, "$B", *eos]
        tok.post_processor = TemplateProcessing(" ".join(single), " ".join(pair), special_ids)


def _bpe_style_decoder(prefix: bool, byte_fallback: bool) -> decoders.Decoder:
    steps: list[decoders.Decoder] = [decoders.Replace(SPACE, " ")]
    if byte_fallback:
        steps.append(decoders.ByteFallback())
    steps.append(decoders.Fuse())
    if prefix:
        steps.append(decoders.Strip(" ", 1, 0))
    return decoders.Sequence(steps)


# ---------------------------------------------------------------------------- write side
def _find(normalizer: Any, kind: type) -> Any:
    if normalizer is None:
        return None
    if isinstance(normalizer, kind):
        return normalizer
    if isinstance(normalizer, normalizers.Sequence):
        for n in normalizer.normalizers:
            hit = _find(n, kind)
            if hit is not None:
                return hit
    return None


def _model_from_tokenizer(tok: Tokenizer) -> ModelProto:
    m = ModelProto()
    ts, ns = m.trainer_spec, m.normalizer_spec
    model = tok.model
    specials = {t.content for t in tok.added.tokens.values() if t.special}
    user = {t.content for t in tok.added.tokens.values() if not t.special}
    if isinstance(model, Unigram):
        ts.model_type = ModelType.UNIGRAM
        entries = model.get_pieces()
        unk_id = model.unk_id
        ts.byte_fallback = model.byte_fallback
    elif isinstance(model, BPE):
        ts.model_type = ModelType.BPE
        entries, unk_id = _bpe_entries(model)
        ts.byte_fallback = model.byte_fallback
    else:
        raise ConfigurationError(
            f"a SentencePiece model is Unigram or BPE; this tokenizer's model is "
            f"{type(model).__name__}"
        )
    if unk_id is None:
        raise ConfigurationError(
            "SentencePiece requires an unknown piece; the model has no unk_id / unk_token"
        )
    for i, (piece, score) in enumerate(entries):
        t = _piece_type(piece, i == unk_id, specials, user, bool(ts.byte_fallback))
        m.pieces.append(
            SentencePiece(piece=piece, score=0.0 if t != PieceType.NORMAL else score, type=int(t))
        )
    ts.vocab_size = len(entries)
    ts.unk_id = unk_id
    ts.unk_piece = entries[unk_id][0]
    stm = tok.special_tokens_map
    for name in ("bos", "eos", "pad"):
        content = stm.get(f"{name}_token")
        pid = None if content is None else tok.model.token_to_id(content)
        setattr(ts, f"{name}_id", -1 if pid is None else pid)
        if content is not None and pid is not None:
            setattr(ts, f"{name}_piece", content)
    _set_normalizer_spec(ns, tok)
    return m


def _bpe_entries(model: BPE) -> tuple[list[tuple[str, float]], int | None]:
    """``(pieces with scores, unk id)`` of a BPE model: scores that make SentencePiece merge
    in the model's merge order, since SentencePiece ranks merges by score."""
    vocab = model.get_vocab()
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise ConfigurationError(
            "a SentencePiece model needs BPE ids 0..n-1 without gaps; this vocabulary has gaps"
        )
    # SentencePiece merges the adjacent pair whose result scores best: score a piece
    # by the rank of the first merge that makes it, below every merged piece otherwise.
    rank: dict[str, int] = {}
    for r, (a, b) in enumerate(model.get_merges()):
        rank.setdefault(a + b, r)
    n = len(rank)
    entries = [(p, -float(rank[p]) if p in rank else -float(n + i)) for p, i in by_id]
    unk = model.unk_token
    unk_id = None if unk is None else vocab.get(unk)
    return entries, unk_id


def _piece_type(
    piece: str, is_unk: bool, specials: set[str], user: set[str], byte_fallback: bool
) -> PieceType:
    """The SentencePiece type of a piece, so added tokens and byte pieces keep their role."""
    if is_unk:
        return PieceType.UNKNOWN
    if piece in specials:
        return PieceType.CONTROL
    if piece in user:
        return PieceType.USER_DEFINED
    if byte_fallback and len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
        return PieceType.BYTE
    return PieceType.NORMAL


def _set_normalizer_spec(ns: NormalizerSpec, tok: Tokenizer) -> None:
    """Describe ``tok``'s normalizer and pre-tokenizer in ``ns`` (charsmap, prefix space,
    whitespace removal), so SentencePiece normalizes as the tokenizer does."""
    pre = _find(tok.normalizer, Precompiled)
    if pre is not None and pre.precompiled_charsmap:
        ns.name = "nmt_nfkc"
        ns.precompiled_charsmap = pre.precompiled_charsmap
    else:
        ns.name = "identity"
    if isinstance(tok.model, Unigram):
        meta = tok.pre_tokenizer
        prefix = not isinstance(meta, Metaspace) or meta.prepend_scheme != "never"
        remove = _find(tok.normalizer, normalizers.Strip) is not None
    else:
        prefix = _find(tok.normalizer, normalizers.Prepend) is not None
        remove = False
    ns.add_dummy_prefix = prefix
    ns.remove_extra_whitespaces = remove
    ns.escape_whitespaces = True


def save_sentencepiece(source: Tokenizer | ModelProto, path: str | os.PathLike[str]) -> ModelProto:
    """Write a SentencePiece ``.model`` file.

    A :class:`ModelProto` is written as it is (unknown fields included). A
    :class:`~codetok.tokenizer.tokenizer.Tokenizer` with a Unigram or BPE model is described as a
    ModelProto first: pieces and scores (for BPE, scores that rank pieces in merge
    order), unknown/control/user-defined/byte piece types, the special ids, the
    ``Precompiled`` charsmap and the prefix-space and whitespace options.

    Args:
        source: a ModelProto or a Tokenizer.
        path: where to write.

    Returns:
        The ModelProto written.

    Raises:
        ConfigurationError: the tokenizer cannot be expressed as a SentencePiece model
            (not Unigram/BPE, no unknown piece, or BPE ids with gaps).

    >>> import os, tempfile
    >>> m = ModelProto(); m.pieces.append(SentencePiece(piece="<unk>", type=2))
    >>> p = os.path.join(tempfile.mkdtemp(), "m.model")
    >>> save_sentencepiece(m, p).pieces[0].piece
    '<unk>'
    """
    if isinstance(source, ModelProto):
        m = source
    elif isinstance(source, Tokenizer):
        m = _model_from_tokenizer(source)
    else:
        raise ConfigurationError(
            f"expected a Tokenizer or a ModelProto, got {type(source).__name__}"
        )
    m.save(path)
    return m
