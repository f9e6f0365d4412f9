"""``Tokenizer.decode`` refuses ids outside the vocabulary instead of dropping them.

HF ``tokenizers`` drops such ids silently; codetok raises
:class:`~codetok.errors.VocabularyError` naming the id, its position and the vocabulary
size, as :class:`~codetok.code.CodeTokenizer` does. Checked on the real BERT (WordPiece),
the real cl100k (BPE with a hole at 100256 and specials above it) and a WordLevel model
with a gap in its ids, for lists, numpy arrays and batches.
"""

from __future__ import annotations

import numpy as np
import pytest

from codetok import Tokenizer
from codetok.errors import VocabularyError
from codetok.models import WordLevel


@pytest.fixture(scope="module")
def bert(bert_dir):
    return Tokenizer.from_file(bert_dir / "tokenizer.json")


def test_ids_past_the_vocabulary_raise(bert):
    ids = bert.encode("hello world").ids
    size = bert.get_vocab_size()
    for bad in (size, size + 5, 10**9):
        with pytest.raises(VocabularyError, match=rf"id {bad} at position 2 .*size {size}"):
            bert.decode(ids[:2] + [bad] + ids[2:])


def test_negative_ids_raise(bert):
    with pytest.raises(VocabularyError, match=r"id -1 at position 0 "):
        bert.decode([-1, 7592])
    with pytest.raises(VocabularyError, match=r"id -1 at position 1 "):
        bert.decode(np.array([7592, -1], dtype=np.int64))


def test_skip_special_tokens_does_not_hide_a_bad_id(bert):
    with pytest.raises(VocabularyError, match="id 99999 at position 1"):
        bert.decode([101, 99999, 102], skip_special_tokens=True)


def test_decode_batch_names_the_sequence(bert):
    good = bert.encode("hello").ids
    with pytest.raises(VocabularyError, match=r"sequence 1: id 40000 at position 0"):
        bert.decode_batch([good, [40000]])


def test_a_hole_in_the_ids_raises(cl100k):
    # cl100k has no token 100256: the ranks end at 100255, the specials start at 100257.
    assert cl100k.id_to_token(100256) is None
    with pytest.raises(VocabularyError, match=r"id 100256 at position 1 has no token"):
        cl100k.decode([15339, 100256], skip_special_tokens=False)
    assert cl100k.decode([15339, 100257], skip_special_tokens=False) == "hello<|endoftext|>"


def test_a_gap_in_a_word_level_vocabulary_raises():
    tok = Tokenizer(WordLevel({"a": 0, "c": 2, "<unk>": 3}, "<unk>"))
    assert tok.decode([0, 2]) == "a c"
    with pytest.raises(VocabularyError, match=r"id 1 at position 0 has no token"):
        tok.decode([1])


def test_valid_ids_still_decode_as_hf_does(bert, hf_tokenizers, bert_dir):
    hf = hf_tokenizers.Tokenizer.from_file(str(bert_dir / "tokenizer.json"))
    ids = bert.encode("Hello, world!").ids
    assert bert.decode(ids) == hf.decode(ids)
    # The documented difference: HF drops the unknown id, codetok refuses to.
    assert hf.decode(ids + [10**6]) == hf.decode(ids)
    with pytest.raises(VocabularyError):
        bert.decode(ids + [10**6])
