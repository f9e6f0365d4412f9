"""The layout of ``codetok.code``: no import cycles, and the layers only import downwards.

Every import between ``codetok.code`` modules counts as an edge, wherever it sits: at the
top of a module, inside a function, or under ``if TYPE_CHECKING:``. Relative imports are
resolved, and importing from a package (``from codetok.code import lex``) is an edge to its
``__init__``. The layers, lowest first (see the docstring of ``codetok/code/__init__.py``):

- ``front``: ``codetok.code.front`` (grammars, languages, detection, the lexer, kinds);
- ``routing``: ``codetok.code.routing`` (the router, reserved tokens, pieces, identifiers,
  channels, the native router);
- ``core``: the package itself and the modules at its root (``CodeTokenizer``,
  ``CodeEncoding``, training), which tie the two together;
- ``applications``: ``codetok.code.applications`` (CodeBERT mode, pairs, HTML).

A module may import from its own layer and from the layers below it, never from above.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

CODE = Path(__file__).resolve().parents[2] / "codetok" / "code"
PACKAGE = "codetok.code"
LAYERS = ("front", "routing", "core", "applications")
CORE = {
    PACKAGE,
    f"{PACKAGE}.tokenizer",
    f"{PACKAGE}.encoding",
    f"{PACKAGE}.training",
    f"{PACKAGE}.fused",
    f"{PACKAGE}.model_inputs",
    f"{PACKAGE}.special",
    f"{PACKAGE}.fim",
}


class Edge(NamedTuple):
    source: str
    target: str
    where: str  # path:line of the import statement

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.where})"


def module_names(root: Path = CODE, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted name -> file of every module under ``root`` (a package is its ``__init__``)."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join((package, *parts))] = path
    return names


def import_edges(modules: dict[str, Path], package: str = PACKAGE, root: Path = CODE) -> list[Edge]:
    """Every import edge between ``modules`` (top-level, function-level, TYPE_CHECKING).

    Raises:
        AssertionError: an import names a module of ``package`` that does not exist.
    """
    edges: list[Edge] = []
    unresolved: list[str] = []
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                targets = [target]
                # ``from pkg import sub`` imports the submodule ``pkg.sub`` too
                targets += [
                    f"{target}.{alias.name}"
                    for alias in node.names
                    if f"{target}.{alias.name}" in modules
                ]
            where = f"{path.relative_to(root.parents[1])}:{node.lineno}" if targets else ""
            for target in targets:
                if target != package and not target.startswith(package + "."):
                    continue
                if target not in modules:
                    unresolved.append(f"{name} imports unknown {target} ({where})")
                elif target != name:
                    edges.append(Edge(name, target, where))
    assert not unresolved, "imports of modules that do not exist:\n" + "\n".join(unresolved)
    return edges


def find_cycle(edges: list[Edge]) -> list[Edge] | None:
    """The edges of one import cycle, or None when the graph is acyclic."""
    graph: dict[str, list[Edge]] = {}
    for e in edges:
        graph.setdefault(e.source, []).append(e)
    done: set[str] = set()
    nodes: list[str] = []  # the current path; edges[i] leads from nodes[i] to nodes[i + 1]
    taken: list[Edge] = []

    def visit(node: str) -> list[Edge] | None:
        nodes.append(node)
        for e in graph.get(node, []):
            if e.target in nodes:
                return [*taken[nodes.index(e.target) :], e]
            if e.target not in done:
                taken.append(e)
                found = visit(e.target)
                if found:
                    return found
                taken.pop()
        nodes.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        if node not in done:
            found = visit(node)
            if found:
                return found
    return None


def layer(module: str) -> str:
    """The layer of a ``codetok.code`` module (see the module docstring)."""
    if module in CORE:
        return "core"
    sub = module[len(PACKAGE) + 1 :].partition(".")[0]
    if sub in ("front", "routing", "applications"):
        return sub
    raise AssertionError(
        f"{module} belongs to no layer: put it under front/, routing/ or applications/ "
        "(or list it in CORE of tests/code/test_code_layout.py if it ties the layers together)"
    )


def upward_edges(edges: list[Edge]) -> list[str]:
    """The edges that import from a higher layer, described."""
    return [
        f"{e} imports {layer(e.target)} from {layer(e.source)}"
        for e in edges
        if LAYERS.index(layer(e.target)) > LAYERS.index(layer(e.source))
    ]


def cycle_message(cycle: list[Edge]) -> str:
    chain = " -> ".join([cycle[0].source, *(e.target for e in cycle)])
    return f"import cycle: {chain}\n" + "\n".join(f"  {e}" for e in cycle)


# ----------------------------------------------------------------------------- the tree


@pytest.fixture(scope="module")
def edges() -> list[Edge]:
    return import_edges(module_names())


def test_every_module_has_a_layer() -> None:
    for module in module_names():
        assert layer(module) in LAYERS


def test_no_import_cycles(edges: list[Edge]) -> None:
    cycle = find_cycle(edges)
    if cycle is not None:
        pytest.fail(cycle_message(cycle))


def test_layers_import_downwards(edges: list[Edge]) -> None:
    bad = upward_edges(edges)
    if bad:
        pytest.fail("imports against the layering:\n" + "\n".join(bad))


def test_the_edges_are_found(edges: list[Edge]) -> None:
    """The walk sees relative, function-level and package imports (so the checks bite)."""
    pairs = {(e.source, e.target) for e in edges}
    assert (f"{PACKAGE}.front.lexer", f"{PACKAGE}.front.native") in pairs
    assert (f"{PACKAGE}.tokenizer", f"{PACKAGE}.training") in pairs  # CodeTokenizer.train
    assert (f"{PACKAGE}.routing.router", f"{PACKAGE}.routing.segmenter") in pairs  # in a function
    assert (PACKAGE, f"{PACKAGE}.routing.segmenter") in pairs


# ----------------------------------------------------------------------------- the checks


def test_checks_name_the_offending_imports(tmp_path: Path) -> None:
    """A made-up package with a cycle (through a function-level and a TYPE_CHECKING
    import) and an upward import: both checks fail and say where."""
    root = tmp_path / "code"
    for sub in ("front", "routing", "applications"):
        (root / sub).mkdir(parents=True)
        (root / sub / "__init__.py").write_text("")
    (root / "__init__.py").write_text("from .front.a import x\n")
    (root / "tokenizer.py").write_text("")
    (root / "front" / "a.py").write_text("def f():\n    from .b import y\n")
    (root / "front" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
    )
    (root / "routing" / "r.py").write_text("from ..applications import u\n")
    (root / "applications" / "u.py").write_text("")
    found = import_edges(module_names(root, PACKAGE), PACKAGE, root)
    cycle = find_cycle(found)
    assert cycle is not None
    message = cycle_message(cycle)
    assert "codetok.code.front.a -> codetok.code.front.b -> codetok.code.front.a" in message
    assert "b.py:3" in message
    assert upward_edges(found) == [
        f"codetok.code.routing.r -> codetok.code.applications ({tmp_path.name}/code/routing/r.py:1) "
        "imports applications from routing",
        f"codetok.code.routing.r -> codetok.code.applications.u ({tmp_path.name}/code/routing/r.py:1) "
        "imports applications from routing",
    ]
