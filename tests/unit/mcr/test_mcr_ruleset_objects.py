"""The MCR rulesets as objects (``domain.mcr.rulesets``): each names what it changes, the text
on the wire stays the deal's ``ruleset``, and the engine's modules import no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from domain.errors import RuleViolation
from domain.mcr import GAME, RULESETS
from domain.mcr.rulesets import CURRENT, MCR1, MCR2, ruleset_of
from domain.mcr.rulesets import RULESETS as RULESET_OBJECTS
from domain.mcr.state import State

PACKAGE = Path(__file__).resolve().parents[3] / "domain" / "mcr"


def test_each_ruleset_names_its_changes_and_later_ones_keep_them():
    assert list(RULESET_OBJECTS) == ["mcr/1", "mcr/2"] == list(RULESETS)
    assert issubclass(MCR2, MCR1) and CURRENT is RULESET_OBJECTS[GAME.ruleset]
    first, second = RULESET_OBJECTS["mcr/1"], RULESET_OBJECTS["mcr/2"]
    assert not first.last_discard_only_for_a_win and second.last_discard_only_for_a_win  # MC-3.7
    assert not first.flower_replacement_is_no_kong_replacement  # MC-4.6
    assert second.flower_replacement_is_no_kong_replacement
    for name, game in RULESETS.items():
        assert game.rules is ruleset_of(name) and game.rules.name == name
    with pytest.raises(AttributeError):
        second.last_discard_only_for_a_win = False  # type: ignore[misc]


def test_the_state_reads_its_rules_from_the_ruleset_text_it_folded():
    assert State().rules is RULESET_OBJECTS["mcr/1"]  # before DealCreated, as the field's default
    for name, game in RULESETS.items():
        state = game.fold(game.create(deal_id="r", seats=["human"] * 4, server_seed=b"\x02" * 32))
        assert state.ruleset == name and state.rules is RULESET_OBJECTS[name]


def test_a_ruleset_this_build_lacks_is_refused():
    with pytest.raises(RuleViolation) as err:
        ruleset_of("mcr/9")
    assert err.value.rule_id == "DS-1" and "mcr/9" in err.value.message


def _imports(path: Path, module: str, modules: set[str]) -> set[str]:
    """The package modules ``module`` imports anywhere in its file (relative or absolute)."""
    base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                parts = base[: len(base) - node.level + 1]
                target = ".".join([*parts, *([node.module] if node.module else [])])
            for a in node.names:
                full = f"{target}.{a.name}"
                found.add(full if full in modules else target)
    return (found & modules) - {module}


def test_no_import_cycle_among_the_mcr_modules():
    files = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent.parent).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {m: _imports(p, m, set(files)) for m, p in files.items()}
    assert graph["domain.mcr.state"] >= {"domain.mcr.rulesets", "domain.mcr.messages"}  # the scan sees them
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join([*path, module])
        if module in done:
            return
        for dep in graph[module]:
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
