"""Every bench module in one run, one table (or one JSON object with ``--json``).

Runs ``python -m bench.<name> --json`` for store, each game's own bench (``bench/<game>.py`` for
every game of ``domain.game.GAMES``, in the registry's order), service, streams, bot_table, coach,
review, archive, cluster, clocks, ratings, tournament and arena, one after the other (so they do
not steal each other's CPU), and merges their figures: each module's ratios are measured inside
its own run, as the module documents.
``--quick`` passes smaller sizes (a smoke run of a few minutes); ``--only store,service`` picks
modules. The arena plays thousands of deals, so it gets ``ARENA_TIMEOUT_FACTOR`` times
``--timeout``. A module that fails is reported with its exit code and the last lines of its
stderr, and ``bench.all`` exits 1 after printing everything else.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import by_name, own, registered

ROOT = Path(__file__).resolve().parents[1]
GAME_BENCHES = tuple(game for game in registered() if (ROOT / "bench" / f"{game}.py").exists())
MODULES = (
    *("store", *GAME_BENCHES, "service", "streams"),
    *("bot_table", "coach", "review", "archive", "cluster", "clocks", "ratings", "tournament", "arena"),
)

# smaller sizes for --quick, per module (only options the module's argparse accepts); a game's own
# bench and bench.coach's per-game deals take theirs from bench/<game>.py (``quick_args``)
QUICK = {
    "store": ["--appends", "500", "--rounds", "1"],
    "service": ["--deals", "10", "--seconds", "15"],
    "streams": ["--quick"],
    "bot_table": ["--load", "4", "--probes", "2", "--windows", "2", "--window-seconds", "10"],
    "review": ["--quick"],
    "archive": ["--deals", "60", "--live", "10"],
    "cluster": ["--appends", "60", "--rounds", "1"],
    "clocks": ["--tables", "100", "--seconds", "8", "--restart-tables", "20"],
    "ratings": ["--quick"],
    "tournament": ["--quick"],
    "arena": ["--quick"],
}
ARENA_TIMEOUT_FACTOR = 12  # the full arena: hundreds to thousands of walls of strong against greedy per game
TAKES_REDIS = {"store", "service", "bot_table", "clocks", "tournament"}


def quick_args(name: str) -> list[str]:
    """The smaller sizes ``--quick`` passes to the module ``name``."""
    if name == "coach":
        return [arg for game in by_name() for arg in (f"--{game}-deals", str(own(game).COACH_QUICK_DEALS))]
    if name in GAME_BENCHES:
        return list(own(name).QUICK)
    return QUICK[name]


def run_module(name: str, quick: bool, redis_url: str | None, timeout: float) -> dict[str, Any]:
    """One module as a subprocess; its JSON figures, or an ``error`` entry."""
    args = [sys.executable, "-m", f"bench.{name}", "--json"]
    if quick:
        args += quick_args(name)
    if redis_url and name in TAKES_REDIS:
        args += ["--redis", redis_url]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            args,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    seconds = round(time.perf_counter() - started, 1)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        return {"error": f"exit {done.returncode}: {tail}", "wall_seconds": seconds}
    try:
        figures = json.loads(lines[-1])
    except json.JSONDecodeError as exc:
        return {"error": f"not one JSON object: {exc}", "wall_seconds": seconds}
    figures["wall_seconds"] = seconds
    return figures


def flatten(figures: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Nested dicts become dotted names; lists stay one value."""
    rows: list[tuple[str, Any]] = []
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            rows += flatten(value, name + ".")
        else:
            rows.append((name, value))
    return rows


def shown(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return f"{value:,.4f}" if abs(value) < 10 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def table(results: dict[str, dict[str, Any]]) -> str:
    rows = [(module, name, shown(value)) for module, figs in results.items() for name, value in flatten(figs)]
    w1 = max(len("bench"), *(len(r[0]) for r in rows))
    w2 = max(len("figure"), *(len(r[1]) for r in rows))
    w3 = max(len("value"), *(len(r[2]) for r in rows))
    out = [f"{'bench':<{w1}}  {'figure':<{w2}}  {'value':>{w3}}", f"{'-' * w1}  {'-' * w2}  {'-' * w3}"]
    last = None
    for module, name, value in rows:
        out.append(f"{module if module != last else '':<{w1}}  {name:<{w2}}  {value:>{w3}}")
        last = module
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="print one JSON object {module: figures}")
    p.add_argument("--quick", action="store_true", help="smaller sizes: a smoke run")
    p.add_argument("--only", help=f"comma-separated subset of {','.join(MODULES)}")
    p.add_argument("--redis", help="Redis URL for store and service (default: their own default)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per module")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(MODULES)
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        p.error(f"unknown bench module(s): {', '.join(unknown)}")
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        print(f"bench.{name} …", file=sys.stderr, flush=True)
        timeout = args.timeout * (ARENA_TIMEOUT_FACTOR if name == "arena" and not args.quick else 1)
        results[name] = run_module(name, args.quick, args.redis, timeout)
    if args.json:
        print(json.dumps(results))
    else:
        print(table(results))
    return 1 if any("error" in figs for figs in results.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
