"""REMI tokens (codetok.music.remi, meter, config, vocab): known answers worked out by hand,
the quantized notes of real files against a closed formula, decoding rules, properties."""

from __future__ import annotations

import bisect
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.errors import ConfigurationError, FormatError, VocabularyError
from codetok.music import Note, RemiConfig, Score, Tempo, TimeSignature, Track
from codetok.music.meter import MeterMap, output_ticks_per_quarter
from codetok.music.remi import decode_tokens, encode_score
from codetok.music.vocab import RemiVocab

DATA = Path(__file__).parents[1] / "data" / "music"
CONFIG = RemiConfig()
VOCAB = RemiVocab(CONFIG)


def names(score: Score, vocab: RemiVocab = VOCAB) -> list[str]:
    return [vocab.names[i] for i in encode_score(score, vocab)]


def decode(tokens: list[str], **options) -> Score:
    return decode_tokens(VOCAB.lookup(tokens), VOCAB, **options)


# -- the vocabulary -------------------------------------------------------------------
def test_vocabulary_layout():
    assert len(VOCAB) == 1 + 48 + 96 + 32 + 129 + 88 + 32 + 64
    assert VOCAB.names[0] == "Bar"
    assert len(set(VOCAB.names)) == len(VOCAB)
    durations = [n for n in VOCAB.names if n.startswith("Duration_")]
    assert durations[:3] == ["Duration_1/8", "Duration_1/4", "Duration_3/8"]
    assert durations[30:34] == ["Duration_31/8", "Duration_4", "Duration_17/4", "Duration_9/2"]
    assert durations[-1] == "Duration_12"
    assert "Tempo_120" in VOCAB.index and "Program_drums" in VOCAB.index
    assert CONFIG.velocity_values[0] == 1 and CONFIG.velocity_values[-1] == 127
    steps = [b - a for a, b in zip(CONFIG.velocity_values, CONFIG.velocity_values[1:])]
    assert set(steps) <= {4, 5}  # 126 / 31 apart, rounded


def test_tempo_bins_are_geometric_and_hold_120():
    values = CONFIG.tempo_values
    assert len(values) == 32 and 120.0 in values
    ratios = [b / a for a, b in zip(values, values[1:])]
    assert max(ratios) - min(ratios) < 0.005
    assert values[0] < 40 * 1.07 and values[-1] > 250 / 1.07
    assert CONFIG.tempo_bin(120) == values.index(120.0)
    assert CONFIG.tempo_bin(1000) == 31 and CONFIG.tempo_bin(1) == 0


def test_unsupported_meters_take_the_nearest_bar_length():
    assert CONFIG.meter(3, 4) == (3, 4)
    assert CONFIG.meter(15, 8) == (7, 4)  # 1.875 whole notes: 7/4 and 2/1 tie; 4 is nearer 8
    assert CONFIG.meter(13, 4) == (12, 4)
    assert CONFIG.meter(4, 32) == (2, 16)
    assert CONFIG.meter(0, 4) == (1, 16)  # a broken event: the shortest bar


def test_config_validation_and_serialization():
    for bad in (
        {"pitch_range": (60, 50)},
        {"beat_resolution": ((0, 4, 8), (4, 12, 3))},  # 3 does not divide 8
        {"beat_resolution": ()},
        {"velocities": 0},
        {"tempo_range": (100, 50)},
        {"time_signatures": ((3, 6),)},
        {"time_signatures": ()},
    ):
        with pytest.raises(ConfigurationError):
            RemiConfig(**bad)
    small = RemiConfig(pitch_range=(48, 72), beat_resolution=((0, 2, 4),), velocities=4)
    assert RemiConfig.from_dict(small.to_dict()) == small
    with pytest.raises(FormatError, match="unknown REMI config key"):
        RemiConfig.from_dict({"pitch": 3}, path="x.json")
    with pytest.raises(FormatError, match="x.json: invalid REMI config"):
        RemiConfig.from_dict({"velocities": 500}, path="x.json")


# -- encoding: known answers ------------------------------------------------------------
def test_two_bars_with_programs_and_drums():
    score = Score(
        480,
        [
            Track(0, False, [Note(0, 480, 60, 100), Note(480, 720, 64, 82)]),
            Track(0, True, [Note(0, 60, 36, 127)]),
            Track(40, False, [Note(1920, 2880, 67, 66)]),
        ],
        [Tempo(0, 120.0)],
        [TimeSignature(0, 4, 4)],
    )
    assert names(score) == [
        "Bar", "TimeSig_4/4",
        "Position_0", "Tempo_120",
        "Program_0", "Pitch_60", "Velocity_99", "Duration_1",
        "Program_drums", "Pitch_36", "Velocity_127", "Duration_1/8",
        "Position_8", "Program_0", "Pitch_64", "Velocity_82", "Duration_1/2",
        "Bar",
        "Position_0", "Program_40", "Pitch_67", "Velocity_66", "Duration_2",
    ]  # fmt: skip


def test_empty_bars_pickup_and_meter_change():
    score = Score(
        480,
        [
            Track(
                0,
                False,
                [
                    Note(0, 480, 60, 66),
                    Note(480, 960, 62, 66),
                    Note(480 + 3 * 1920, 480 + 3 * 1920 + 240, 64, 66),
                ],
            )
        ],
        [],
        [TimeSignature(0, 1, 4), TimeSignature(480, 4, 4)],
    )
    assert names(score) == [
        "Bar", "TimeSig_1/4", "Position_0", "Tempo_120", "Program_0", "Pitch_60", "Velocity_66", "Duration_1",
        "Bar", "TimeSig_4/4", "Position_0", "Program_0", "Pitch_62", "Velocity_66", "Duration_1",
        "Bar",
        "Bar",
        "Bar", "Position_0", "Program_0", "Pitch_64", "Velocity_66", "Duration_1/2",
    ]  # fmt: skip


def test_compound_meter_counts_beats_in_eighths():
    # 6/8 at 480 ticks per quarter: a beat is an eighth (240 ticks), a bar 6 beats.
    score = Score(
        480,
        [Track(0, False, [Note(720, 960, 60, 66), Note(1440, 2160, 62, 66)])],
        [],
        [TimeSignature(0, 6, 8)],
    )
    assert names(score)[4:] == [
        "Position_24", "Program_0", "Pitch_60", "Velocity_66", "Duration_1",
        "Bar", "Position_0", "Program_0", "Pitch_62", "Velocity_66", "Duration_3",
    ]  # fmt: skip


def test_onsets_round_to_the_grid_and_over_the_bar_line():
    tpq = 480  # one position is 60 ticks
    notes = [
        Note(29, 100, 60, 66),
        Note(30, 100, 61, 66),
        Note(1890, 2000, 62, 66),
        Note(1919, 2000, 63, 66),
    ]
    got = names(Score(tpq, [Track(0, False, notes)]))
    assert got[4:] == [
        "Program_0", "Pitch_60", "Velocity_66", "Duration_1/8",  # 29 -> 0, 71 ticks -> 1/8
        "Position_1", "Program_0", "Pitch_61", "Velocity_66", "Duration_1/8",  # 30 -> 60 (half up)
        "Bar", "Position_0", "Program_0", "Pitch_62", "Velocity_66", "Duration_1/4",
        "Program_0", "Pitch_63", "Velocity_66", "Duration_1/8",
    ]  # fmt: skip


def test_durations_clamp_and_round_to_the_nearest_value():
    tpq = 480
    notes = [
        Note(0, 0, 60, 66),  # zero length -> the shortest
        Note(0, 30 * tpq, 61, 66),  # 30 beats -> the longest (12)
        Note(0, 4 * tpq + 150, 62, 66),  # 4.3125 beats -> 4 1/4 (the grid is 1/4 there)
        Note(0, 4 * tpq + 180, 63, 66),  # 4.375 beats: a tie between 4 1/4 and 4 1/2 -> 4 1/4
    ]
    got = [t for t in names(Score(tpq, [Track(0, False, notes)])) if t.startswith("Duration")]
    assert got == ["Duration_1/8", "Duration_12", "Duration_17/4", "Duration_17/4"]


def test_pitches_outside_the_range_are_left_out():
    notes = [
        Note(0, 480, 20, 66),
        Note(0, 480, 21, 66),
        Note(0, 480, 108, 66),
        Note(0, 480, 109, 66),
    ]
    got = [t for t in names(Score(480, [Track(0, False, notes)])) if t.startswith("Pitch")]
    assert got == ["Pitch_21", "Pitch_108"]


def test_tempo_changes_keep_only_new_bins():
    tempos = [
        Tempo(0, 90.0),
        Tempo(0, 100.0),
        Tempo(480, 100.4),
        Tempo(960, 150.0),
        Tempo(975, 60.0),
    ]
    got = names(Score(480, [Track(0, False, [Note(1920, 2400, 60, 66)])], tempos))
    assert got == [
        "Bar", "TimeSig_4/4", "Position_0", "Tempo_100.5",  # the last at tick 0
        "Position_16", "Tempo_59",  # 150 then 60 at one grid point: the last wins
        "Bar", "Position_0", "Program_0", "Pitch_60", "Velocity_66", "Duration_1",
    ]  # fmt: skip


def test_time_signature_events_snap_to_the_nearest_bar_line():
    m = MeterMap(CONFIG, 480, [(0, 4, 4), (1900, 3, 4), (1920 + 1440 * 2 + 10, 3, 4)])
    assert [(s.first_bar, s.numerator, s.denominator) for s in m.segments] == [(0, 4, 4), (1, 3, 4)]
    assert m.locate(1920 + 1440)[:2] == (2, 0)
    late = MeterMap(CONFIG, 480, [(1000, 6, 8)])  # past the middle of bar 0: bar 1
    assert [(s.first_bar, s.numerator) for s in late.segments] == [(0, 4), (1, 6)]
    early = MeterMap(CONFIG, 480, [(900, 6, 8)])  # before the middle: replaces bar 0's meter
    assert [(s.first_bar, s.numerator) for s in early.segments] == [(0, 6)]
    odd = MeterMap(CONFIG, 480, [(0, 15, 8)])
    assert [(s.numerator, s.denominator) for s in odd.segments] == [(7, 4)]


def test_output_resolution():
    assert output_ticks_per_quarter(CONFIG) == 480
    assert output_ticks_per_quarter(RemiConfig(beat_resolution=((0, 4, 6),))) == 480
    assert output_ticks_per_quarter(RemiConfig(beat_resolution=((0, 4, 7),))) == 476


# -- decoding ----------------------------------------------------------------------------
def test_decode_known_answer():
    score = decode(
        [
            "Bar", "TimeSig_3/4", "Position_0", "Tempo_120", "Program_5", "Pitch_60", "Velocity_66", "Duration_3",
            "Bar", "TimeSig_6/8", "Position_6", "Tempo_59", "Program_drums", "Pitch_38", "Velocity_99", "Duration_1/2",
            "Program_5", "Pitch_62", "Velocity_127", "Duration_12",
        ]
    )  # fmt: skip
    assert score.ticks_per_quarter == 480
    assert score.time_signatures == [TimeSignature(0, 3, 4), TimeSignature(1440, 6, 8)]
    assert score.tempos == [Tempo(0, 120.0), Tempo(1440 + 180, 59.0)]
    assert [(t.program, t.is_drum, t.notes) for t in score.tracks] == [
        (5, False, [Note(0, 1440, 60, 66), Note(1620, 1620 + 12 * 240, 62, 127)]),
        (0, True, [Note(1620, 1620 + 120, 38, 99)]),
    ]
    fine = decode(
        ["Bar", "Position_1", "Program_0", "Pitch_60", "Velocity_66", "Duration_1/8"],
        ticks_per_quarter=96,
    )
    assert fine.tracks[0].notes == [Note(12, 24, 60, 66)]
    with pytest.raises(ConfigurationError, match="multiple of 32"):
        decode(["Bar"], ticks_per_quarter=100)


@pytest.mark.parametrize(
    ("tokens", "where", "message"),
    [
        (["Position_0"], 0, "comes before the first Bar"),
        (["Bar", "Pitch_60", "Velocity_66", "Duration_1"], 1, "must follow a Program token"),
        (["Bar", "Program_0", "Velocity_66"], 2, "a Pitch token must come here"),
        (["Bar", "Program_0", "Pitch_60", "Duration_1"], 3, "a Velocity token must come here"),
        (["Bar", "Program_0", "Pitch_60", "Velocity_66"], 3, "ends the sequence in the middle"),
        (["Bar", "Position_0", "TimeSig_3/4"], 2, "must come right after Bar"),
        (["Bar", "TimeSig_3/4", "Position_24"], 2, "past the end of a 3/4 bar"),
    ],
)
def test_strict_decoding_names_the_bad_token(tokens, where, message):
    with pytest.raises(VocabularyError, match=message) as e:
        decode(tokens)
    assert str(e.value).startswith(f"token {where} ({tokens[where]}) ")
    assert "strict=False" in str(e.value)
    decode(tokens, strict=False)  # skipped instead


def test_lenient_decoding_keeps_the_good_notes():
    tokens = [
        "Position_4", "Program_0", "Pitch_60", "Velocity_66", "Duration_1",  # before any Bar
        "Program_0", "Pitch_61", "Bar",  # cut short
        "Position_40", "Program_1", "Pitch_62", "Velocity_66", "Duration_1",  # past the bar end
        "Velocity_66",  # stray
    ]  # fmt: skip
    notes = [(t.program, n) for t in decode(tokens, strict=False).tracks for n in t.notes]
    assert notes == [(0, Note(240, 720, 60, 66)), (1, Note(1920 + 2400, 1920 + 2880, 62, 66))]


def test_unknown_names_are_refused():
    with pytest.raises(VocabularyError, match=r"token 1 \('Pitch_7'\)"):
        VOCAB.lookup(["Bar", "Pitch_7"])
    with pytest.raises(VocabularyError, match="stands for no REMI token"):
        VOCAB.from_chars("a")


# -- real files: the notes come back as a closed formula quantizes them ----------------------
def _nearest_duration(beats: Fraction) -> Fraction:
    """The duration value nearest ``beats`` (the shorter on a tie), compared exactly."""
    values = CONFIG.durations
    i = bisect.bisect_left(values, beats)
    near = values[max(0, i - 1) : i + 1]
    return min(near, key=lambda d: (abs(d - beats), d))


def _quantized(score: Score) -> Counter:
    """The notes the decoded file must hold: each file here keeps one beat length (its
    meter changes fall on bar lines), so the grid is a plain multiple of ticks."""
    (denominator,) = {ts.denominator for ts in score.time_signatures} or {4}
    per_beat_in = Fraction(4 * score.ticks_per_quarter, denominator)
    per_beat_out = Fraction(4 * 480, denominator)
    low, high = CONFIG.pitch_range
    out: Counter = Counter()
    for t in score.tracks:
        for n in t.notes:
            if not low <= n.pitch <= high:
                continue
            onset = math.floor(n.start * 8 / per_beat_in + Fraction(1, 2))
            beats = Fraction(n.end - n.start) / per_beat_in
            duration = _nearest_duration(beats)
            velocity = min(CONFIG.velocity_values, key=lambda v: (abs(v - n.velocity), v))
            start = onset * per_beat_out / 8
            key = (
                t.is_drum,
                t.program,
                int(start),
                int(start + duration * per_beat_out),
                n.pitch,
                velocity,
            )
            out[key] += 1
    return out


@pytest.mark.parametrize("name", ["test02", "test03", "test04", "test09", "test14", "k525short"])
def test_real_files_round_trip_after_quantization(name):
    pytest.importorskip("mido", reason="the music extra (mido) is not installed")
    from codetok.music import read_midi

    score = read_midi(DATA / f"{name}.mid")
    ids = encode_score(score, VOCAB)
    back = decode_tokens(ids, VOCAB)
    got = Counter(
        (t.is_drum, t.program, n.start, n.end, n.pitch, n.velocity)
        for t in back.tracks
        for n in t.notes
    )
    assert got == _quantized(score)
    assert encode_score(back, VOCAB) == ids  # decoding then encoding changes nothing
    again = read_midi(back.to_bytes())  # and neither does the MIDI file in between
    assert encode_score(again, VOCAB) == ids


# -- properties ----------------------------------------------------------------------------
_METERS = [(4, 4), (3, 4), (6, 8), (2, 2), (7, 8), (5, 16)]


@st.composite
def grid_scores(draw):
    """Scores whose notes lie on the grid, with values the vocabulary holds."""
    numerator, denominator = draw(st.sampled_from(_METERS))
    step = 480 * 4 // denominator // 8  # ticks per position at 480 ticks per quarter
    tracks = {}
    for _ in range(draw(st.integers(1, 25))):
        program = draw(st.sampled_from([0, 1, 40, 127, -1]))
        start = draw(st.integers(0, 6 * numerator * 8)) * step
        steps = draw(st.sampled_from(CONFIG.duration_steps))
        note = Note(
            start,
            start + steps * step,
            draw(st.integers(21, 108)),
            draw(st.sampled_from(CONFIG.velocity_values)),
        )
        tracks.setdefault(program, []).append(note)
    out = [Track(max(p, 0), p < 0, sorted(n)) for p, n in sorted(tracks.items())]
    tempos = [Tempo(0, draw(st.sampled_from(CONFIG.tempo_values)))]
    return Score(480, out, tempos, [TimeSignature(0, numerator, denominator)])


@settings(max_examples=60, deadline=None)
@given(grid_scores())
def test_scores_on_the_grid_decode_exactly(score):
    back = decode_tokens(encode_score(score, VOCAB), VOCAB)
    key = lambda s: sorted((t.is_drum, t.program, n) for t in s.tracks for n in t.notes)  # noqa: E731
    assert key(back) == key(score)
    assert back.tempos == score.tempos
    assert back.time_signatures == score.time_signatures


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, len(VOCAB) - 1), max_size=60))
def test_lenient_decoding_takes_any_sequence(indices):
    score = decode_tokens(indices, VOCAB, strict=False)
    assert all(n.start < n.end for t in score.tracks for n in t.notes)
    assert encode_score(score, VOCAB) == encode_score(
        decode_tokens(encode_score(score, VOCAB), VOCAB), VOCAB
    )
