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
