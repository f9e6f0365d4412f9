"""``from_pretrained`` on revisions and paths the file system refuses, and on a cache whose
``refs/`` or ``snapshots/`` folder is itself a link out of the repository's folder.

A revision of 300 chars, of 2,100 parts or of 70 emoji made the cache lookup raise a bare
``OSError`` (ENAMETOOLONG); any OS error while looking in the cache is now a codetok error
naming the revision or the path. A linked ``refs/`` folder was followed (the ref's real path
was compared with the real path of ``refs/``, both outside the cache).

Never touches the network: ``local_files_only=True`` throughout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codetok import from_pretrained
from codetok.errors import ConfigurationError, FormatError, NotFoundError
from codetok.formats.hub import cached_snapshot

COMMIT = "ab" * 20
OTHER = "cd" * 20


@pytest.fixture(scope="module")
def tokenizer_json(tmp_path_factory) -> bytes:
    from codetok.text import words_tokenizer

    path = tmp_path_factory.mktemp("tok") / "tokenizer.json"
    words_tokenizer(corpus=["realmarker"]).save(str(path))
    return path.read_bytes()


def _cache(tmp_path: Path, tokenizer_json: bytes) -> Path:
    """``cache/models--org--name`` with ``refs/main`` and a snapshot holding a tokenizer."""
    repo = tmp_path / "cache" / "models--org--name"
    (repo / "snapshots" / COMMIT).mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    (repo / "snapshots" / COMMIT / "tokenizer.json").write_bytes(tokenizer_json)
    return repo


@pytest.mark.parametrize(
    ("revision", "why"),
    [
        ("a" * 300, "a part of 300 bytes"),
        ("a/" * 2100 + "b", "4,201 bytes long"),
        ("\U0001f642" * 70, "a part of 280 bytes"),
    ],
    ids=["300-chars", "2100-parts", "emoji"],
)
def test_a_revision_too_long_for_a_path_is_refused_naming_it(
    tmp_path, tokenizer_json, revision, why
):
    _cache(tmp_path, tokenizer_json)
    cache = tmp_path / "cache"
    with pytest.raises(ConfigurationError, match="revision=") as got:
        from_pretrained("org/name", revision=revision, cache_dir=cache, local_files_only=True)
    assert why in str(got.value)
    assert repr(revision)[:100] in str(got.value)
    with pytest.raises(ConfigurationError, match=why):
        cached_snapshot("org/name", revision=revision, cache_dir=cache)


def test_the_longest_revision_parts_still_load(tmp_path, tokenizer_json):
    """255 bytes per part is what ext4 takes: such a ref is looked up, not refused."""
    repo = _cache(tmp_path, tokenizer_json)
    rev = "b" * 255 + "/" + "c" * 255
    (repo / "refs" / ("b" * 255)).mkdir()
    (repo / "refs" / rev).write_text(COMMIT)
    cache = tmp_path / "cache"
    tok = from_pretrained("org/name", revision=rev, cache_dir=cache, local_files_only=True)
    assert tok.token_to_id("realmarker") is not None


def test_an_os_error_in_the_cache_names_the_path(tmp_path):
    """A cache folder whose path is past PATH_MAX: ENAMETOOLONG from the lookup of the ref
    becomes a codetok error naming the path and the revision."""
    cache = tmp_path.joinpath(*["d" * 200] * 22)
    with pytest.raises(ConfigurationError, match="cannot look for revision 'main'") as got:
        from_pretrained("org/name", cache_dir=cache, local_files_only=True)
    assert str(cache / "models--org--name" / "refs" / "main") in str(got.value)
    assert isinstance(got.value.__cause__, OSError)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="POSIX permissions, not root")
def test_an_unreadable_refs_folder_names_the_path(tmp_path, tokenizer_json):
    repo = _cache(tmp_path, tokenizer_json)
    (repo / "refs").chmod(0)
    try:
        with pytest.raises(ConfigurationError, match="refs"):
            from_pretrained("org/name", cache_dir=tmp_path / "cache", local_files_only=True)
    finally:
        (repo / "refs").chmod(0o755)


def test_a_name_too_long_for_a_path_is_not_found(tmp_path):
    with pytest.raises(NotFoundError, match="not a Hub repository id"):
        from_pretrained("a" * 300, cache_dir=tmp_path, local_files_only=True)


def test_a_refs_folder_linking_out_is_refused_unread(tmp_path, tokenizer_json, monkeypatch):
    repo = _cache(tmp_path, tokenizer_json)
    outside = tmp_path / "outside"
    (outside / "snapshots" / OTHER).mkdir(parents=True)
    (outside / "main").write_text(OTHER)
    (repo / "snapshots" / OTHER).mkdir()
    (repo / "snapshots" / OTHER / "tokenizer.json").write_bytes(tokenizer_json)
    (repo / "refs" / "main").unlink()
    (repo / "refs").rmdir()
    os.symlink(outside, repo / "refs")
    read: list[str] = []
    real_read_text = Path.read_text

    def read_text(self: Path, *args, **kwargs) -> str:
        read.append(str(self))
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    with pytest.raises(FormatError, match="outside the cache's") as got:
        from_pretrained("org/name", cache_dir=tmp_path / "cache", local_files_only=True)
    assert str(repo / "refs") in str(got.value)
    assert read == []


def test_a_snapshots_folder_linking_out_is_refused(tmp_path, tokenizer_json):
    """The snapshot outside holds no tokenizer file (the check of those files does not
    catch it): the folder itself is refused."""
    repo = _cache(tmp_path, tokenizer_json)
    outside = tmp_path / "outside" / "snapshots"
    (outside / COMMIT).mkdir(parents=True)
    (outside / COMMIT / "notes.txt").write_text("x")
    (repo / "snapshots" / COMMIT / "tokenizer.json").unlink()
    (repo / "snapshots" / COMMIT).rmdir()
    (repo / "snapshots").rmdir()
    os.symlink(outside, repo / "snapshots")
    with pytest.raises(FormatError, match="outside the cache's"):
        cached_snapshot("org/name", cache_dir=tmp_path / "cache")


def test_a_linked_cache_folder_still_loads(tmp_path, tokenizer_json):
    """The cache folder, or the repository's folder, may be a link (a cache on another
    disk): only links out of the repository's own folder are refused."""
    _cache(tmp_path / "disk", tokenizer_json)
    os.symlink(tmp_path / "disk" / "cache", tmp_path / "cache")
    os.mkdir(tmp_path / "cache2")
    repo = "models--org--name"
    os.symlink(tmp_path / "disk" / "cache" / repo, tmp_path / "cache2" / repo)
    for cache in ("cache", "cache2"):
        tok = from_pretrained("org/name", cache_dir=tmp_path / cache, local_files_only=True)
        assert tok.token_to_id("realmarker") is not None
