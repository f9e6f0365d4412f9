"""The embedded default code tokenizer: offline loading, real files of all four languages."""

from __future__ import annotations

import os
import socket
import sysconfig
from pathlib import Path

import pytest

from codetok.code import CodeTokenizer
from codetok.code.special import CONTROL_TOKENS

DATA = Path(__file__).parents[1] / "data" / "code"
#: optional: a corpora/fetch_code.py output folder to test many more real files
CORPUS = os.environ.get("CODETOK_CODE_CORPUS")


@pytest.fixture(scope="module")
def default() -> CodeTokenizer:
    return CodeTokenizer.default()


def test_loads_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the default code tokenizer must not touch the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    import codetok.code.tokenizer as mod

    monkeypatch.setattr(mod, "_DEFAULT_TEXT", None)
    tok = CodeTokenizer.default()
    controls = {tok.control_id(role) for role in CONTROL_TOKENS}
    assert controls == set(range(32000, 32007)) | {0, 1, 2}  # the 7 new ones after the rest
    assert 16000 <= tok.vocab_size - 7 <= 32000
    assert set(tok.reserved.keywords) == {"python", "java", "csharp", "javascript"}
    assert CodeTokenizer().vocab_size == tok.vocab_size


def test_shipped_file_is_small() -> None:
    from importlib import resources

    ref = resources.files("codetok") / "data" / "default_code_tokenizer.json"
    assert len(ref.read_bytes()) < 4 * 1024 * 1024


@pytest.mark.parametrize(
    "path", sorted(p for p in DATA.iterdir() if p.suffix != ".txt"), ids=lambda p: p.name
)
def test_fixtures_round_trip(default: CodeTokenizer, path: Path) -> None:
    data = path.read_bytes()
    assert default.decode(default.encode(data, path=path).ids, as_bytes=True) == data


def test_stdlib_round_trip_and_compression(default: CodeTokenizer) -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    total_bytes = total_tokens = 0
    for name in ("argparse.py", "dataclasses.py", "json/decoder.py", "textwrap.py"):
        data = (root / name).read_bytes()
        enc = default.encode(data, "python")
        assert default.decode(enc.ids, as_bytes=True) == data, name
        total_bytes += len(data)
        total_tokens += len(enc)
    assert total_bytes / total_tokens > 2.5  # a trained vocabulary, not bytes


def _corpus_files(lang: str, suffixes: tuple[str, ...], limit: int) -> list[Path]:
    if not CORPUS:
        pytest.skip("set CODETOK_CODE_CORPUS to a corpora/fetch_code.py output folder")
    files = sorted(f for f in (Path(CORPUS) / lang).rglob("*") if f.suffix in suffixes)
    if not files:
        pytest.skip(f"no {lang} files under {CORPUS}")
    return files[:: max(1, len(files) // limit)][:limit]


@pytest.mark.parametrize(
    ("lang", "suffixes"),
    [("java", (".java",)), ("csharp", (".cs",)), ("javascript", (".js",)), ("python", (".py",))],
)
def test_real_corpus_round_trip(
    default: CodeTokenizer, lang: str, suffixes: tuple[str, ...]
) -> None:
    for f in _corpus_files(lang, suffixes, 15):
        data = f.read_bytes()
        assert default.decode(default.encode(data, lang).ids, as_bytes=True) == data, f
