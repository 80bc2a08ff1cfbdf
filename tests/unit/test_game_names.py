"""Game names live in the registry (``domain.game.GAMES``) and the games' own folders, not in the
code shared by every game (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

from domain.game import GAMES

ROOT = Path(__file__).resolve().parents[2]


def test_bench_names_no_game() -> None:
    """The shared benches (``bench/*.py`` but each game's own ``bench/<game>.py``) read the games
    from the registry: no registered game's name appears in them, in any case, as a word of its
    own (``domain.<game>``, ``--<game>-walls``, ``"<game>"``, a docstring's ``<Game>``)."""
    own = {f"{name}.py" for name in GAMES} | {f"{module.rsplit('.', 1)[-1]}.py" for module in GAMES.values()}
    shared = sorted(p for p in (ROOT / "bench").glob("*.py") if p.name not in own)
    assert shared, "no shared bench modules found"
    words = re.compile(
        "|".join(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])" for name in GAMES), re.IGNORECASE
    )
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in shared
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if words.search(line)
    ]
    assert not found, "game names in shared bench code (read them from domain.game.GAMES):\n" + "\n".join(
        found
    )


def test_python_names_no_game_outside_its_folders() -> None:
    """Outside the games' own folders (``domain/<game>/``, ``projections/<game>/``) the Python of
    ``domain``, ``projections`` and ``service`` names no game: no quoted name (``"mcr"``) and no
    import of a game's package (``domain.mcr``); the registry, ``domain.game.GAMES``, is the one
    place that does, one line a game."""
    names = "|".join(re.escape(name) for name in GAMES)
    quoted = re.compile(rf"""["']({names})["'/]""")
    imported = re.compile(rf"\b(domain|projections)\.({names})\b")
    found = []
    for top in ("domain", "projections", "service"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if len(parts) > 2 and parts[1] in GAMES:
                continue  # the game's own folder
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if quoted.search(line) or imported.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    registry = [f for f in found if f.startswith(str(Path("domain") / "game.py"))]
    assert len(registry) == len(GAMES), registry  # one registration line a game
    rest = [f for f in found if f not in registry]
    assert not rest, "game names outside the games' folders (use the registry):\n" + "\n".join(rest)
