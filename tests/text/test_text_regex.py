"""Pattern tokenizer: longest match across ordered patterns, unmatched policies, round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import codetok.text  # noqa: F401  (registers codetok.Patterns)
from codetok import Tokenizer
from codetok.errors import ConfigurationError, VocabularyError
from codetok.pre_tokenizers import pre_tokenizer_from_dict
from codetok.text import Patterns, pattern_tokenizer


def pieces(pre, text):
    return [p for p, _ in pre.pre_tokenize_str(text)]


@pytest.mark.parametrize(
    "patterns, text, expected",
    [
        # longest match between patterns, whatever their order
        ([r"\d+", r"\d+\.\d+"], "3.14", ["3.14"]),
        ([r"\d+\.\d+", r"\d+"], "3.14", ["3.14"]),
        ([r"=", r"==", r"==="], "a===b", ["a", "===", "b"]),
        # ties go to the earlier pattern (visible through the tokens: both match "if")
        ([r"if", r"[a-z]+"], "if iffy", ["if", " ", "iffy"]),
        # a pattern keeps its own regex semantics: "a|ab" matches "a"
        ([r"a|ab"], "ab", ["a", "b"]),
        # empty matches never make pieces
        ([r"\d*", r"x"], "ab1x2", ["ab", "1", "x", "2"]),
        ([r"(?<=a)b", r"a"], "abb", ["a", "b", "b"]),
    ],
)
def test_longest_match(patterns, text, expected):
    assert pieces(Patterns(patterns, "token"), text) == expected


def test_tie_goes_to_earlier_pattern():
    assert Patterns([r"if", r"[a-z]+"]).scan("if") == [(0, 2, True)]
    first = Patterns([r"[a-z]+", r"if"])
    assert first.scan("if") == [(0, 2, True)]


UNMATCHED_CASES = {
    "token": ["a", "  ", "+", "  ", "b", "?!"],
    "char": ["a", " ", " ", "+", " ", " ", "b", "?", "!"],
    "drop": ["a", "+", "b"],
}


@pytest.mark.parametrize("mode", sorted(UNMATCHED_CASES))
def test_unmatched_policies(mode):
    pre = Patterns([r"\w+", r"[+\-*/]"], mode)
    text = "a  +  b?!"
    got = pre.pre_tokenize_str(text)
    assert [p for p, _ in got] == UNMATCHED_CASES[mode]
    assert all(text[s:e] == p for p, (s, e) in got)


def test_unmatched_error_names_position_in_original_text():
    tok = pattern_tokenizer([r"\w+", r"\s+"], unmatched="error", corpus=["ab cd"])
    with pytest.raises(VocabularyError, match=r"text\[6:8\] = '\?!'"):
        tok.encode("ab cd ?! x")
    # the position counts from the caller's string, also after an added token
    tok.add_special_tokens(["<s>"])
    with pytest.raises(VocabularyError, match=r"text\[9:10\]"):
        tok.encode("<s>ab cd #")


def test_bad_configuration():
    with pytest.raises(ConfigurationError, match="unmatched"):
        Patterns([r"a"], "skip")
    with pytest.raises(ConfigurationError, match=r"patterns\[1\]"):
        Patterns([r"a", r"("])
    with pytest.raises(ConfigurationError, match="at least one"):
        Patterns([])
    with pytest.raises(ConfigurationError, match="not one str"):
        Patterns(r"\w+")


def test_serialization():
    p = Patterns([r"\d+", r"[a-z]+"], "char")
    d = p.to_dict()
    assert d == {"type": "codetok.Patterns", "patterns": [r"\d+", r"[a-z]+"], "unmatched": "char"}
    assert pre_tokenizer_from_dict(d) == p


def test_tokenizer_decode_is_exact_with_token_unmatched():
    text = "x = foo(1, 22) # done"
    tok = pattern_tokenizer([r"[A-Za-z_]\w*", r"\d+", r"\s+"], corpus=[text])
    enc = tok.encode(text)
    assert "".join(enc.tokens) == text
    assert tok.decode(enc.ids) == text
    drop = pattern_tokenizer([r"[A-Za-z_]\w*"], unmatched="drop", corpus=[text])
    assert drop.decode(drop.encode(text).ids) == "x foo done"


def test_linear_time_on_long_unmatched_text():
    pre = Patterns([r"\d*", r"[a-z]+"], "token")
    assert pre.scan("#" * 100_000) == [(0, 100_000, False)]
    assert len(pre.scan("a1" * 50_000)) == 100_000


def _brute_force(patterns, text):
    """Reference: try every pattern at every position, longest wins, ties to the first."""
    import regex

    comp = [regex.compile(p) for p in patterns]
    out, pos, run = [], 0, None
    while pos < len(text):
        best = None
        for c in comp:
            m = c.match(text, pos)
            if m and m.end() > pos and (best is None or m.end() > best):
                best = m.end()
        if best is None:
            run = (run[0], pos + 1) if run is not None else (pos, pos + 1)
            pos += 1
            continue
        if run is not None:
            out.append((*run, False))
            run = None
        out.append((pos, best, True))
        pos = best
    if run is not None:
        out.append((*run, False))
    return out


PATTERN_SETS = [
    [r"\d+", r"\d+\.\d+", r"[a-z]+"],
    [r"a|ab", r"b+", r"abc"],
    [r"\d*", r"(?<=\d)x", r"\s"],
    [r"ab", r"ba", r"aba", r"\."],
]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(PATTERN_SETS), st.text(alphabet=st.sampled_from(list("ab c1.x2")), max_size=30)
)
def test_scan_equals_brute_force(patterns, text):
    assert Patterns(patterns).scan(text) == _brute_force(patterns, text)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=25), min_size=1, max_size=4))
def test_round_trip_batch_and_save_load(texts):
    tok = pattern_tokenizer([r"\w+", r"[^\w\s]+"], corpus=texts, unmatched="token")
    for text in texts:
        enc = tok.encode(text)
        assert tok.decode(enc.ids) == text
        assert [text[s:e] for s, e in enc.offsets] == enc.tokens
    assert [e.ids for e in tok.encode_batch(texts)] == [tok.encode(t).ids for t in texts]
    loaded = Tokenizer.from_str(tok.to_str())
    assert [loaded.encode(t).ids for t in texts] == [tok.encode(t).ids for t in texts]
