"""The package's layout rules (issue 29), read from the source's imports, module-level and
function-level alike: no import cycles, the library never imports the command line, one module
imports the native extension, and the package root holds public names and packages, not
helpers."""

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


def _runtime_nodes(tree: ast.AST, *, at_import: bool = False):
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` (never run); with
    ``at_import``, also except function bodies (what running the module itself runs)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
        elif not (at_import and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
            todo.extend(ast.iter_child_nodes(node))


def _imports(module: str, path: Path, package: bool, *, at_import: bool = False) -> set[str]:
    """Every ``codetok`` module or name ``module`` imports, anywhere in its body (the
    type checker's imports aside), or with ``at_import`` when it is imported."""
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _runtime_nodes(tree, at_import=at_import):
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


def _import_graph(*, at_import: bool = False) -> dict[str, set[str]]:
    """Module -> the ``codetok`` modules it imports. ``from a import b`` counts as importing
    module ``a.b`` when there is one, else ``a``; the native extension is a leaf.

    With ``at_import``: what importing the module runs, that is its imports outside
    functions and, for each, the packages around the module imported (Python runs
    ``a/b/__init__.py`` before ``a/b/c.py``; the root package and the module's own packages
    aside, which are already being imported)."""
    mods = _modules()

    def module_of(name: str) -> str | None:
        parts = name.split(".")
        while parts and ".".join(parts) not in mods:
            parts.pop()
        return ".".join(parts) or None

    graph = {}
    for m, (path, package) in mods.items():
        names = {n for n in _imports(m, path, package, at_import=at_import) if n != "codetok._core"}
        names = {n for n in names if not any(o.startswith(n + ".") for o in names)}
        targets = {t for t in map(module_of, names) if t and t != m}
        if at_import:
            parts = [t.split(".") for t in targets]
            targets |= {".".join(p[:i]) for p in parts for i in range(2, len(p))}
            targets = {t for t in targets if t in mods and not (m + ".").startswith(t + ".")}
        graph[m] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    source = "def f():\n    from .b import g\nif TYPE_CHECKING:\n    from .c import h\n"
    tree = ast.parse(source)
    seen = [n.module for n in _runtime_nodes(tree) if isinstance(n, ast.ImportFrom)]
    assert seen == ["b"]


def _no_cycles(graph: dict[str, set[str]]) -> None:
    cycles = _cycles(graph)
    detail = [
        f"{c}: " + "; ".join(f"{a} -> {sorted(graph[a] & set(c))}" for a in c) for c in cycles
    ]
    assert not cycles, "import cycles:\n" + "\n".join(detail)


def test_no_import_cycles_counting_imports_in_functions():
    graph = _import_graph()
    assert "codetok.formats.any_tokenizer" in graph["codetok.corpus.job"]  # in a function
    assert "codetok.trainers.api" in graph["codetok"]
    _no_cycles(graph)


def test_no_import_cycles_when_importing_with_the_packages_around():
    graph = _import_graph(at_import=True)
    assert "codetok.formats.any_tokenizer" not in graph["codetok.corpus.job"]
    assert "codetok.tokenizer" in graph["codetok.normalizers.base"]  # tokenizer.offsets'
    assert "codetok.normalizers" not in graph["codetok.normalizers.base"]  # its own
    _no_cycles(graph)


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


def _long_functions(limit: int = 80) -> list[str]:
    """Functions of more than ``limit`` lines (from ``def`` to the end, the docstring not
    counted) without a ``# One piece:`` comment above them saying why."""
    found = []
    for path in ROOT.rglob("*.py"):
        if {"data", "generated"} & set(path.relative_to(ROOT).parts):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            first = node.body[0]
            doc = 0
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                doc = first.end_lineno - first.lineno + 1
            length = node.end_lineno - node.lineno + 1 - doc
            top = min([node.lineno] + [d.lineno for d in node.decorator_list])
            said = any(line.strip().startswith("# One piece:") for line in lines[max(0, top - 6) : top - 1])  # fmt: skip
            if length > limit and not said:
                found.append(
                    f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name} ({length})"
                )
    return found


def test_the_length_rule_sees_a_long_function(tmp_path, monkeypatch):
    pkg = tmp_path / "codetok"
    pkg.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(90))
    (pkg / "m.py").write_text(f'def f():\n    """Doc."""\n{body}\n\n\n# One piece: a reason.\ndef g():\n{body}\n')  # fmt: skip
    monkeypatch.setattr(__import__(__name__), "ROOT", pkg)
    assert _long_functions() == ["codetok/m.py:1 f (91)"]


def test_no_function_over_80_lines_without_a_reason():
    assert not _long_functions(), "split these, or say above them why one piece:\n" + "\n".join(_long_functions())  # fmt: skip
