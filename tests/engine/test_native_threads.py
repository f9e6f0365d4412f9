"""Native plans under threads: batches on more threads than the scratch pool has homes, and
many Python threads encoding through one plan at once, give what one thread gives."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from _sentencepiece_helpers import corpus_lines, train_models

from codetok import Tokenizer
from codetok.formats.sentencepiece_model import tokenizer_from_sentencepiece

pytest.importorskip("codetok._core", reason="the native extension is not built")

#: more threads than ``ScratchPool``'s homes (8), so that threads share homes
THREADS = 12


@pytest.fixture(scope="module")
def plans(bert_dir: Path, cl100k, tmp_path_factory) -> dict[str, Tokenizer]:  # noqa: ANN001
    unigram = train_models(tmp_path_factory.mktemp("spm_threads"))["unigram"]
    bert = Tokenizer.from_file(bert_dir / "tokenizer.json")
    bert.no_truncation()
    bert.no_padding()
    out = {"bert": bert, "cl100k": cl100k, "unigram": tokenizer_from_sentencepiece(unigram)}
    for tok in out.values():
        assert tok.engine == "native"
    return out


@pytest.mark.parametrize("name", ["bert", "cl100k", "unigram"])
def test_batch_on_many_threads(plans: dict[str, Tokenizer], name: str) -> None:
    tok = plans[name]
    lines = corpus_lines(3000)
    want = [tok.encode(t).ids for t in lines]
    for _ in range(3):
        got = tok.encode_batch(lines, num_threads=THREADS)
        assert [e.ids for e in got] == want
        assert [e.offsets for e in got[:50]] == [tok.encode(t).offsets for t in lines[:50]]
        assert tok.encode_ordinary_batch(lines, num_threads=THREADS) == [
            tok.encode_ordinary(t) for t in lines
        ]


@pytest.mark.parametrize("name", ["bert", "cl100k", "unigram"])
def test_python_threads_share_a_plan(plans: dict[str, Tokenizer], name: str) -> None:
    """Texts long enough to encode without the GIL, from 16 Python threads at once, while
    batches run on native threads."""
    tok = plans[name]
    lines = corpus_lines(2000)
    texts = ["\n".join(lines[k : k + 200]) for k in range(0, len(lines), 100)]
    assert min(map(len, texts)) > 4096
    want = [tok.encode(t).ids for t in texts]

    def work(k: int) -> bool:
        if k % 4 == 0:
            return [e.ids for e in tok.encode_batch(texts, num_threads=3)] == want
        return all(tok.encode(t).ids == w for t, w in zip(texts, want, strict=True))

    with ThreadPoolExecutor(16) as ex:
        assert all(ex.map(work, range(32)))


@pytest.mark.parametrize("name", ["bert", "cl100k", "unigram"])
def test_batches_of_mixed_lengths_on_any_thread_count(plans: dict[str, Tokenizer], name: str):
    """The calling thread makes each text's Python objects as soon as it is encoded, and
    encodes texts too when it has caught up; long texts (encoded without the GIL) first.
    Any mix, any thread count: the loop's results, each in its place."""
    tok = plans[name]
    lines = corpus_lines(600)
    long_text = "\n".join(lines[:300])
    assert len(long_text) > 4096
    batches = [[], [lines[0]], lines[:7], [*lines[:200], long_text, *lines[200:400], ""]]
    for texts in batches:
        want = [tok.encode(t) for t in texts]
        want_ordinary = [tok.encode_ordinary(t) for t in texts]
        for threads in (1, 2, 3, THREADS):
            got = tok.encode_batch(texts, num_threads=threads)
            assert [e.ids for e in got] == [e.ids for e in want]
            assert [e.offsets for e in got] == [e.offsets for e in want]
            assert tok.encode_ordinary_batch(texts, num_threads=threads) == want_ordinary
