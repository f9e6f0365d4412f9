"""Model inputs from code: ``CodeTokenizer.__call__`` against ``encode_batch`` on the same files.

Per language, ``--mb`` MB of ``corpora/fetch_code.py`` output in batches of ``--batch``
files, on ``--threads`` threads, each case the best of ``--repeat`` rounds (interleaved):

* ``encode_batch``: the encodings alone (the floor of the call);
* ``__call__``: ``tok(batch, lang)``, lists of ids and attention masks;
* ``__call__`` padded: ``padding=True, truncation=True, max_length=2048, return_tensors="np"``,
  what a training loop asks for.

Printed: MB/s and each call over ``encode_batch`` (issue 31's target: at least 0.9).

    python benchmarks/code_call_bench.py /tmp/code_corpus --mb 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _code_common import LANGUAGES  # noqa: E402
from code_bench import CT_LANG, load_texts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder written by corpora/fetch_code.py")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument("--mb", type=float, default=2.0, help="megabytes per language")
    parser.add_argument("--batch", type=int, default=32, help="files per call")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from codetok import CodeTokenizer

    tok = CodeTokenizer.default()
    print("| language | case | MB/s | vs encode_batch |\n| --- | --- | ---: | ---: |")
    for language in args.languages:
        texts = load_texts(args.corpus, language, args.mb)
        if not texts:
            print(f"(no {language} files under {args.corpus})")
            continue
        lang = CT_LANG[language]
        size = sum(len(t.encode("utf-8")) for t in texts) / 1e6
        batches = [texts[i : i + args.batch] for i in range(0, len(texts), args.batch)]
        threads = args.threads
        padded = dict(padding=True, truncation=True, max_length=2048, return_tensors="np")
        cases = {
            "encode_batch": (tok.encode_batch, {}),
            "__call__": (tok, {}),
            "__call__ padded, np": (tok, padded),
        }
        eos = tok.control_id("eos")  # the default template ends each source with it
        first = tok(batches[0], lang, num_threads=threads)["input_ids"]
        assert first == [e.ids + [eos] for e in tok.encode_batch(batches[0], lang)]
        best = dict.fromkeys(cases, float("inf"))
        for _ in range(args.repeat):
            for name, (fn, options) in cases.items():
                t0 = time.perf_counter()
                for b in batches:
                    fn(b, lang, num_threads=threads, **options)
                best[name] = min(best[name], time.perf_counter() - t0)
        base = best["encode_batch"]
        for name, seconds in best.items():
            print(f"| {language} | {name} | {size / seconds:.2f} | {base / seconds:.2f} |")


if __name__ == "__main__":
    main()
