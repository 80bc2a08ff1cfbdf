"""The games this server plays, as ``GET /games`` lists them, with each bot level's measured
strength from the arena report shipped inside the package (``data/arena-results.json``, written
by ``python -m bench.arena --write``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_LEVELS = ("strong", "greedy")  # the lobby's default opponent: the first of these a game has

ARENA_REPORT = "arena-results.json"  # in service/app/reads/data/, declared as package data


@cache
def _arena_report() -> dict[str, Any]:
    """The shipped arena report (``python -m bench.arena --write``), if any."""
    try:
        return json.loads(resources.files("service.app.reads.data").joinpath(ARENA_REPORT).read_text())
    except (OSError, ValueError):
        return {}


def games() -> dict[str, Any]:
    """The games this server plays: ruleset, seat count, bot levels with their measured
    strength against ``greedy`` (from the shipped arena report; null where not measured) and
    the lobby's default level."""
    from domain.game import GAMES, rulesets
    from service.app.games import kit

    report = _arena_report().get("games", {})
    out = []
    for name in GAMES:
        k = kit(name)
        measured = report.get(name, {})
        default = next((lv for lv in DEFAULT_LEVELS if lv in k.bot_levels), k.bot_levels[0])
        levels = []
        for level in k.bot_levels:
            m = measured.get("levels", {}).get(level)
            strength = None
            if m is not None and "ci95" in m:
                strength = {
                    "mean_net_per_deal": m["mean_net_per_deal"],
                    "ci95": m["ci95"],
                    "unit": measured.get("unit"),
                    "vs": measured.get("baseline", "greedy"),
                    "walls": m.get("walls"),
                }
            levels.append({"level": level, "default": level == default, "strength": strength})
        out.append(
            {
                "game": name,
                "ruleset": k.game.ruleset,  # what a new deal is created with
                "rulesets": [k.game.ruleset],  # the rulesets a deal may be created with
                "decides": sorted(rulesets(name)),  # every ruleset whose logs this build replays and audits
                "seats": k.game.seat_count,
                "bots": k.bot_levels,
                "levels": levels,
                "rules_page": f"/#/rules/{name}",  # the web client's page of the game's rules
            }
        )
    return {"games": out}
