"""Morph boundaries of codetok's morpheme model against a gold segmentation, next to Morfessor.

Training words: the ``--words`` most frequent lowercase ASCII words of wordfreq's English
list (``large``, PyPI ``wordfreq``, installed with the ``bench`` extra) that the gold file
knows, with counts ``frequency * --scale`` (at least 1), dampened as ``--dampening`` says.
codetok's :class:`~codetok.text.MorphemeModel` and Morfessor 2.0.6's ``BaselineModel``
(PyPI ``morfessor``) train on exactly the same ``(word, count)`` list with the same corpus
weight, for each of ``--settings`` (``DAMPENING:WEIGHT``); both then segment with their
Viterbi search (as ``morfessor-evaluate`` does):

- the training words (every one has a gold segmentation);
- ``--held-out`` other gold words, not trained on, chosen at random (seed 0).

Gold: ``corpora/build_morph_gold.py`` (hunspell-en-us's affix rules; its docstring says how
the segmentation is derived and what it leaves out). Scores: boundary precision, recall
and F1, micro-averaged (:mod:`codetok.text.morphemes.evaluation`). Each seed trains both systems once
(codetok's ``seed``, Morfessor's ``random.seed``); rows give the mean over seeds and the
training time in seconds.

Usage::

    python corpora/build_morph_gold.py                  # writes build/morph-gold/en_us_gold.txt
    python benchmarks/morpheme_eval.py [--words 30000] [--settings ones:1.0 ones:2.0 log:0.3]
        [--seeds 0 1 2] [--held-out 5000] [--no-morfessor]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from codetok.text import MorphemeModel  # noqa: E402
from codetok.text.morphemes.evaluation import BoundaryScores, boundary_scores, read_gold  # noqa: E402
from codetok.text.morphemes.model import dampen  # noqa: E402


def training_words(gold: dict[str, list[str]], n: int, scale: float) -> dict[str, int]:
    """The ``n`` most frequent wordfreq English words in ``gold``, with counts."""
    import wordfreq

    freqs = wordfreq.get_frequency_dict("en", wordlist="large")
    ranked = sorted(((w, f) for w, f in freqs.items() if w in gold), key=lambda wf: (-wf[1], wf[0]))
    return {w: max(1, round(f * scale)) for w, f in ranked[:n]}


def run_codetok(words: dict[str, int], weight: float, seed: int) -> tuple[object, float]:
    start = time.perf_counter()
    model = MorphemeModel.train(words, corpus_weight=weight, seed=seed)
    return model.segment, time.perf_counter() - start


def run_morfessor(words: dict[str, int], weight: float, seed: int) -> tuple[object, float]:
    import morfessor

    random.seed(seed)
    start = time.perf_counter()
    model = morfessor.BaselineModel(corpusweight=weight)
    model.load_data([(c, w) for w, c in sorted(words.items())])
    model.train_batch()
    elapsed = time.perf_counter() - start
    return (lambda w: model.viterbi_segment(w)[0]), elapsed


def scores(segment: object, gold: dict[str, list[str]]) -> BoundaryScores:
    return boundary_scores({w: segment(w) for w in gold}, gold)  # type: ignore[operator]


def mean(xs: list[float]) -> str:
    return f"{statistics.mean(xs):.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=Path, default=ROOT / "build/morph-gold/en_us_gold.txt")
    parser.add_argument("--words", type=int, default=30000)
    parser.add_argument("--scale", type=float, default=1e9, help="counts = frequency * scale")
    parser.add_argument(
        "--settings",
        nargs="+",
        default=["ones:1.0", "ones:2.0", "log:0.3"],
        metavar="DAMPENING:WEIGHT",
        help="training settings, each a dampening (none, log, ones) and a corpus weight",
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--held-out", type=int, default=5000)
    parser.add_argument("--no-morfessor", action="store_true")
    args = parser.parse_args(argv)
    if not args.gold.exists():
        print(f"{args.gold}: missing; run python corpora/build_morph_gold.py", file=sys.stderr)
        return 2
    gold = read_gold(args.gold)
    raw = training_words(gold, args.words, args.scale)
    train_gold = {w: gold[w] for w in raw}
    rest = sorted(set(gold) - set(raw))
    held = sorted(random.Random(0).sample(rest, min(args.held_out, len(rest))))
    held_gold = {w: gold[w] for w in held}
    n_b = sum(len(m) - 1 for m in train_gold.values())
    print(
        f"gold {args.gold.name}: {len(gold)} words; training on {len(raw)} words "
        f"({n_b} gold boundaries), held out {len(held)}; seeds {args.seeds}",
        file=sys.stderr,
    )
    systems = [("codetok", run_codetok)]
    if not args.no_morfessor:
        systems.append(("morfessor 2.0.6", run_morfessor))
    print(
        "| dampening | corpus weight | system | train P | train R | train F1 | held-out P "
        "| held-out R | held-out F1 | train s |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for setting in args.settings:
        damp, _, weight_text = setting.partition(":")
        weight = float(weight_text or 1.0)
        words = {w: dampen(c, damp) for w, c in raw.items()}
        for name, run in systems:
            rows: list[tuple[BoundaryScores, BoundaryScores, float]] = []
            for seed in args.seeds:
                segment, secs = run(words, weight, seed)
                rows.append((scores(segment, train_gold), scores(segment, held_gold), secs))
                t, h = rows[-1][0], rows[-1][1]
                print(
                    f"  {damp}:{weight} {name} seed {seed}: train F1 {t.f1:.4f}, held-out F1 "
                    f"{h.f1:.4f}, {secs:.0f} s",
                    file=sys.stderr,
                )
            cells = [
                mean([r[0].precision for r in rows]),
                mean([r[0].recall for r in rows]),
                mean([r[0].f1 for r in rows]),
                mean([r[1].precision for r in rows]),
                mean([r[1].recall for r in rows]),
                mean([r[1].f1 for r in rows]),
                f"{statistics.mean(r[2] for r in rows):.0f}",
            ]
            print(f"| {damp} | {weight} | {name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
