"""The package's layout rules (issue 29), read from the source's imports, module-level and
function-level alike: the library never imports the command line, one module imports the
native extension, and the package root holds public names and packages, not helpers."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "codetok"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for f in ROOT.rglob("*.py"):
        parts = list(f.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[1:2] == ["data"]:
            continue
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (f, package)
    return out


def _imports(module: str, path: Path, package: bool) -> set[str]:
    """Every ``codetok`` module or name ``module`` imports, anywhere in its body."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            if node.level:
                base = module.split(".") if package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            found |= {f"{prefix}.{a.name}" for a in node.names} | {prefix}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {name for name in found if name == "codetok" or name.startswith("codetok.")}


def test_the_walk_sees_function_level_and_relative_imports():
    mods = _modules()
    imports = _imports("codetok.corpus.job", *mods["codetok.corpus.job"])
    assert "codetok.formats.any_tokenizer.load_any_tokenizer" in imports  # in a function
    assert "codetok.engine.native" in _imports("codetok.models.bpe", *mods["codetok.models.bpe"])


def test_the_library_never_imports_the_command_line():
    bad = [
        (m, name)
        for m, (path, package) in _modules().items()
        if not m.startswith("codetok.cli")
        for name in _imports(m, path, package)
        if name == "codetok.cli" or name.startswith("codetok.cli.")
    ]
    assert not bad, f"library modules importing codetok.cli: {bad}"


def test_one_module_imports_the_native_extension():
    importers = sorted(
        m
        for m, (path, package) in _modules().items()
        if "codetok._core" in _imports(m, path, package)
    )
    assert importers == ["codetok.engine.native"]


def test_the_package_root_holds_names_and_packages():
    modules = sorted(p.name for p in ROOT.glob("*.py"))
    assert {"__init__.py", "errors.py"} <= set(modules)
    assert len(modules) - 2 <= 6, f"modules at the package root: {modules}"
