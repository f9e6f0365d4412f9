"""MusicTokenizer: the Tokenizer API over MIDI files (ids, names, special tokens, padding,
batches, tensors, save and load), BPE through codetok's trainer, and the command line."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

mido = pytest.importorskip("mido", reason="the music extra (mido) is not installed")

from codetok.cli.app import main  # noqa: E402
from codetok.errors import (  # noqa: E402
    ConfigurationError,
    FormatError,
    NotFoundError,
    TrainingError,
    VocabularyError,
)
from codetok.music import MusicTokenizer, Note, RemiConfig, Score, Track, read_midi  # noqa: E402

DATA = Path(__file__).parents[1] / "data" / "music"
FILES = sorted(DATA.glob("*.mid"))
SMALL = [DATA / "test02.mid", DATA / "test14.mid", DATA / "k525short.mid"]


@pytest.fixture(scope="module")
def remi() -> MusicTokenizer:
    return MusicTokenizer()


@pytest.fixture(scope="module")
def trained() -> MusicTokenizer:
    """BPE learned on four of the files; test09 and test14 stay unseen."""
    learn = [DATA / n for n in ("test02.mid", "test03.mid", "test04.mid", "k525short.mid")]
    return MusicTokenizer.train(learn, vocab_size=800)


def _notes(score: Score) -> list:
    return sorted((t.is_drum, t.program, n) for t in score.tracks for n in t.notes)


def test_vocabulary_and_special_tokens(remi):
    assert remi.vocab_size == remi.get_vocab_size() == 4 + 490
    assert [remi.id_to_token(i) for i in range(5)] == ["[PAD]", "[BOS]", "[EOS]", "[MASK]", "Bar"]
    assert remi.token_to_id("Pitch_60") == remi.get_vocab()["Pitch_60"]
    assert remi.token_to_id("Pitch_7") is None and remi.id_to_token(10_000) is None
    assert remi.special_tokens_map["pad_token"] == "[PAD]"
    assert remi.engine == "native"
    assert repr(remi) == "MusicTokenizer(REMI, vocab=494, merges=0)"


def test_encode_any_input_form(remi):
    path = DATA / "test14.mid"
    ids = remi.encode(path).ids
    assert remi.encode(str(path)).ids == ids
    assert remi.encode(path.read_bytes()).ids == ids
    assert remi.encode(mido.MidiFile(path)).ids == ids
    assert remi.encode(read_midi(path)).ids == ids


def test_encoding_has_names_offsets_and_masks(remi):
    enc = remi.encode(DATA / "test14.mid")
    base = remi.base_tokens(DATA / "test14.mid")
    assert enc.tokens == ["[BOS]", *base, "[EOS]"]
    assert enc.tokens[1:5] == ["Bar", "TimeSig_6/8", "Position_0", "Tempo_100.5"]
    assert enc.offsets[1:4] == [(0, 1), (1, 2), (2, 3)]  # spans of base tokens
    assert enc.special_tokens_mask[0] == enc.special_tokens_mask[-1] == 1
    bare = remi.encode(DATA / "test14.mid", add_special_tokens=False)
    assert bare.ids == enc.ids[1:-1]


def test_decode_gives_back_the_quantized_notes(remi, tmp_path):
    for path in SMALL:
        enc = remi.encode(path)
        score = remi.decode(enc.ids)  # [BOS] and [EOS] are skipped
        assert remi.encode(score).ids == enc.ids
        score.save(tmp_path / "out.mid")  # a MIDI file with those notes
        assert _notes(read_midi(tmp_path / "out.mid")) == _notes(score)
    ids = np.array(remi.encode(SMALL[0]).ids, dtype=np.int64)
    assert _notes(remi.decode(ids)) == _notes(remi.decode(ids.tolist()))
    assert remi.decode(ids, ticks_per_quarter=96).ticks_per_quarter == 96
    names = remi.base_tokens(SMALL[0])
    assert _notes(remi.decode_base_tokens(names)) == _notes(remi.decode(ids))


def test_decode_refuses_ids_with_no_token(remi):
    with pytest.raises(VocabularyError, match="id 9999 at position 1 has no token"):
        remi.decode([4, 9999])
    with pytest.raises(VocabularyError, match="must be ints"):
        remi.decode([4, "x"])
    with pytest.raises(VocabularyError, match="strict=False"):
        remi.decode([remi.token_to_id("Bar"), remi.token_to_id("Pitch_60")])
    assert remi.decode([remi.token_to_id("Pitch_60")], strict=False).tracks == []


def test_batches_padding_and_truncation():
    tok = MusicTokenizer()
    encs = tok.encode_batch(SMALL, num_threads=2)
    assert [e.ids for e in encs] == [tok.encode(p).ids for p in SMALL]
    tok.enable_padding()
    padded = tok.encode_batch(SMALL)
    longest = max(len(e.ids) for e in encs)
    assert {len(e.ids) for e in padded} == {longest}
    short = padded[1]
    assert short.tokens[-1] == "[PAD]" and short.attention_mask[-1] == 0
    assert _notes(tok.decode(short.ids)) == _notes(tok.decode(encs[1].ids))
    tok.no_padding()
    tok.enable_truncation(16)
    assert len(tok.encode(SMALL[0]).ids) == 16
    assert tok.truncation["max_length"] == 16
    tok.no_truncation()
    assert tok.padding is None and tok.truncation is None


def test_call_builds_model_inputs(remi):
    batch = remi(SMALL, padding=True, truncation=True, max_length=64, return_tensors="np")
    assert batch["input_ids"].shape == (3, 64)
    assert batch["attention_mask"].dtype.kind == "i"
    assert batch.tokens(0)[:3] == ["[BOS]", "Bar", "TimeSig_1/4"]
    one = remi(SMALL[1])
    assert one["input_ids"] == remi.encode(SMALL[1]).ids
    pairs = remi(SMALL, padding="longest")
    assert len({len(x) for x in pairs["input_ids"]}) == 1


def test_bpe_training_merges_within_bars_and_changes_no_note(remi, trained):
    assert trained.vocab_size == 800
    assert trained.engine == "native"
    vocab = trained.get_vocab()
    merged = [name for name in vocab if "+" in name]
    assert len(merged) == 800 - 494
    # A BPE word is a bar: "Bar" can only open a merged token.
    assert all("Bar" not in name.split("+")[1:] for name in merged)
    for path in (DATA / "test09.mid", DATA / "test14.mid"):  # files the merges never saw
        a, b = remi.encode(path), trained.encode(path)
        assert len(b.ids) < len(a.ids)
        assert _notes(trained.decode(b.ids)) == _notes(remi.decode(a.ids))
        assert trained.base_ids(b.ids) == remi.base_ids(a.ids)
        assert b.offsets[-2][1] == len(remi.base_tokens(path))  # spans cover every base token
    assert trained.id_to_token(4) == "Bar" and trained.token_to_id("Pitch_60") == remi.token_to_id(
        "Pitch_60"
    )


def test_native_and_python_pipelines_agree(trained):
    from conftest import python_pipeline

    songs = [DATA / "test09.mid", DATA / "test04.mid"]
    native = [(e.ids, e.offsets) for e in trained.encode_batch(songs)]
    with python_pipeline():
        assert [(e.ids, e.offsets) for e in trained.encode_batch(songs)] == native


def test_training_reads_folders_and_checks_its_arguments(tmp_path):
    folder = tmp_path / "songs"
    (folder / "deep").mkdir(parents=True)
    for p in SMALL:
        (folder / "deep" / p.name).write_bytes(p.read_bytes())
    (folder / "notes.txt").write_text("not read")
    a = MusicTokenizer.train([folder], vocab_size=520)
    b = MusicTokenizer.train(SMALL, vocab_size=520)
    assert a.get_vocab() == b.get_vocab()
    with pytest.raises(TrainingError, match="at least 494"):
        MusicTokenizer.train(SMALL, vocab_size=100)
    with pytest.raises(ConfigurationError, match="iterable of MIDI inputs"):
        MusicTokenizer.train(folder, vocab_size=520)
    bad = tmp_path / "bad.mid"
    bad.write_text("hello")
    with pytest.raises(FormatError, match="bad.mid"):
        MusicTokenizer.train([bad], vocab_size=520)


def test_save_load_and_pickle(trained, tmp_path):
    path = tmp_path / "music.json"
    trained.save(path, pretty=True)
    back = MusicTokenizer.from_file(path)
    song = DATA / "test09.mid"
    assert back.encode(song).ids == trained.encode(song).ids
    assert back.get_vocab() == trained.get_vocab()
    assert pickle.loads(pickle.dumps(trained)).encode(song).ids == trained.encode(song).ids
    other = MusicTokenizer(RemiConfig(pitch_range=(36, 96), velocities=8))
    again = MusicTokenizer.from_str(other.to_str())
    assert again.config == other.config and again.vocab_size == other.vocab_size


def test_loading_errors_name_the_file(tmp_path, remi):
    with pytest.raises(NotFoundError, match="nowhere.json"):
        MusicTokenizer.from_file(tmp_path / "nowhere.json")
    plain = tmp_path / "plain.json"
    remi.tokenizer.save(plain)
    with pytest.raises(FormatError, match=r"plain\.json: not a music tokenizer file"):
        MusicTokenizer.from_file(plain)
    data = remi.to_dict()
    data["codetok_music"]["version"] = 99
    with pytest.raises(FormatError, match="unsupported music tokenizer version 99"):
        MusicTokenizer.from_dict(data, path="x.json")
    data = remi.to_dict()
    data["codetok_music"]["config"]["pitch_range"] = [0, 127]  # more pitches than the model has
    with pytest.raises(FormatError, match="no token for 40 REMI base token"):
        MusicTokenizer.from_dict(data, path="x.json")


def test_inputs_that_are_not_midi(remi, tmp_path):
    text = tmp_path / "song.mid"
    text.write_text("MThd? no.")
    with pytest.raises(
        FormatError, match=r"song\.mid: the MIDI data ends early|song\.mid: not a standard"
    ):
        remi.encode(text)
    with pytest.raises(ConfigurationError, match="a MIDI source is a path"):
        remi.encode(3.5)


def test_scores_built_in_code():
    tok = MusicTokenizer()
    drums = Track(0, True, [Note(i * 240, i * 240 + 60, 36 + i % 2 * 6, 100) for i in range(16)])
    bass = Track(33, False, [Note(i * 480, i * 480 + 400, 40, 90) for i in range(8)])
    song = Score(480, [bass, drums])
    back = tok.decode(tok.encode(song).ids)
    assert [(t.program, t.is_drum, len(t.notes)) for t in back.tracks] == [
        (33, False, 8),
        (0, True, 16),
    ]


# -- command line ---------------------------------------------------------------------------
def test_cli_encodes_a_midi_file(capsys, remi, trained, tmp_path):
    song = str(DATA / "test14.mid")
    assert main(["encode", song, "--tokenizer", "remi", "--format", "tokens"]) == 0
    assert capsys.readouterr().out.split() == remi.encode(DATA / "test14.mid").tokens
    assert main(["encode", song, "--tokenizer", "remi", "--no-special-tokens"]) == 0
    ids = [int(x) for x in capsys.readouterr().out.split()]
    assert ids == remi.encode(DATA / "test14.mid", add_special_tokens=False).ids
    saved = tmp_path / "music.json"
    trained.save(saved)
    assert main(["encode", song, "--tokenizer", str(saved), "--format", "json"]) == 0
    assert '"ids": ' + str(trained.encode(DATA / "test14.mid").ids) in capsys.readouterr().out


def test_cli_errors_name_the_file(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("plain text\n")
    assert main(["encode", str(bad), "--tokenizer", "remi"]) == 2
    assert f"{bad}: not a standard MIDI file" in capsys.readouterr().err
    assert main(["encode", str(DATA / "test14.mid")]) == 2
    assert "pass --tokenizer remi" in capsys.readouterr().err
    assert (
        main(["encode", str(DATA / "test14.mid"), "--tokenizer", "remi", "--format", "html"]) == 2
    )
    assert "--format html needs a code tokenizer" in capsys.readouterr().err
