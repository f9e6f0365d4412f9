"""A channel's tables (built for a whole vocabulary at once) against their definition token
by token: every id's bytes are its byte-level text mapped back (``unicode_to_bytes``), a
WordPiece continuation's without its prefix, a reserved token's its surface, another special
token's none; each byte's single-byte token is the one spelled by its char alone."""

from __future__ import annotations

import numpy as np
import pytest

from codetok import AddedToken, Tokenizer
from codetok.code import CodeTokenizer
from codetok.code.routing.channels import WORDPIECE_PREFIX, Channel
from codetok.models import BPE, WordPiece
from codetok.unicode.byte_alphabet import BYTE_TO_CHAR, CHAR_TO_BYTE, unicode_to_bytes


def expected(tok: Tokenizer, reserved: dict[str, str]) -> tuple[list[bytes], list[int]]:
    vocab = tok.get_vocab(with_added_tokens=True)
    specials = {t.content for t in tok.get_added_tokens_decoder().values() if t.special}
    size = max(vocab.values()) + 1
    data, byte_ids = [b""] * size, [-1] * 256
    for token, tid in vocab.items():
        if token in reserved:
            data[tid] = reserved[token].encode("utf-8")
            continue
        if token in specials:
            continue
        body = token
        if (
            isinstance(tok.model, WordPiece)
            and token.startswith(WORDPIECE_PREFIX)
            and len(token) > len(WORDPIECE_PREFIX)
        ):
            body = token[len(WORDPIECE_PREFIX) :]
        data[tid] = unicode_to_bytes(body)
        if len(body) == 1 and body in CHAR_TO_BYTE:
            b = CHAR_TO_BYTE[body]
            if byte_ids[b] < 0 or body == token:
                byte_ids[b] = tid
    return data, byte_ids


def check(tok: Tokenizer, reserved: dict[str, str] | None = None) -> Channel:
    ch = Channel(tok, 7, reserved)
    data, byte_ids = expected(tok, reserved or {})
    assert ch.token_bytes == data
    assert ch.byte_ids == byte_ids
    assert np.array_equal(ch.lengths, [len(d) for d in data])
    return ch


@pytest.mark.parametrize("name", ["polyglot", "core4"])
def test_default_tokenizers(name: str) -> None:
    ct = CodeTokenizer.default(name)
    check(ct.tokenizer, ct.reserved.surfaces)
    if ct.comment_tokenizer is not None:
        check(ct.comment_tokenizer)


def test_tokens_outside_the_alphabet_and_wordpiece_continuations() -> None:
    odd = ["a b", "\x00", "e\u0301", "\ud800", "\U0001f600x", "Ġ\u00ad", "→"]
    vocab = {c: i for i, c in enumerate(BYTE_TO_CHAR)}
    for t in ["ab", "Ġab", *odd]:
        vocab[t] = len(vocab)
    for t in ["a", "Ġ", "b"]:  # continuations: the byte's token stays its plain one
        vocab[WORDPIECE_PREFIX + t] = len(vocab)
    wp = Tokenizer(WordPiece(vocab, unk_token="a", continuing_subword_prefix=WORDPIECE_PREFIX))
    wp.add_special_tokens([AddedToken("<s>", special=True), AddedToken("<py:def>", special=True)])
    ch = check(wp, {"<py:def>": "def"})
    assert ch.token_bytes[vocab[WORDPIECE_PREFIX + "Ġ"]] == b" "
    assert ch.token_bytes[vocab["\U0001f600x"]] == "\U0001f600".encode() + b"x"
    bpe = Tokenizer(BPE({t: i for t, i in vocab.items() if not t.startswith("→")}, []))
    check(bpe)
