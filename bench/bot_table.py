"""A person's command latency at a table of strong bots against one of greedy bots, under load.

Issue 14 asks that strong bots never slow the service down for the person playing them: the
p99 latency of that person's commands at a table of ``strong`` bots, while ``bench.service``'s
scripted tables load the same process, stays within 1.5x of the p99 at a table of ``greedy`` bots.

What runs: the real app (``bootstrap.application``: the bot runner, the bot worker pool where the
strong bots think, the default bot delay) on a free loopback port, backed by a real Redis.
``--load`` of ``bench.service``'s scripted tables (every seat human, commands back to back) play
during the whole run. Beside them, ``--probes`` probe tables at a time each seat one person (seat
0) against bots at ``fast`` pace, the registered games (``domain.game.GAMES``, in name order) in
turn. The person polls its view and, when it must act, POSTs its first legal action; each such
POST's latency is a sample. The probe tables' bot level alternates in windows (greedy, strong,
greedy, strong, …), so a change of machine load hits both levels alike; a window's tables are left
when it closes (they wait on their person, so their bots stop too).

Reported: per level, the command latency p50/p99 and samples, the ratio of strong's p99 to
greedy's (target ≤ 1.5), the bot decisions that fell back to greedy (the time budget ran out or a
worker died), the load's commands/s during each level's windows, and every non-2xx status.
The keys live under a unique prefix and are deleted at the end.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections import Counter
from typing import Any

import aiohttp
from aiohttp import web

from bench.common import by_name, emit, median, parser, run_on_redis, seat_count
from bench.service import Bench, make_scripts_elsewhere, percentile
from service import bootstrap
from service.gc_tuning import tune_gc
from service.store.connection import connect

LEVELS = ("greedy", "strong")
RATIO_TARGET = 1.5
POLL_S = 0.05


class Probe:
    """The probe tables of one window: a person (seat 0) at each, bots of one level elsewhere."""

    def __init__(self, bench: Bench, level: str, tables: int, until: float) -> None:
        self.bench = bench
        self.level = level
        self.tables = tables
        self.until = until
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.deals = 0

    async def table(self, index: int) -> None:
        games = by_name()
        game = games[index % len(games)]
        while time.perf_counter() < self.until:
            seats = ["human", *[f"bot:{self.level}"] * (seat_count(game) - 1)]
            status, created = await self.bench.request(
                "POST", "/deals", body={"game": game, "seats": seats, "pace": "fast"}
            )
            self.statuses[status] += 1
            if status != 201:
                return
            self.deals += 1
            await self.play(created["deal_id"], created["tokens"]["0"])

    async def play(self, deal_id: str, token: str) -> None:
        command: dict[str, Any] = {"type": "StartDeal", "client_seed": f"probe-{deal_id}"}
        moves = 0
        while time.perf_counter() < self.until:
            if command is not None:
                body = {"command_id": f"p{moves}", "command": command}
                start = time.perf_counter()
                status, _ = await self.bench.request(
                    "POST", f"/deals/{deal_id}/commands", token=token, body=body, decode=False
                )
                elapsed = time.perf_counter() - start
                self.statuses[status] += 1
                if status == 200:
                    self.latencies.append(elapsed)
                moves += 1
                command = None
            await asyncio.sleep(POLL_S)
            status, view = await self.bench.request("GET", f"/deals/{deal_id}/view", token=token)
            if status != 200 or view is None:
                self.statuses[status] += 1
                return
            if view.get("result") is not None:
                return
            if view["legal_actions"]:
                command = view["legal_actions"][0]

    async def run(self) -> None:
        await asyncio.gather(*(self.table(i) for i in range(self.tables)))


async def measure(
    url: str, load: int, probes: int, windows: int, window_s: float, workers: int | None = None
) -> dict[str, Any]:
    run_start = time.perf_counter()
    scripts = make_scripts_elsewhere(60)
    client = connect(url)
    prefix = f"bench-bots-{uuid.uuid4().hex[:8]}"
    settings = bootstrap.Settings(prefix=prefix, dev=True, create_limit=10**6, bot_workers=workers)
    app = bootstrap.application(client, settings)
    service = app[bootstrap.DEALS]
    runner = web.AppRunner(app, access_log=None)
    tune_gc()
    latencies: dict[str, list[float]] = {level: [] for level in LEVELS}
    statuses: Counter[int] = Counter()
    load_rates: dict[str, list[float]] = {level: [] for level in LEVELS}
    deals: Counter[str] = Counter()
    try:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port = runner.addresses[0][1]
        connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            bench = Bench(session, f"http://127.0.0.1:{port}", load, False, scripts)
            bench.running = load
            bench.gate.set()
            tables = [asyncio.create_task(bench.table(i)) for i in range(load)]
            for window in range(windows):
                level = LEVELS[window % len(LEVELS)]
                before = len(bench.tally.command_latencies)
                started = time.perf_counter()
                probe = Probe(bench, level, probes, started + window_s)
                await probe.run()
                load_rates[level].append(
                    (len(bench.tally.command_latencies) - before) / (time.perf_counter() - started)
                )
                latencies[level].extend(probe.latencies)
                statuses.update(probe.statuses)
                deals[level] += probe.deals
            bench.stopping = True
            await asyncio.gather(*tables)
            statuses.update(bench.tally.statuses)
    finally:
        await runner.cleanup()
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 1000):
            await client.delete(*keys[i : i + 1000])
        await client.aclose()
    out: dict[str, Any] = {
        "redis": url.split("@")[-1],
        "load_tables": load,
        "probe_tables": probes,
        "windows": windows,
        "window_seconds": window_s,
    }
    for level in LEVELS:
        ms = [x * 1000 for x in latencies[level]]
        out[f"{level}_samples"] = len(ms)
        out[f"{level}_probe_deals"] = deals[level]
        out[f"{level}_p50_ms"] = round(median(ms), 2) if ms else None
        out[f"{level}_p99_ms"] = round(percentile(ms, 99), 2) if ms else None
        out[f"load_commands_per_s_beside_{level}"] = (
            round(statistics.fmean(load_rates[level]), 1) if load_rates[level] else None
        )
    greedy, strong = out["greedy_p99_ms"], out["strong_p99_ms"]
    out["ratio_p99_strong_vs_greedy"] = round(strong / greedy, 3) if greedy and strong else None
    out["ratio_target"] = RATIO_TARGET
    pool = service.bots.pool
    out["bot_workers"] = pool.workers if pool else None
    out["strong_decisions"] = pool.decisions if pool else None
    out["bot_fallbacks_to_greedy"] = pool.fallbacks if pool else None
    out["fallback_share"] = round(pool.fallbacks / pool.decisions, 4) if pool and pool.decisions else None
    out["bot_workers_replaced"] = pool.replaced if pool else None
    out["errors_by_status"] = {s: n for s, n in sorted(statuses.items()) if not 200 <= s < 300}
    out["total_seconds"] = round(time.perf_counter() - run_start, 1)
    return out


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else the embedded server)")
    p.add_argument("--load", type=int, default=10, help="bench.service scripted tables playing throughout")
    p.add_argument("--probes", type=int, default=6, help="probe tables (one person, bots) per window")
    p.add_argument("--windows", type=int, default=6, help="windows, alternating greedy and strong")
    p.add_argument("--window-seconds", type=float, default=30.0)
    p.add_argument("--bot-workers", type=int, help="bot worker processes (default: the service's)")
    args = p.parse_args()
    sizes = (args.load, args.probes, args.windows, args.window_seconds, args.bot_workers)
    figures = run_on_redis(args.redis, lambda url: measure(url, *sizes))
    emit(figures, args.json)


if __name__ == "__main__":
    main()
