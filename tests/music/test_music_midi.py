"""Reading and writing MIDI files (codetok.music.score): real files from the music21 wheel
(tests/data/music), files built with mido, and inputs that are not MIDI."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

mido = pytest.importorskip("mido", reason="the music extra (mido) is not installed")

from codetok.errors import ConfigurationError, FormatError, NotFoundError  # noqa: E402
from codetok.music import Note, Score, Tempo, TimeSignature, Track, read_midi  # noqa: E402

DATA = Path(__file__).parents[1] / "data" / "music"


def _midi(*tracks: list, tpq: int = 480) -> bytes:
    """A format-1 file of mido messages (``time`` is the delta in ticks)."""
    f = mido.MidiFile(type=1, ticks_per_beat=tpq)
    for messages in tracks:
        t = mido.MidiTrack()
        t.extend(messages)
        f.tracks.append(t)
    out = io.BytesIO()
    f.save(file=out)
    return out.getvalue()


def on(note, velocity=90, time=0, channel=0):
    return mido.Message("note_on", note=note, velocity=velocity, time=time, channel=channel)


def off(note, time=0, channel=0, as_zero_velocity=False):
    if as_zero_velocity:
        return mido.Message("note_on", note=note, velocity=0, time=time, channel=channel)
    return mido.Message("note_off", note=note, velocity=0, time=time, channel=channel)


def test_real_files_have_the_notes_symusic_reads():
    symusic = pytest.importorskip("symusic", reason="symusic (music-bench extra) is the reference")
    for path in sorted(DATA.glob("*.mid")):
        ours = read_midi(path)
        ref = symusic.Score(str(path))
        assert ours.ticks_per_quarter == ref.ticks_per_quarter
        mine = sorted(
            (t.program, n.start, n.end, n.pitch, n.velocity) for t in ours.tracks for n in t.notes
        )
        theirs = sorted(
            (t.program, n.time, n.end, n.pitch, n.velocity) for t in ref.tracks for n in t.notes
        )
        assert mine == theirs, path.name


def test_known_answers_of_the_music21_files():
    s = read_midi(DATA / "test02.mid")
    assert (s.ticks_per_quarter, len(s.tracks), s.note_count()) == (1024, 4, 163)
    assert s.time_signatures == [TimeSignature(0, 1, 4), TimeSignature(1024, 4, 4)]
    big = read_midi(DATA / "test04.mid")
    assert big.note_count() == 6059
    assert len(big.tracks) == 21 and len({t.program for t in big.tracks}) == 10
    assert big.time_signatures == [TimeSignature(0, 2, 4)]
    assert len(big.tempos) == 95  # 96 events, two of them at tick 0
    assert round(big.tempos[0].bpm, 3) == 56.0


def test_pairs_notes_programs_channels_and_drums():
    data = _midi(
        [
            mido.MetaMessage("set_tempo", tempo=500000),
            mido.MetaMessage("time_signature", numerator=3, denominator=4),
        ],
        [
            mido.MetaMessage("track_name", name="lead"),
            mido.Message("program_change", program=40, channel=1),
            on(60, channel=1),
            on(36, 100, channel=9),
            off(36, 120, channel=9, as_zero_velocity=True),
            off(60, 360, channel=1),
            mido.Message("program_change", program=41, channel=1),
            on(62, 70, channel=1),
            off(62, 480, channel=1),
        ],
    )
    s = read_midi(data)
    assert s.tempos == [Tempo(0, 120.0)]
    assert s.time_signatures == [TimeSignature(0, 3, 4)]
    assert [(t.program, t.is_drum, t.name, t.notes) for t in s.tracks] == [
        (40, False, "lead", [Note(0, 480, 60, 90)]),
        (41, False, "lead", [Note(480, 960, 62, 70)]),
        (0, True, "lead", [Note(0, 120, 36, 100)]),
    ]


def test_restruck_key_closes_first_in_first_out_and_open_notes_end_with_the_track():
    data = _midi(
        [on(60, 80), on(60, 90, time=100), off(60, time=100), off(60, time=100), on(64, time=50)]
    )
    notes = read_midi(data).tracks[0].notes
    assert notes == [Note(0, 200, 60, 80), Note(100, 300, 60, 90), Note(350, 350, 64, 90)]


def test_write_then_read_gives_the_same_score():
    s = Score(
        96,
        [
            Track(0, False, [Note(0, 96, 60, 100), Note(96, 96, 62, 50)], "piano"),
            Track(33, False, [Note(48, 300, 40, 127)]),
            Track(0, True, [Note(0, 10, 36, 110), Note(24, 34, 38, 90)]),
        ],
        [Tempo(0, 100.0), Tempo(192, 140.0)],
        [TimeSignature(0, 4, 4), TimeSignature(384, 7, 8)],
    )
    back = read_midi(s.to_bytes())
    assert back.tracks == s.tracks
    assert [(t.tick, round(t.bpm, 3)) for t in back.tempos] == [(0, 100.0), (192, 140.0)]
    assert back.time_signatures == s.time_signatures


def test_overlapping_notes_of_one_pitch_come_back_exactly():
    """A long note with a short one of the same pitch inside it (a unison of two merged
    tracks): one track cannot hold both, so writing puts the second in a lane of its own."""
    notes = [Note(0, 960, 55, 80), Note(240, 480, 55, 100), Note(480, 600, 55, 60)]
    s = Score(480, [Track(48, False, notes)])
    midi = s.to_midi()
    assert len(midi.tracks) == 3  # tempo track + two lanes
    back = read_midi(s.to_bytes())
    assert sorted(n for t in back.tracks for n in t.notes) == notes
    assert {t.program for t in back.tracks} == {48}


def test_non_latin1_track_names_are_written():
    s = Score(480, [Track(0, False, [Note(0, 10, 60, 60)], "ヴァイオリン")])
    assert read_midi(s.to_bytes()).tracks[0].name == "??????"


def test_save_writes_a_file(tmp_path):
    s = Score(480, [Track(0, False, [Note(0, 480, 60, 64)])])
    s.save(tmp_path / "a.mid")
    assert read_midi(tmp_path / "a.mid").tracks == s.tracks
    assert read_midi(str(tmp_path / "a.mid")).tracks == s.tracks
    assert read_midi(mido.MidiFile(tmp_path / "a.mid")).tracks == s.tracks


def test_a_file_that_is_not_midi_is_named(tmp_path):
    text = tmp_path / "song.mid"
    text.write_text("this is not a MIDI file\n")
    with pytest.raises(FormatError, match=r"song\.mid: not a standard MIDI file") as e:
        read_midi(text)
    assert e.value.path == str(text)
    assert isinstance(e.value, ValueError)


def test_cut_short_and_empty_files_are_named(tmp_path):
    whole = (DATA / "test02.mid").read_bytes()
    cut = tmp_path / "cut.mid"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(FormatError, match=r"cut\.mid: the MIDI data ends early"):
        read_midi(cut)
    with pytest.raises(FormatError, match="MIDI bytes: the MIDI data ends early"):
        read_midi(b"")
    with pytest.raises(FormatError, match="upload.mid: not a standard"):
        read_midi(b"RIFF" + bytes(20), name="upload.mid")


def test_smpte_time_is_refused():
    data = bytearray(_midi([on(60), off(60, 10)]))
    data[12:14] = b"\xe7\x28"  # division: -25 frames per second, 40 ticks per frame
    with pytest.raises(FormatError, match="SMPTE"):
        read_midi(bytes(data))


def test_missing_files_and_wrong_types():
    with pytest.raises(NotFoundError, match="nowhere.mid: no such MIDI file"):
        read_midi("nowhere.mid")
    with pytest.raises(NotFoundError, match="is a directory"):
        read_midi(DATA)
    with pytest.raises(ConfigurationError, match="a MIDI source is a path, bytes"):
        read_midi(12)


def test_unstorable_notes_are_refused():
    with pytest.raises(FormatError, match="cannot store"):
        Score(480, [Track(0, False, [Note(0, 10, 60, 0)])]).to_bytes()
    with pytest.raises(FormatError, match="not positive"):
        Score(480, [], [Tempo(0, 0.0)]).to_bytes()


def test_without_mido_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "mido", None)
    with pytest.raises(ConfigurationError, match=r"pip install 'codetok\[music\]'"):
        read_midi(b"MThd")
