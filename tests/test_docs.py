"""The documentation's Python examples run as written, one namespace per page (in a
temporary working directory), and every page is in the site's navigation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


def _blocks(page: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p)])
def test_docs_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    for i, block in enumerate(_blocks(page)):
        code = compile(block, f"docs/{page} block {i + 1}", "exec")
        exec(code, namespace)  # noqa: S102 - running our own documentation


def test_every_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [p for p in PAGES if f" {p}" not in nav]
    assert not missing, f"pages outside mkdocs.yml's nav: {missing}"


def test_readme_is_a_front_door():
    """README stays short (issue 29): the rest lives in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines"
