"""HF's character-class pre-tokenizers (``Digits``, ``Punctuation``, ``Whitespace``,
``WhitespaceSplit``) and the models behind them in the HF quicktour (char-level BPE,
WordPiece), against HF ``tokenizers`` itself.

- The Python reference: every code point, in context, through each pre-tokenizer and each
  ``Punctuation`` behaviour, pieces and offsets equal to HF's ``pre_tokenize_str``
  (``Whitespace`` is walked the same way in test_bert_unicode_parity.py).
- The native plan: a BPE ``tokenizer.json`` that HF trains here (Whitespace, Digits,
  Punctuation in a Sequence, ``[UNK]``) runs natively in codetok, and its ids, offsets
  and word ids equal HF's on real text and on every digit and punctuation code point.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from codetok import Tokenizer
from codetok import pre_tokenizers as ct_pre
from codetok.engine import native as _backend

tokenizers = pytest.importorskip("tokenizers")
hf_pre = tokenizers.pre_tokenizers

# These tests build millions of pieces: no collector passes over the heap while they run.
pytestmark = pytest.mark.usefixtures("gc_paused")

BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]


def _chunks(step: int = 2048) -> list[str]:
    """Every Unicode scalar value in the contexts ``"a" c "1" c c "b "``, in chunks."""
    cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    out = []
    for k in range(0, len(cps), step):
        out.append("".join(f"a{chr(c)}1{chr(c)}{chr(c)}b " for c in cps[k : k + step]))
    return out


CHUNKS = _chunks()

PAIRS = [
    ("digits", lambda: ct_pre.Digits(False), lambda: hf_pre.Digits(individual_digits=False)),
    ("digits_individual", lambda: ct_pre.Digits(True), lambda: hf_pre.Digits(True)),
    ("whitespace_split", ct_pre.WhitespaceSplit, hf_pre.WhitespaceSplit),
    *[
        (f"punctuation_{b}", lambda b=b: ct_pre.Punctuation(b), lambda b=b: hf_pre.Punctuation(b))
        for b in BEHAVIORS
    ],
]


@pytest.mark.parametrize("name,mine,theirs", PAIRS, ids=[p[0] for p in PAIRS])
def test_pre_tokenizer_every_code_point(name, mine, theirs):
    ours, hf = mine(), theirs()
    for chunk in CHUNKS:
        assert ours.pre_tokenize_str(chunk) == hf.pre_tokenize_str(chunk), name


def _stdlib_texts() -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return [p.read_text(encoding="utf-8") for p in sorted(root.glob("[a-d]*.py"))]


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[Path, object]:
    """HF trains the quicktour BPE (plus Digits and Punctuation) and saves it."""
    from tokenizers import Tokenizer as HFTokenizer
    from tokenizers import models, trainers

    hf = HFTokenizer(models.BPE(unk_token="[UNK]"))
    hf.pre_tokenizer = hf_pre.Sequence(
        [hf_pre.Whitespace(), hf_pre.Digits(individual_digits=True), hf_pre.Punctuation()]
    )
    trainer = trainers.BpeTrainer(vocab_size=3000, special_tokens=["[UNK]", "[SEP]"])
    hf.train_from_iterator(_stdlib_texts(), trainer)
    path = tmp_path_factory.mktemp("word_bpe") / "tokenizer.json"
    hf.save(str(path))
    return path, hf


def _digit_and_punct_texts() -> list[str]:
    """Each digit and punctuation code point HF knows, in context, in chunks.

    A code point ``c`` is picked when HF's ``Digits(individual_digits=True)`` or
    ``Punctuation()`` cuts ``"a" c "a"`` into more than one piece. Both isolate single
    characters of a class, so HF is asked once per 4096 code points, on their contexts
    ``"a" c "a"`` side by side: ``c`` (at ``3 * i + 1``) is cut off exactly when a piece
    starts right before or right after it.
    """
    numeric = hf_pre.Digits(individual_digits=True)
    punct = hf_pre.Punctuation()
    cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    picked = []
    for k in range(0, len(cps), 4096):
        chars = [chr(c) for c in cps[k : k + 4096]]
        text = "".join(f"a{c}a" for c in chars)
        starts = {start for _, (start, _) in numeric.pre_tokenize_str(text)}
        starts |= {start for _, (start, _) in punct.pre_tokenize_str(text)}
        picked += [c for i, c in enumerate(chars) if {3 * i + 1, 3 * i + 2} & starts]
    return [
        "".join(f"x{c}1{c}{c}y " for c in picked[k : k + 500]) for k in range(0, len(picked), 500)
    ]


@pytest.mark.skipif(not _backend.native(), reason="native backend not selected")
def test_hf_trained_word_bpe_runs_natively_with_hf_ids(trained):
    path, hf = trained
    tok = Tokenizer.from_file(str(path))
    assert tok.engine == "native", tok.engine_reason
    texts = _stdlib_texts()[:40] + _digit_and_punct_texts() + ["[SEP] a [SEP]1[SEP]", "日本語 é"]
    for text, want in zip(texts, hf.encode_batch(texts)):
        got = tok.encode(text)
        assert got.ids == want.ids
        assert got.offsets == want.offsets
        assert got.word_ids == want.word_ids


@pytest.mark.skipif(not _backend.native(), reason="native backend not selected")
def test_hf_trained_quicktour_wordpiece_runs_natively_with_hf_ids(tmp_path):
    """HF's quicktour WordPiece (NFD, Lowercase, StripAccents; Whitespace), trained and saved
    by HF: native in codetok, with HF's ids, offsets and word ids."""
    from tokenizers import Tokenizer as HFTokenizer
    from tokenizers import models, normalizers, trainers

    hf = HFTokenizer(models.WordPiece(unk_token="[UNK]"))
    hf.normalizer = normalizers.Sequence(
        [normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents()]
    )
    hf.pre_tokenizer = hf_pre.Whitespace()
    trainer = trainers.WordPieceTrainer(vocab_size=3000, special_tokens=["[UNK]", "[SEP]"])
    hf.train_from_iterator(_stdlib_texts(), trainer)
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    tok = Tokenizer.from_file(str(path))
    assert tok.engine == "native", tok.engine_reason
    texts = _stdlib_texts()[:40] + ["Café déjà vu, NAÏVE 日本語 [SEP] x", "ﬁ \u212b \u00e9\u0301"]
    for text, want in zip(texts, hf.encode_batch(texts)):
        got = tok.encode(text)
        assert got.ids == want.ids
        assert got.offsets == want.offsets
        assert got.word_ids == want.word_ids
