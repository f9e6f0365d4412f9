"""The native BERT normalizer (codetok/_native/kernels/normalize.cpp) and its pinned tables against
the Python reference (``codetok.normalizers.BertNormalizer``, ``codetok.unicode.generated.bert_tables``),
on every code point and on mixed text: normalized text and per-char alignment both.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codetok.normalizers import BertNormalizer
from codetok.tokenizer.offsets import NormalizedString
from codetok.unicode.generated import bert_tables as _bert_unicode
from codetok.unicode.hf_regex import code_points

core = pytest.importorskip("codetok._core")

CONFIGS = list(itertools.product([True, False], repeat=4))
ALL = "".join(chr(c) for c in range(0x110000))  # lone surrogates included


def python_normalize(text: str, clean: bool, chinese: bool, strip: bool, lower: bool):
    ns = NormalizedString(text)
    BertNormalizer(clean, chinese, strip, lower).normalize(ns)
    spans = ns.spans()
    return ns.text, [s for s, _ in spans], [e - s for s, e in spans]


def native_normalize(text: str, *config: bool):
    return core.bert_normalize(text, *config)


def test_flags_equal_python_tables():
    u = _bert_unicode
    members = {
        1: set(code_points(u.DROP)),
        2: set(code_points(u.SPACE)),
        4: set(code_points(u.PUNCT)),
        8: set(code_points(u.MARK)),
        16: set(code_points(u.DECOMPOSES)),
        32: set(u.LOWER),
        64: set(code_points(u.COMBINES)),
        128: set(code_points(u.CJK)),
    }
    flags = core.bert_flags()
    assert len(flags) == 0x110000
    for bit, expected in members.items():
        assert {c for c in range(0x110000) if flags[c] & bit} == expected, bit


@pytest.mark.parametrize("config", CONFIGS)
def test_every_code_point(config):
    # In runs of 4,096 code points, so marks meet neighbours and reorder as in real text.
    for start in range(0, len(ALL), 4096):
        chunk = ALL[start : start + 4096]
        text, starts, widths = python_normalize(chunk, *config)
        got_text, got_src = native_normalize(chunk, *config)
        assert got_text == text, (hex(start), config)
        assert got_src == starts, (hex(start), config)
        assert set(widths) <= {1}


MIX = st.sampled_from(
    list("aZé \t\r\n\x00\x7f")
    + ["İ", "Ǆ", "Å", "ﬁ", "\u1e9e", "豈", "日", "\u0345", "\u0316", "\u0301", "\u0f39"]
    + ["\U0001d165", "\u200b", "\ue000", "\u0890", "\U000e0001", "\u0378", "\ufff0", "\ud800"]
    + ["\u00a0", "\u3000", "\u1100", "\u0300\u0316", "ω\u0345\u0301", "\ufffd", "Σ"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(MIX, max_size=30).map("".join), st.sampled_from(CONFIGS))
def test_differential_mixed_text(text, config):
    expected_text, starts, _ = python_normalize(text, *config)
    assert native_normalize(text, *config) == (expected_text, starts)
