"""The import graph of the package: no cycles, and imports only point down the layers.

Every ``import`` and ``from ... import`` in every module counts, function-level
and ``TYPE_CHECKING`` imports included (a lazy import still couples two
modules). The layers, from the ground up (docs/architecture.md draws them):

    core < encodings < constraints < kernels < backends < api < variants
         < human < metrics < generators < tools < cli

A module may import its own layer and the layers below it. Known exceptions
are listed with a reason in :data:`KNOWN_CYCLES` and :data:`KNOWN_UPWARD`; the
test fails on any new one, and also when a listed one is gone (so the lists
shrink as the code is fixed).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "csp_sudoku"

#: Layers from the ground up; a module's layer is that of its longest listed prefix.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("csp_sudoku.core",)),
    ("encodings", ("csp_sudoku.encodings",)),
    ("constraints", ("csp_sudoku.constraints",)),
    ("kernels", ("csp_sudoku._kernels",)),
    ("backends", ("csp_sudoku.backends",)),
    ("api", ("csp_sudoku.api",)),
    ("variants", ("csp_sudoku.variants",)),
    ("human", ("csp_sudoku.human",)),
    ("metrics", ("csp_sudoku.metrics",)),
    ("generators", ("csp_sudoku.generators",)),
    (
        "tools",
        (
            "csp_sudoku",  # the package root: the public facade over every layer
            "csp_sudoku.tools",
        ),
    ),
    ("cli", ("csp_sudoku.cli", "csp_sudoku.__main__")),
)

#: Cycles left on purpose, as (module, module) edges of the cycle, with the reason.
KNOWN_CYCLES: dict[tuple[str, str], str] = {}

#: Upward imports left on purpose: (importer, imported) -> reason.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    out: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The package modules an import statement names (``from m import x``: m.x if a module)."""
    mods = modules()
    if isinstance(node, ast.Import):
        candidates = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([base] if base else [])])
        candidates = [
            f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
        ]
    for cand in candidates:
        while cand and cand not in mods:
            cand = cand.rpartition(".")[0]
        if cand and cand != name:
            yield cand


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the package modules it imports anywhere in its body."""
    out: dict[str, frozenset[str]] = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps.update(_targets(name, path, node))
        out[name] = frozenset(deps)
    return out


def layer_of(module: str) -> int:
    """The index of ``module``'s layer in :data:`LAYERS` (longest matching prefix wins)."""
    best = (-1, -1)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best[0]:
                best = (len(prefix), index)
    return best[1]


def cycle_edges() -> set[tuple[str, str]]:
    """Every edge that lies on a cycle (both ends in one strongly connected component)."""
    g = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    component: dict[str, int] = {}
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph is small
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component[w] = index[v]
                if w == v:
                    break

    for v in sorted(g):
        if v not in index:
            visit(v)
    return {(v, w) for v, ws in g.items() for w in ws if component[v] == component[w]}


def upward_imports() -> set[tuple[str, str]]:
    """Every (importer, imported) pair where the imported module sits in a higher layer."""
    return {(v, w) for v, ws in graph().items() for w in ws if layer_of(w) > layer_of(v)}


def test_every_module_has_a_layer() -> None:
    missing = [m for m in modules() if layer_of(m) < 0]
    assert not missing, f"add these modules to LAYERS in tests/test_layers.py: {missing}"


def test_no_import_cycles() -> None:
    found = cycle_edges()
    new = sorted(found - set(KNOWN_CYCLES))
    assert not new, "import cycles (edge importer -> imported on a cycle):\n" + "\n".join(
        f"  {a} -> {b}" for a, b in new
    )
    gone = sorted(set(KNOWN_CYCLES) - found)
    assert not gone, f"fixed cycles still listed in KNOWN_CYCLES: {gone}"


def test_imports_only_point_down() -> None:
    found = upward_imports()
    names = [name for name, _ in LAYERS]
    new = sorted(found - set(KNOWN_UPWARD))
    assert not new, "upward imports (importer [layer] -> imported [layer]):\n" + "\n".join(
        f"  {a} [{names[layer_of(a)]}] -> {b} [{names[layer_of(b)]}]" for a, b in new
    )
    gone = sorted(set(KNOWN_UPWARD) - found)
    assert not gone, f"fixed upward imports still listed in KNOWN_UPWARD: {gone}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from csp_sudoku.metrics import rate", {"csp_sudoku.metrics"}),
        ("def f():\n    from csp_sudoku.human import path", {"csp_sudoku.human.path"}),
        ("import csp_sudoku.generators.target", {"csp_sudoku.generators.target"}),
        ("from . import base", {"csp_sudoku.backends.base"}),
    ],
)
def test_the_parser_sees_every_kind_of_import(source: str, expected: set[str]) -> None:
    """The checker itself: module-level, function-level, absolute and relative imports."""
    path = PACKAGE / "backends" / "sat.py"
    tree = ast.parse(source)
    got = {
        t
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for t in _targets("csp_sudoku.backends.sat", path, node)
    }
    assert got == expected


def test_a_planted_cycle_and_upward_import_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: add io -> api (upward, and a cycle through api -> io)."""
    planted = dict(graph())
    planted["csp_sudoku.core.io"] = planted["csp_sudoku.core.io"] | {"csp_sudoku.api"}
    monkeypatch.setattr(__import__(__name__, fromlist=["graph"]), "graph", lambda: planted)
    assert ("csp_sudoku.core.io", "csp_sudoku.api") in cycle_edges()
    assert ("csp_sudoku.core.io", "csp_sudoku.api") in upward_imports()


#: The only modules at the package root: the public facade, ``python -m`` and
#: the solving facade (the api layer is one module).
ROOT_MODULES = frozenset({"csp_sudoku", "csp_sudoku.__main__", "csp_sudoku.api"})


def test_a_modules_folder_tells_its_layer() -> None:
    """Every layer but the root facades is a folder, and the root holds nothing else."""
    for _, prefixes in LAYERS:
        for prefix in prefixes:
            if prefix not in ROOT_MODULES:
                folder = ROOT / prefix.replace(".", "/")
                assert (folder / "__init__.py").is_file(), f"layer {prefix} is not a folder"
    at_root = {
        m for m in modules() if m.count(".") == 1 and not (PACKAGE / m.split(".")[1]).is_dir()
    }
    at_root |= {"csp_sudoku"}
    assert at_root <= ROOT_MODULES | {"csp_sudoku.__main__"}, sorted(at_root - ROOT_MODULES)


def test_numba_is_imported_by_the_kernels_folder_only() -> None:
    """numba loads lazily in one place: the modules of ``csp_sudoku/_kernels``."""
    outside = []
    for name, path in modules().items():
        if name == "csp_sudoku._kernels" or name.startswith("csp_sudoku._kernels."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            if any(n == "numba" or n.startswith("numba.") for n in names):
                outside.append(f"{name}:{node.lineno}")
    assert not outside, f"numba imported outside csp_sudoku/_kernels: {outside}"
