"""Token counts and note round-trip accuracy: codetok REMI against miditok REMI.

Both tokenizers get the same real MIDI files (``corpora/fetch_midi.py`` assembles them)
and the same quantization: 8 positions per beat, durations 1/8 to 4 beats by 1/8 and 4 to
12 beats by 1/4, 32 velocities, 32 tempos over 40-250, pitches 21-108 (for drums too),
programs as tokens in one stream, and the meters n/2, n/4, n/8, n/16 for n = 1-12.
(miditok's tempo bins are linear and codetok's geometric; tempos do not enter the
figures below.)

For each file and tokenizer:

- **tokens**: ids of the base REMI sequence (no BPE, no BOS/EOS);
- **BPE tokens**: ids after BPE with ``--vocab-size`` ids, learned by each tokenizer's own
  trainer (codetok's native one; miditok's through HF ``tokenizers``) on the files of the
  other half (files alternate between the two halves in sorted order, so that every count
  is on files the merges never saw);
- **note round trip**: the tokens are decoded to a MIDI file, and both the input and that
  file are read with symusic (the reader miditok uses, not codetok's). An input note is
  *kept* when the output has a note with its program (or drums) and pitch whose onset is a
  nearest grid point to the input onset (within half a position, in quarter notes); it is
  *exact* when that note also has a nearest allowed duration and a velocity within half a
  bin (+1 for rounding). Notes outside the pitch range count as lost for both. The
  matching is greedy, in onset order, per (program, pitch).
- **encode time**: reading the file and producing the base ids (codetok reads with mido,
  in Python; miditok with symusic, in C++).

Usage::

    python corpora/fetch_midi.py /tmp/midi
    python benchmarks/music_eval.py /tmp/midi [--vocab-size 2000] [--per-file]
"""

from __future__ import annotations

import argparse
import bisect
import time
import warnings
from collections import defaultdict
from pathlib import Path

METERS = {d: list(range(1, 13)) for d in (2, 4, 8, 16)}
VELOCITY_TOLERANCE = 127 / 32 / 2 + 1


def miditok_tokenizer():
    import miditok

    config = miditok.TokenizerConfig(
        pitch_range=(21, 109),
        drums_pitch_range=(21, 109),
        beat_res={(0, 4): 8, (4, 12): 4},
        num_velocities=32,
        use_programs=True,
        one_token_stream_for_programs=True,
        use_tempos=True,
        num_tempos=32,
        tempo_range=(40, 250),
        use_time_signatures=True,
        time_signature_range=METERS,
    )
    return miditok.REMI(config)


def codetok_tokenizer():
    from codetok.music import MusicTokenizer, RemiConfig

    config = RemiConfig(
        pitch_range=(21, 108),
        beat_resolution=((0, 4, 8), (4, 12, 4)),
        velocities=32,
        tempos=32,
        tempo_range=(40.0, 250.0),
        time_signatures=tuple((n, d) for d, ns in METERS.items() for n in ns),
    )
    return MusicTokenizer(config), config


# -- the reference reading and the note match ---------------------------------------
def read_notes(data: bytes) -> tuple[list[tuple], list[tuple[float, int]]]:
    """``(notes, meters)`` of a MIDI file read by symusic: notes as ``(drum, program,
    pitch, onset, duration, velocity)`` in quarter notes, meters as ``(quarter, beat
    length in quarters)``."""
    import symusic

    score = symusic.Score.from_midi(data)
    tpq = score.ticks_per_quarter
    notes = []
    for track in score.tracks:
        program = -1 if track.is_drum else track.program
        for n in track.notes:
            notes.append(
                (track.is_drum, program, n.pitch, n.time / tpq, n.duration / tpq, n.velocity)
            )
    meters = sorted((ts.time / tpq, 4 / ts.denominator) for ts in score.time_signatures)
    return notes, meters or [(0.0, 1.0)]


def note_round_trip(
    reference: list[tuple],
    meters: list[tuple[float, float]],
    output: list[tuple],
    durations: list[float],
) -> tuple[int, int]:
    """``(kept, exact)`` counts of the reference notes found in ``output`` (see the module
    docstring)."""
    starts = [m[0] for m in meters]
    groups: dict[tuple, list[tuple]] = defaultdict(list)
    for n in output:
        groups[(n[1], n[2])].append(n)
    for g in groups.values():
        g.sort(key=lambda n: n[3])
    used: dict[tuple, set[int]] = defaultdict(set)
    kept = exact = 0
    for _drum, program, pitch, onset, length, velocity in sorted(reference, key=lambda n: n[3]):
        beat = meters[max(0, bisect.bisect_right(starts, onset) - 1)][1]
        tolerance = beat / 8 / 2 + 1e-9
        beats = length / beat
        best = min(abs(d - beats) for d in durations)
        key = (program, pitch)
        candidates = groups.get(key, [])
        lo = bisect.bisect_left([c[3] for c in candidates], onset - tolerance)
        found = full = None
        for j in range(lo, len(candidates)):
            c = candidates[j]
            if c[3] > onset + tolerance:
                break
            if j in used[key]:
                continue
            if found is None:
                found = j
            if (
                abs(c[4] / beat - beats) <= best + 1e-6
                and abs(c[5] - velocity) <= VELOCITY_TOLERANCE
            ):
                full = j
                break
        if found is None:
            continue
        used[key].add(full if full is not None else found)
        kept += 1
        exact += full is not None
    return kept, exact


# -- one tokenizer over the files -----------------------------------------------------
def run_codetok(files: list[Path], train: list[Path], vocab_size: int) -> dict:
    from codetok.music import MusicTokenizer

    tok, config = codetok_tokenizer()
    t0 = time.perf_counter()
    bpe = MusicTokenizer.train(train, vocab_size=vocab_size, config=config, min_frequency=2)
    train_s = time.perf_counter() - t0
    rows = {}
    for f in files:
        data = f.read_bytes()
        t = time.perf_counter()
        ids = tok.encode(data, add_special_tokens=False).ids
        encode_s = time.perf_counter() - t
        out = tok.decode(ids).to_bytes()
        bpe_ids = bpe.encode(data, add_special_tokens=False).ids
        assert bpe.decode(bpe_ids) == tok.decode(ids), f"{f}: BPE changed the decoded score"
        rows[f] = {"tokens": len(ids), "bpe": len(bpe_ids), "out": out, "encode_s": encode_s}
    durations = [float(d) for d in config.durations]
    return {"rows": rows, "train_s": train_s, "durations": durations}


def run_miditok(files: list[Path], train: list[Path], vocab_size: int) -> dict:
    import symusic

    tok = miditok_tokenizer()
    bpe = miditok_tokenizer()
    t0 = time.perf_counter()
    bpe.train(vocab_size=vocab_size, model="BPE", files_paths=train, min_frequency=2)
    train_s = time.perf_counter() - t0
    rows = {}
    for f in files:
        data = f.read_bytes()
        t = time.perf_counter()
        seq = tok.encode(symusic.Score.from_midi(data))
        encode_s = time.perf_counter() - t
        out = tok.decode(seq).dumps_midi()
        bpe_seq = bpe.encode(symusic.Score.from_midi(data))
        rows[f] = {
            "tokens": len(seq.ids),
            "bpe": len(bpe_seq.ids),
            "out": out,
            "encode_s": encode_s,
        }
    return {"rows": rows, "train_s": train_s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a folder of .mid files (corpora/fetch_midi.py)")
    parser.add_argument("--vocab-size", type=int, default=2000)
    parser.add_argument("--per-file", action="store_true", help="one line per file too")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    files = sorted(p for p in args.corpus.rglob("*") if p.suffix.lower() in (".mid", ".midi"))
    halves = [files[0::2], files[1::2]]
    results = {}
    for name, run in (("codetok", run_codetok), ("miditok", run_miditok)):
        rows: dict = {}
        train_s = 0.0
        for k in (0, 1):  # learn on one half, count on the other
            r = run(halves[1 - k], halves[k], args.vocab_size)
            rows.update(r["rows"])
            train_s += r["train_s"]
        results[name] = {"rows": rows, "train_s": train_s, "durations": r.get("durations")}
    durations = results["codetok"]["durations"]
    by_package: dict[str, dict] = defaultdict(lambda: defaultdict(float))
    for f in files:
        ref, meters = read_notes(f.read_bytes())
        pkg = f.relative_to(args.corpus).parts[0]
        line = [f.name, str(len(ref))]
        for name in ("codetok", "miditok"):
            row = results[name]["rows"][f]
            out, _ = read_notes(row["out"])
            kept, exact = note_round_trip(ref, meters, out, durations)
            for k, v in (
                ("tokens", row["tokens"]),
                ("bpe", row["bpe"]),
                ("kept", kept),
                ("exact", exact),
                ("s", row["encode_s"]),
            ):
                for group in (pkg, "all"):
                    by_package[group][f"{name}_{k}"] += v
            line += [str(row["tokens"]), str(row["bpe"]), f"{kept}/{exact}"]
        in_range = sum(21 <= n[2] <= 108 for n in ref)
        for group in (pkg, "all"):
            by_package[group]["notes"] += len(ref)
            by_package[group]["in_range"] += in_range
            by_package[group]["files"] += 1
        if args.per_file:
            print("\t".join(line))
    print(
        "| files | notes (in pitch range) | codetok tokens | miditok tokens | codetok BPE "
        "| miditok BPE | codetok kept / exact | miditok kept / exact | codetok encode s "
        "| miditok encode s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for group, s in sorted(by_package.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        n = s["notes"]
        cells = [
            f"{group} ({int(s['files'])})",
            f"{int(n):,} ({int(s['in_range']):,})",
            f"{int(s['codetok_tokens']):,}",
            f"{int(s['miditok_tokens']):,}",
            f"{int(s['codetok_bpe']):,}",
            f"{int(s['miditok_bpe']):,}",
            f"{100 * s['codetok_kept'] / n:.2f}% / {100 * s['codetok_exact'] / n:.2f}%",
            f"{100 * s['miditok_kept'] / n:.2f}% / {100 * s['miditok_exact'] / n:.2f}%",
            f"{s['codetok_s']:.2f}",
            f"{s['miditok_s']:.2f}",
        ]
        print("| " + " | ".join(cells) + " |")
    print(
        f"\nBPE training ({args.vocab_size} ids, twice, one half each): codetok "
        f"{results['codetok']['train_s']:.2f} s, miditok {results['miditok']['train_s']:.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
