"""How late the table acts when a person's time runs out (TB-2.5), and after a crash.

What is measured: one ``dealstream serve`` process (its own, started here on a free port over the
chosen Redis, bots with no think time) holds ``--tables`` live tables of ``--game`` (by default
the registered game with the most seats: the most clocks per table), every seat a person who never
answers, clock 2 / 2 / 0 s (``move_s`` / ``claim_s`` / ``bank_s``). Every wait of every seat
therefore ends by an expiry: ``ClockExpired`` and the default move in one append, then, the second
time in a row, ``SeatAway`` and the greedy bot playing that seat at its 1 s pace. After
``--seconds`` the logs are read back from Redis: for each ``ClockExpired``, its lateness is the
time it was recorded minus the deadline it names (both from the log, TB-2.3), reported as p50 /
p99 / max (target p99 <= 250 ms). ``cpu_ms_per_expiry``: the service process's CPU time over the
window (user + system, from /proc) divided by the expiries it appended; the window also holds the
away seats' bot moves, so this is an upper bound.

Then the crash: ``--restart-tables`` new tables (turns of 5 s) are started, the process is killed
with SIGKILL before their first deadlines, and a new process is started once every deadline has passed.
``restart_acted_within_s``: the time from the new process's first answered /health to the last of
those tables' ``ClockExpired`` records (target <= 2 s); ``restart_from_spawn_s`` counts from the
moment the process was spawned. The keys live under a unique prefix and are deleted at the end.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp
import msgspec

from bench.common import add_game, by_name, emit, parser, run_on_redis, seat_count
from domain.envelope import decode_record
from domain.table.clock import recorded_ms
from service.store.connection import connect

ROOT = Path(__file__).resolve().parents[1]
CLOCK = {"move_s": 2, "claim_s": 2, "bank_s": 0}
CRASH_CLOCK = {"move_s": 5, "claim_s": 5, "bank_s": 0}
LATENESS_TARGET_P99_MS = 250
RESTART_TARGET_S = 2.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    def __init__(self, redis_url: str, prefix: str, data_dir: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.spawned = time.time()
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "service.cli", "serve", "--port", str(self.port), "--redis", redis_url,
                "--prefix", prefix, "--bot-delay", "0", "--create-limit", "1000000", "--data-dir", data_dir,
                "--no-archiver", "--processes", "1",
            ],
            cwd=str(ROOT),
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    async def up(self, session: aiohttp.ClientSession) -> float:
        """The wall time /health first answered 200."""
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                async with session.get(f"{self.base}/health") as resp:
                    if resp.status == 200:
                        return time.time()
            except aiohttp.ClientError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("the service exited at start")
            await asyncio.sleep(0.02)
        raise RuntimeError("the service did not answer /health in 120 s")

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


def most_seats() -> str:
    """The registered game with the most seats (the first in name order on a tie)."""
    return max(by_name(), key=seat_count)


async def _open_tables(
    session: aiohttp.ClientSession, base: str, game: str, count: int, clock: dict[str, int] = CLOCK
) -> list[str]:
    seats = ["human"] * seat_count(game)
    gate = asyncio.Semaphore(32)

    async def one(i: int) -> str:
        async with gate:
            body = {"game": game, "seats": seats, "clock": clock}
            async with session.post(f"{base}/deals", json=body) as resp:
                created = await resp.json()
            token = created["tokens"]["0"]
            start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": f"bench-{i}"}}
            headers = {"Authorization": f"Bearer {token}"}
            async with session.post(
                f"{base}/deals/{created['deal_id']}/commands", json=start, headers=headers
            ) as r:
                if r.status != 200:
                    raise RuntimeError(f"StartDeal answered {r.status}: {await r.text()}")
            return created["deal_id"]

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def _expiries(redis: Any, prefix: str, deal_ids: list[str]) -> list[tuple[int, int]]:
    """(recorded ms, deadline ms) of every ClockExpired in the deals' logs."""
    out: list[tuple[int, int]] = []
    for start in range(0, len(deal_ids), 100):
        pipe = redis.pipeline(transaction=False)
        for deal_id in deal_ids[start : start + 100]:
            pipe.xrange(f"{prefix}:{{{deal_id}}}:events")
        for entries in await pipe.execute():
            for _entry_id, fields in entries:
                record = decode_record(fields[b"e"] if b"e" in fields else fields["e"])
                if record.type == "ClockExpired":
                    data = msgspec.json.decode(record.data)
                    out.append((recorded_ms(record.recorded_at), int(data["deadline_ms"])))
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


async def measure(
    url: str, tables: int, seconds: float, restart_tables: int, game: str | None = None
) -> dict[str, Any]:
    game = game or most_seats()
    prefix = f"bench-clocks-{uuid.uuid4().hex[:8]}"
    redis = connect(url)
    data_dir = tempfile.mkdtemp(prefix="bench-clocks-")
    figures: dict[str, Any] = {"tables": tables, "window_s": seconds, "clock": CLOCK}
    service = Service(url, prefix, data_dir)
    second: Service | None = None
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64)) as session:
            await service.up(session)
            opened = time.time()
            deal_ids = await _open_tables(session, service.base, game, tables)
            figures["open_tables_s"] = round(time.time() - opened, 2)
            cpu_before = service.cpu_s()
            await asyncio.sleep(seconds)
            cpu = service.cpu_s() - cpu_before
            expiries = await _expiries(redis, prefix, deal_ids)
            late = [max(0, at - deadline) for at, deadline in expiries]
            figures["expiries"] = len(late)
            if late:
                figures["lateness_p50_ms"] = _percentile(late, 50)
                figures["lateness_p99_ms"] = _percentile(late, 99)
                figures["lateness_max_ms"] = max(late)
                figures["cpu_ms_per_expiry"] = round(1000 * cpu / len(late), 3)
            figures["lateness_target_p99_ms"] = LATENESS_TARGET_P99_MS
            figures["lateness_target_met"] = (
                bool(late) and figures["lateness_p99_ms"] <= LATENESS_TARGET_P99_MS
            )

            # the crash: tables whose first deadlines come after the kill
            # their turn lasts CRASH_CLOCK's 5 s, so the kill comes before any of their deadlines
            opening = time.time()
            crash_ids = await _open_tables(session, service.base, game, restart_tables, CRASH_CLOCK)
            service.kill()
            figures["restart_killed_before_deadlines"] = time.time() < opening + CRASH_CLOCK["move_s"]
            await asyncio.sleep(max(0.0, opening + CRASH_CLOCK["move_s"] + 0.5 - time.time()))
            second = Service(url, prefix, data_dir)
            up = await second.up(session)
            deadline = time.time() + 60
            while time.time() < deadline and await _count_acted(redis, prefix, crash_ids) < len(crash_ids):
                await asyncio.sleep(0.05)
            firsts = await _first_expiry_ms(redis, prefix, crash_ids)
            figures["restart_tables"] = restart_tables
            figures["restart_tables_acted"] = len(firsts)
            if firsts:
                last = max(firsts) / 1000
                figures["restart_acted_within_s"] = round(last - up, 3)
                figures["restart_from_spawn_s"] = round(last - second.spawned, 3)
            figures["restart_target_s"] = RESTART_TARGET_S
            figures["restart_target_met"] = (
                len(firsts) == restart_tables
                and figures.get("restart_acted_within_s", 99) <= RESTART_TARGET_S
            )
    finally:
        service.stop()
        if second is not None:
            second.stop()
        keys = [k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        for start in range(0, len(keys), 500):
            await redis.delete(*keys[start : start + 500])
        await redis.aclose()
    return figures


async def _first_expiry_ms(redis: Any, prefix: str, deal_ids: list[str]) -> list[int]:
    """Per deal, the recorded time of its first ClockExpired (deals without one left out)."""
    firsts = []
    for deal_id in deal_ids:
        times = [at for at, _ in await _expiries(redis, prefix, [deal_id])]
        if times:
            firsts.append(min(times))
    return firsts


async def _count_acted(redis: Any, prefix: str, deal_ids: list[str]) -> int:
    return len(await _first_expiry_ms(redis, prefix, deal_ids))


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else the embedded server)")
    p.add_argument("--tables", type=int, default=1000, help="live tables on the one service process")
    p.add_argument("--seconds", type=float, default=20.0, help="the measured window after the tables opened")
    p.add_argument(
        "--restart-tables", type=int, default=100, help="tables whose deadlines pass while no process runs"
    )
    add_game(p, "--game", most_seats(), "the game of every table")
    args = p.parse_args()
    figures = run_on_redis(
        args.redis, lambda url: measure(url, args.tables, args.seconds, args.restart_tables, args.game)
    )
    emit(figures, args.json)


if __name__ == "__main__":
    main()
