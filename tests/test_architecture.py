"""The package's shape, checked statically: no import cycles among ``kg`` modules (function-level
imports count: they only hide a cycle), no function over 60 lines, no private name imported
from another module, and the layers in the order the README draws them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kg"
MAX_LINES = 60


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the kg module imported
    names: tuple[str, ...]  # names taken from it (empty for ``import x``)
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Lines of ``if TYPE_CHECKING:`` blocks: annotations, never run."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports(name: str) -> Iterator[Import]:
    path, tree = MODULES[name], TREES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skip = _type_checking_only(tree)
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            names = tuple(a.name for a in node.names)
            for sub in names:  # ``from kg.server import pages`` imports a module
                if f"{target}.{sub}" in MODULES:
                    yield Import(name, f"{target}.{sub}", (), node.lineno)
            if target in MODULES:
                yield Import(name, target, names, node.lineno)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield Import(name, alias.name, (), node.lineno)


def import_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    for name in MODULES:
        for imp in imports(name):
            if imp.target != imp.source:
                graph.add_edge(imp.source, imp.target, line=imp.line)
    return graph


def test_no_import_cycles() -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(import_graph()) if len(c) > 1]
    assert not cycles, f"import cycles among kg modules: {cycles}"


def test_the_check_sees_a_cycle_hidden_in_a_function() -> None:
    tree = ast.parse("def f():\n    from kg.cli import cli\n")
    found = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert found and found[0].module == "kg.cli"  # the walk reaches function bodies


def test_no_private_name_is_imported_from_another_module() -> None:
    private = [
        f"{MODULES[i.source].relative_to(PACKAGE.parent)}:{i.line} {i.target}.{n}"
        for name in MODULES
        for i in imports(name)
        for n in i.names
        if n.startswith("_") and not n.startswith("__")
    ]
    assert not private, "private names imported across modules:\n" + "\n".join(private)


def long_functions() -> Iterator[str]:
    for name, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > MAX_LINES:
                    path = MODULES[name].relative_to(PACKAGE.parent)
                    yield f"{path}:{node.lineno} {node.name} ({length} lines)"


def test_no_function_is_longer_than_sixty_lines() -> None:
    found = list(long_functions())
    assert not found, "functions over 60 lines:\n" + "\n".join(found)


# Lower layers never import higher ones: readers → text model → nlp → rdf → store →
# build / server / export → cli. Modules of one layer may import each other.
LAYERS = [
    ["kg", "kg.errors", "kg.resources", "kg.text", "kg.rdf.namespaces", "kg.build.phases"],
    ["kg.readers"],
    ["kg.nlp"],
    ["kg.rdf"],
    ["kg.store", "kg.queries", "kg.validate"],
    ["kg.build", "kg.export", "kg.docs", "kg.eval", "kg.server"],
    ["kg.cli"],
]


def layer(module: str) -> int:
    best, rank = -1, 0
    for n, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), n
    return rank


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_no_higher_layer(module: str) -> None:
    upward = [
        f"{i.target} (line {i.line})" for i in imports(module) if layer(i.target) > layer(module)
    ]
    assert not upward, f"{module} (layer {layer(module)}) imports a higher layer: {upward}"
