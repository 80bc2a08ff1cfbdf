"""No import cycle among the Paohuzi modules: the bot levels, the strong bot and the rules import
one way only (``bots`` -> ``strong`` -> ``basic_bots`` and the rules), so any module loads alone."""

from __future__ import annotations

import ast
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "domain" / "paohuzi"


def _modules() -> dict[str, tuple[pathlib.Path, bool]]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def _imports(name: str, path: pathlib.Path, is_package: bool, known: set[str]) -> set[str]:
    """Every module of ``known`` that ``name`` imports, at the top or inside a function. An
    import of a submodule counts for the submodule, not for the package around it."""
    package = name if is_package else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            subs = {f"{base}.{a.name}" for a in node.names} & known
            found |= subs
            if len(subs) < len(node.names) and base in known:
                found.add(base)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names} & known
    found.discard(name)
    return found


def test_no_import_cycle_in_paohuzi() -> None:
    mods = _modules()
    graph = {name: _imports(name, path, pkg, set(mods)) for name, (path, pkg) in mods.items()}
    cycles = []
    for start in graph:
        stack = [(start, [start])]
        seen = set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    cycles.append(trail + [start])
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.parametrize("name", sorted(_modules()))
def test_each_module_imports_alone(name: str) -> None:
    """In a fresh interpreter each module must load first; here, at least, each one loads."""
    importlib.import_module(name)
