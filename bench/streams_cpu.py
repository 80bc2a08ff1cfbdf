"""The service's CPU per command with live streams open: what a person's action costs the process
that serves its table, its seats' streams and its spectators (issue 46).

    python -m bench.streams_cpu --json [--deals 20] [--spectators 4] [--commands 2000]

One ``dealstream serve`` process and its own ``redis-server`` (``bench.streams``). ``--deals``
tables of people only (the registered games in turn, open to spectators), each seat holding its
own stream and ``--spectators`` more streams on each table; the seats act as fast as their
streams let them: a seat acts on the view its own stream showed (a legal action drawn at
random, ``return_view`` as the web client asks), and the table waits until every seat's stream
has shown the command's batch before its next command. A finished deal is followed by a new
one. Measured: the service's CPU seconds (user + system, from /proc) from the first table's
opening to the ``--commands``-th accepted command, per command (``service_cpu_ms_per_command``).
No think time and no bots: the figure is the work per command, not a latency, so it is fair
to compare two versions of the code run one after the other on the same machine (the ratio of
the two), even a busy one; absolute figures are not (another process's load changes cache and
frequency).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import time
from typing import Any

import aiohttp

from bench.capacity import cpu_seconds
from bench.common import emit, parser, registered, seat_count
from bench.streams import Redis, Service, Subscriber


async def table(
    service: Service,
    session: aiohttp.ClientSession,
    game: str,
    spectators: int,
    rng: random.Random,
    done: Any,
) -> None:
    """Deals of people at one table until ``done()`` says the run has its commands."""
    seats = seat_count(game)
    while not done():
        body = {"game": game, "seats": ["human"] * seats, "spectators": True}
        async with session.post(service.base + "/deals", json=body) as resp:
            created = await resp.json()
        deal_id = created["deal_id"]
        tokens = [created["tokens"][str(s)] for s in range(seats)]
        own = [await Subscriber(service.port, deal_id, t, parse_views=True).open() for t in tokens]
        watching = [await Subscriber(service.port, deal_id).open() for _ in range(spectators)]
        views: list[dict] = [{} for _ in range(seats)]
        try:
            command: dict[str, Any] = {"type": "StartDeal", "client_seed": f"cpu-{deal_id}"}
            seat, version = 0, None
            for n in itertools.count():
                if done():
                    return
                answer = {"command_id": f"c{n}", "command": command, "return_view": True}
                if version is not None:
                    answer["expected_version"] = version
                async with session.post(
                    f"{service.base}/deals/{deal_id}/commands",
                    json=answer,
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                ) as resp:
                    if resp.status != 200:
                        raise RuntimeError(f"command refused: {resp.status} {await resp.text()}")
                    last = (await resp.json())["version"]
                done.count += 1
                for s, sub in enumerate(own):  # every seat's stream has shown the batch
                    while views[s].get("version", -1) < last:
                        views[s] = await asyncio.wait_for(sub.views.get(), 30)
                if views[0].get("result") is not None:
                    break
                acting = [(s, v) for s, v in enumerate(views) if v.get("legal_actions")]
                seat, view = rng.choice(acting)
                command, version = rng.choice(view["legal_actions"]), view["version"]
        finally:
            for sub in (*own, *watching):
                sub.close()


class Done:
    def __init__(self, commands: int) -> None:
        self.commands = commands
        self.count = 0

    def __call__(self) -> bool:
        return self.count >= self.commands


async def run(args: Any) -> dict[str, Any]:
    server = Redis().start()
    service = Service(server.port)
    try:
        await service.ready()
        games = registered()
        done = Done(args.commands)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(
            connector=connector, timeout=aiohttp.ClientTimeout(total=120)
        ) as session:
            cpu_before = cpu_seconds(service.process.pid)
            started = time.monotonic()
            rng = random.Random(46)
            tasks = [
                asyncio.create_task(
                    table(service, session, games[i % len(games)], args.spectators, rng, done)
                )
                for i in range(args.deals)
            ]
            await asyncio.gather(*tasks)
            seconds = time.monotonic() - started
            cpu = cpu_seconds(service.process.pid) - cpu_before
    finally:
        service.stop()
        server.cleanup()
    return {
        "deals_at_once": args.deals,
        "spectators_per_deal": args.spectators,
        "commands": done.count,
        "seconds": round(seconds, 1),
        "service_cpu_s": round(cpu, 2),
        "service_cpu_ms_per_command": round(cpu * 1000 / done.count, 3),
        "machine_load_average_1m": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--spectators", type=int, default=4)
    p.add_argument("--commands", type=int, default=2000)
    args = p.parse_args(argv)
    emit(asyncio.run(run(args)), args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
