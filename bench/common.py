"""Helpers shared by the bench modules: argument parsing, printing, Redis choice, the games.

The shared benches name no game: they read the registry (``domain.game.GAMES``) through
``registered`` / ``by_name``, and what is only one game's (its walls, targets, cache resets,
quick sizes) from that game's own bench module, ``bench/<game>.py``, through ``own``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
from types import ModuleType
from typing import Any

from domain.game import GAMES, get_game


def registered() -> list[str]:
    """The games in the order ``domain.game.GAMES`` registers them; ``registered()[0]`` is the
    default of a bench that measures one game."""
    return list(GAMES)


def by_name() -> list[str]:
    """The games in name order: the order the shared benches alternate their tables in and
    report their games in."""
    return sorted(GAMES)


def seat_count(game: str) -> int:
    return get_game(game).seat_count


def own(game: str) -> ModuleType:
    """The game's own bench module, ``bench/<game>.py`` (named like its ``domain`` package):
    what the shared benches use of one game only (walls, targets, cache resets, quick sizes)."""
    return importlib.import_module(f"bench.{GAMES[game].rsplit('.', 1)[-1]}")


def add_game(p: argparse.ArgumentParser, flag: str, default: str, what: str) -> None:
    """A ``flag`` choosing one registered game, ``default`` unless given."""
    p.add_argument(flag, default=default, choices=by_name(), help=f"{what} (default {default})")


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return p


def emit(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        json.dump(figures, sys.stdout)
        sys.stdout.write("\n")
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        print(f"{key:<{width}}  {shown}")


def run_on_redis(redis_url: str | None, measure: Any) -> dict[str, Any]:
    """Run ``measure(url)`` (a coroutine function) on the chosen Redis, the embedded one by default."""
    import asyncio

    from service.store.connection import resolve_redis_url

    url, embedded = resolve_redis_url(redis_url)
    try:
        return asyncio.run(measure(url))
    finally:
        if embedded is not None:
            embedded.stop()


def median(values: list[float]) -> float:
    return statistics.median(values)
