"""The web client names a game in one place: its own module and its registry line (issue 23).

Each game's browser code lives in ``service/http/web/games/<name>/index.js`` (one default-exported
object: its model of a seat view, its pieces, its centre, seat badges, result sheet, coach and
rules page) and is registered by one import in ``service/http/web/games.js``; every page asks
``gameUi(name)`` instead of comparing names. So no other script may write a game's name as a
quoted string ("paohuzi", 'mcr', `mcr`): that is a branch on the name creeping back in.

Translation files get no exception: their keys hold a game's name only inside a longer key
("game.paohuzi"), which the pattern does not match, and a page builds such a key from the name
(``"game." + name``). Rule texts keyed by game in ``rules.js`` are unquoted object keys (data, not
a branch). The test reads the files as text; nothing is run.
"""

from __future__ import annotations

import re
from pathlib import Path

from domain.game import GAMES

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
NAMES = ("paohuzi", "mcr")
QUOTED = re.compile(r"""(["'`])({})\1""".format("|".join(NAMES)))


def _name_literals(path: Path) -> list[str]:
    hits = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in QUOTED.finditer(line):
            hits.append(f"{path.relative_to(WEB)}:{no}: {m.group(0)}")
    return hits


def test_pages_do_not_branch_on_game_names() -> None:
    scripts = sorted(p for p in WEB.glob("*.js") if p.name != "games.js")
    assert scripts, "no web scripts found"
    hits = [h for p in scripts for h in _name_literals(p)]
    why = "a game's name outside games.js and web/games/ (ask gameUi(name) instead):\n"
    assert not hits, why + "\n".join(hits)


def test_every_game_has_one_module_and_one_registry_line() -> None:
    registry = (WEB / "games.js").read_text(encoding="utf-8")
    imported = re.findall(r'^import (\w+) from "\./games/(\w+)/index\.js";$', registry, re.M)
    assert [a for a, _ in imported] == [b for _, b in imported], "import each game under its own name"
    names = [b for _, b in imported]
    assert sorted(names) == sorted(GAMES), "the web registry and domain.game.GAMES list the same games"
    registered = re.findall(r"^register\((\w+)\);$", registry, re.M)
    assert registered == names, "each imported game is registered once, in the order imported"
    modules = sorted(p.parent.name for p in (WEB / "games").glob("*/index.js"))
    assert modules == sorted(names), "every module under web/games/ is registered, and only those"
    for name in names:
        text = (WEB / "games" / name / "index.js").read_text(encoding="utf-8")
        assert f'const NAME = "{name}";' in text, f"games/{name}/index.js names its own game"
        assert "export default {" in text
