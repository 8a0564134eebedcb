"""The layers look down only: every product import, read from the source, follows the table.

Each product module is parsed with ``ast`` and every import in it is collected, at the top, under
``if TYPE_CHECKING:`` and inside functions (a deferred import is still a dependency), then mapped to
the package it names. The package graph must stay inside :data:`MAY_IMPORT` (so the service never
imports the agents, the agents never import the command line, ...) and have no cycle, and no
deferred import may close a cycle between modules (a cycle a function-level import hides is still
a cycle). docs/architecture.md explains the layers; change the table there and here together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BELOW_SERVICE = {"support", "domain", "results", "graders", "store"}
MAY_IMPORT: dict[str, set[str]] = {
    # the bottom: plumbing (standard library only), the pure model, the pure run statistics
    "support": set(),
    "domain": set(),
    "results": set(),
    "graders": {"domain"},
    "store": set(),
    "migrations": {"store"},
    # the environment service ties the pure parts to the store
    "service": BELOW_SERVICE,
    # the agents play through the service (in process) or over HTTP
    "baseline": BELOW_SERVICE | {"service"},
    # the evaluation layer plays the service with the agents: grader audit, tasks verify
    "evaluation": BELOW_SERVICE | {"service", "baseline"},
    # the transports: HTTP over the service, the process that serves it, the typed client and
    # the Gymnasium registration (``ticketledger.gym``, over the agents' adapter)
    "api": BELOW_SERVICE | {"service"},
    "server": BELOW_SERVICE | {"service", "api"},
    "ticketledger": {"domain", "api", "baseline"},
    # the verifiers plugin (``vf-eval ticketledger-verifiers``), over the agents' adapter
    "ticketledger_verifiers": {"baseline"},
    # the entry points at the top
    "cli": BELOW_SERVICE | {"service", "baseline", "evaluation", "api", "server"},
    "inference": {"baseline"},
    "bench": BELOW_SERVICE | {"service", "baseline", "evaluation"},
}
"""Package -> the product packages it may import (``inference`` is the module ``inference.py``)."""


@dataclass(frozen=True, slots=True)
class Import:
    module: str
    """The importing module (``service.judge``)."""
    target: str
    """The product module it imports (``support.deadline``)."""
    deferred: bool
    """Inside a function: runs only when the function does."""
    typing_only: bool
    """Under ``if TYPE_CHECKING:``: read by the type checker, never run."""
    line: int

    @property
    def edge(self) -> tuple[str, str]:
        return self.module.split(".")[0], self.target.split(".")[0]


def product_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` (a package, or a single ``<name>.py``)."""
    out: dict[str, Path] = {}
    for name in packages:
        if (root / f"{name}.py").is_file():
            out[name] = root / f"{name}.py"
        for path in sorted((root / name).rglob("*.py")) if (root / name).is_dir() else ():
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str, path: Path, modules: Mapping[str, Path]) -> list[Import]:
    """The product imports of one module, each resolved to the module it loads: ``from pkg import
    sub`` names ``pkg.sub`` when that is a module, else ``pkg``; relative imports are resolved."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: list[Import] = []

    def resolve(name: str) -> str | None:
        parts = name.split(".")
        for k in range(len(parts), 0, -1):
            candidate = ".".join(parts[:k])
            if candidate in modules:
                return candidate
        return None

    def add(name: str, node: ast.stmt, deferred: bool, typing_only: bool) -> None:
        target = resolve(name)
        if target is not None and target != module:
            found.append(Import(module, target, deferred, typing_only, node.lineno))

    def walk(node: ast.AST, deferred: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, child, deferred, typing_only)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package[:len(package) - (child.level - 1)]
                    base = ".".join(up + ([child.module] if child.module else []))
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    add(sub if sub in modules else base, child, deferred, typing_only)
            walk(child, deferred or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda),
                 typing_only or (isinstance(child, ast.If) and _is_type_checking(child)))

    walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), False, False)
    return found


def all_imports(root: Path, packages: Iterable[str]) -> list[Import]:
    modules = product_modules(root, packages)
    return [i for name, path in modules.items() for i in imports_of(name, path, modules)]


def upward(imports: Iterable[Import], may_import: Mapping[str, set[str]]) -> list[str]:
    """Every import between packages the table does not allow, with where it is."""
    return list(dict.fromkeys(
        f"{i.module}:{i.line} imports {i.target}" + (" (deferred)" if i.deferred else "")
        for i in imports if i.edge[0] != i.edge[1] and i.edge[1] not in may_import[i.edge[0]]))


def cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its nodes in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def package_graph(imports: Iterable[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for i in imports:
        if i.edge[0] != i.edge[1]:
            graph.setdefault(i.edge[0], set()).add(i.edge[1])
    return graph


def hidden_cycles(imports: Iterable[Import]) -> list[str]:
    """Deferred imports that close a cycle between modules: the target reaches the importer back
    through imports that run (``TYPE_CHECKING`` ones never do)."""
    run = [i for i in imports if not i.typing_only]
    graph: dict[str, set[str]] = {}
    for i in run:
        graph.setdefault(i.module, set()).add(i.target)
    out = []
    for i in run:
        if not i.deferred:
            continue
        seen, todo = {i.target}, [i.target]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if i.module in seen:
            out.append(f"{i.module}:{i.line} imports {i.target} in a function, and {i.target} "
                       f"imports {i.module} back")
    return out


@cache
def _product() -> tuple[Import, ...]:
    return tuple(all_imports(ROOT, MAY_IMPORT))


def test_every_package_in_the_table_exists_and_every_product_package_is_in_it() -> None:
    in_wheel = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "examples", "scripts"}
    assert in_wheel | {"inference"} == set(MAY_IMPORT)
    assert cycle(MAY_IMPORT) is None, "the table itself must be a hierarchy"


def test_imports_point_down_the_table() -> None:
    imports = _product()
    assert len(imports) > 500  # the parser sees the code
    assert upward(imports, MAY_IMPORT) == []


def test_no_cycle_between_packages() -> None:
    assert cycle(package_graph(_product())) is None


def test_no_deferred_import_hides_a_cycle_between_modules() -> None:
    assert hidden_cycles(_product()) == []


def test_the_service_and_the_agents_stay_below_what_plays_them() -> None:
    """The rules the layers exist for, stated on the code as it is: with deferred imports counted."""
    graph = package_graph(_product())
    assert not graph["service"] & {"baseline", "evaluation", "api", "cli"}
    assert not graph["baseline"] & {"evaluation", "api", "cli"}
    assert "baseline" in graph["evaluation"]  # the grader audit and tasks verify play the solvers


def test_the_checker_finds_an_upward_import_a_function_hides(tmp_path: Path) -> None:
    """The checks above fail on a tree that breaks them: a deferred import up a layer, a cycle
    between packages and a cycle a deferred import hides; ``TYPE_CHECKING`` imports are layering
    but not cycles."""
    for name, text in {
        "low/__init__.py": "",
        "low/a.py": "def f() -> None:\n    from high import b\n",
        "low/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from low import a\n",
        "high/__init__.py": "",
        "high/b.py": "from low import a\nfrom .c import x\n",
        "high/c.py": "x = 1\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    imports = all_imports(tmp_path, ["low", "high"])
    assert {(i.module, i.target, i.deferred, i.typing_only) for i in imports} == {
        ("low.a", "high.b", True, False), ("low.typed", "low.a", False, True),
        ("high.b", "low.a", False, False), ("high.b", "high.c", False, False)}
    assert upward(imports, {"low": set(), "high": {"low"}}) == ["low.a:2 imports high.b (deferred)"]
    assert cycle(package_graph(imports)) == ["high", "low", "high"]
    assert hidden_cycles(imports) == ["low.a:2 imports high.b in a function, and high.b imports "
                                      "low.a back"]
