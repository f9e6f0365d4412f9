"""Training speed and peak memory: codetok vs HF ``tokenizers`` (BPE) and ``sentencepiece``.

Corpus: the running interpreter's standard library (``*.py``, recursively, sorted), cut at
``--mb`` megabytes and written to one temporary file; ``--source DIR [DIR ...]`` takes
every UTF-8 text file under the folders instead, in turn (for example a
``corpora/fetch_code.py`` folder, 170 MB of real code in 19 languages, and Python
installations' ``site-packages``, for sizes the standard library does not reach). Each trainer runs in a fresh child
process so that peak RSS (``ru_maxrss``) is its own; the parent prints times and ratios.

Unigram models are also compared on held-out text: the ``--heldout-mb`` megabytes of the
standard library that follow the training slice, encoded line by line (newlines left out)
after training (not timed, not in the peak RSS); the figure is UTF-8 bytes per token,
higher is better.

    python benchmarks/train_bench.py --mb 20 --bpe-vocab 32000 --unigram-vocab 16000
    python benchmarks/train_bench.py --mb 20 --skip unigram     # BPE and WordPiece only
    python benchmarks/train_bench.py --sizes 1 3 --bpe-vocab 8000 --wordpiece-vocab 8000 \
        --unigram-vocab 8000                                    # small corpora, one table
    python benchmarks/train_bench.py --source /work/code_corpus --sizes 50 100 200

``--sizes`` runs every size in turn (fixed costs dominate small corpora: start-up, import,
the first pass) and ends with one table of the time ratios, a row per size. Times include
the import of each library (a fresh process each), as a user waits for them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile

STDLIB = sysconfig.get_paths()["stdlib"]


def build_corpus(
    path: str, megabytes: float, skip_mb: float = 0.0, sources: list[str] | None = None
) -> int:
    """Write ``megabytes`` of stdlib sources (or of every UTF-8 text file under the folders
    of ``sources``, in turn, each once and at most 2 MB: larger ones are data) to ``path``,
    after the first ``skip_mb`` (whole files, in the same order) are left out."""
    target = int(megabytes * 1_000_000)
    skip = int(skip_mb * 1_000_000)
    skipped = 0
    size = 0
    seen: set[int] = set()
    with open(path, "wb") as out:
        for dirpath, dirs, names in _walk(sources or [STDLIB]):
            dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
            for name in sorted(names):
                file = os.path.join(dirpath, name)
                if not sources and not name.endswith(".py"):
                    continue
                if sources and (os.path.islink(file) or os.path.getsize(file) > 2_000_000):
                    continue
                with open(file, "rb") as fh:
                    data = fh.read()
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                if sources:  # any folder: text only, each file once
                    key = hash(data)
                    if b"\0" in data or key in seen:
                        continue
                    seen.add(key)
                if skipped < skip:
                    skipped += len(data)
                    continue
                out.write(data if data.endswith(b"\n") else data + b"\n")
                size += len(data)
                if size >= target:
                    return size
    return size


def _walk(roots: list[str]):
    """``os.walk`` of each root in turn."""
    for root in roots:
        yield from os.walk(root)


CHILD = r"""
import json, resource, sys, time
kind, corpus, vocab, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
held_out = sys.argv[5] if len(sys.argv) > 5 else ""
limit = json.loads(sys.argv[6]) if len(sys.argv) > 6 else None  # WordPiece's limit_alphabet
encode = None  # lines -> token count, for the held-out figure
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
              special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
              limit_alphabet=limit))
    size = tok.get_vocab_size()
elif kind == "codetok-wordpiece":
    from codetok.trainers import train_wordpiece
    tok = train_wordpiece(corpus, vocab_size=vocab, num_workers=workers, limit_alphabet=limit)
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
    sp = spm.SentencePieceProcessor(model_file=os.path.join(d, "m.model"))
    encode = lambda lines: sum(map(len, sp.encode(lines)))
elif kind == "codetok-unigram":
    from codetok import Tokenizer, decoders, pre_tokenizers
    from codetok.models import Unigram
    from codetok.trainers import UnigramTrainer, train
    tok = Tokenizer(Unigram(), pre_tokenizer=pre_tokenizers.Metaspace(),
                    decoder=decoders.Metaspace())
    train(tok, [corpus], UnigramTrainer(vocab_size=vocab,
          special_tokens=["<unk>", "<s>", "</s>"], show_progress=False), num_workers=workers)
    size = tok.get_vocab_size()
    encode = lambda lines: len(tok.encode_ordinary_batch(lines, flat=True)[0])
dt = time.perf_counter() - t
rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
res = {"kind": kind, "seconds": dt, "peak_rss_mb": rss, "vocab": size}
if held_out and encode is not None:
    with open(held_out, encoding="utf-8") as fh:
        lines = [ln.rstrip("\n") for ln in fh]
    n_bytes = sum(len(ln.encode("utf-8")) for ln in lines)
    res["held_out_bytes_per_token"] = n_bytes / encode(lines)
print(json.dumps(res))
"""


def run(
    kind: str, corpus: str, vocab: int, workers: int, held_out: str = "", limit: int | None = None
) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            kind,
            corpus,
            str(vocab),
            str(workers),
            held_out,
            json.dumps(limit),
        ],  # fmt: skip
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    extra = ""
    if "held_out_bytes_per_token" in res:
        extra = f"  held-out bytes/token {res['held_out_bytes_per_token']:.4f}"
    print(
        f"  {kind:16s} {res['seconds']:8.1f}s  peak RSS {res['peak_rss_mb']:7.0f} MB  "
        f"vocab {res['vocab']}{extra}",
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
        help="a smaller corpus for Unigram; default --mb",
    )
    ap.add_argument("--bpe-vocab", type=int, default=32000)
    ap.add_argument("--unigram-vocab", type=int, default=16000)
    ap.add_argument("--wordpiece-vocab", type=int, default=30000)
    ap.add_argument(
        "--limit-alphabet",
        type=int,
        default=None,
        help="WordPiece keeps this many chars (both trainers; a 1 GB corpus of code and "
        "docs has 36k distinct chars, more than a 30k vocabulary)",
    )
    ap.add_argument(
        "--heldout-mb",
        type=float,
        default=2.0,
        help="stdlib text after the training slice, for Unigram's held-out bytes/token",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip", nargs="*", default=[], choices=["bpe", "wordpiece", "unigram"])
    ap.add_argument("--sizes", nargs="+", type=float, help="corpus sizes (MB), one after another")
    ap.add_argument("--source", nargs="+", help="folders of text files instead of the stdlib")
    args = ap.parse_args()
    if not args.sizes:
        one_size(args)
        return
    table = []
    for mb in args.sizes:
        args.mb = mb
        print(f"\n== {mb:g} MB")
        table.append((mb, one_size(args)))
    print("\ntime ratio codetok / peer (lower is faster):")
    names = sorted({k for _, r in table for k in r})
    print("  MB     " + "  ".join(f"{n:>10s}" for n in names))
    for mb, ratios in table:
        print(f"  {mb:<6g} " + "  ".join(f"{ratios.get(n, float('nan')):10.2f}" for n in names))


def one_size(args: argparse.Namespace) -> dict[str, float]:
    """One corpus of ``args.mb`` MB through every trainer; the time ratio per model."""
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "stdlib.py.txt")
        size = build_corpus(corpus, args.mb, sources=args.source)
        print(f"corpus: {size / 1e6:.1f} MB of {', '.join(args.source or [STDLIB])}")
        if "bpe" not in args.skip:
            print(f"BPE, vocab {args.bpe_vocab}:")
            hf = run("hf-bpe", corpus, args.bpe_vocab, args.workers)
            ct = run("codetok-bpe", corpus, args.bpe_vocab, args.workers)
            ratios["BPE"] = ct["seconds"] / hf["seconds"]
            print(
                f"  ratio codetok/HF: time x{ct['seconds'] / hf['seconds']:.2f}, "
                f"memory x{ct['peak_rss_mb'] / hf['peak_rss_mb']:.2f}"
            )
        if "wordpiece" not in args.skip:
            print(f"WordPiece (BERT normalizer and pre-tokenizer), vocab {args.wordpiece_vocab}:")
            limit = args.limit_alphabet
            hf = run("hf-wordpiece", corpus, args.wordpiece_vocab, args.workers, "", limit)
            ct = run("codetok-wordpiece", corpus, args.wordpiece_vocab, args.workers, "", limit)
            ratios["WordPiece"] = ct["seconds"] / hf["seconds"]
            print(
                f"  ratio codetok/HF: time x{ct['seconds'] / hf['seconds']:.2f}, "
                f"memory x{ct['peak_rss_mb'] / hf['peak_rss_mb']:.2f}"
            )
        if "unigram" not in args.skip:
            ucorpus, umb = corpus, args.mb
            if args.unigram_mb is not None and args.unigram_mb < args.mb:
                ucorpus, umb = os.path.join(tmp, "stdlib-small.py.txt"), args.unigram_mb
                usize = build_corpus(ucorpus, umb, sources=args.source)
                print(f"Unigram corpus: {usize / 1e6:.1f} MB")
            held_out = os.path.join(tmp, "stdlib-held-out.py.txt")
            hsize = build_corpus(held_out, args.heldout_mb, skip_mb=umb, sources=args.source)
            print(f"Unigram, vocab {args.unigram_vocab} (held out: {hsize / 1e6:.1f} MB):")
            sp = run("spm-unigram", ucorpus, args.unigram_vocab, args.workers, held_out)
            ct = run("codetok-unigram", ucorpus, args.unigram_vocab, args.workers, held_out)
            ratios["Unigram"] = ct["seconds"] / sp["seconds"]
            print(
                f"  ratio codetok/sentencepiece: time x{ct['seconds'] / sp['seconds']:.2f}, "
                f"memory x{ct['peak_rss_mb'] / sp['peak_rss_mb']:.2f}, held-out bytes/token "
                f"x{ct['held_out_bytes_per_token'] / sp['held_out_bytes_per_token']:.4f}"
            )
    return ratios


if __name__ == "__main__":
    main()
