"""The embedded default code tokenizers: offline loading, the previous four-language one by
name, real files of every language."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from codetok.code import CodeTokenizer
from codetok.code.front.languages import CORE_LANGUAGES
from codetok.code.special import CONTROL_TOKENS
from codetok.errors import ConfigurationError

#: the curated languages the default covers beyond the core four
CURATED = ("go", "rust", "typescript", "tsx", "c", "cpp", "php", "ruby", "kotlin", "swift",
           "scala", "bash")  # fmt: skip

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

    monkeypatch.setattr(mod, "_DEFAULT_TEXTS", {})
    tok = CodeTokenizer.default()
    controls = {tok.control_id(role) for role in CONTROL_TOKENS}
    n = tok.vocab_size
    assert controls == set(range(n - 7, n)) | {0, 1, 2}  # the 7 control tokens come last
    assert set(tok.reserved.keywords) == set(CORE_LANGUAGES) | set(CURATED)
    assert CodeTokenizer().vocab_size == tok.vocab_size


def test_the_four_language_default_loads_by_name() -> None:
    """The previous default keeps its ids: control tokens at 32000-32006, four languages."""
    old = CodeTokenizer.default("core4")
    assert {old.control_id(role) for role in CONTROL_TOKENS} == set(range(32000, 32007)) | {0, 1, 2}
    assert set(old.reserved.keywords) == set(CORE_LANGUAGES)
    src = "def f(x):\n    return x  # same\n"
    assert old.decode(old.encode(src, "python").ids) == src
    with pytest.raises(ConfigurationError, match="core4"):
        CodeTokenizer.default("core5")


def test_a_new_code_tokenizer_loads_no_grammar_of_the_default_languages() -> None:
    """``CodeTokenizer()`` reuses the default's keyword table: the curated languages'
    grammar packages (the languages extra) are imported only when a file needs them."""
    code = (
        "import sys\nfrom codetok.code import CodeTokenizer\n"
        "CodeTokenizer().encode('x = 1\\n', 'python')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('tree_sitter_')}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['tree_sitter_python']"


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
    [
        ("java", (".java",)),
        ("csharp", (".cs",)),
        ("javascript", (".js",)),
        ("python", (".py",)),
        ("go", (".go",)),
        ("rust", (".rs",)),
        ("typescript", (".ts",)),
        ("kotlin", (".kt",)),
    ],  # fmt: skip
)
def test_real_corpus_round_trip(
    default: CodeTokenizer, lang: str, suffixes: tuple[str, ...]
) -> None:
    for f in _corpus_files(lang, suffixes, 15):
        data = f.read_bytes()
        assert default.decode(default.encode(data, lang).ids, as_bytes=True) == data, f
