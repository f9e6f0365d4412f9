"""Packaging: every sub-package is listed in pyproject.toml and the grammars ship."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def test_every_subpackage_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "codetok").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    # grammars/ maps to codetok.grammars; codetok/data holds data files only (no module)
    assert found | {"codetok.grammars", "codetok.data"} == listed


def test_only_listed_package_data_ships():
    """The wheel holds the listed data files (the default code tokenizer's, the grammars')
    and none of the C++ sources of codetok/_native, which build the extension."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    assert setuptools["include-package-data"] is False
    data = setuptools["package-data"]["codetok.data"]
    shipped = {p.name for p in (ROOT / "codetok" / "data").iterdir() if p.is_file()}
    assert shipped and all(any(Path(n).match(g) for g in data) for n in shipped)
    assert "codetok._native" not in setuptools["packages"]


def test_grammars_are_importable_package_data():
    from importlib.resources import files

    try:
        names = {p.name for p in files("codetok.grammars").iterdir()}
    except ModuleNotFoundError:
        pytest.fail("codetok.grammars is not installed as a package")
    assert {"python.toml", "java.toml", "csharp.toml", "javascript.toml"} <= names
