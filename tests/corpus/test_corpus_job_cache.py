"""The per-process cache of corpus encoders (``codetok.corpus.job``) is shared and bounded.

It kept one encoder (a code tokenizer: ~25 MB) per distinct :class:`CorpusJob` value and
never let one go: twelve jobs differing only in ``shard_bytes`` held 421 MB. Jobs that build
the same encoder share it now, and at most ``MAX_CACHED_ENCODERS`` are kept, the least
recently used dropped first.
"""

from __future__ import annotations

import pytest

from codetok.corpus import CorpusJob
from codetok.corpus import job as job_module


@pytest.fixture(autouse=True)
def empty_cache():
    saved = dict(job_module._ENCODERS)
    job_module._ENCODERS.clear()
    yield
    job_module._ENCODERS.clear()
    job_module._ENCODERS.update(saved)


def _tokenizer_file(path, word: str) -> str:
    from codetok.text import words_tokenizer

    words_tokenizer(corpus=[f"{word} a b c"]).save(str(path))
    return str(path)


def test_jobs_differing_in_what_the_encoder_does_not_use_share_it():
    first = CorpusJob(shard_bytes=1000).encoder()
    for job in (
        CorpusJob(shard_bytes=2000),
        CorpusJob(max_file_bytes=4096, follow_symlinks=False),
        CorpusJob(languages=("python",)),
    ):
        assert job.encoder() is first
    assert len(job_module._ENCODERS) == 1


def test_at_most_a_few_encoders_are_kept_least_recently_used_first_out(tmp_path):
    most = job_module.MAX_CACHED_ENCODERS
    jobs = [
        CorpusJob(tokenizer=_tokenizer_file(tmp_path / f"t{k}.json", f"word{k}"))
        for k in range(most + 3)
    ]
    first = jobs[0].encoder()
    for k, job in enumerate(jobs[1:], 1):
        job.encoder()
        assert jobs[0].encoder() is first  # used again: the newest
        assert len(job_module._ENCODERS) == min(k + 1, most)
    kept = {key[0][1] for key in job_module._ENCODERS}
    assert kept == {jobs[0].tokenizer, *(j.tokenizer for j in jobs[-(most - 1) :])}


def test_a_changed_tokenizer_file_replaces_its_encoder(tmp_path):
    path = _tokenizer_file(tmp_path / "t.json", "before")
    job = CorpusJob(tokenizer=path)
    old = job.encoder()
    _tokenizer_file(tmp_path / "t.json", "after")
    new = job.encoder()
    assert new is not old
    assert list(job_module._ENCODERS.values()) == [new]
