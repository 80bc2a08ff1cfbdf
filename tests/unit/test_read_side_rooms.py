"""The read side in rooms (docs/design.md, the read side): the command side shows its answers
through the pure gate and imports nothing else of ``service.app.reads``; the games list reads the
arena report shipped inside the package, not a file of the repository beside it."""

from __future__ import annotations

from service.app.reads import catalog
from tests.unit.test_import_cycles import import_graph


def test_the_command_side_imports_only_the_gate_of_the_read_side():
    graph = import_graph()
    commands = {m: targets for m, targets in graph.items() if m.startswith("service.app.commands")}
    assert commands, "the command side was read"
    reads = {t for targets in commands.values() for t in targets if t.startswith("service.app.reads")}
    assert reads <= {"service.app.reads.gate"}
    assert "service.app.viewer" in graph and not any(
        t.startswith("service.app.reads") for t in graph["service.app.viewer"]
    )


def test_the_games_list_shows_the_shipped_strengths():
    games = {g["game"]: g for g in catalog.games()["games"]}
    measured = [lv for g in games.values() for lv in g["levels"] if lv["strength"] is not None]
    assert measured, "the packaged arena report was read"
    assert all(lv["strength"]["vs"] for lv in measured)
