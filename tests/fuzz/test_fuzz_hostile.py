"""One reproducer per library defect the issue-28 fuzz categories found (tests/fuzz_*.py).

Each test states the property it checks and is marked ``xfail(strict=True)`` while the
defect is open: the mark comes off with the fix (a fixed defect makes its test XPASS,
which fails the run until then).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from fuzz_ctk import Ctk
from fuzz_hub import OpenWatch

from codetok import Tokenizer, from_pretrained
from codetok.errors import CodetokError

OPEN = "library defect found by the fuzz harness (issue 28 round 2), open: "


def run_child(code: str, limit_mb: int = 2048, timeout: float = 120) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter whose address space is capped at ``limit_mb``."""
    prelude = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({limit_mb << 20}, {limit_mb << 20}))\n"  # fmt: skip
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ------------------------------------------------------------------------ parse


def test_python_lexer_stops_a_generics_bomb_within_its_budget():
    """Native plans off (the ``tree-sitter`` bindings' parser): 40 KB of ``a<`` as Java
    must stop with a ParseLimitError (budget 2.8 s, 296 MB). The blow-up happens between
    two progress callbacks, so it runs on: uncapped, minutes and ~20 GB; under a 2 GB
    address-space cap, a segfault."""
    got = run_child(
        """
        from codetok.engine.plan import use_plans
        from codetok.code import CodeTokenizer
        from codetok.errors import ParseLimitError
        use_plans(False)
        try:
            CodeTokenizer.default().encode("a<" * 20000, "java", path="x.java")
        except ParseLimitError as e:
            print("stopped", e.reason)
        """
    )
    assert got.returncode == 0, f"exit {got.returncode}: {got.stderr[-500:]}"
    assert got.stdout.startswith("stopped")


# ------------------------------------------------------------------------ threads


@pytest.mark.parametrize("call", ["pair", "batch"])
def test_one_call_sees_one_added_vocabulary(call):
    """README "Threads": an encode sees the tokenizer before a change or after it, never
    half of each. ``encode(t, t)`` and ``encode_batch([t, t])`` must give ``t`` the same
    ids twice while another thread adds tokens that ``t`` holds."""
    from codetok.text import words_tokenizer

    text = " ".join(f"qz{k}" for k in range(300))
    tok = words_tokenizer(corpus=["a b c"])
    stop = threading.Event()

    def add() -> None:
        for k in range(300):
            tok.add_tokens([f"qz{k}"])
            time.sleep(0.001)
        stop.set()

    adder = threading.Thread(target=add)
    adder.start()
    mixed = 0
    while not stop.is_set():
        if call == "pair":
            enc = tok.encode(text, text, add_special_tokens=False)
            half = enc.type_ids.index(1)
            mixed += enc.ids[:half] != enc.ids[half:]
        else:
            a, b = tok.encode_batch([text, text], num_threads=1)
            mixed += a.ids != b.ids
    adder.join()
    assert mixed == 0, f"{mixed} calls mixed two states of the added vocabulary"


# ------------------------------------------------------------------------ hub


def _cache(tmp_path: Path) -> Path:
    from codetok.text import words_tokenizer

    commit = "ab" * 20
    repo = tmp_path / "cache" / "models--org--name"
    (repo / "snapshots" / commit).mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    words_tokenizer(corpus=["realmarker"]).save(str(repo / "snapshots" / commit / "tokenizer.json"))  # fmt: skip
    return repo


@pytest.mark.parametrize(
    "revision", ["a" * 300, "a/" * 2100 + "b", "🙂" * 70], ids=["300-chars", "2100-parts", "emoji"]
)
def test_a_long_revision_raises_a_codetok_error(tmp_path, revision):
    _cache(tmp_path)
    with pytest.raises(CodetokError, match="revision"):
        from_pretrained(
            "org/name", revision=revision, cache_dir=tmp_path / "cache", local_files_only=True
        )


def test_a_refs_folder_linking_out_is_not_read(tmp_path):
    """``refs/`` itself a symlink to a folder outside the cache: the ref file is read
    there (the check resolves ``refs/`` too, so the ref is "inside" it)."""
    repo = _cache(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "main").write_text("cd" * 20)
    (repo / "refs" / "main").unlink()
    (repo / "refs").rmdir()
    os.symlink(outside, repo / "refs")
    OpenWatch.install()
    OpenWatch.seen, OpenWatch.active = [], tmp_path
    try:
        from_pretrained("org/name", cache_dir=tmp_path / "cache", local_files_only=True)
    except CodetokError:
        pass
    finally:
        OpenWatch.active = None
    assert not [p for p in OpenWatch.seen if p.startswith(str(outside))]


# ------------------------------------------------------------------------ corpus


def test_a_file_name_that_is_not_utf8_is_listed(tmp_path):
    """Linux file names are bytes: ``caf\\xe9.py`` (Latin-1) must be tokenized or listed in
    the failures; ``ShardTask.fingerprint`` and the manifest raise UnicodeEncodeError."""
    from codetok.corpus import LocalEngine, build_corpus

    src = tmp_path / "src"
    src.mkdir()
    name = os.fsdecode(b"caf\xe9.py")
    (src / name).write_text("x = 1\n")
    manifest = build_corpus([str(src)], str(tmp_path / "out"), engine=LocalEngine(1))
    listed = [f["path"] for s in manifest["shards"] for f in s["files"]]
    listed += [f["path"] for f in manifest["failures"]]
    assert len(listed) == 1


# ------------------------------------------------------------------------ .ctk


def _bpe_ctk(tmp_path: Path) -> Path:
    from codetok.models import BPE

    vocab = {c: i for i, c in enumerate("abcd")} | {"ab": 4, "cd": 5, "abcd": 6, "bc": 7}
    tok = Tokenizer(BPE(vocab, [("a", "b"), ("c", "d"), ("ab", "cd"), ("b", "c")]))
    path = tmp_path / "t.ctk"
    tok.save_binary(path)
    return path


def _engines_agree(path: Path, text: str = "abcd") -> tuple[list[str], list[str]]:
    from fuzz_checks import engines

    tok = Tokenizer.from_file(path)
    native = tok.encode(text).tokens
    with engines(False, False):
        reference = tok.encode(text).tokens
    return native, reference


def test_rewritten_merges_with_the_saved_tables_are_refused_or_agree(tmp_path):
    """The merge ranks rewritten, the checksum written again, the native tables kept: the
    file loaded, and the native kernel (the saved tables: ``abcd``) and the pure-Python one
    (the merge rows: ``a bc d``) disagreed. Fixed: the tables are checked against the rows."""
    path = _bpe_ctk(tmp_path)
    ctk = Ctk.parse(path.read_bytes())
    assert ctk.tables
    ctk.merges[:, 2] = ctk.merges[::-1, 2]
    path.write_bytes(ctk.to_bytes())
    try:
        native, reference = _engines_agree(path)
    except CodetokError:
        return
    assert native == reference


def test_the_largest_merge_rank_is_refused_or_agrees(tmp_path):
    """A merge rank of 2**31 - 1 is "no merge" to the native kernel (``['a', 'b', 'cd']``,
    the reference ``['abcd']``). Fixed: ranks are 0..2**31 - 2 when the file loads."""
    path = _bpe_ctk(tmp_path)
    ctk = Ctk.parse(path.read_bytes())
    ctk.header.pop("binary")
    ctk.tables = []
    ctk.merges[0, 2] = np.int32(2**31 - 1)
    path.write_bytes(ctk.to_bytes())
    try:
        native, reference = _engines_agree(path)
    except CodetokError:
        return
    assert native == reference


def test_a_tokenizer_with_a_lone_surrogate_token_saves(tmp_path):
    """The binary format keeps lone surrogates (their 3-byte forms), so such a token loads;
    ``save`` then raises a bare UnicodeEncodeError and leaves an empty file."""
    from codetok.models import BPE

    tok = Tokenizer(BPE({"a": 0, "\ud800": 1}, []))
    path = tmp_path / "t.json"
    try:
        tok.save(str(path))
    except CodetokError:
        assert not path.exists() or path.stat().st_size
        return
    assert Tokenizer.from_file(path).token_to_id("\ud800") == 1


def test_corpus_jobs_share_their_tokenizer():
    """``codetok.corpus.job`` caches an encoder per job value, never freed: jobs that
    differ in the shard size, size cap or symlink policy each load the default code
    tokenizer again (~25 MB each), so a process running many jobs grows without end (the
    fuzz run's workers reached 4.5 GB)."""
    from codetok.corpus import CorpusJob

    first = CorpusJob(shard_bytes=1000).encoder()
    assert CorpusJob(shard_bytes=2000).encoder().tokenizer is first.tokenizer
    assert (
        CorpusJob(max_file_bytes=4096, follow_symlinks=False).encoder().tokenizer is first.tokenizer
    )
