"""``tokenizer.json`` numbers are read as HF ``tokenizers`` reads them (serde_json without
``float_roundtrip``), checked against the values HF itself holds after loading a file, and
the Unigram ties those last bits decide."""

from __future__ import annotations

import json
import random
import struct

import pytest

from codetok import Tokenizer
from codetok.formats.json_numbers import hf_float

tokenizers = pytest.importorskip("tokenizers")


def _float32_texts(rng: random.Random, n: int) -> list[str]:
    """Exact decimal forms of float32 scores (what SentencePiece conversions write),
    shortest forms, and assorted long and exponent forms."""
    out = []
    for _ in range(n):
        f32 = struct.unpack("f", struct.pack("f", -rng.uniform(0, 25)))[0]
        out.append(f"{f32:.17g}")
        out.append(repr(f32))
        out.append(f"{f32:.25f}")
        out.append(f"{f32 * 1e-7:.20e}")
    return out + ["-0.0", "1e-320", "123456789012345678901234567890.5", "-1.5e+300"]


def _unigram_json(scores: list[str]) -> str:
    vocab = ",".join(f'["p{i}", {s}]' for i, s in enumerate(scores))
    return '{"version": "1.0", "model": {"type": "Unigram", "unk_id": 0, "vocab": [' + vocab + "]}}"


def test_hf_float_is_what_hf_holds():
    texts = _float32_texts(random.Random(7), 2000)
    hf = tokenizers.Tokenizer.from_str(_unigram_json(texts))
    held = [score for _, score in json.loads(hf.to_str())["model"]["vocab"]]
    assert len(held) == len(texts)
    mismatches = [(t, hf_float(t), h) for t, h in zip(texts, held) if hf_float(t) != h]
    assert not mismatches, mismatches[:5]
    # Not a copy of float(): the exact float32 forms differ often.
    assert sum(hf_float(t) != float(t) for t in texts) > 100


def test_unigram_ties_follow_hf():
    # "//" = "/" + "/" in exact arithmetic only: HF's reading of the score of "//"
    # (17 significant digits) moves it by one ulp, which decides the tie.
    pieces = [
        ("<unk>", "0.0"),
        ("▁", "-4.158325672149658"),
        ("▁#", "-4.756968021392822"),
        ("#", "-9.311933517456055"),
        ("/", "-6.615345001220703"),
        ("//", "-9.592419624328613"),
    ]
    vocab = ",".join(f'["{p}", {s}]' for p, s in pieces)
    text = (
        '{"version": "1.0", "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", '
        '"prepend_scheme": "always", "split": true}, '
        '"model": {"type": "Unigram", "unk_id": 0, "vocab": [' + vocab + "]}}"
    )
    hf = tokenizers.Tokenizer.from_str(text)
    ours = Tokenizer.from_str(text)
    for s in ["#/////", "#///////", "#" + "/" * 41, "x/////", "/ // ///"]:
        expected = hf.encode(s)
        got = ours.encode(s)
        assert got.ids == expected.ids, s
        assert got.offsets == expected.offsets, s
