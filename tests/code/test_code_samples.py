"""Real files of every language (``corpora/samples``, third-party code with its licence):
detected by name and by content alone, lexed losslessly with the native lexer equal to the
Python one, and round-tripped by the default code tokenizer."""

from __future__ import annotations

from pathlib import Path

import pytest
from _language_helpers import check_language, default_tokenizer

from codetok.code import detect_language

SAMPLES = Path(__file__).resolve().parents[2] / "corpora" / "samples"
FILES = sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.name != "README.md")


def language_of(path: Path) -> str:
    return path.relative_to(SAMPLES).parts[0]


def test_every_curated_language_has_samples() -> None:
    assert {language_of(p) for p in FILES} >= {
        "go", "rust", "typescript", "tsx", "c", "cpp", "php", "ruby", "kotlin", "swift",
        "scala", "bash", "lua", "haskell", "sql", "java", "csharp",
    }  # fmt: skip


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_real_file(path: Path) -> None:
    lang = language_of(path)
    data = path.read_bytes()
    assert detect_language(data, path=path) == lang
    assert detect_language(data) == lang  # the content alone
    check_language(data, lang)
    tok = default_tokenizer()
    assert tok.decode(tok.encode(data, lang).ids, as_bytes=True) == data
