"""CodeBERT mode parity: codetok's ``input_ids`` vs ``transformers`` on a real code corpus.

For every file of the corpus written by ``corpora/fetch_code.py``, encode the raw source
with :class:`codetok.code.applications.codebert.CodeBertTokenizer` (wrapping codetok's RoBERTa tokenizer
loaded from a CodeBERT-convention folder built from the GPT-2 files) and with
``transformers.AutoTokenizer`` on the same folder, and compare ``input_ids``. It also checks
that every token's reported offsets fall inside the lexemes it is aligned to. Prints the
match rate per language; exits 1 on any mismatch.

    python corpora/fetch_code.py /tmp/code_corpus --max-mb 6
    HF_HUB_OFFLINE=1 python benchmarks/codebert_parity.py /tmp/code_corpus [--sample 0.2]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _code_common import LANGUAGES, codebert_folder, corpus_files, read_text  # noqa: E402


def offsets_inside(enc) -> bool:  # noqa: ANN001 - a CodeBertEncoding
    """Every token's tokenizer offsets lie inside the char span of its lexeme range."""
    import numpy as np

    lx = enc.lexemes
    has = enc.lexeme_starts >= 0
    if not has.any():
        return True
    lo = lx.char_starts[enc.lexeme_starts[has]]
    hi = lx.char_ends[enc.lexeme_ends[has] - 1]
    offs = np.array(enc.offsets, np.int64).reshape(-1, 2)[has]
    return bool(np.all((offs[:, 0] >= lo) & (offs[:, 1] <= hi)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder written by corpora/fetch_code.py")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument("--sample", type=float, default=1.0, help="fraction of files (seeded)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import transformers
    from transformers.utils import logging as hf_logging

    from codetok.code.applications.codebert import CodeBertTokenizer

    hf_logging.set_verbosity_error()  # "sequence longer than 512" on every long file
    folder = codebert_folder(Path(tempfile.mkdtemp()) / "codebert")
    hf = transformers.AutoTokenizer.from_pretrained(str(folder))
    cb = CodeBertTokenizer(folder)
    rng = random.Random(args.seed)
    failed = 0
    print(f"{'language':<11} {'files':>6} {'MB':>6} {'ids equal':>10} {'aligned':>8} {'s':>6}")
    for lang in args.languages:
        files = corpus_files(args.corpus, lang)
        if args.sample < 1.0:
            files = [f for f in files if rng.random() < args.sample]
        n = same = aligned = size = 0
        t0 = time.perf_counter()
        for path in files:
            text = read_text(path)
            if text is None:
                continue
            n += 1
            size += len(text.encode("utf-8"))
            enc = cb.encode(text, lang)
            if enc.input_ids == hf(text)["input_ids"]:
                same += 1
            else:
                print(f"  MISMATCH {path}", file=sys.stderr)
            aligned += offsets_inside(enc)
        failed += (n - same) + (n - aligned)
        rate = f"{100 * same / n:.2f}%" if n else "-"
        arate = f"{100 * aligned / n:.2f}%" if n else "-"
        dt = time.perf_counter() - t0
        print(f"{lang:<11} {n:>6} {size / 1e6:>6.2f} {rate:>10} {arate:>8} {dt:>6.1f}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
