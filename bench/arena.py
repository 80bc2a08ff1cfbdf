"""Bot strength benchmark: ``python -m bench.arena --json`` prints one JSON object.

For each game, each measured level (``strong`` by default, and ``random`` as the sanity line that
greedy must beat) plays a duplicate arena (``service.arena``) against greedy: one seat of that
level, every other seat greedy (strong,greedy,greedy,greedy at four seats; strong,greedy,greedy at
three), every wall once per rotation. A line reports the edge of the level over greedy (per wall,
its mean net payment per deal minus greedy's, 95 % Student t interval), the interval's half width
(narrower than the edge: it leaves out 0), each bot's figures, decision times, and the walls,
deals and seconds used.
The games are ``domain.game.GAMES``, in name order, each with a ``--<game>-walls`` flag. The
default sizes and the targets are each game's own (``ARENA_WALLS``, ``ARENA_TARGET`` in
``bench/<game>.py``): what a per-wall spread of about 12.5 points or 1.2 tun needs for an interval
narrower than the edges the issue asks for; ``--quick`` plays a few dozen. A level the game does
not have yet is reported as skipped, not measured.

``--write service/app/reads/data/arena-results.json`` also writes the shipped strength report
(per game and level:
its mean net per deal against greedy and the interval, the command, date and walls), which the
service can read to show each level's measured strength. Games not measured in this run keep
their entries in that file, so ``--games <game>`` refreshes one game only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import by_name, own
from service.app.analysis.arena import INTERVAL_METHOD, run_arena
from service.app.games import kit

BASELINE = "greedy"
DECISION_MS_TARGETS = {"p95": 250.0, "max": 1000.0}


def line(game: str, level: str, walls: int, seed: str, jobs: int) -> dict[str, Any]:
    """One duplicate arena of ``level`` against greedy, or why it was skipped."""
    k = kit(game)
    if level not in k.bot_levels:
        return {
            "skipped": f"level {level!r} is not registered in domain/{game}/bots.py BOTS "
            f"(has {', '.join(k.bot_levels)}): not measured"
        }
    started = time.perf_counter()
    report = run_arena(game, [level, BASELINE], walls, seed, jobs)
    seconds = round(time.perf_counter() - started, 1)
    edge = report["edge"]
    ci = edge["ci95"]
    out: dict[str, Any] = {
        "lineup": report["lineup"],
        "walls": report["walls"],
        "deals": report["deals"],
        "seconds": seconds,
        "unit": report["score_unit"],
        "edge": edge["mean_net_per_deal"],
        "edge_ci95": ci,
        # the interval is narrower than the edge when its half width is: it then leaves out 0
        "edge_half_width": None if ci is None else round((ci[1] - ci[0]) / 2, 4),
        "interval_excludes_zero": ci is not None and (ci[0] > 0 or ci[1] < 0),
    }
    for name, figures in report["per_bot"].items():
        out[name] = {
            **{key: value for key, value in figures.items() if key not in ("seats", "decisions")},
            "decision_ms": report["timing"]["decision_ms"][name],
        }
    if level == "strong":
        target = own(game).ARENA_TARGET
        ms = report["timing"]["decision_ms"][level]
        out["target"] = {**target, **{f"decision_{k}_ms": v for k, v in DECISION_MS_TARGETS.items()}}
        out["meets_edge_target"] = (
            ci is not None and edge["mean_net_per_deal"] >= target["edge"] and ci[0] > target["low"]
        )
        out["meets_time_target"] = (
            ms["p95"] <= DECISION_MS_TARGETS["p95"] and ms["max"] <= DECISION_MS_TARGETS["max"]
        )
    return out


def results_file(measured: dict[str, dict[str, Any]], command: str, seed: str) -> dict[str, Any]:
    """The shipped strength report: per game and measured level, its standing against greedy."""
    games: dict[str, Any] = {}
    for game, lines in measured.items():
        levels: dict[str, Any] = {BASELINE: {"baseline": True, "mean_net_per_deal": 0.0}}
        unit = kit(game).summary.SCORE_UNIT
        skipped = {}
        for level, figures in lines.items():
            if "skipped" in figures:
                skipped[level] = figures["skipped"]
                continue
            levels[level] = {
                "mean_net_per_deal": figures[level]["mean_net_per_deal"],
                "ci95": figures[level]["ci95"],
                "edge_over_greedy": figures["edge"],
                "edge_ci95": figures["edge_ci95"],
                "walls": figures["walls"],
                "deals": figures["deals"],
            }
        games[game] = {"unit": unit, "baseline": BASELINE, "levels": levels, "command": command}
        games[game]["date"] = datetime.datetime.now(datetime.UTC).date().isoformat()
        if skipped:
            games[game]["not_measured"] = skipped
    return {
        "what": "mean net payment per deal of one seat of each level against greedy seats, duplicate arena",
        "interval": INTERVAL_METHOD,
        "command": command,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "seed": seed,
        "games": games,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="a few dozen walls per line (a smoke run)")
    registry = by_name()
    ap.add_argument("--games", default=",".join(registry), help="comma-separated games (default all)")
    ap.add_argument("--levels", default="strong,random", help="levels measured against greedy")
    for game in registry:
        walls = own(game).ARENA_WALLS["strong"]
        ap.add_argument(
            f"--{game}-walls", type=int, help=f"walls of {own(game).TITLE} strong vs greedy (default {walls})"
        )
    sanity = " / ".join(str(own(game).ARENA_WALLS["sanity"]) for game in registry)
    ap.add_argument(
        "--sanity-walls", type=int, help=f"walls of every other level vs greedy (default {sanity})"
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes per arena")
    ap.add_argument("--seed", default="bench-arena")
    ap.add_argument("--write", metavar="PATH", help="also write the shipped strength report there")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [g for g in games if g not in registry]
    if unknown:
        ap.error(f"unknown game(s): {', '.join(unknown)}")
    chosen = {game: getattr(args, f"{game}_walls") for game in registry}
    started = time.perf_counter()
    measured: dict[str, dict[str, Any]] = {}
    for game in games:
        measured[game] = {}
        for level in levels:
            sizes = own(game).ARENA_QUICK_WALLS if args.quick else own(game).ARENA_WALLS
            if level == "strong":
                walls = chosen[game] or sizes["strong"]
            else:
                walls = args.sanity_walls or sizes["sanity"]
            print(f"bench.arena: {game} {level} vs {BASELINE}, {walls} walls …", file=sys.stderr, flush=True)
            measured[game][level] = line(game, level, walls, args.seed, args.jobs)
    out: dict[str, Any] = {
        "interval": INTERVAL_METHOD,
        "seed": args.seed,
        **{
            f"{game}_{level}_vs_{BASELINE}": figs
            for game, lines in measured.items()
            for level, figs in lines.items()
        },
        "walls": sum(f.get("walls", 0) for lines in measured.values() for f in lines.values()),
        "deals": sum(f.get("deals", 0) for lines in measured.values() for f in lines.values()),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.write:
        command = " ".join(["python -m bench.arena", *(argv if argv is not None else sys.argv[1:])])
        path = Path(args.write)
        written = results_file(measured, command, args.seed)
        try:  # the games not measured this time keep their entries (each says its command and date)
            kept = json.loads(path.read_text()).get("games", {})
        except (OSError, ValueError):
            kept = {}
        fresh = written["games"]
        written["games"] = {**{g: v for g, v in kept.items() if g not in fresh}, **fresh}
        path.write_text(json.dumps(written, indent=1) + "\n")
        out["written"] = str(path)
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
