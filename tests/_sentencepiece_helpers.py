"""Shared helpers for the SentencePiece tests: models trained here, converted by transformers.

Two models are trained by ``sentencepiece`` on real text (a slice of the running
interpreter's standard library plus English and multilingual prose written for these
tests), once per session:

* ``unigram``: T5/ALBERT style, default ``nmt_nfkc`` normalization (a compiled charsmap),
  converted to ``tokenizer.json`` by transformers' ``T5Converter``;
* ``bpe``: LLaMA style, BPE with ``byte_fallback``, identity normalization, no extra
  whitespace removal, split digits and one user-defined symbol, converted by
  transformers' ``LlamaConverter``.

transformers 5.x has no slow ``T5Tokenizer``/``LlamaTokenizer``: its converters run when
handed a small object exposing ``vocab_file`` and the token <-> id lookups. Its
``LlamaConverter`` crashes on SentencePiece BPE models (it calls
``SentencePieceExtractor.extract(vocab_scores)``, whose 5.x signature expects a model
class); :class:`_ScoreRankedExtractor` restores the 4.x contract using transformers' own
``generate_merges``: vocab by id, merges ranked by the merged piece's score.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path
from typing import Any

import pytest

PROSE = """\
Tokenizers turn text into the integer ids a language model reads. A SentencePiece model
treats the input as a raw stream of characters, so spaces are ordinary symbols, marked with
the visible lower one-eighth block. Unigram models keep a vocabulary of pieces with
log-probabilities and choose the most likely segmentation; BPE models start from single
characters and apply the learned merges in order. Byte fallback spells unknown characters
as their UTF-8 bytes, so nothing is ever lost. The quick brown fox jumps over the lazy dog.
Il était une fois une petite fille qui aimait les fraises et le café crème.
Der schnelle braune Fuchs springt über den faulen Hund; Größe, Straße, Übung.
Быстрая коричневая лиса прыгает через ленивую собаку. Ελληνικά γράμματα.
東京は日本の首都です。北京是中国的首都。서울은 한국의 수도입니다.
"""

#: Source code, prose and adversarial strings the parity tests encode.
CASES: list[str] = [
    # code
    "def parse_http_response(raw: bytes) -> dict:\n    return {'status': 200}\n",
    'public static void main(String[] args) {\n    System.out.println("hi " + args.length);\n}\n',
    "namespace Demo {\n  public sealed class Foo : IBar { public int X { get; set; } = 42; }\n}\n",
    "const add = (a, b) => a + b;\nexport default { add };  // arrow\n/* block */ `tpl ${x}`\n",
    "for (int i = 0; i < n; ++i) { sum += a[i] * b[i]; }  // C-ish\r\n",
    "    if x:\n\t\treturn  None\n\n\n",
    # prose, multilingual
    "Hello, world! This is a test. Isn't it?",
    "Ünïcödé naïve café — déjà vu, Größe",
    "日本語のテキストと中文字符混合、한국어도。",
    "مرحبا بالعالم (RTL) שלום עולם",
    "Привет, мир! Ελληνικά κείμενα.",
    # adversarial
    "emoji 👩\u200d👩\u200d👧\u200d👦 family, flag 🇫🇷🇩🇪, skin 👍🏽, keycap 1\ufe0f\u20e3",
    "combining e\u0301 a\u0308 Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334 o\u0338",
    "tabs\tand\nnewlines\r\n  spaces   \u00a0nbsp\u3000ideographic",
    "\x00\x01\x02\x7f controls \u200b\u200c\u200d\ufeff\u2028\u2029 end",
    "<s> looks like </s> special <unk> tokens <pad> <mask> <0x41>",
    "<s></s><s>text</s>",
    "ａｂｃ ＡＢＣ ﬁ ① ㍿ ｶﾞ ﾊﾟ",
    "a" * 300,
    "🙂" * 40,
    " " * 50 + "x" + " " * 50,
    "0123456789 3.14159 1e-10 0xFF 1,000,000",
    "\ud7a3\U0001f9d1\u200d\U0001f4bb \U00010348 \U0001d11e",
    "",
    " ",
    "x",
    "▁already▁marked ▁",
]


def stdlib_text(max_chars: int, *, skip: int = 0) -> str:
    """Concatenated real Python source from the running interpreter's standard library."""
    root = Path(sysconfig.get_paths()["stdlib"])
    out: list[str] = []
    total = 0
    for path in sorted(root.glob("*.py"))[skip:]:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        out.append(text)
        total += len(text)
        if total >= max_chars:
            break
    return "\n".join(out)[:max_chars]


def corpus_lines(n: int) -> list[str]:
    """Real code lines not in the training slice (files further down the stdlib)."""
    lines = [ln for ln in stdlib_text(200_000, skip=60).splitlines() if ln.strip()]
    step = max(1, len(lines) // n)
    return lines[::step][:n]


_MODELS: dict[str, Any] = {}


def train_models(base: Path) -> dict[str, Path]:
    """Train (once per session) the Unigram and the LLaMA-style BPE model under ``base``."""
    if _MODELS:
        return _MODELS["paths"]
    spm = pytest.importorskip("sentencepiece", reason="test extra sentencepiece is missing")
    corpus = base / "corpus.txt"
    corpus.write_text(stdlib_text(300_000) + "\n" + PROSE * 20, encoding="utf-8")
    common = dict(input=str(corpus), vocab_size=1000, num_threads=1, minloglevel=2)
    spm.SentencePieceTrainer.train(
        model_prefix=str(base / "unigram"), model_type="unigram", **common
    )
    spm.SentencePieceTrainer.train(
        model_prefix=str(base / "bpe"),
        model_type="bpe",
        byte_fallback=True,
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        split_digits=True,
        user_defined_symbols=["<mask>"],
        **common,
    )
    paths = {"unigram": base / "unigram.model", "bpe": base / "bpe.model"}
    _MODELS["paths"] = paths
    return paths


class _SlowStandIn:
    """What transformers' converters read from a slow tokenizer (5.x ships none)."""

    def __init__(self, path: Path) -> None:
        import sentencepiece as spm

        self.vocab_file = str(path)
        self.legacy = True
        self.add_prefix_space = True
        self._extra_ids = 0
        self._sp = spm.SentencePieceProcessor(model_file=str(path))

    def convert_tokens_to_ids(self, token: str) -> int:
        return self._sp.piece_to_id(token)

    def convert_ids_to_tokens(self, index: int) -> str:
        return self._sp.id_to_piece(index)


def convert_to_json(kind: str, model_path: Path) -> Path:
    """``tokenizer.json`` written by transformers' converter for a trained model."""
    key = f"json:{kind}"
    if key in _MODELS:
        return _MODELS[key]
    pytest.importorskip("transformers", reason="test extra transformers is missing")
    pytest.importorskip(
        "google.protobuf", reason="transformers' SentencePiece converters need protobuf"
    )
    from transformers.convert_slow_tokenizer import (
        LlamaConverter,
        SentencePieceExtractor,
        T5Converter,
    )
    from transformers.tokenization_utils_base import generate_merges

    class _ScoreRankedExtractor(SentencePieceExtractor):
        def extract(self, vocab_scores: Any) -> tuple[dict[str, int], list[tuple[str, str]]]:
            vocab = {p: i for i, (p, _) in enumerate(vocab_scores)}
            return vocab, generate_merges(vocab, vocab_scores)

    class _Llama(LlamaConverter):
        SpmExtractor = _ScoreRankedExtractor

    converter = T5Converter if kind == "unigram" else _Llama
    tok = converter(_SlowStandIn(model_path)).converted()
    out = model_path.with_suffix(".json")
    tok.save(str(out))
    _MODELS[key] = out
    return out
