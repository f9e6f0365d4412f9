"""Reading and writing SentencePiece ``.model`` files (protobuf ``ModelProto``).

Oracles: ``sentencepiece`` itself (it must load what codetok writes and encode the same)
and, when ``protobuf`` is installed, the ``sentencepiece_model_pb2`` module shipped in the
``sentencepiece`` package.
"""

from __future__ import annotations

import pytest
from _sentencepiece_helpers import CASES, corpus_lines, train_models

from codetok.errors import FormatError, NotFoundError
from codetok.formats.sentencepiece_model import (
    ModelProto,
    ModelType,
    PieceType,
    SentencePiece,
    load_sentencepiece_model,
    merges_from_pieces,
    save_sentencepiece,
    tokenizer_from_sentencepiece,
)

spm = pytest.importorskip("sentencepiece", reason="test extra sentencepiece is missing")


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return train_models(tmp_path_factory.mktemp("spm"))


def _pb2():
    pytest.importorskip("google.protobuf", reason="protobuf is not installed")
    from sentencepiece import sentencepiece_model_pb2

    return sentencepiece_model_pb2


def _same_encodings(a: str, b: str) -> None:
    sa = spm.SentencePieceProcessor(model_file=a)
    sb = spm.SentencePieceProcessor(model_file=b)
    for text in CASES + corpus_lines(60):
        assert sa.encode(text, out_type=str) == sb.encode(text, out_type=str), text
        assert sa.encode(text) == sb.encode(text), text


@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_fields(paths: dict, kind: str) -> None:
    m = load_sentencepiece_model(paths[kind])
    sp = spm.SentencePieceProcessor(model_file=str(paths[kind]))
    assert len(m.pieces) == sp.get_piece_size() == m.trainer_spec.vocab_size == 1000
    for i, p in enumerate(m.pieces):
        assert p.piece == sp.id_to_piece(i)
        assert p.score == pytest.approx(sp.get_score(i), rel=1e-6)
        assert (p.type == PieceType.CONTROL) == sp.is_control(i)
        assert (p.type == PieceType.UNKNOWN) == sp.is_unknown(i)
        assert (p.type == PieceType.BYTE) == sp.is_byte(i)
    ts, ns = m.trainer_spec, m.normalizer_spec
    assert (ts.unk_id, ts.bos_id, ts.eos_id, ts.pad_id) == (0, 1, 2, -1)
    assert (ts.unk_piece, ts.bos_piece, ts.eos_piece) == ("<unk>", "<s>", "</s>")
    assert ns.escape_whitespaces and ns.add_dummy_prefix
    if kind == "unigram":
        assert ts.model_type == ModelType.UNIGRAM and not ts.byte_fallback
        assert ns.name == "nmt_nfkc" and ns.precompiled_charsmap and ns.remove_extra_whitespaces
    else:
        assert ts.model_type == ModelType.BPE and ts.byte_fallback and ts.split_digits
        assert ns.name == "identity" and not ns.remove_extra_whitespaces
        assert list(ts.user_defined_symbols) == ["<mask>"]
        assert m.pieces[3].type == PieceType.USER_DEFINED
        assert sum(p.type == PieceType.BYTE for p in m.pieces) == 256


@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_round_trip_is_byte_identical(paths: dict, kind: str, tmp_path) -> None:
    data = paths[kind].read_bytes()
    m = ModelProto.from_bytes(data)
    assert m.to_bytes() == data
    out = tmp_path / "again.model"
    m.save(out)
    _same_encodings(str(paths[kind]), str(out))


def test_protobuf_oracle_agrees(paths: dict) -> None:
    pb2 = _pb2()
    for kind in ("unigram", "bpe"):
        data = paths[kind].read_bytes()
        ref = pb2.ModelProto()
        ref.ParseFromString(data)
        ours = load_sentencepiece_model(paths[kind])
        assert [(p.piece, p.score, p.type) for p in ref.pieces] == [
            (p.piece, p.score, p.type) for p in ours.pieces
        ]
        assert ref.trainer_spec.vocab_size == ours.trainer_spec.vocab_size
        assert ref.normalizer_spec.precompiled_charsmap == ours.normalizer_spec.precompiled_charsmap
        # What codetok writes after an edit, protobuf reads back identically.
        ours.pieces[5].score = -1.5
        ours.trainer_spec.pad_id = 3
        ref.pieces[5].score = -1.5
        ref.trainer_spec.pad_id = 3
        assert ours.to_bytes() == ref.SerializeToString()


def test_unknown_fields_survive(paths: dict, tmp_path) -> None:
    data = paths["unigram"].read_bytes()
    m = ModelProto.from_bytes(data)
    # field 200 (varint 7) at top level, field 999 (a string) inside trainer_spec,
    # field 4 (self_test_data, not in the schema) as an empty message.
    m.unknown_fields.append(bytes([0xC0, 0x0C, 0x07]))
    m.trainer_spec.unknown_fields.append(bytes([0xBA, 0x3E, 0x03]) + b"abc")
    m.unknown_fields.append(bytes([0x22, 0x00]))
    raw = m.to_bytes()
    again = ModelProto.from_bytes(raw)
    assert again.to_bytes() == raw
    assert again.trainer_spec.unknown_fields == [bytes([0xBA, 0x3E, 0x03]) + b"abc"]
    path = tmp_path / "unknown.model"
    path.write_bytes(raw)
    _same_encodings(str(paths["unigram"]), str(path))  # SentencePiece ignores them too


def test_presence_of_defaults_is_kept() -> None:
    m = ModelProto()
    m.pieces.append(SentencePiece(piece="<unk>", type=PieceType.UNKNOWN))
    assert not m.trainer_spec.has("vocab_size") and m.trainer_spec.vocab_size == 8000
    m.trainer_spec.vocab_size = 8000  # set to its default: still written
    m.trainer_spec.pad_id = -1  # negative int32: a 10-byte varint
    back = ModelProto.from_bytes(m.to_bytes())
    assert back.trainer_spec.has("vocab_size") and back.trainer_spec.pad_id == -1
    assert not back.has("normalizer_spec")
    assert back.to_bytes() == m.to_bytes()


def test_malformed_files_name_file_field_and_offset(paths: dict, tmp_path) -> None:
    data = paths["unigram"].read_bytes()
    bad = tmp_path / "truncated.model"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(FormatError) as e:
        load_sentencepiece_model(bad)
    msg = str(e.value)
    assert "truncated.model" in msg and "byte" in msg and "ModelProto" in msg
    # A piece whose string length runs past its message names that field.
    piece = bytes([0x0A, 0x05, 0x0A, 0x09]) + b"abc"
    with pytest.raises(FormatError, match=r"ModelProto\.pieces\[0\]\.piece \(byte 3\)"):
        ModelProto.from_bytes(piece)
    with pytest.raises(FormatError, match="invalid wire type"):
        ModelProto.from_bytes(bytes([0x0F, 0x00]))
    text = tmp_path / "text.model"
    text.write_text("this is not a model\n")
    with pytest.raises(FormatError):
        load_sentencepiece_model(text)
    empty = tmp_path / "empty.model"
    empty.write_bytes(b"")
    with pytest.raises(FormatError, match="no pieces"):
        load_sentencepiece_model(empty)
    with pytest.raises(NotFoundError, match="nope.model"):
        load_sentencepiece_model(tmp_path / "nope.model")
    with pytest.raises(FormatError, match="not UTF-8"):
        ModelProto.from_bytes(bytes([0x0A, 0x04, 0x0A, 0x02, 0xFF, 0xFE]))
    with pytest.raises(FormatError, match="float"):
        ModelProto.from_bytes(bytes([0x0A, 0x03, 0x15, 0x00, 0x00]))


def test_merges_follow_transformers_generate_merges(paths: dict) -> None:
    pytest.importorskip("transformers", reason="test extra transformers is missing")
    from transformers.tokenization_utils_base import generate_merges

    m = load_sentencepiece_model(paths["bpe"])
    pieces = [(p.piece, p.score) for p in m.pieces]
    vocab = {p: i for i, (p, _) in enumerate(pieces)}
    assert merges_from_pieces(pieces) == generate_merges(vocab, pieces)


@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_save_tokenizer_as_sentencepiece(paths: dict, kind: str, tmp_path) -> None:
    tok = tokenizer_from_sentencepiece(paths[kind])
    out = tmp_path / f"{kind}-from-tokenizer.model"
    written = save_sentencepiece(tok, out)
    assert [p.piece for p in written.pieces] == [
        p.piece for p in load_sentencepiece_model(paths[kind]).pieces
    ]
    _same_encodings(str(paths[kind]), str(out))
    # and codetok reads its own output back into the same pipeline
    again = tokenizer_from_sentencepiece(out)
    for text in CASES:
        assert again.encode(text).ids == tok.encode(text).ids, text


def test_unsupported_model_type(paths: dict) -> None:
    m = load_sentencepiece_model(paths["unigram"])
    m.trainer_spec.model_type = ModelType.WORD
    with pytest.raises(FormatError, match="WORD"):
        tokenizer_from_sentencepiece(m)


@pytest.mark.parametrize(
    "damage",
    [
        lambda m: setattr(m.trainer_spec, "model_type", 0),
        lambda m: setattr(m.normalizer_spec, "precompiled_charsmap", b"\xff\xff\xff\x7f...."),
        lambda m: setattr(m.trainer_spec, "eos_id", -1),
    ],
    ids=["model_type", "charsmap", "no eos for T5"],
)
def test_errors_of_a_model_file_name_it(paths: dict, tmp_path, damage) -> None:
    # These errors named the field but not the file (found by tests/fuzz/test_fuzz.py); the
    # last one only through a T5 folder, which adds </s>.
    m = load_sentencepiece_model(paths["unigram"])
    damage(m)
    path = tmp_path / "spiece.model"
    save_sentencepiece(m, path)
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "T5Tokenizer"}')
    from codetok.formats.pretrained import load_pretrained_dir

    for load in (
        lambda: tokenizer_from_sentencepiece(path, add_eos=True),
        lambda: load_pretrained_dir(tmp_path),
    ):
        with pytest.raises(FormatError) as info:
            load()
        assert str(path) in str(info.value)
