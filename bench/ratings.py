"""Ratings rebuilt from many rated results: how many results a second the fold applies, and
whether the rebuild (one fold of every result, handed over shuffled and sorted by the time they
were recorded) equals an incremental run (the results applied in batches as they arrive, as a
service process does).

The results are synthetic and seeded (``--seed``): per game a pool of accounts and the three
house bots, each result a table of the game's seat count (the registry's) with random net
payments summing to zero, ranked by the same ``ranks_by_payments`` the service uses. They are
results, not whole deal logs: reading logs is the store's cost (``bench.store``), this is the
fold's. ``python -m bench.ratings --json`` prints one JSON object.

It also measures quick play on one process (``bench.quickplay``): 1,000 seekers (200 with
``--quick``) arriving over 10 s (2 s), house bots after 5 s: the p99 time to a seat.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from bench.common import registered, seat_count
from projections.ratings import RATED_BOTS, RatedResult, Ratings, fold, ranks_by_payments


def synthetic(count: int, seed: int, accounts: int) -> list[RatedResult]:
    rng = random.Random(seed)
    names = [f"player-{i:04d}" for i in range(accounts)]
    games = registered()
    out = []
    for i in range(count):
        game = games[i % len(games)]
        seats = seat_count(game)
        bots = rng.randint(0, min(len(RATED_BOTS), seats - 1))
        players = [rng.choice(names), *rng.sample(RATED_BOTS, bots)]
        while len(players) < seats:
            extra = rng.choice(names)
            if extra not in players:
                players.append(extra)
        rng.shuffle(players)
        payments = [rng.randint(-20, 20) for _ in range(seats - 1)]
        payments.append(-sum(payments))
        at = f"2026-01-01T00:00:00.{i:06d}Z" if i < 1_000_000 else f"2026-01-02T00:00:00.{i:06d}Z"
        out.append(RatedResult(game, "deal", f"bench-{i:07d}", at, players, ranks_by_payments(payments)))
    return out


def largest_difference(a: dict[str, Any], b: dict[str, Any]) -> float:
    worst = 0.0
    for game in set(a) | set(b):
        if set(a.get(game, {})) != set(b.get(game, {})):
            return float("inf")
        for name, held in a[game].items():
            other = b[game][name]
            if held["games"] != other["games"]:
                return float("inf")
            worst = max(worst, abs(held["mu"] - other["mu"]), abs(held["sigma"] - other["sigma"]))
    return worst


def run(count: int, seed: int, accounts: int, batch: int) -> dict[str, Any]:
    results = synthetic(count, seed, accounts)
    handed = results[:]
    random.Random(seed + 1).shuffle(handed)
    started = time.perf_counter()
    rebuilt = fold(handed)
    rebuild_s = time.perf_counter() - started
    live = Ratings()
    started = time.perf_counter()
    for first in range(0, count, batch):
        if not live.extend(results[first : first + batch]):
            raise AssertionError("an incremental batch went before the last result applied")
    incremental_s = time.perf_counter() - started
    difference = largest_difference(rebuilt.table(), live.table())
    return {
        "results": count,
        "seed": seed,
        "accounts": accounts,
        "batch": batch,
        "players": {game: len(players) for game, players in sorted(rebuilt.games.items())},
        "rebuild_s": round(rebuild_s, 3),
        "rebuild_results_per_s": round(count / rebuild_s),
        "incremental_s": round(incremental_s, 3),
        "incremental_results_per_s": round(count / incremental_s),
        "largest_difference": difference,
        "equal": difference <= 1e-9,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--accounts", type=int, default=500)
    parser.add_argument("--batch", type=int, default=7, help="results per incremental step")
    parser.add_argument("--quick", action="store_true", help="10,000 results")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seekers", type=int, default=1000, help="quick play seekers (0: no quick play)")
    parser.add_argument(
        "--bots-after-s", type=float, default=5.0, help="quick play: bots fill after this long"
    )
    parser.add_argument("--redis-url", default=None, help="quick play's Redis (default: an embedded one)")
    args = parser.parse_args()
    report = run(10_000 if args.quick else args.results, args.seed, args.accounts, args.batch)
    if args.seekers:
        from bench.common import run_on_redis
        from bench.quickplay import measure

        seekers = 200 if args.quick else args.seekers
        arrive = 2.0 if args.quick else 10.0
        game = registered()[0]
        report.update(
            run_on_redis(
                args.redis_url,
                lambda url: measure(url, seekers, args.bots_after_s, arrive, 0.5, args.seed, game),
            )
        )
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0 if report["equal"] and report.get("quick_play_seated_once", True) else 1


if __name__ == "__main__":
    raise SystemExit(main())
