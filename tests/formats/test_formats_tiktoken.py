"""``.tiktoken`` files: reading and writing, the published encodings' constants, merges
in HF's converter order, tiktoken's merge rule, and the special-token policy against
``tiktoken`` on small custom encodings."""

from __future__ import annotations

import base64

import pytest

from codetok.errors import ConfigurationError, FormatError, NotFoundError, VocabularyError
from codetok.formats.tiktoken_file import (
    ENCODINGS,
    merges_from_ranks,
    portable_pattern,
    read_tiktoken_file,
    tokenizer_from_ranks,
    tokenizer_from_tiktoken,
    write_tiktoken_file,
)

BYTES = {bytes([b]): b for b in range(256)}


def test_read_write_round_trip(tmp_path):
    ranks = BYTES | {b"ab": 256, b"\xe6\x97": 257}
    path = tmp_path / "x.tiktoken"
    write_tiktoken_file(ranks, path)
    assert read_tiktoken_file(path) == ranks
    tiktoken_load = pytest.importorskip("tiktoken.load")
    assert tiktoken_load.load_tiktoken_bpe(str(path)) == ranks


def test_read_errors(tmp_path):
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(b"YQ== 0\nnot-base64! 1\n")
    with pytest.raises(FormatError, match=r"bad.tiktoken: at line 2"):
        read_tiktoken_file(path)
    path.write_bytes(b"YQ== x\n")
    with pytest.raises(FormatError, match="line 1"):
        read_tiktoken_file(path)
    with pytest.raises(NotFoundError, match="nope.tiktoken"):
        read_tiktoken_file(tmp_path / "nope.tiktoken")


def test_published_constants_match_tiktoken_ext(monkeypatch):
    openai_public = pytest.importorskip("tiktoken_ext.openai_public")
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", lambda *a, **k: {})
    for name, make in openai_public.ENCODING_CONSTRUCTORS.items():
        spec = make()
        assert ENCODINGS[name]["pat_str"] == spec["pat_str"], name
        assert ENCODINGS[name]["special_tokens"] == spec["special_tokens"], name


def test_merges_from_ranks_order():
    ranks = {b"a": 0, b"b": 1, b"ab": 2, b"aab": 3, b"aa": 4, b"ba": 5}
    assert merges_from_ranks(ranks) == [
        (b"a", b"b", 2),
        (b"a", b"ab", 3),
        (b"aa", b"b", 3),
        (b"a", b"a", 4),
        (b"b", b"a", 5),
    ]


def test_portable_pattern():
    assert portable_pattern(r"\p{N}{1,3}+|x") == r"(?>\p{N}{1,3})|x"
    assert portable_pattern(r"[ab]{2,}+") == r"(?>[ab]{2,})"
    assert portable_pattern(r"\p{L}++|\s?+") == r"\p{L}++|\s?+"


def _pair(ranks, pat, specials):
    tiktoken = pytest.importorskip("tiktoken")
    enc = tiktoken.Encoding("custom", pat_str=pat, mergeable_ranks=ranks, special_tokens=specials)
    return tokenizer_from_ranks(ranks, pat, specials), enc


def test_rank_rule_is_tiktokens_on_overlaps():
    # "aba" can be made from (ab, a) or (a, ba): tiktoken takes the leftmost pair.
    ranks = BYTES | {b"ab": 256, b"ba": 257, b"aba": 258, b"abab": 259}
    ct, enc = _pair(ranks, r"\S+|\s+", {})
    for text in ["ababa", "abababab a ba", "bababa", "aaabbbababab"]:
        assert ct.encode(text).ids == enc.encode(text), text


def test_custom_pattern_and_special_policy():
    ranks = BYTES | {b"he": 256, b"ll": 257, b"hell": 258, b"hello": 259, b" w": 260}
    specials = {"<|end|>": 300, "<|pad|>": 302}
    ct, enc = _pair(ranks, r" ?\w+| ?[^\w\s]+|\s+", specials)
    text = "hello world <|end|> <|pad|>hello"
    assert ct.encode(text, allowed_special="all").ids == enc.encode(text, allowed_special="all")
    assert ct.encode(text, allowed_special=set()).ids == enc.encode(text, disallowed_special=())
    assert ct.encode(text, allowed_special={"<|end|>"}).ids == enc.encode(
        text, allowed_special={"<|end|>"}, disallowed_special=()
    )
    with pytest.raises(VocabularyError, match="pad"):
        ct.encode(text, allowed_special={"<|end|>"}, disallowed_special="all")
    ids = enc.encode(text, allowed_special="all")
    assert ct.decode(ids, skip_special_tokens=False) == enc.decode(ids)
    assert ct.token_to_id("<|pad|>") == 302


def test_configuration_errors(tmp_path):
    with pytest.raises(ConfigurationError, match="every single byte"):
        tokenizer_from_ranks({b"a": 0}, r"\S+")
    with pytest.raises(ConfigurationError, match="reuses"):
        tokenizer_from_ranks(BYTES, r"\S+", {"<x>": 5})
    path = tmp_path / "mystery.tiktoken"
    write_tiktoken_file(BYTES, path)
    with pytest.raises(ConfigurationError, match="pat_str"):
        tokenizer_from_tiktoken(path)
    with pytest.raises(ConfigurationError, match="holds 256 ranks but cl100k_base"):
        tokenizer_from_tiktoken(path, encoding="cl100k_base")
    with pytest.raises(ConfigurationError, match="unknown encoding"):
        tokenizer_from_tiktoken(path, encoding="p100k")
    tok = tokenizer_from_tiktoken(path, pat_str=r"\S+|\s+", special_tokens={"<e>": 256})
    assert tok.encode("ab<e>").ids == [97, 98, 256]


def _byte_lines():
    return [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]


@pytest.mark.parametrize("rank", [10**20, 2**32, -1])
def test_ranks_outside_u32_are_refused(rank, tmp_path):
    """tiktoken holds ranks as u32; codetok refuses the file naming it and the line."""
    path = tmp_path / "big.tiktoken"
    path.write_text("\n".join([*_byte_lines(), f"YWI= {rank}"]) + "\n", encoding="ascii")
    with pytest.raises(FormatError) as info:
        tokenizer_from_tiktoken(path, pat_str=r"\S+|\s+")
    assert str(info.value).startswith(f"{path}: at line 257: ")
    assert "0..4294967295" in str(info.value)


@pytest.mark.parametrize("rank", [2**32 - 1, 2**31 - 1, 2**31 - 2])
def test_the_largest_ranks_load_and_merge(rank, tmp_path):
    """Every u32 rank merges, 2**31 - 1 too (the native merge loop reads that value as
    "no merge", so it must never reach it)."""
    path = tmp_path / "sparse.tiktoken"
    path.write_text("\n".join([*_byte_lines(), f"YWI= {rank}"]) + "\n", encoding="ascii")
    tok = tokenizer_from_tiktoken(path, pat_str=r"\S+|\s+")
    assert tok.encode("ab c").ids == [rank, 32, 99]


@pytest.mark.parametrize("sep", ["\n", "\r\n", "\n\n"])
def test_a_repeated_rank_names_the_file_and_line(sep, tmp_path):
    path = tmp_path / "dup.tiktoken"
    path.write_text(sep.join([*_byte_lines(), "YWI= 256", "YmM= 256"]) + sep, encoding="ascii")
    first, line = (257, 258) if sep != "\n\n" else (2 * 257 - 1, 2 * 258 - 1)
    for load in (read_tiktoken_file, lambda p: tokenizer_from_tiktoken(p, pat_str=r"\S+")):
        with pytest.raises(FormatError) as info:
            load(path)
        assert str(info.value).startswith(f"{path}: at line {line}: ")
        assert "rank 256" in str(info.value) and f"line {first}" in str(info.value)


@pytest.mark.parametrize("sep", ["\n", "\r\n", "\n\n"])
def test_a_repeated_token_names_the_file_and_line(sep, tmp_path):
    path = tmp_path / "dup.tiktoken"
    path.write_text(sep.join([*_byte_lines(), "YWI= 256", "YWI= 257"]) + sep, encoding="ascii")
    first, line = (257, 258) if sep != "\n\n" else (2 * 257 - 1, 2 * 258 - 1)
    for load in (read_tiktoken_file, lambda p: tokenizer_from_tiktoken(p, pat_str=r"\S+")):
        with pytest.raises(FormatError) as info:
            load(path)
        assert str(info.value).startswith(f"{path}: at line {line}: ")
        assert "'YWI='" in str(info.value) and f"line {first}" in str(info.value)


def test_ranks_that_make_no_tokenizer_name_the_file(tmp_path):
    # A file missing a single-byte rank: the error named neither the file nor the place
    # (found by tests/fuzz/test_fuzz.py on a damaged cl100k file).
    path = tmp_path / "ranks.tiktoken"
    path.write_text("\n".join(_byte_lines()[1:]) + "\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="every single byte") as info:
        tokenizer_from_tiktoken(path, pat_str=r"\S+")
    assert str(info.value).startswith(f"{path}: ")
