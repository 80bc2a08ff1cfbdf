"""Load: two service processes on one Redis (AOF, appendfsync always), concurrent deals of both
games played to the end through HTTP by scripted clients (human seats) and server bots.

``python -m tests.reliability.load --deals 50`` runs the full load and prints the report as JSON;
the test suite runs a bounded one (``DEALSTREAM_FULL_LOAD=1`` makes the test run the full one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from typing import Any

from service.store.connection import connect
from service.store.event_store import EventStore
from tests.reliability.harness import Players, RedisServer, ServiceProcess, check_log, percentile


async def run_load(
    redis_url: str, prefix: str, deals: int, processes: int = 2, seed: int = 7, rounds: int = 1
) -> dict[str, Any]:
    """``deals`` tables at once, each playing ``rounds`` deals back to back; the report as a dict."""
    services = [ServiceProcess(redis_url, prefix).start() for _ in range(processes)]
    client = connect(redis_url)
    try:
        for s in services:
            await s.ready()
        async with Players([s.base for s in services], seed=seed, retry_s=5.0) as players:
            started = time.perf_counter()
            await players.run(tables=deals, deals_per_table=rounds)
            elapsed = time.perf_counter() - started
            checked = await check_log(EventStore(client, prefix), players)
        lat_ms = [x * 1000 for x in players.stats.latencies]
        return {
            "processes": processes,
            "concurrent_deals": deals,
            "deals": len(players.deals),
            "deals_finished": sum(d.finished for d in players.deals),
            "deals_by_game": {g: sum(d.game == g for d in players.deals) for g in ("mcr", "paohuzi")},
            "client_commands": len(players.acks),
            "seconds": round(elapsed, 2),
            "client_commands_per_s": round(len(players.acks) / elapsed, 1),
            "all_commands": checked["stored_commands"],  # bots' and clients', from the logs
            "all_commands_per_s": round(checked["stored_commands"] / elapsed, 1),
            "command_latency_p50_ms": round(percentile(lat_ms, 50), 2) if lat_ms else None,
            "command_latency_p99_ms": round(percentile(lat_ms, 99), 2) if lat_ms else None,
            "responses_by_class": players.stats.by_class(),
            "responses_by_status": dict(sorted(players.stats.statuses.items())),
            "server_errors_5xx": len(players.stats.bad_5xx) + len(players.stats.problems_503),
            "unexpected_4xx": players.stats.unexpected_4xx[:5],
            "audits_passed": checked["deals"],
            "retries_checked": checked["retries_checked"],
            "_players": players,
        }
    finally:
        for s in services:
            s.cleanup()
        await client.aclose()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=50, help="concurrent deals (half MCR, half Paohuzi)")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--rounds", type=int, default=4, help="deals each table plays back to back")
    p.add_argument("--redis", help="an existing Redis URL (default: start a private one, AOF always)")
    args = p.parse_args()

    async def go() -> dict[str, Any]:
        server = None if args.redis else RedisServer().start()
        try:
            url = args.redis or server.url
            prefix = f"dsload-{uuid.uuid4().hex[:8]}"
            report = await run_load(url, prefix, args.deals, args.processes, rounds=args.rounds)
        finally:
            if server is not None:
                server.cleanup()
        report.pop("_players")
        return report

    print(json.dumps(asyncio.run(go())))


if __name__ == "__main__":
    main()
