"""``from_pretrained`` when nothing is found: codetok's NotFoundError, never a hub exception.

With ``huggingface_hub`` installed and offline, a name that is neither a local path nor in
the cache used to surface the hub's own exceptions (``LocalEntryNotFoundError`` for an
unknown repository, ``HFValidationError`` for a path-like name such as ``./no/such/dir``).
Each case here must raise :class:`~codetok.errors.NotFoundError` naming what was looked
for and where, chained to the hub's exception when the hub was asked.

Never touches the network: the environment says offline (``HF_HUB_OFFLINE=1``), or
``huggingface_hub``'s own offline switch is on (its HTTP layer then refuses every request),
and the HF cache is an empty temporary folder.
"""

from __future__ import annotations

import pytest

from codetok import Tokenizer
from codetok.errors import NotFoundError
from codetok.formats.hub import from_pretrained

hfh = pytest.importorskip("huggingface_hub")
hub_constants = pytest.importorskip("huggingface_hub.constants")
hub_errors = pytest.importorskip("huggingface_hub.errors")


@pytest.fixture
def empty_home(tmp_path, monkeypatch):
    """An empty HF home and cache, the working directory inside it, no offline variables."""
    home = tmp_path / "hf-home"
    home.mkdir()
    monkeypatch.setenv("HF_HOME", str(home))
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return home


@pytest.fixture
def hub_offline(monkeypatch):
    """huggingface_hub's own offline mode: its HTTP layer refuses every request."""
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", True)


@pytest.mark.parametrize("name", ["./no/such/dir", "a/b/c", "../elsewhere", "no/such/dir/"])
@pytest.mark.parametrize("env_offline", [True, False], ids=["HF_HUB_OFFLINE=1", "hub-offline"])
def test_a_missing_local_path_is_not_found(empty_home, hub_offline, monkeypatch, name, env_offline):
    if env_offline:
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(NotFoundError) as info:
        from_pretrained(name)
    msg = str(info.value)
    assert repr(name) in msg
    assert f"{(empty_home.parent / name).absolute()} (no such folder or file)" in msg
    assert "tokenizer.json" in msg
    if not env_offline:
        # Not a repository id either: the Hub is not asked, and the message says why.
        assert "not a Hub repository id" in msg
        assert info.value.__cause__ is None


@pytest.mark.parametrize("method", [from_pretrained, Tokenizer.from_pretrained])
def test_an_unknown_repository_with_the_hub_offline(empty_home, hub_offline, method):
    with pytest.raises(NotFoundError) as info:
        method("codetok-tests/no-such-model", revision="v1")
    msg = str(info.value)
    for part in (
        "'codetok-tests/no-such-model'",
        "tokenizer.json",
        "vocab.txt",
        str(empty_home / "hub" / "models--codetok-tests--no-such-model"),
        "refs/v1",
        "revision 'v1'",
        "huggingface_hub in offline mode",
    ):
        assert part in msg, part
    assert isinstance(info.value.__cause__, hub_errors.LocalEntryNotFoundError)
    assert isinstance(info.value, FileNotFoundError)


def test_an_unknown_repository_with_hf_hub_offline_set(empty_home, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(NotFoundError) as info:
        from_pretrained("codetok-tests/no-such-model")
    msg = str(info.value)
    assert str(empty_home / "hub" / "models--codetok-tests--no-such-model") in msg
    assert "HF_HUB_OFFLINE is set" in msg


def test_any_hub_refusal_is_wrapped(empty_home, monkeypatch):
    def refuse(repo_id, **kwargs):
        raise hub_errors.OfflineModeIsEnabled("Cannot reach https://huggingface.co: offline mode")

    monkeypatch.setattr(hfh, "snapshot_download", refuse)
    with pytest.raises(NotFoundError, match="Cannot reach https://huggingface.co") as info:
        from_pretrained("codetok-tests/no-such-model")
    assert isinstance(info.value.__cause__, hub_errors.OfflineModeIsEnabled)


def test_the_hub_is_asked_for_codetoks_cache_folder(empty_home, monkeypatch):
    seen = {}

    def refuse(repo_id, **kwargs):
        seen.update(kwargs)
        raise hub_errors.OfflineModeIsEnabled("offline")

    monkeypatch.setattr(hfh, "snapshot_download", refuse)
    with pytest.raises(NotFoundError):
        from_pretrained("codetok-tests/no-such-model")
    assert seen["cache_dir"] == str(empty_home / "hub")
