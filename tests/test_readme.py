"""The README's Python examples run as written (in a temporary working directory)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_examples():
    assert len(_blocks()) >= 3


def test_readme_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__readme__"}
    for i, block in enumerate(_blocks()):
        code = compile(block, f"README.md block {i + 1}", "exec")
        exec(code, namespace)  # noqa: S102 - running our own documentation
