"""The read side in rooms (docs/design.md, the read side): the command side shows its answers
through the pure views beside ``Viewer`` and imports nothing of ``service.app.reads``, which
imports nothing of ``service.app.commands``; the games list reads the
arena report shipped inside the package, not a file of the repository beside it."""

from __future__ import annotations

from service.app.reads import catalog
from tests.unit.test_import_cycles import import_graph


def _imports_of(graph: dict[str, set[str]], package: str, other: str) -> set[str]:
    """The modules of ``other`` that the modules of ``package`` import."""
    side = {m: targets for m, targets in graph.items() if m.startswith(package)}
    assert side, f"{package} was read"
    return {t for targets in side.values() for t in targets if t.startswith(other)}


def test_neither_side_imports_the_other():
    graph = import_graph()
    assert _imports_of(graph, "service.app.commands", "service.app.reads") == set()
    assert _imports_of(graph, "service.app.reads", "service.app.commands") == set()
    for shared in ("service.app.viewer", "service.app.visibility"):
        assert shared in graph and not any(
            t.startswith(("service.app.reads", "service.app.commands")) for t in graph[shared]
        ), shared


def test_the_games_list_shows_the_shipped_strengths():
    games = {g["game"]: g for g in catalog.games()["games"]}
    measured = [lv for g in games.values() for lv in g["levels"] if lv["strength"] is not None]
    assert measured, "the packaged arena report was read"
    assert all(lv["strength"]["vs"] for lv in measured)
