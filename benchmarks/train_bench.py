"""Training speed and peak memory: codetok vs HF ``tokenizers`` (BPE) and ``sentencepiece``.

Corpus: the running interpreter's standard library (``*.py``, recursively, sorted), cut at
``--mb`` megabytes and written to one temporary file. Each trainer runs in a fresh child
process so that peak RSS (``ru_maxrss``) is its own; the parent prints times and ratios.

    python benchmarks/train_bench.py --mb 20 --bpe-vocab 32000 --unigram-vocab 16000
    python benchmarks/train_bench.py --mb 20 --skip unigram     # BPE and WordPiece only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile


def build_corpus(path: str, megabytes: float) -> int:
    root = sysconfig.get_paths()["stdlib"]
    target = int(megabytes * 1_000_000)
    size = 0
    with open(path, "wb") as out:
        for dirpath, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                with open(os.path.join(dirpath, name), "rb") as fh:
                    data = fh.read()
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                out.write(data if data.endswith(b"\n") else data + b"\n")
                size += len(data)
                if size >= target:
                    return size
    return size


CHILD = r"""
import json, resource, sys, time
kind, corpus, vocab, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
t = time.perf_counter()
if kind == "hf-bpe":
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train([corpus], trainers.BpeTrainer(vocab_size=vocab, show_progress=False,
              initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
              special_tokens=["<|endoftext|>"]))
    size = tok.get_vocab_size()
elif kind == "codetok-bpe":
    from codetok.trainers import train_bpe
    tok = train_bpe(corpus, vocab_size=vocab, num_workers=workers)
    size = tok.get_vocab_size()
elif kind == "hf-wordpiece":
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train([corpus], trainers.WordPieceTrainer(vocab_size=vocab, show_progress=False,
              special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    size = tok.get_vocab_size()
elif kind == "codetok-wordpiece":
    from codetok.trainers import train_wordpiece
    tok = train_wordpiece(corpus, vocab_size=vocab, num_workers=workers)
    size = tok.get_vocab_size()
elif kind == "spm-unigram":
    import os, sentencepiece as spm, tempfile
    d = tempfile.mkdtemp()
    spm.SentencePieceTrainer.train(input=corpus, model_prefix=os.path.join(d, "m"),
        vocab_size=vocab, model_type="unigram", normalization_rule_name="identity",
        remove_extra_whitespaces=False, split_by_unicode_script=False,
        max_sentence_length=1 << 16, num_threads=workers, minloglevel=2,
        input_sentence_size=0)
    size = vocab
elif kind == "codetok-unigram":
    from codetok import Tokenizer, decoders, pre_tokenizers
    from codetok.models import Unigram
    from codetok.trainers import UnigramTrainer, train
    tok = Tokenizer(Unigram(), pre_tokenizer=pre_tokenizers.Metaspace(),
                    decoder=decoders.Metaspace())
    train(tok, [corpus], UnigramTrainer(vocab_size=vocab,
          special_tokens=["<unk>", "<s>", "</s>"], show_progress=True), num_workers=workers)
    size = tok.get_vocab_size()
dt = time.perf_counter() - t
rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
print(json.dumps({"kind": kind, "seconds": dt, "peak_rss_mb": rss, "vocab": size}))
"""


def run(kind: str, corpus: str, vocab: int, workers: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, kind, corpus, str(vocab), str(workers)],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    print(
        f"  {kind:16s} {res['seconds']:8.1f}s  peak RSS {res['peak_rss_mb']:7.0f} MB  "
        f"vocab {res['vocab']}",
        flush=True,
    )
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=20.0)
    ap.add_argument(
        "--unigram-mb",
        type=float,
        default=None,
        help="smaller corpus for Unigram (pure-Python EM is slow); default --mb",
    )
    ap.add_argument("--bpe-vocab", type=int, default=32000)
    ap.add_argument("--unigram-vocab", type=int, default=16000)
    ap.add_argument("--wordpiece-vocab", type=int, default=30000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip", nargs="*", default=[], choices=["bpe", "wordpiece", "unigram"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "stdlib.py.txt")
        size = build_corpus(corpus, args.mb)
        print(f"corpus: {size / 1e6:.1f} MB of {sysconfig.get_paths()['stdlib']}")
        if "bpe" not in args.skip:
            print(f"BPE, vocab {args.bpe_vocab}:")
            hf = run("hf-bpe", corpus, args.bpe_vocab, args.workers)
            ct = run("codetok-bpe", corpus, args.bpe_vocab, args.workers)
            print(
                f"  ratio codetok/HF: time x{ct['seconds'] / hf['seconds']:.2f}, "
                f"memory x{ct['peak_rss_mb'] / hf['peak_rss_mb']:.2f}"
            )
        if "wordpiece" not in args.skip:
            print(f"WordPiece (BERT normalizer and pre-tokenizer), vocab {args.wordpiece_vocab}:")
            hf = run("hf-wordpiece", corpus, args.wordpiece_vocab, args.workers)
            ct = run("codetok-wordpiece", corpus, args.wordpiece_vocab, args.workers)
            print(
                f"  ratio codetok/HF: time x{ct['seconds'] / hf['seconds']:.2f}, "
                f"memory x{ct['peak_rss_mb'] / hf['peak_rss_mb']:.2f}"
            )
        if "unigram" not in args.skip:
            ucorpus = corpus
            if args.unigram_mb is not None and args.unigram_mb < args.mb:
                ucorpus = os.path.join(tmp, "stdlib-small.py.txt")
                usize = build_corpus(ucorpus, args.unigram_mb)
                print(f"Unigram corpus: {usize / 1e6:.1f} MB")
            print(f"Unigram, vocab {args.unigram_vocab}:")
            sp = run("spm-unigram", ucorpus, args.unigram_vocab, args.workers)
            ct = run("codetok-unigram", ucorpus, args.unigram_vocab, args.workers)
            print(
                f"  ratio codetok/sentencepiece: time x{ct['seconds'] / sp['seconds']:.1f}, "
                f"memory x{ct['peak_rss_mb'] / sp['peak_rss_mb']:.1f}"
            )


if __name__ == "__main__":
    main()
