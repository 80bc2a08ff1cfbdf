"""Live streams at scale and through faults: one service process, its own Redis, many subscribers.

Three scenarios, each against a fresh ``dealstream serve`` process and its own ``redis-server``
(append-only file, ``appendfsync always``) on free loopback ports; the subscribers are plain
sockets in this process (a few hundred bytes each, so thousands fit), parsed just enough to see
each message's event name and id.

* ``fanout``: ``--deals`` live tables (the registered games in turn, ``domain.game.GAMES`` in name
  order; one person, the rest ``greedy`` bots at ``--bot-delay``), ``--per-deal`` subscribers
  each (the person's own stream plus spectators). The person answers its prompts after
  ``--think`` seconds. Delivery latency is, for every command the service acknowledged and every
  subscriber of that deal, the time from the answer's arrival to the subscriber's first message
  with an id at or past the command's last version.
  Also: the Redis connections the service holds (``CLIENT LIST``; its live-stream connections
  carry the name ``dealstream-streams``), blocked clients, and failed commands.
* ``churn``: ``--churn`` streams opened and dropped, ``--wave`` at a time, on one table of
  ``--churn-game`` (by default the first game the registry names), while a probe asks the
  service for a view every 0.1 s; then the time until Redis's blocked clients and the service's
  open streams are back to where they were.
* ``faults``: smaller tables under play, then Redis stopped for 5 s (SIGSTOP) and later killed and
  restarted on its append-only file: for each fault, the time from recovery until every stream
  has delivered again; at the end every stream's ids are checked against the log (each visible
  event once, in order), every acknowledged command against the log, and every table finished.

``python -m bench.streams --json`` prints one JSON object; ``--quick`` runs small sizes.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import redis

from bench.common import add_game, by_name, emit, parser, registered, seat_count

ROOT = Path(__file__).resolve().parents[1]
STREAMS_NAME = "dealstream-streams"
TARGETS = {"fanout_p99_ms": 250, "stream_connections": 4, "recovery_s": 5.0, "churn_back_s": 5.0}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


# --- processes ----------------------------------------------------------------------------------
class Redis:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="ds-bench-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Redis:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--maxclients", "20000",
             "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if self.client().ping():
                    return self
            except (redis.RedisError, OSError):
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def clients(self) -> dict[str, int]:
        c = self.client()
        try:
            info = c.info("clients")
            names = [x.get("name", "") for x in c.client_list()]
        finally:
            c.close()
        return {
            "connected": int(info["connected_clients"]),
            "blocked": int(info["blocked_clients"]),
            "streams": sum(1 for n in names if n == STREAMS_NAME),
        }

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(15)

    def cleanup(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class Service:
    def __init__(self, redis_port: int, *extra: str) -> None:
        self.port = free_port()
        self.prefix = f"bench-{uuid.uuid4().hex[:8]}"  # the service's keys in Redis
        self.log = tempfile.NamedTemporaryFile(prefix="ds-bench-service-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port),
             "--redis", f"redis://127.0.0.1:{redis_port}/0", "--prefix", self.prefix,
             "--create-limit", "1000000", "--max-streams", "20000", "--streams-per-address", "20000",
             "--processes", "1", *extra],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def ready(self) -> Service:
        async with aiohttp.ClientSession() as session:
            for _ in range(600):
                try:
                    async with session.get(self.base + "/health") as resp:
                        if resp.status == 200:
                            return self
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError("the service did not start:\n" + Path(self.log.name).read_text()[-2000:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        Path(self.log.name).unlink(missing_ok=True)


# --- cheap subscribers ----------------------------------------------------------------------------
# one SSE message as aiohttp-sse frames it (chunk sizes of the chunked encoding may sit between)
_MESSAGE = re.compile(
    rb"(?:id: (?P<id>\d+)(?:\.[0-9a-f]+)?\r\n)?event: (?P<event>[a-z-]+)\r\ndata: (?P<data>[^\r]*)\r\n"
)


class Subscriber:
    """One stream on a plain socket. Records when each id first arrived; parses only views (for
    the person's own stream, which must know when to act)."""

    def __init__(
        self,
        port: int,
        deal_id: str,
        token: str | None = None,
        parse_views: bool = False,
        host: str = "127.0.0.1",
    ) -> None:
        self.port, self.deal_id, self.token, self.parse_views = port, deal_id, token, parse_views
        self.host = host
        self.ids: list[tuple[int, float, str]] = []  # (id, arrival, event name)
        self.views: asyncio.Queue[dict] = asyncio.Queue()
        self.over = asyncio.Event()
        self.status = 0
        self._task: asyncio.Task | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> Subscriber:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        self._writer = writer
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
        writer.write(
            f"GET /deals/{self.deal_id}/events/stream HTTP/1.1\r\nHost: {self.host}\r\n{auth}\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        self.status = int(head.split(b" ", 2)[1])
        self._task = asyncio.create_task(self._read(reader))
        return self

    async def _read(self, reader: asyncio.StreamReader) -> None:
        """Chunks as they come; each whole message in them is noted with the chunk's arrival
        time (a regular expression over the bytes: cheap enough for thousands of streams)."""
        buffer = b""
        try:
            while chunk := await reader.read(1 << 16):
                at = time.monotonic()
                buffer += chunk
                end = buffer.rfind(b"\r\n\r\n")
                if end < 0:
                    continue
                whole, buffer = buffer[: end + 4], buffer[end + 4 :]
                for match in _MESSAGE.finditer(whole):
                    ident = int(match["id"]) if match["id"] else -1
                    event = match["event"].decode()
                    self.ids.append((ident, at, event))
                    if event == "view" and self.parse_views:
                        self.views.put_nowait(json.loads(match["data"]))
                    if event in ("deal-over", "reset"):
                        self.over.set()
        except (OSError, ValueError, asyncio.CancelledError):
            pass
        finally:
            self.over.set()

    def first_at_or_after(self, version: int) -> float | None:
        for ident, at, _event in self.ids:
            if ident >= version:
                return at
        return None

    def event_ids(self) -> list[int]:
        return [i for i, _at, e in self.ids if e == "deal-event"]

    def close(self) -> None:
        if self._writer is not None:
            self._writer.transport.abort()
        if self._task is not None:
            self._task.cancel()


# --- tables ---------------------------------------------------------------------------------------
@dataclass
class Acked:
    deal_id: str
    command_id: str
    first: int
    last: int
    at: float


@dataclass
class Table:
    service: Service
    game: str
    subscribers_per_deal: int
    think: float
    rng: random.Random
    acks: list[Acked] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    deals: list[dict] = field(default_factory=list)
    subs: list[Subscriber] = field(default_factory=list)

    async def play_one(self, session: aiohttp.ClientSession, stop_at: float) -> None:
        seats = ["human"] + ["bot:greedy"] * (seat_count(self.game) - 1)
        body = {"game": self.game, "seats": seats, "spectators": True}  # a table open to its watchers
        async with session.post(self.service.base + "/deals", json=body) as r:
            created = await r.json()
        deal_id, token = created["deal_id"], created["tokens"]["0"]
        deal = {"deal_id": deal_id, "game": self.game, "token": token, "subs": [], "finished": False}
        self.deals.append(deal)
        player = await Subscriber(self.service.port, deal_id, token, parse_views=True).open()
        spectators = [Subscriber(self.service.port, deal_id) for _ in range(self.subscribers_per_deal - 1)]
        for chunk in range(0, len(spectators), 50):
            await asyncio.gather(*(s.open() for s in spectators[chunk : chunk + 50]))
        deal["subs"] = [player, *spectators]
        self.subs += deal["subs"]
        n = 0
        await self.command(session, deal_id, token, "start", {"type": "StartDeal", "client_seed": "bench"})
        acted = -1
        while time.monotonic() < stop_at and not player.over.is_set():
            try:
                view = await asyncio.wait_for(player.views.get(), 1.0)
            except TimeoutError:
                continue
            if view.get("result") is not None:
                deal["finished"] = True
                break
            while not player.views.empty():  # only the newest view counts
                view = player.views.get_nowait()
            actions = [a for a in view.get("legal_actions") or [] if a.get("type") != "StartDeal"]
            if not actions or view["version"] <= acted:
                continue
            await asyncio.sleep(self.think)
            wins = [a for a in actions if a.get("type") in ("Win", "DeclareWin") or a.get("claim") == "win"]
            command = wins[0] if wins else self.rng.choice(actions)
            acted = view["version"]
            n += 1
            await self.command(session, deal_id, token, f"c{n}", command, view["version"])
        if player.over.is_set():
            deal["finished"] = True

    async def command(self, session, deal_id, token, command_id, command, expected=None) -> None:
        body: dict[str, Any] = {"command_id": command_id, "command": command}
        if expected is not None:
            body["expected_version"] = expected
        deadline = time.monotonic() + 60
        while True:
            try:
                async with session.post(
                    f"{self.service.base}/deals/{deal_id}/commands", json=body,
                    headers={"Authorization": f"Bearer {token}"},
                ) as resp:  # fmt: skip
                    status = resp.status
                    answer = await resp.json(content_type=None)
            except (aiohttp.ClientError, TimeoutError):
                status, answer = 0, None
            if status == 200:
                self.acks.append(Acked(deal_id, command_id, answer["first_version"], answer["version"],
                                       time.monotonic()))  # fmt: skip
                return
            if status == 409:  # the view moved on before the answer: the next view will come
                return
            if status in (0, 503) and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                continue
            self.failed.append(f"{status} {answer}")
            return


def latencies(tables: list[Table]) -> list[float]:
    out = []
    for table in tables:
        subs = {d["deal_id"]: d["subs"] for d in table.deals}
        for ack in table.acks:
            for sub in subs.get(ack.deal_id, ()):
                at = sub.first_at_or_after(ack.last)
                if at is not None:
                    out.append(max(0.0, at - ack.at))
    return out


# --- scenarios ------------------------------------------------------------------------------------
async def fanout(args: Any) -> dict[str, Any]:
    server = Redis().start()
    service = Service(server.port, "--bot-delay", str(args.bot_delay), "--keepalive", "15")
    try:
        await service.ready()
        baseline = server.clients()
        stop_at = time.monotonic() + args.warmup + args.seconds
        rng = random.Random(7)
        games = by_name()
        tables = [
            Table(service, games[i % len(games)], args.per_deal, args.think, random.Random(rng.random()))
            for i in range(args.deals)
        ]
        peak = dict(baseline)

        async def watch() -> None:
            while time.monotonic() < stop_at:
                now = server.clients()
                for k in peak:
                    peak[k] = max(peak[k], now[k])
                await asyncio.sleep(1.0)

        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(
            connector=connector, timeout=aiohttp.ClientTimeout(total=60)
        ) as session:

            async def run(table: Table) -> None:
                while time.monotonic() < stop_at:
                    await table.play_one(session, stop_at)
                    for sub in table.deals[-1]["subs"]:
                        sub.close()

            watcher = asyncio.create_task(watch())
            await asyncio.gather(*(run(t) for t in tables))
            watcher.cancel()
        lat = latencies(tables)
        open_at_peak = sum(len(d["subs"]) for t in tables for d in t.deals[-1:])
        return {
            "deals_at_once": args.deals,
            "subscribers": args.deals * args.per_deal,
            "subscribers_checked_at_end": open_at_peak,
            "commands_acked": sum(len(t.acks) for t in tables),
            "commands_failed": sum(len(t.failed) for t in tables),
            "delivery_samples": len(lat),
            "delivery_p50_ms": round(percentile(lat, 50) * 1000, 1),
            "delivery_p99_ms": round(percentile(lat, 99) * 1000, 1),
            "delivery_max_ms": round(max(lat, default=float("nan")) * 1000, 1),
            "redis_stream_connections_max": peak["streams"],
            "redis_connected_clients_baseline": baseline["connected"],
            "redis_connected_clients_max": peak["connected"],
            "redis_blocked_clients_max": peak["blocked"],
            "meets_targets": (
                percentile(lat, 99) * 1000 <= TARGETS["fanout_p99_ms"]
                and peak["streams"] <= TARGETS["stream_connections"]
                and not any(t.failed for t in tables)
            ),
        }
    finally:
        service.stop()
        server.cleanup()


async def churn(args: Any) -> dict[str, Any]:
    server = Redis().start()
    service = Service(server.port, "--bot-delay", "0")
    try:
        await service.ready()
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            seats = ["human"] + ["bot:greedy"] * (seat_count(args.churn_game) - 1)
            body = {"game": args.churn_game, "seats": seats, "spectators": True}
            async with session.post(service.base + "/deals", json=body) as r:
                created = await r.json()
            deal_id, token = created["deal_id"], created["tokens"]["0"]
            baseline = server.clients()
            probe_times: list[float] = []
            probe_errors: list[int] = []
            done = asyncio.Event()

            async def probe() -> None:
                while not done.is_set():
                    started = time.monotonic()
                    try:
                        async with session.get(
                            f"{service.base}/deals/{deal_id}/view",
                            headers={"Authorization": f"Bearer {token}"},
                        ) as resp:
                            await resp.read()
                            if resp.status != 200:
                                probe_errors.append(resp.status)
                    except (aiohttp.ClientError, TimeoutError):
                        probe_errors.append(0)
                    probe_times.append(time.monotonic() - started)
                    await asyncio.sleep(0.1)

            prober = asyncio.create_task(probe())
            opened = refused = 0
            peak_blocked = baseline["blocked"]
            started = time.monotonic()
            while opened + refused < args.churn:
                wave = [Subscriber(service.port, deal_id) for _ in range(min(args.wave, args.churn - opened))]
                results = await asyncio.gather(*(s.open() for s in wave), return_exceptions=True)
                opened += sum(1 for s in wave if s.status == 200)
                refused += sum(1 for r in results if isinstance(r, Exception))
                peak_blocked = max(peak_blocked, server.clients()["blocked"])
                for s in wave:
                    s.close()
            dropped_at = time.monotonic()
            back = None
            while time.monotonic() - dropped_at < 30:
                async with session.get(service.base + "/health") as resp:
                    streams = (await resp.json())["streams"]
                if server.clients()["blocked"] <= baseline["blocked"] and streams == 0:
                    back = time.monotonic() - dropped_at
                    break
                await asyncio.sleep(0.05)
            done.set()
            await prober
        return {
            "streams_opened_and_dropped": opened,
            "streams_refused": refused,
            "seconds": round(dropped_at - started, 1),
            "redis_blocked_clients_baseline": baseline["blocked"],
            "redis_blocked_clients_max": peak_blocked,
            "back_to_baseline_s": round(back, 2) if back is not None else None,
            "probe_requests": len(probe_times),
            "probe_errors": len(probe_errors),
            "probe_p99_ms": round(percentile(probe_times, 99) * 1000, 1),
            "meets_targets": back is not None and back <= TARGETS["churn_back_s"] and not probe_errors,
        }
    finally:
        service.stop()
        server.cleanup()


async def faults(args: Any) -> dict[str, Any]:
    server = Redis().start()
    service = Service(server.port, "--bot-delay", "0.2", "--keepalive", "2", "--redis-timeout", "2")
    out: dict[str, Any] = {}
    try:
        await service.ready()
        stop_at = time.monotonic() + 600
        games = by_name()
        tables = [
            Table(service, games[i % len(games)], args.fault_per_deal, 0.05, random.Random(i))
            for i in range(args.fault_deals)
        ]
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
            runs = [asyncio.create_task(t.play_one(session, stop_at)) for t in tables]
            await asyncio.sleep(args.warmup)
            for name, fault in (("stall", _stall), ("restart", _restart)):
                subs = [s for t in tables for d in t.deals for s in d["subs"] if not s.over.is_set()]
                marks = {id(s): len(s.ids) for s in subs}
                recovered = await fault(server)
                waits = []
                for s in subs:
                    deadline = recovered + 30
                    while len(s.ids) <= marks[id(s)] and not s.over.is_set() and time.monotonic() < deadline:
                        await asyncio.sleep(0.02)
                    arrived = [at for _i, at, _e in s.ids[marks[id(s)] :]]
                    waits.append(arrived[0] - recovered if arrived else float("inf"))
                out[f"{name}_streams"] = len(subs)
                out[f"{name}_recovery_p50_s"] = round(percentile(waits, 50), 2)
                out[f"{name}_recovery_max_s"] = round(max(waits, default=float("nan")), 2)
                await asyncio.sleep(3)
            done, pending = await asyncio.wait(runs, timeout=300)
            for task in pending:
                task.cancel()
            problems = await _check_streams(session, service, tables, server)
        out.update(
            {
                "deals": len(tables),
                "deals_finished": sum(1 for t in tables for d in t.deals if d["finished"]),
                "commands_acked": sum(len(t.acks) for t in tables),
                "commands_failed": sum(len(t.failed) for t in tables),
                **problems,
            }
        )
        out["meets_targets"] = (
            out["stall_recovery_max_s"] <= TARGETS["recovery_s"]
            and out["restart_recovery_max_s"] <= TARGETS["recovery_s"]
            and out["deals_finished"] == len(tables)
            and out["acked_commands_lost"] == 0
            and out["streams_with_gap_or_repeat"] == 0
        )
        return out
    finally:
        service.stop()
        server.cleanup()


async def _stall(server: Redis) -> float:
    server.signal(signal.SIGSTOP)
    await asyncio.sleep(5)
    server.signal(signal.SIGCONT)
    return time.monotonic()


async def _restart(server: Redis) -> float:
    server.kill()
    await asyncio.sleep(1)
    server.start()
    return time.monotonic()


async def _check_streams(session, service: Service, tables: list[Table], server: Redis) -> dict[str, int]:
    """Each stream's event ids are the log's events visible to it, once each, in order; every
    acknowledged command is in the log at its versions."""
    from service.app.games import kit

    bad = lost = 0
    for table in tables:
        for deal in table.deals:
            async with session.get(f"{service.base}/deals/{deal['deal_id']}/log") as resp:
                if resp.status != 200:
                    bad += len(deal["subs"])
                    continue
                records = [json.loads(line) for line in (await resp.read()).splitlines() if line.strip()]
            k = kit(deal["game"])
            events = [k.decode_event(json.dumps(r["data"]).encode()) for r in records]
            produced: dict[str, list[int]] = {}
            for r in records:
                if r.get("command_id"):
                    produced.setdefault(r["command_id"], []).append(r["version"])
            for ack in table.acks:
                if ack.deal_id == deal["deal_id"]:
                    if produced.get(f"seat0:{ack.command_id}") != list(range(ack.first, ack.last + 1)):
                        lost += 1
            for index, sub in enumerate(deal["subs"]):
                seat = 0 if index == 0 else None
                wanted = [
                    r["version"] for r, e in zip(records, events, strict=True)
                    if k.projections.redact_event(e, seat) is not None
                ]  # fmt: skip
                if sub.event_ids() != wanted:
                    bad += 1
    return {"streams_with_gap_or_repeat": bad, "acked_commands_lost": lost}


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    p.add_argument("--only", default="fanout,churn,faults", help="comma-separated scenarios")
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--per-deal", type=int, default=100, help="subscribers per deal (fanout)")
    p.add_argument("--seconds", type=float, default=60.0, help="fanout measurement time")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--bot-delay", type=float, default=1.0, help="bot think time (fanout)")
    p.add_argument("--think", type=float, default=0.5, help="the person's think time (fanout)")
    p.add_argument("--churn", type=int, default=10_000, help="streams opened and dropped")
    p.add_argument("--wave", type=int, default=500, help="streams opened at once (churn)")
    add_game(p, "--churn-game", registered()[0], "the game of the table whose streams churn")
    p.add_argument("--fault-deals", type=int, default=20)
    p.add_argument("--fault-per-deal", type=int, default=20)
    args = p.parse_args(argv)
    if args.quick:
        args.deals, args.per_deal, args.seconds, args.warmup = 6, 20, 10.0, 3.0
        args.churn, args.wave, args.fault_deals, args.fault_per_deal = 1000, 200, 4, 5
    scenarios = {"fanout": fanout, "churn": churn, "faults": faults}
    figures: dict[str, Any] = {}
    for name in [n.strip() for n in args.only.split(",") if n.strip()]:
        started = time.perf_counter()
        figures[name] = asyncio.run(scenarios[name](args))
        figures[name]["wall_seconds"] = round(time.perf_counter() - started, 1)
    figures["targets"] = TARGETS
    emit(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
