"""The web client names a game only inside that game's folder and in its registry lines.

Each game's browser code lives in ``service/http/web/games/<name>/``: its entry module
``index.js`` (one default-exported object: its model of a seat view, its pieces, its centre, seat
badges, result sheet, coach and rules page) and beside it its cards (``cards.js``), its move-log
words (``words.js``), its rules texts (``rules.js``) and its strings (``i18n.js``). One import line
and one register line in ``service/http/web/games.js`` add it; every page asks ``gameUi(name)``.

So no other web file (scripts, the page, style sheets) may name a game, call a game's own helpers
(``phKindLabel``, ``mcTileName``: identifiers starting ``ph`` or ``mc`` and then a capital) or cite
a game's rule ids (``PH-6.4``, ``MC-3.2``): each would be a branch on a game, or a game's words,
outside its folder, and a new game would have to edit that file too. The test reads the files as
text; nothing is run.
"""

from __future__ import annotations

import re
from pathlib import Path

from domain.game import GAMES

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
GAME_DIR = WEB / "games"
NAMES = re.compile(r"\b({})\b".format("|".join(sorted(GAMES))), re.IGNORECASE)
HELPERS = re.compile(r"\b(?:ph|mc)[A-Z_]\w*")
RULE_IDS = re.compile(r"\b(?:PH|MC)-\d")
# the only lines outside games/ that may name a game: its import and its register line
REGISTRY_LINE = re.compile(r'^(?:import (\w+) from "\./games/(\w+)/index\.js";|register\((\w+)\);)$')
# what every game's folder holds beside index.js, and what index.js wires from it
MODULES = {
    "cards.js": "its pieces drawn and named",
    "words.js": "its events in words (say)",
    "rules.js": "its rules texts (RULES)",
    "i18n.js": "its strings (addStrings)",
}


def _shared_files() -> list[Path]:
    return sorted(
        p for p in WEB.rglob("*") if p.suffix in (".js", ".html", ".css") and GAME_DIR not in p.parents
    )


def _violations(path: Path) -> list[str]:
    hits = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if path.name == "games.js" and REGISTRY_LINE.match(line):
            continue
        for pattern in (NAMES, HELPERS, RULE_IDS):
            for m in pattern.finditer(line):
                hits.append(f"{path.relative_to(WEB)}:{no}: {m.group(0)}")
    return hits


def test_the_patterns_catch_what_they_are_for() -> None:
    """A check that finds nothing proves nothing: each pattern matches a line it exists to catch,
    and the registry lines are the only exception."""
    samples = {
        NAMES: ['if (game === "mcr")', "// Paohuzi cards", "#/rules/paohuzi"],
        HELPERS: ["o.tiles.map(mcTileName)", "phKindLabel(k)", "mc_code(x)"],
        RULE_IDS: ['rule: "MC-2.4"', "(PH-6.7)"],
    }
    for pattern, lines in samples.items():
        for line in lines:
            assert pattern.search(line), (pattern.pattern, line)
    for line in ("phase", "physical", "match", "machine", "TB-2.5", "DS-1", "mcrx", "graph"):
        assert not any(p.search(line) for p in samples), line
    assert REGISTRY_LINE.match('import mcr from "./games/mcr/index.js";')
    assert REGISTRY_LINE.match("register(paohuzi);")
    assert not REGISTRY_LINE.match('import { mcTileName } from "./games/mcr/cards.js";')


def test_no_web_file_outside_a_games_folder_names_a_game() -> None:
    files = _shared_files()
    assert {p.name for p in files} >= {"index.html", "app.js", "words.js", "rules.js", "style.css"}
    hits = [h for p in files for h in _violations(p)]
    why = "a game's name, helper or rule id outside web/games/ (ask gameUi(name) instead):\n"
    assert not hits, why + "\n".join(hits)


def test_every_game_has_one_module_and_one_registry_line() -> None:
    registry = (WEB / "games.js").read_text(encoding="utf-8")
    imported = re.findall(r'^import (\w+) from "\./games/(\w+)/index\.js";$', registry, re.M)
    assert [a for a, _ in imported] == [b for _, b in imported], "import each game under its own name"
    names = [b for _, b in imported]
    assert sorted(names) == sorted(GAMES), "the web registry and domain.game.GAMES list the same games"
    registered = re.findall(r"^register\((\w+)\);$", registry, re.M)
    assert registered == names, "each imported game is registered once, in the order imported"
    modules = sorted(p.parent.name for p in GAME_DIR.glob("*/index.js"))
    assert modules == sorted(names), "every module under web/games/ is registered, and only those"
    for name in names:
        text = (GAME_DIR / name / "index.js").read_text(encoding="utf-8")
        assert f'const NAME = "{name}";' in text, f"games/{name}/index.js names its own game"
        assert "export default {" in text


def test_every_game_folder_holds_its_own_parts_and_wires_them() -> None:
    for name in GAMES:
        folder = GAME_DIR / name
        for module, what in MODULES.items():
            assert (folder / module).is_file(), f"games/{name}/{module}: {what}"
        index = (folder / "index.js").read_text(encoding="utf-8")
        assert 'import "./i18n.js";' in index, f"games/{name}/index.js adds its strings"
        assert re.search(r'^import \{[^}]*\bsay\b[^}]*\} from "\./words\.js";$', index, re.M), name
        assert re.search(r'^import \{[^}]*\bRULES\b[^}]*\} from "\./rules\.js";$', index, re.M), name
        assert re.search(r"^  say,", index, re.M) and "  rules: RULES," in index, name
        assert "addStrings(" in (folder / "i18n.js").read_text(encoding="utf-8"), name
        rules = (folder / "rules.js").read_text(encoding="utf-8")
        every_language = r"^export const RULES = \{ en: \w+, pt: \w+, nl: \w+, ar: \w+, fi: \w+ \};$"
        assert re.search(every_language, rules, re.M), name
