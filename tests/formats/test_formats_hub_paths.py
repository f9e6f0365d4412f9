"""``from_pretrained`` and ``cached_snapshot`` never leave the cache's repository folder.

A ref file holding a path (``../../../outside``, ``/etc``) instead of a commit, a revision
such as ``../../../x``, or a ref, snapshot or tokenizer file that is a symlink to
elsewhere used to load (or read) files outside the HF cache; an unknown hostile revision
went on to the Hub download. Each is refused now with a codetok error naming the ref or
revision. The normal HF layout (files in ``snapshots/<commit>/`` linking to
``../../blobs/<hash>``, ``refs/pr/1`` kept as ``refs/refs/pr/1``) still loads.

Never touches the network: the download helper is replaced by one that fails the test.
"""

from __future__ import annotations

import shutil

import pytest

from codetok.errors import ConfigurationError, FormatError
from codetok.formats import hub
from codetok.formats.hub import cached_snapshot, from_pretrained

COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPO = "org/tok"
FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json")


@pytest.fixture(autouse=True)
def no_hub(monkeypatch):
    """Offline everywhere; reaching the download helper fails the test."""

    def refuse(repo_id, revision, cache):
        pytest.fail(f"the Hub download was reached with revision={revision!r}")

    monkeypatch.setattr(hub, "_download", refuse)
    monkeypatch.setattr(hub, "_offline_reason", lambda local_files_only: None)
    for name in ("HF_HUB_OFFLINE", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        monkeypatch.delenv(name, raising=False)


def _hf_layout(cache, src, *, refs=("main",), commit=COMMIT):
    """A repository folder as huggingface_hub writes it: blobs, snapshot links, refs."""
    repo = cache / ("models--" + REPO.replace("/", "--"))
    snap = repo / "snapshots" / commit
    snap.mkdir(parents=True)
    (repo / "blobs").mkdir()
    for k, name in enumerate(FILES):
        blob = repo / "blobs" / f"{k:040x}"
        shutil.copy(src / name, blob)
        (snap / name).symlink_to(f"../../blobs/{blob.name}")
    for ref in refs:
        (repo / "refs" / ref).parent.mkdir(parents=True, exist_ok=True)
        (repo / "refs" / ref).write_text(commit, encoding="utf-8")
    return repo


def _outside(tmp_path, src):
    """A tokenizer folder next to the cache, which nothing in the cache may reach."""
    out = tmp_path / "outside"
    out.mkdir()
    for name in FILES:
        shutil.copy(src / name, out / name)
    return out


def test_the_hf_layout_with_blob_links_and_slashed_refs_loads(bert_dir, tmp_path):
    cache = tmp_path / "hub"
    repo = _hf_layout(cache, bert_dir, refs=("main", "refs/pr/1", "feature/x"))
    want = from_pretrained(bert_dir).encode("hello world").ids
    for rev in (None, "main", "refs/pr/1", "feature/x", COMMIT):
        assert cached_snapshot(REPO, revision=rev, cache_dir=cache) == (repo / "snapshots" / COMMIT)
        tok = from_pretrained(REPO, revision=rev, cache_dir=cache)
        assert tok.encode("hello world").ids == want


@pytest.mark.parametrize("target", ["relative", "absolute"])
def test_a_ref_holding_a_path_is_refused(bert_dir, tmp_path, target):
    cache = tmp_path / "hub"
    repo = _hf_layout(cache, bert_dir)
    out = _outside(tmp_path, bert_dir)
    # snapshots/<text> must not reach tmp_path/outside (it did: the tokenizer loaded).
    text = "../../../outside" if target == "relative" else str(out)
    ref = repo / "refs" / "main"
    ref.write_text(text, encoding="utf-8")
    for call in (
        lambda: cached_snapshot(REPO, cache_dir=cache),
        lambda: from_pretrained(REPO, cache_dir=cache),
    ):
        with pytest.raises(FormatError) as info:
            call()
        msg = str(info.value)
        assert msg.startswith(f"{ref}: ")
        assert "revision 'main'" in msg and repr(text) in msg and "not a commit hash" in msg


def test_a_ref_naming_etc_is_refused(bert_dir, tmp_path):
    repo = _hf_layout(tmp_path / "hub", bert_dir)
    (repo / "refs" / "main").write_text("/etc", encoding="utf-8")
    with pytest.raises(FormatError, match="holds '/etc', not a commit hash"):
        from_pretrained(REPO, cache_dir=tmp_path / "hub")


@pytest.mark.parametrize(
    ("revision", "why"),
    [
        ("../../../x", "has a '..' part"),
        ("main/../../../../x", "has a '..' part"),
        ("/etc", "is an absolute path"),
        ("/etc/hostname", "is an absolute path"),
        ("./main", "has a '.' part"),
        ("a//b", "has an empty part"),
        ("main/", "has an empty part"),
        ("..\\..\\x", "holds '\\', ':' or a control character"),
        ("C:x", "holds '\\', ':' or a control character"),
        ("main\n", "holds '\\', ':' or a control character"),
    ],
)
def test_a_hostile_revision_is_refused_before_the_cache_and_the_hub(
    bert_dir, tmp_path, revision, why
):
    cache = tmp_path / "hub" / "x" / "y"  # ../../../x from refs/ leads to tmp_path/hub/x
    _hf_layout(cache, bert_dir)
    # A ref-like file where ../../../x would lead, naming the real snapshot: reading it
    # loaded the tokenizer through a ref outside refs/.
    (cache / "x").write_text(COMMIT, encoding="utf-8")
    for call in (
        lambda: cached_snapshot(REPO, revision=revision, cache_dir=cache),
        lambda: from_pretrained(REPO, revision=revision, cache_dir=cache),
        lambda: from_pretrained("org/absent", revision=revision, cache_dir=cache),
    ):
        with pytest.raises(ConfigurationError) as info:
            call()
        assert f"revision={revision!r} {why}" in str(info.value)


def test_a_revision_that_is_not_a_str_is_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="revision must be a str"):
        from_pretrained(REPO, revision=1, cache_dir=tmp_path)


def test_cached_snapshot_refuses_a_path_as_repo_id(tmp_path):
    for repo_id in ("../x", "a/b/c", "/etc"):
        with pytest.raises(ConfigurationError, match="is not a repository id"):
            cached_snapshot(repo_id, cache_dir=tmp_path)


def test_a_ref_linking_out_of_refs_is_refused(bert_dir, tmp_path):
    repo = _hf_layout(tmp_path / "hub", bert_dir)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text(COMMIT, encoding="utf-8")
    ref = repo / "refs" / "main"
    ref.unlink()
    ref.symlink_to(elsewhere)
    with pytest.raises(FormatError) as info:
        from_pretrained(REPO, cache_dir=tmp_path / "hub")
    assert str(info.value).startswith(f"{ref}: ")
    assert f"resolves to {elsewhere}, outside the cache's {repo / 'refs'}" in str(info.value)


def test_a_snapshot_linking_out_of_snapshots_is_refused(bert_dir, tmp_path):
    repo = _hf_layout(tmp_path / "hub", bert_dir)
    out = _outside(tmp_path, bert_dir)
    snap = repo / "snapshots" / COMMIT
    shutil.rmtree(snap)
    snap.symlink_to(out, target_is_directory=True)
    for rev in ("main", COMMIT):
        with pytest.raises(FormatError) as info:
            from_pretrained(REPO, revision=rev, cache_dir=tmp_path / "hub")
        msg = str(info.value)
        assert msg.startswith(f"{snap}: ")
        assert f"the snapshot of revision {rev!r} resolves to {out}, outside" in msg


def test_a_tokenizer_file_linking_out_of_the_repository_is_refused(bert_dir, tmp_path):
    repo = _hf_layout(tmp_path / "hub", bert_dir)
    out = _outside(tmp_path, bert_dir)
    link = repo / "snapshots" / COMMIT / "tokenizer.json"
    link.unlink()
    link.symlink_to(out / "tokenizer.json")
    with pytest.raises(FormatError) as info:
        from_pretrained(REPO, cache_dir=tmp_path / "hub")
    msg = str(info.value)
    assert msg.startswith(f"{link}: ")
    assert f"tokenizer.json of revision 'main' resolves to {out / 'tokenizer.json'}" in msg
