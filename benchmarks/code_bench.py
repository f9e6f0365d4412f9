"""Code tokenization speed (MB/s) per language: codetok vs code-tokenize vs plain BPE.

On the same files of each language (from ``corpora/fetch_code.py``), measures:

* ``tree-sitter parse``: the language's tree-sitter parser alone, through its Python
  bindings (``Parser.parse`` of the UTF-8 bytes): the floor every row pays; the ``vs parse``
  column is each row's speed over this one (issue target: the code tokenizer at >= 0.8);
* ``floor``: that parse plus a full C ``TSTreeCursor`` walk of the same trees reading every
  node's symbol and byte range (``_core.walk_report``; the walk's share of the parse time
  is measured on codetok's own parse of each file): what no AST-aware tokenizer can beat;
* ``codetok lex``: tree-sitter parse + codetok lexeme stream (:func:`codetok.code.lex`);
* ``codetok CodeBERT``: ``input_ids`` alone (the GPT-2/RoBERTa BPE; annotations wait until
  read, so there is no parse), then with the annotations read (parse + lex + BPE +
  token/lexeme alignment) (:class:`codetok.code.applications.codebert.CodeBertTokenizer`),
  and ``transformers``' fast tokenizer
  (``AutoTokenizer``, a ``RobertaTokenizerFast``) on the same CodeBERT-convention folder:
  the same ``input_ids``, no lexemes (the peer of CodeBERT mode);
* ``codetok CodeTokenizer``: the default code tokenizer (parse + lex + route + subwords),
  when its data file is installed;
* ``code-tokenize``: the PyPI package ``code-tokenize`` (parse + program tokens), and the
  same followed by HF ``tokenizers`` GPT-2 BPE on its space-joined tokens. Its releases
  fetch grammars from the network at first use; here its parser is pointed at the
  installed ``tree-sitter-*`` wheels instead (an in-process shim, nothing else changed);
* plain byte-level BPE on the raw text: GPT-2 through codetok's ``Tokenizer`` and through
  HF ``tokenizers``.

Every figure is one thread, files encoded one at a time (but for the ``encode_batch`` and
``parse alone`` rows: all files in one call, on 1 and on 2 threads), bytes of UTF-8 source
per second of wall time (best of ``--repeat`` rounds; in a round every case runs on a chunk
of about 250 KB of the files before the next chunk, so the ratios hold on a shared machine
whose speed drifts; the batch rows take turns with each other, a whole batch each).

    python corpora/fetch_code.py /tmp/code_corpus --max-mb 6
    python benchmarks/code_bench.py /tmp/code_corpus --mb 2 --repeat 2
    python benchmarks/code_bench.py /tmp/code_corpus --long    # long lines (code_long.py)

``--long`` times one 5 MB minified JavaScript line and one 10 MB line of identifiers
instead: seconds and peak memory of parse, lex and encode, each in its own process (see
``code_long.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _code_common import LANGUAGES, codebert_folder, corpus_files, read_text  # noqa: E402

CT_LANG = {"python": "python", "java": "java", "javascript": "javascript", "csharp": "c_sharp"}


def load_texts(root: Path, language: str, megabytes: float) -> list[str]:
    texts, size = [], 0
    for path in corpus_files(root, language):
        text = read_text(path)
        if text is None or not text.strip():
            continue
        texts.append(text)
        size += len(text.encode("utf-8"))
        if size >= megabytes * 1e6:
            break
    return texts


def each(fn: Callable[[str], object]) -> Callable[[list[str]], None]:
    """A case that encodes the texts one at a time with ``fn``."""

    def run(texts: list[str]) -> None:
        for t in texts:
            fn(t)

    return run


def interleaved(
    cases: dict[str, Callable[[list[str]], object]],
    texts: list[str],
    repeat: int,
    chunk_bytes: int = 250_000,
) -> dict[str, float | str]:
    """Wall time of each case over all texts (best of ``repeat`` rounds), or why it failed.

    The texts go in chunks of about ``chunk_bytes``, and every case runs on a chunk before
    the next chunk starts: a slow spell of a shared machine (its speed drifts by up to 2x
    within seconds) hits every case alike, not the few that ran during it. ``chunk_bytes``
    0: every case takes all texts in one call, the cases in turn within each round (a
    batch on several threads is one call: cut in chunks, a chunk holding one large file
    would leave the other threads idle)."""
    chunks: list[list[str]] = [[]]
    size = 0
    for t in texts:
        if chunk_bytes and size >= chunk_bytes:
            chunks.append([])
            size = 0
        chunks[-1].append(t)
        size += len(t)
    best: dict[str, float | str] = {}
    for name, fn in cases.items():
        try:
            fn([texts[0][:2000]])  # warm caches
            best[name] = float("inf")
        except Exception as e:  # noqa: BLE001 - a peer failing is a result too
            best[name] = f"{type(e).__name__}: {str(e)[:60]}"
    for _ in range(repeat):
        spent = dict.fromkeys(cases, 0.0)
        for chunk in chunks:
            for name, fn in cases.items():
                if isinstance(best[name], str):
                    continue
                t0 = time.perf_counter()
                try:
                    fn(chunk)
                except Exception as e:  # noqa: BLE001
                    best[name] = f"{type(e).__name__}: {str(e)[:60]}"
                    continue
                spent[name] += time.perf_counter() - t0
        for name, t in spent.items():
            if not isinstance(best[name], str):
                best[name] = min(best[name], t)  # type: ignore[type-var]
    return best


PARSE = "tree-sitter parse (Python bindings)"
FLOOR = "floor: the parse + a full C cursor walk"


def parse_all(grammar, texts: list[str], threads: int) -> None:  # noqa: ANN001
    """Parse every file with codetok's arena parse (``_core.parse_report``) on ``threads``
    Python threads, the GIL released while each parse runs."""
    from codetok.engine import native

    report = native.core().parse_report
    data = [t.encode() for t in texts]
    if threads == 1:
        for d in data:
            report(grammar.capsule, d)
        return
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda d: report(grammar.capsule, d), data))


def walk_floor(grammar, texts: list[str], repeat: int) -> float | None:  # noqa: ANN001
    """A full C ``TSTreeCursor`` walk of each file's tree (every node's symbol and byte
    range read), as a fraction of the parse time (best of ``repeat``); None without the
    native extension."""
    try:
        from codetok.engine import native

        walk = native.core().walk_report
    except (ImportError, AttributeError):
        return None
    data = [t.encode() for t in texts]
    best = None
    for _ in range(max(1, repeat)):
        parse = walked = 0.0
        for d in data:
            p, w, _nodes, _check = walk(grammar.capsule, d)
            parse, walked = parse + p, walked + w
        best = walked / parse if best is None else min(best, walked / parse)
    return best


def code_tokenize_shim() -> Callable[[str, str], list[str]] | str:
    """code-tokenize's tokenize(), its parser built from the installed grammar wheels."""
    try:
        import code_tokenize
        import code_tokenize.parsers as ctp
    except ImportError as e:
        return f"not installed ({e})"
    import importlib

    from tree_sitter import Language, Parser

    wheels = {
        "python": "tree_sitter_python",
        "java": "tree_sitter_java",
        "javascript": "tree_sitter_javascript",
        "c_sharp": "tree_sitter_c_sharp",
    }
    cache: dict[str, object] = {}

    def init(self, lang):  # noqa: ANN001, ANN202 - replaces ASTParser.__init__
        if lang not in cache:
            cache[lang] = Language(importlib.import_module(wheels[lang]).language())
        self.lang_id, self.lang = lang, cache[lang]
        self.parser = Parser(self.lang)

    ctp.ASTParser.__init__ = init
    code_tokenize.ASTParser.__init__ = init

    def run(text: str, lang: str) -> list[str]:
        return [str(t) for t in code_tokenize.tokenize(text, lang=lang, syntax_error="ignore")]

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder written by corpora/fetch_code.py")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument("--mb", type=float, default=2.0, help="megabytes per language")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--long", action="store_true", help="the long-line inputs instead")
    parser.add_argument("--long-mb", type=float, default=5.0, help="size of the minified line")
    args = parser.parse_args(argv)
    if args.long:
        import code_long

        code_long.run(args.corpus, args.long_mb)
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import tokenizers

    from codetok.code import get_grammar, lex
    from codetok.code.applications.codebert import CodeBertTokenizer
    from codetok.formats.hub import from_pretrained

    folder = codebert_folder(Path(tempfile.mkdtemp()) / "codebert")
    cb = CodeBertTokenizer(folder)
    try:
        from transformers import AutoTokenizer

        hf_fast = AutoTokenizer.from_pretrained(str(folder))
    except Exception as e:  # noqa: BLE001 - report why the row is missing
        hf_fast = None
        print(f"(transformers fast tokenizer skipped: {type(e).__name__}: {e})")
    ct_bpe = from_pretrained(folder)
    hf_bpe = tokenizers.Tokenizer.from_file(str(_hf_json(ct_bpe, folder)))
    try:
        from codetok.code.tokenizer import CodeTokenizer

        code_tok = CodeTokenizer.default()
    except Exception as e:  # noqa: BLE001 - report why the row is missing
        code_tok = None
        print(f"(codetok CodeTokenizer skipped: {type(e).__name__}: {e})")
    ctk = code_tokenize_shim()
    if isinstance(ctk, str):
        print(f"(code-tokenize skipped: {ctk})")

    rows: list[tuple[str, str, float, float, float]] = []
    for lang in args.languages:
        texts = load_texts(args.corpus, lang, args.mb)
        if not texts:
            print(f"(no {lang} files under {args.corpus})")
            continue
        mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
        ts_parser = get_grammar(lang).parser()
        one: dict[str, Callable[[str], object]] = {
            PARSE: lambda t, p=ts_parser: p.parse(t.encode()),
            "codetok lex (parse+lex)": lambda t, lang=lang: lex(t, lang),
            "codetok CodeBERT input_ids (BPE; no parse)": lambda t, lang=lang: (
                cb(t, lang).input_ids
            ),
            "codetok CodeBERT + annotations (parse+lex+BPE+align)": lambda t, lang=lang: (
                cb.encode(t, lang).kinds
            ),
        }
        if hf_fast is not None:
            one["transformers RobertaTokenizerFast (input_ids)"] = lambda t: hf_fast(t)["input_ids"]
        if code_tok is not None:
            one["codetok CodeTokenizer (parse+lex+route+subwords)"] = lambda t, lang=lang: (
                code_tok.encode(t, lang)
            )
        if not isinstance(ctk, str) and lang in CT_LANG:
            one["code-tokenize (parse+tokens)"] = lambda t, lang=lang: ctk(t, CT_LANG[lang])
            one["code-tokenize + HF GPT-2 BPE"] = lambda t, lang=lang: hf_bpe.encode(
                " ".join(ctk(t, CT_LANG[lang]))
            )
        one["plain BPE: codetok GPT-2 (raw text)"] = lambda t: ct_bpe.encode(t)
        one["plain BPE: HF tokenizers GPT-2 (raw text)"] = lambda t: hf_bpe.encode(t)
        cases = {name: each(fn) for name, fn in one.items()}
        batches: dict[str, Callable[[list[str]], object]] = {}
        if code_tok is not None:  # the whole list in one call
            for threads in (1, 2):
                batches[f"codetok CodeTokenizer encode_batch, {threads} thread(s)"] = (
                    lambda ts, lang=lang, threads=threads: code_tok.encode_batch(
                        ts, lang, num_threads=threads
                    )
                )
        # tree-sitter's own parse on 1 and 2 threads (codetok's parse, GIL released): how
        # far this machine lets a parse-bound batch scale
        for threads in (1, 2):
            batches[f"tree-sitter parse alone, {threads} thread(s)"] = (
                lambda ts, lang=lang, threads=threads: parse_all(get_grammar(lang), ts, threads)
            )
        best = interleaved(cases, texts, args.repeat)
        best.update(interleaved(batches, texts, args.repeat, chunk_bytes=0))
        floor = walk_floor(get_grammar(lang), texts, args.repeat)
        if floor is not None and not isinstance(best[PARSE], str):
            # tree-sitter's own parse plus a full C cursor walk of its tree: the floor of
            # any AST-aware front end (the walk's share measured on the same trees)
            best = {PARSE: best[PARSE], FLOOR: best[PARSE] * (1 + floor), **best}
        parse_rate = 0.0
        for name in best:
            got = best[name]
            if isinstance(got, str):  # a peer failing is a result too
                name, rate = f"{name} FAILED: {got}", 0.0
            else:
                rate = mb / got
            parse_rate = parse_rate or rate
            rows.append((lang, name, mb, rate, rate / parse_rate if parse_rate else 0.0))
            print(f"{lang:<11} {name:<52} {mb:6.2f} MB {rate:8.2f} MB/s {rows[-1][4]:5.2f}x parse",
                  flush=True)  # fmt: skip
    print("\n| language | tokenizer | MB | MB/s | vs parse |\n| --- | --- | ---: | ---: | ---: |")
    for lang, name, mb, rate, vs in rows:
        print(f"| {lang} | {name} | {mb:.2f} | {rate:.2f} | {vs:.2f} |")
    return 0


def _hf_json(tok, folder: Path) -> Path:  # noqa: ANN001
    """Save the codetok RoBERTa tokenizer as tokenizer.json for HF ``tokenizers``."""
    from codetok.formats.pretrained import save_pretrained

    out = folder.parent / "saved"
    save_pretrained(tok, out)
    return out / "tokenizer.json"


if __name__ == "__main__":
    raise SystemExit(main())
