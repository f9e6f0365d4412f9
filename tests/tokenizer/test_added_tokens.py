"""Added and special tokens against HF ``tokenizers`` on a table of cases.

Both sides start from the real BERT-uncased ``tokenizer.json`` (which lowercases, so the
``normalized`` option matters) and add the same tokens with the same options.
"""

from __future__ import annotations

import pytest

from codetok import AddedToken, Tokenizer
from codetok.errors import VocabularyError
from codetok.tokenizer.added_tokens import trie_pattern

OPTIONS = [
    dict(),
    dict(lstrip=True),
    dict(rstrip=True),
    dict(lstrip=True, rstrip=True),
    dict(single_word=True),
    dict(single_word=True, lstrip=True, rstrip=True),
    dict(normalized=True),
    dict(normalized=False),
]

TEXTS = [
    "plain text without added tokens",
    "an <ent> here and <ent>there and x<ent>y",
    "  <ent>   spaced   <ent>  ",
    "<ent><ent><ent>",
    "CamelWORD and camelword and Camelword",
    "the <Mask> and <mask> and <MASK>",
    "prefix_<ent>_suffix and <ent>_ and _<ent>",
    "mixed [CLS] specials [SEP] with <ent> added",
    "overlap <en <ent> <entity> <entx",
    "",
]

CONTENTS = ["<ent>", "CamelWORD", "<Mask>", "<entity>"]


@pytest.fixture()
def pair(bert_dir, hf_tokenizers):
    path = str(bert_dir / "tokenizer.json")
    hf = hf_tokenizers.Tokenizer.from_file(path)
    hf.no_padding()
    hf.no_truncation()
    ct = Tokenizer.from_file(path)
    ct.no_padding()
    ct.no_truncation()
    return ct, hf


def _check(ct, hf, texts):
    for text in texts:
        h = hf.encode(text)
        c = ct.encode(text)
        assert (c.ids, c.tokens, c.offsets, c.word_ids) == (
            h.ids,
            h.tokens,
            h.offsets,
            h.word_ids,
        ), text
        for skip in (True, False):
            assert ct.decode(h.ids, skip_special_tokens=skip) == hf.decode(
                h.ids, skip_special_tokens=skip
            )


@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize(
    "opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_added_token_options_match_hf(pair, hf_tokenizers, opts, special):
    ct, hf = pair
    hf_toks = [hf_tokenizers.AddedToken(c, special=special, **opts) for c in CONTENTS]
    ct_toks = [AddedToken(c, special=special, **opts) for c in CONTENTS]
    if special:
        n_h = hf.add_special_tokens(hf_toks)
        n_c = ct.add_special_tokens(ct_toks)
    else:
        n_h = hf.add_tokens(hf_toks)
        n_c = ct.add_tokens(ct_toks)
    assert n_c == n_h
    assert ct.get_vocab() == hf.get_vocab()
    _check(ct, hf, TEXTS)


def test_existing_vocab_token_keeps_its_id(pair):
    ct, hf = pair
    assert ct.add_tokens(["hello", "brandnewtoken"]) == hf.add_tokens(["hello", "brandnewtoken"])
    # Adding the identical tokens again changes nothing; new options count as a change.
    assert ct.add_tokens(["hello"]) == hf.add_tokens(["hello"]) == 0
    assert ct.add_tokens([AddedToken("hello", lstrip=True)]) == hf.add_tokens(
        [_hf_added("hello", lstrip=True)]
    )
    assert ct.add_special_tokens(["[CLS]"]) == hf.add_special_tokens(["[CLS]"]) == 0
    assert ct.token_to_id("hello") == hf.token_to_id("hello")
    assert ct.token_to_id("brandnewtoken") == hf.token_to_id("brandnewtoken")
    _check(ct, hf, ["say  hello to brandnewtoken"])


def _hf_added(content, **kw):
    import tokenizers

    return tokenizers.AddedToken(content, **kw)


def test_thousands_of_added_tokens(pair):
    ct, hf = pair
    toks = [f"<tok{i}>" for i in range(3000)] + [f"tok{i}x" for i in range(2000)]
    assert ct.add_tokens(toks) == hf.add_tokens(toks)
    text = " ".join(f"a<tok{i}>b tok{i}x <tok{i * 7}" for i in range(0, 3000, 37))
    _check(ct, hf, [text])


def test_trie_pattern_is_leftmost_longest():
    import regex

    pat = regex.compile(trie_pattern(["ab", "abc", "b", "bcd"]))
    assert pat.findall("abcd") == ["abc"]
    assert pat.findall("xbcdab") == ["bcd", "ab"]


def test_tiktoken_style_special_policy(pair):
    ct, _ = pair
    text = "a [MASK] b"
    masked = ct.encode(text)
    assert ct.token_to_id("[MASK]") in masked.ids
    plain = ct.encode(text, allowed_special=set())
    assert ct.token_to_id("[MASK]") not in plain.ids
    assert "[" in plain.tokens
    with pytest.raises(VocabularyError, match=r"\[MASK\]"):
        ct.encode(text, allowed_special=set(), disallowed_special="all")
    # Allowing it explicitly matches it again even when the rest is disallowed.
    again = ct.encode(text, allowed_special={"[MASK]"}, disallowed_special="all")
    assert again.ids == masked.ids


def test_added_token_rejects_empty_content():
    with pytest.raises(VocabularyError):
        AddedToken("")


@pytest.mark.usefixtures("gc_paused")  # a million tokens and offsets, none in a cycle
def test_single_word_boundary_is_hfs_on_every_code_point(hf_tokenizers):
    """A ``single_word`` token glued to a char is left as text exactly when HF leaves it:
    every code point before and after it (HF's word chars are Rust regex's ``\\w``; the
    ``regex`` module's differ on 17,559 code points). The tokenizer is native (WordLevel
    over whitespace words), so this checks the native matcher; the Python pipeline is
    compared with it on the same texts."""
    from codetok.engine.plan import use_plans
    from codetok.models import WordLevel
    from codetok.pre_tokenizers import WhitespaceSplit

    hf = hf_tokenizers.Tokenizer(hf_tokenizers.models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    hf.pre_tokenizer = hf_tokenizers.pre_tokenizers.WhitespaceSplit()
    hf.add_tokens([hf_tokenizers.AddedToken("qq", single_word=True)])
    ct = Tokenizer(WordLevel({"[UNK]": 0}, "[UNK]"), pre_tokenizer=WhitespaceSplit())
    ct.add_tokens([AddedToken("qq", single_word=True)])
    assert ct.engine == "native", ct.engine_reason
    cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    # 1024 code points a text: HF's offsets cost grows with the square of a text's length
    # (8192 a text took it 5.4 s, 1024 takes 1.5 s, for the same code points).
    texts = [
        " ".join(f"{chr(c)}qq qq{chr(c)}" for c in cps[k : k + 1024])
        for k in range(0, len(cps), 1024)
    ]
    wants = hf.encode_batch(texts, add_special_tokens=False)
    for got, want in zip(ct.encode_batch(texts, add_special_tokens=False), wants):
        assert (got.ids, got.offsets) == (want.ids, want.offsets)
    previous = use_plans(False)
    try:
        # the Python pipeline on the first 24,576 and the last 16,384 code points
        for k in [*range(24), *range(-16, 0)]:
            assert ct.encode(texts[k]).ids == wants[k].ids
    finally:
        use_plans(previous)
