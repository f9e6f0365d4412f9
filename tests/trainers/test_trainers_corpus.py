"""Streaming word counts: files line by line, directories, workers, errors."""

from __future__ import annotations

import os

import pytest

from codetok import Tokenizer
from codetok import pre_tokenizers as cpt
from codetok.errors import ConfigurationError, NotFoundError, TrainingError
from codetok.models import BPE
from codetok.trainers import BpeTrainer, build_alphabet, count_pieces, train
from codetok.trainers.word_counts import count_words, iter_file_lines, resolve_files


def test_count_words_dedupes_lines_within_a_batch():
    texts = ["a b", "a b", "", "b c", "a b"]
    assert count_words(texts, str.split, batch_lines=2) == {"a": 3, "b": 4, "c": 1}


def test_file_lines_keep_endings_and_split_on_newline_only(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes(b"one\r\ntwo\rthree\n\nfour")
    assert list(iter_file_lines([str(p)])) == ["one\r\n", "two\rthree\n", "\n", "four"]


def test_directories_are_walked_sorted_and_hidden_skipped(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / "b" / "2.txt").write_text("x")
    (tmp_path / "1.txt").write_text("y")
    (tmp_path / ".git" / "HEAD").write_text("z")
    (tmp_path / ".hidden").write_text("z")
    got = resolve_files(tmp_path)
    assert got == [str(tmp_path / "1.txt"), str(tmp_path / "b" / "2.txt")]


def test_workers_give_the_same_counts(tmp_path):
    tok = Tokenizer(BPE(), pre_tokenizer=cpt.ByteLevel(add_prefix_space=False))
    texts = [f"line {i % 37} of text, value={i * 7}\n" for i in range(5000)]
    one = count_pieces(tok, texts)
    two = count_pieces(tok, iter(texts), num_workers=2)
    assert one == two
    spawn = count_words(texts[:500], str.split, num_workers=2, mp_context="spawn", batch_lines=50)
    assert spawn == count_words(texts[:500], str.split)


def test_missing_files_are_all_named(tmp_path):
    with pytest.raises(NotFoundError) as info:
        resolve_files([tmp_path / "nope1.txt", tmp_path / "nope2.txt"])
    assert "nope1.txt" in str(info.value) and "nope2.txt" in str(info.value)
    assert isinstance(info.value, FileNotFoundError)


def test_undecodable_file_is_named(tmp_path):
    p = tmp_path / "latin1.txt"
    p.write_bytes(b"ok\ncaf\xe9\n")
    tok = Tokenizer(BPE(), pre_tokenizer=cpt.Whitespace())
    with pytest.raises(TrainingError, match=r"latin1\.txt', line 2: not valid UTF-8"):
        train(tok, [p], BpeTrainer(vocab_size=50))


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file_is_named(tmp_path):
    p = tmp_path / "secret.txt"
    p.write_text("x")
    p.chmod(0)
    try:
        with pytest.raises(TrainingError, match="secret.txt"):
            list(iter_file_lines([str(p)]))
    finally:
        p.chmod(0o644)


def test_bad_counting_arguments():
    with pytest.raises(ConfigurationError, match="num_workers"):
        count_words(["a"], str.split, num_workers=0)
    with pytest.raises(TrainingError, match="must be str"):
        count_words([b"bytes"], str.split)  # type: ignore[list-item]


def test_build_alphabet_limit_and_initial():
    counts = {"aaab": 2, "cd": 1}
    assert build_alphabet(counts) == ["a", "b", "c", "d"]
    assert build_alphabet(counts, limit_alphabet=2) == ["a", "b"]
    assert build_alphabet(counts, limit_alphabet=2, initial_alphabet=["zeta"]) == ["a", "z"]


@pytest.mark.parametrize("name", ["train_bpe", "train_wordpiece", "train_unigram"])
def test_files_by_keyword_train_as_by_position(name, tmp_path):
    """``train_bpe(files=...)`` used to reach the trainer as an unknown option "files"
    (issue 33): the corpus is the first argument, by position or by name."""
    import codetok.trainers.api as api

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the quick brown fox jumps over the lazy dog\n" * 50, encoding="utf-8")
    fn = getattr(api, name)
    by_name = fn(files=[corpus], vocab_size=300)
    by_position = fn([corpus], vocab_size=300)
    assert by_name.get_vocab() == by_position.get_vocab()
    with pytest.raises(ConfigurationError, match="exactly one corpus"):
        fn(files=[corpus], texts=["x"], vocab_size=300)
