"""The packages import one another in one direction: no two modules of ``domain``, ``projections``
or ``service`` reach each other through imports (docs/design.md, the layers). A cycle makes the
order of imports matter and a part impossible to take out alone; this finds every one.

Every import counts, also one inside a function (it still ties the two modules together), except
those under ``if TYPE_CHECKING:`` (read by the type checker only). The web client's scripts are
held to the same: no circle of ES module imports under ``service/http/web``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "projections", "service")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def imported_names(tree: ast.AST, module: str, is_package: bool, modules: set[str] = frozenset()) -> set[str]:
    """The modules the imports of ``tree`` name. ``from a import b`` names ``a.b`` when that is a
    module of ``modules`` (``a`` itself runs before any of its submodules, for everyone alike),
    else ``a``, whose name ``b`` is."""
    names: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                names.add(submodule if submodule in modules else base)
        stack.extend(ast.iter_child_nodes(node))
    return names


def import_graph() -> dict[str, set[str]]:
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    modules = {module_name(p): p for p in files}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = imported_names(tree, name, path.name == "__init__.py", set(modules))
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_finder_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_relative_and_function_level_imports():
    tree = ast.parse("from . import x, name\nfrom .y import z\ndef f():\n    import q.r\n")
    known = {"p", "p.x", "p.y", "q.r"}
    assert imported_names(tree, "p.m", is_package=False, modules=known) == {"p", "p.x", "p.y", "q.r"}
    tree = ast.parse("from . import x\nif TYPE_CHECKING:\n    from p import y\n")
    assert imported_names(tree, "p.m", is_package=False, modules=known) == {"p.x"}


def test_no_import_cycles():
    graph = import_graph()
    assert len(graph) > 100  # the whole tree was read
    assert cycles(graph) == []


# the web client's modules (service/http/web): ES module imports, read as text
WEB = ROOT / "service" / "http" / "web"
_JS_IMPORT = re.compile(r"""^\s*import\s+(?:[^"';]*?\s+from\s+)?["'](\.{1,2}/[^"']+\.js)["']""", re.M)


def web_import_graph() -> dict[str, set[str]]:
    """Each web script (its path under web/) and the scripts it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(WEB.rglob("*.js")):
        here = path.relative_to(WEB).as_posix()
        targets = set()
        for spec in _JS_IMPORT.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / spec).resolve()
            targets.add(target.relative_to(WEB.resolve()).as_posix())
        graph[here] = targets
    return graph


def test_the_web_graph_reads_every_import_form():
    text = 'import "./a.js";\nimport x from "../b.js";\nimport { c, d } from "./c.js";\nconst e = "./e.js";\n'
    assert sorted(_JS_IMPORT.findall(text)) == ["../b.js", "./a.js", "./c.js"]


def test_no_import_cycles_in_the_web_client():
    """A page and a game module never import each other: the pages ask registry.js, which imports
    nothing, and games.js fills it (a circle makes what is defined depend on load order)."""
    graph = web_import_graph()
    assert len(graph) > 20 and any(graph.values())  # the whole client was read
    assert all(t in graph for targets in graph.values() for t in targets), "an import names no script"
    assert cycles(graph) == []
