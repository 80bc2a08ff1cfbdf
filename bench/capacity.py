"""Capacity of one service process: live tables at human pace, ramped up until a person's action
takes more than the target to come back on the person's own stream.

    python -m bench.capacity --json [--steps 100,250,500,...] [--hold 30] [--max-seconds 1500]
    python -m bench.capacity --json --quick      (a smoke run: tiny tables, short steps)
    python -m bench.capacity --json --processes 1,2   (the ramp once per process count, same run)

One ``dealstream serve`` process (its default settings: bots at ``--bot-delay 1``, normal pace,
the archive on, with its data directory in a temp dir) and its own ``redis-server`` (append-only
file, ``appendfsync always``, as the embedded one runs), on free loopback ports. Each table is
one person and bots (``greedy``), the registered games in turn (``domain.game.GAMES`` in name
order); the person holds one event stream (its own, the only stream it needs) and answers every
prompt after a think time drawn from ``--think`` (2–4 s), through ``POST /commands``. A finished
deal is followed by a new one at the same table. The people and their streams live in this
process (plain sockets, parsed just enough to see each message's id), on the same two cores as
the service and Redis.

Action to event: from sending a person's command to that command's first event arriving on the
person's stream. At each step the tables are brought to the step's count (opened over
``--ramp`` seconds), left ``--warmup`` seconds, then measured for ``--hold`` seconds. A step
holds when its p99 is at most ``--p99-ms`` (150), no command failed and every event arrived.
The ramp stops once ``--patience`` (2) steps in a row missed (on a shared machine one miss may
be another process's burst), or when ``--max-seconds`` is spent; ``capacity_tables`` is the
largest step that held. Each step also reports the CPU the service, Redis and this process
used (the service's also as ``service_cpu_per_1000_tables``: its cores over the step's tables,
times a thousand), and the machine's load average, so a figure measured on a busy machine can be told from
one measured on a quiet one. ``--appendfsync everysec`` measures Redis without a disk flush per
write.

``--target URL`` drives a service somewhere else (``http://host:port``, another machine's
``dealstream serve``, started and stopped by whoever runs it): nothing is started here, the
people and their streams are this process's only work, so the service gets its cores alone.
The service's and Redis's CPU and memory are then not read (they are on the other host: read
them there over the hold, e.g. from ``/proc/<pid>/stat`` or ``pidstat``); the steps report the
latencies, the actions and this process's own CPU. ``--processes`` does not apply (the target
runs as many as it was started with).

``--processes N[,M…]`` runs the whole ramp once per count (``dealstream serve --processes N``: N
service processes on the one port, issue 26), one after the other in the same run against a
fresh Redis each, and reports each count's ``capacity_tables`` (``capacity_by_processes``; a
count listed twice, as in ``1,2,2,1``, is run twice, so a change of the machine's load hits both
counts alike) and the ratio of the largest count's mean to the smallest's (``capacity_ratio``);
the service CPU is then the sum over the N processes.

Also: Redis memory per live deal (``MEMORY USAGE`` of the live deals' keys at the last step that
held, so the deals that finished during the run are not counted) and, from ``bench.archive``,
the memory a finished deal holds in Redis, what it still costs once archived, and the archive's
throughput (deals/s) into SQLite and PostgreSQL, for the deals of ``--archive-game`` (by default
the first game the registry names).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from bench.common import add_game, by_name, emit, parser, registered, seat_count
from bench.streams import Redis, Service, Subscriber, percentile


class Remote:
    """A service on another host (``--target``): its address only; nothing to start or stop."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"--target must be http://host[:port], not {url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.base = f"http://{self.host}:{self.port}"
        self.process = None

    async def ready(self) -> Remote:
        """Waits (up to half a minute) for the target to answer its health check."""
        async with aiohttp.ClientSession() as session:
            for _ in range(300):
                try:
                    async with session.get(self.base + "/health") as resp:
                        if resp.status == 200:
                            return self
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError(f"{self.base}/health does not answer 200")

    def stop(self) -> None:
        pass


TARGET_P99_MS = 150.0
TARGET_TABLES = 1000
CLK_TCK = os.sysconf("SC_CLK_TCK")


class FsyncRedis(Redis):
    """``bench.streams.Redis`` with a chosen ``appendfsync`` (``always``: what the embedded Redis
    runs, each acknowledged append on disk; ``everysec``: up to a second of appends at risk)."""

    def __init__(self, appendfsync: str) -> None:
        super().__init__()
        self.appendfsync = appendfsync

    def start(self) -> FsyncRedis:
        super().start()
        client = self.client()
        try:
            client.config_set("appendfsync", self.appendfsync)
        finally:
            client.close()
        return self


def service_pids(parent: int, processes: int) -> list[int]:
    """The processes that serve: the service itself, or with ``--processes N`` its N workers
    (the parent's children that are not Redis), read from /proc at each step (a worker may restart)."""
    if processes == 1:
        return [parent]
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                name, rest = f.read().rsplit(")", 1)
        except OSError:
            continue
        if int(rest.split()[1]) == parent and "redis" not in name:
            pids.append(int(entry))
    return pids


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (from /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


@dataclass
class Action:
    """One command a person sent: when, and (once answered) its first version."""

    sent: float
    sub: Subscriber
    first: int | None = None
    answered: float = 0.0  # when the HTTP answer arrived


@dataclass
class Tables:
    """Every table of the run, and what their people did."""

    service: Service | Remote
    think: tuple[float, float]
    rng: random.Random
    actions: list[Action] = field(default_factory=list)
    stale: int = 0  # 409: the view moved on before the command (a bot acted first)
    failed: list[str] = field(default_factory=list)
    deals_started: int = 0
    deals_finished: int = 0
    live: dict[int, str] = field(default_factory=dict)  # table -> its current deal
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def table(self, index: int, session: aiohttp.ClientSession) -> None:
        games = by_name()
        game = games[index % len(games)]
        while not self.stop.is_set():
            try:
                await self.deal(index, game, session)
            except (aiohttp.ClientError, OSError, TimeoutError, KeyError) as exc:
                self.failed.append(f"table {index}: {type(exc).__name__} {exc}")
                await asyncio.sleep(1.0)

    async def deal(self, index: int, game: str, session: aiohttp.ClientSession) -> None:
        seats = ["human"] + ["bot:greedy"] * (seat_count(game) - 1)
        async with session.post(self.service.base + "/deals", json={"game": game, "seats": seats}) as r:
            created = await r.json()
        deal_id, token = created["deal_id"], created["tokens"]["0"]
        self.deals_started += 1
        self.live[index] = deal_id
        host = getattr(self.service, "host", "127.0.0.1")
        sub = await Subscriber(self.service.port, deal_id, token, parse_views=True, host=host).open()
        try:
            start = {"type": "StartDeal", "client_seed": "capacity"}
            await self.command(session, sub, token, "start", start, None)
            acted = -1
            n = 0
            while not self.stop.is_set():
                try:
                    view = await asyncio.wait_for(sub.views.get(), 1.0)
                except TimeoutError:
                    if sub.over.is_set():
                        break
                    continue
                while not sub.views.empty():  # only the newest view counts
                    view = sub.views.get_nowait()
                if view.get("result") is not None:
                    self.deals_finished += 1
                    break
                actions = [a for a in view.get("legal_actions") or [] if a.get("type") != "StartDeal"]
                if not actions or view["version"] <= acted:
                    continue
                await asyncio.sleep(self.rng.uniform(*self.think))
                if self.stop.is_set():
                    break
                wins = [
                    a for a in actions if a.get("type") in ("Win", "DeclareWin") or a.get("claim") == "win"
                ]
                acted = view["version"]
                n += 1
                command = wins[0] if wins else self.rng.choice(actions)
                await self.command(session, sub, token, f"c{n}", command, view["version"])
        finally:
            sub.close()
            self.live.pop(index, None)

    async def command(
        self, session: aiohttp.ClientSession, sub: Subscriber, token: str, command_id: str,
        command: dict[str, Any], expected: int | None,
    ) -> None:  # fmt: skip
        body: dict[str, Any] = {"command_id": command_id, "command": command}
        if expected is not None:
            body["expected_version"] = expected
        action = Action(time.monotonic(), sub)
        async with session.post(
            f"{self.service.base}/deals/{sub.deal_id}/commands", json=body,
            headers={"Authorization": f"Bearer {token}"},
        ) as resp:  # fmt: skip
            answer = await resp.json(content_type=None)
            status = resp.status
        if status == 200:
            action.first = answer["first_version"]
            action.answered = time.monotonic()
            self.actions.append(action)
        elif status == 409:
            self.stale += 1
        else:
            self.failed.append(f"{status} {answer}")


def action_latencies(actions: list[Action], start: float, end: float) -> tuple[list[float], list[float], int]:
    """Send-to-event and send-to-answer times of the actions sent in [start, end), and how many
    events never arrived."""
    out: list[float] = []
    answers: list[float] = []
    missing = 0
    for action in actions:
        if not start <= action.sent < end or action.first is None:
            continue
        answers.append(action.answered - action.sent)
        at = action.sub.first_at_or_after(action.first)
        if at is None:
            missing += 1
        else:
            out.append(max(0.0, at - action.sent))
    return out, answers, missing


def redis_memory(server: Redis) -> dict[str, Any]:
    client = server.client()
    try:
        return client.info("memory")
    finally:
        client.close()


async def live_deal_memory(server: Redis, prefix: str, deal_ids: list[str]) -> dict[str, Any]:
    """Mean ``MEMORY USAGE`` of a live deal's keys (stream, meta, commands) and its records."""
    client = server.client()
    try:
        pipe = client.pipeline(transaction=False)
        for deal_id in deal_ids:
            for part in ("events", "meta", "cmds"):
                pipe.memory_usage(f"{prefix}:{{{deal_id}}}:{part}", samples=0)
            pipe.xlen(f"{prefix}:{{{deal_id}}}:events")
        replies = await asyncio.to_thread(pipe.execute)
    finally:
        client.close()
    per_deal = [sum(x or 0 for x in replies[i : i + 3]) for i in range(0, len(replies), 4)]
    records = [replies[i + 3] for i in range(0, len(replies), 4)]
    if not per_deal:
        return {}
    return {
        "live_deals_sampled": len(per_deal),
        "redis_bytes_per_live_deal": round(sum(per_deal) / len(per_deal)),
        "records_per_live_deal": round(sum(records) / len(records), 1),
    }


async def ramp(args: Any, processes: int = 1) -> dict[str, Any]:
    data_dir = tempfile.mkdtemp(prefix="ds-bench-capacity-")
    os.environ["DEALSTREAM_DATA_DIR"] = data_dir  # the service's archive file, not the checkout's
    server: FsyncRedis | None = None
    service: Service | Remote
    if args.target:  # a service on another host: nothing of it runs here
        service = Remote(args.target)
    else:
        server = FsyncRedis(args.appendfsync).start()
        service = Service(
            server.port,
            "--bot-delay",
            str(args.bot_delay),
            "--keepalive",
            "15",
            "--processes",
            str(processes),
        )
    started = time.monotonic()
    steps: list[dict[str, Any]] = []
    memory: dict[str, Any] = {}
    tables = Tables(service, (args.think_min, args.think_max), random.Random(11))
    try:
        await service.ready()
        prefix = getattr(service, "prefix", "")
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            running: list[asyncio.Task] = []
            for target in args.steps:
                if time.monotonic() - started > args.max_seconds:
                    break
                new = target - len(running)
                for _ in range(new):
                    index = len(running)
                    running.append(asyncio.create_task(tables.table(index, session)))
                    await asyncio.sleep(args.ramp / max(1, new))
                await asyncio.sleep(args.warmup)
                failed_before = len(tables.failed)
                pids: dict[str, int] = {}
                if server is not None and server.process is not None and service.process is not None:
                    workers = service_pids(service.process.pid, processes)
                    pids = {
                        "redis": server.process.pid,
                        **{f"service{i}": pid for i, pid in enumerate(workers)},
                    }
                cpu_before = {name: cpu_seconds(pid) for name, pid in pids.items()}
                own_before = time.process_time()
                measure_from = time.monotonic()
                await asyncio.sleep(args.hold)
                measure_to = time.monotonic()
                span = measure_to - measure_from
                cpu = {name: (cpu_seconds(pid) - cpu_before[name]) / span for name, pid in pids.items()}
                local = bool(pids)  # else the service and Redis run on another host: not read here
                cpu["service"] = sum(v for k, v in cpu.items() if k.startswith("service"))
                cpu["bench"] = (time.process_time() - own_before) / span
                await asyncio.sleep(2.0)  # events of the last actions still on their way
                lat, answers, missing = action_latencies(tables.actions, measure_from, measure_to)
                info = await asyncio.to_thread(redis_memory, server) if server is not None else {}
                p99 = percentile(lat, 99) * 1000
                step = {
                    "tables": target,
                    "actions": len(lat),
                    "actions_per_s": round(len(lat) / args.hold, 1),
                    "action_to_event_p50_ms": round(percentile(lat, 50) * 1000, 1),
                    "action_to_event_p99_ms": round(p99, 1),
                    "action_to_event_max_ms": round(max(lat, default=float("nan")) * 1000, 1),
                    "action_to_answer_p99_ms": round(percentile(answers, 99) * 1000, 1),
                    "events_missing": missing,
                    "commands_failed": len(tables.failed) - failed_before,
                    "service_cpu_cores": round(cpu["service"], 2) if local else None,
                    # the service's cores per thousand tables held: the figure issue 46 aims at
                    "service_cpu_per_1000_tables": round(cpu["service"] * 1000 / target, 3)
                    if local
                    else None,
                    # and per thousand actions of the people (with bots' moves in proportion): a
                    # machine whose load slows the tables down does fewer actions per table
                    "service_cpu_s_per_1000_actions": round(cpu["service"] * span * 1000 / len(lat), 2)
                    if local and lat
                    else None,
                    "redis_cpu_cores": round(cpu["redis"], 2) if local else None,
                    "bench_cpu_cores": round(cpu["bench"], 2),
                    "machine_load_average_1m": round(os.getloadavg()[0], 2),
                    "redis_used_memory": int(info["used_memory"]) if info else None,
                    "deals_finished_so_far": tables.deals_finished,
                }
                held = bool(lat) and p99 <= args.p99_ms and not missing and not step["commands_failed"]
                step["held"] = held
                steps.append(step)
                if not args.json:
                    print(step, flush=True)
                if held and server is not None:
                    memory = await live_deal_memory(server, prefix, list(tables.live.values()))
                elif len(steps) >= args.patience and not any(x["held"] for x in steps[-args.patience :]):
                    break  # the last ``patience`` steps all missed: past the capacity, not a spike
            tables.stop.set()
            await asyncio.gather(*running, return_exceptions=True)
    finally:
        service.stop()
        if server is not None:
            server.cleanup()
        shutil.rmtree(data_dir, ignore_errors=True)
    capacity = max((s["tables"] for s in steps if s["held"]), default=0)
    return {
        "capacity_tables": capacity,
        "processes": processes if not args.target else None,
        "target": args.target,
        "target_tables": TARGET_TABLES,
        "p99_target_ms": args.p99_ms,
        "meets_target": capacity >= TARGET_TABLES,
        "think_s": [args.think_min, args.think_max],
        "bot_delay_s": args.bot_delay,
        "redis_appendfsync": args.appendfsync,
        "cores": os.cpu_count(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "steps": steps,
        "deals_started": tables.deals_started,
        "deals_finished": tables.deals_finished,
        "stale_commands": tables.stale,
        "failures": tables.failed[:5],
        "seconds": round(time.monotonic() - started, 1),
        **memory,
    }


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="tiny tables and short steps (a smoke run)")
    p.add_argument("--steps", default="100,250,500,750,1000,1250,1500,2000", help="tables at each step")
    p.add_argument("--ramp", type=float, default=10.0, help="seconds over which a step's new tables open")
    p.add_argument("--warmup", type=float, default=15.0)
    p.add_argument("--hold", type=float, default=30.0, help="seconds measured at each step")
    p.add_argument("--p99-ms", type=float, default=TARGET_P99_MS)
    p.add_argument("--think-min", type=float, default=2.0)
    p.add_argument("--think-max", type=float, default=4.0)
    p.add_argument("--bot-delay", type=float, default=1.0, help="the service's --bot-delay (normal pace)")
    p.add_argument(
        "--patience", type=int, default=2,
        help="stop after this many steps in a row miss the target (one miss may be another process's spike)",
    )  # fmt: skip
    p.add_argument("--appendfsync", default="always", choices=("always", "everysec"))
    p.add_argument(
        "--processes", default="1",
        help="service processes (serve --processes N); a list (1,2): a ramp per count, and their ratio",
    )  # fmt: skip
    p.add_argument("--max-seconds", type=float, default=1500.0, help="no step starts after this")
    p.add_argument(
        "--target", default=None,
        help="http://host:port of a service on another host to drive (none is started here)",
    )  # fmt: skip
    p.add_argument("--archive-deals", type=int, default=300, help="bench.archive's deals (0: skip)")
    p.add_argument("--postgres", default=None, help="PostgreSQL for bench.archive ('' to skip)")
    add_game(p, "--archive-game", registered()[0], "bench.archive's game")
    args = p.parse_args(argv)
    if args.quick:
        args.steps, args.ramp, args.warmup, args.hold = "2,4", 0.5, 1.0, 3.0
        args.think_min, args.think_max, args.bot_delay = 0.1, 0.3, 0.1
        args.archive_deals = min(args.archive_deals, 6)
        args.postgres = "" if args.postgres is None else args.postgres
    args.steps = [int(s) for s in args.steps.split(",") if s.strip()]
    counts = [int(n) for n in str(args.processes).split(",") if n.strip()]
    if args.target:
        counts = [1]  # the target runs as many processes as it was started with
        args.archive_deals = 0  # bench.archive measures this host's own Redis and archive
    if not counts or min(counts) < 1:
        p.error("--processes is a count from 1, or a list of them (1,2)")
    runs = [asyncio.run(ramp(args, n)) for n in counts]
    figures = runs[0]
    if len(runs) > 1:  # the same ramp at each process count, one after the other in this run
        figures["by_processes"] = [
            {k: run[k] for k in ("processes", "capacity_tables", "steps", "load_average_at_end", "seconds")}
            for run in runs
        ]
        # a count may be run more than once (1,2,2,1: a change of the machine's load hits both
        # alike); each count's capacity is the mean of its runs, the ratio the largest count's
        # over the smallest's
        by_count: dict[int, list[int]] = {}
        for run in runs:
            by_count.setdefault(run["processes"], []).append(run["capacity_tables"])
        means = {n: sum(c) / len(c) for n, c in sorted(by_count.items())}
        figures["capacity_by_processes"] = {str(n): c for n, c in sorted(by_count.items())}
        first, last = means[min(means)], means[max(means)]
        figures["capacity_ratio"] = round(last / first, 2) if first else None
    if args.archive_deals:
        from bench.archive import POSTGRES_URL, measure

        postgres = POSTGRES_URL if args.postgres is None else args.postgres
        figures["archive"] = asyncio.run(measure(args.archive_game, args.archive_deals, 20, postgres or None))
    emit(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
