"""``dealstream serve --processes N`` and a clean shutdown (issue 26).

* Two processes on one port under load; one of them gets SIGTERM. Clients retry connection
  errors and 503s with the same ``command_id``; live streams (a seat's and spectators') that were
  on the stopped process get a ``retry`` message and reconnect with ``Last-Event-ID``. Afterwards:
  no answer was a 5xx, every acknowledged command is in its log once at its versions, every
  stream saw exactly the events a fresh stream of the finished deal shows (no gap, no repeat),
  every audit is green, the stopped process exited 0 and the parent started it again.
* With the embedded Redis: one Redis server, owned by the parent (the data directory's lock
  names it); both workers answer on the one port; a worker killed with SIGKILL is started again
  and the deals stored before are still there; SIGTERM of the parent stops everything, exit 0.

Nothing here waits a fixed time: every state is waited for with a generous bound.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from service.cli.processes import STOP_WAIT_S
from tests.reliability.harness import ROOT, Players, ServiceProcess, check_log, free_port

TABLES = 6  # deals played at once by the scripted clients, half MCR, half Paohuzi
SIGTERM_AFTER = 40  # acknowledged client commands before the SIGTERM
WAIT_S = 120.0


async def wait_until(what: str, check, within: float = WAIT_S, every: float = 0.05, show=None):
    """``check()`` (sync or async) until it gives something true; fails naming ``what`` and
    showing ``show()`` (the service's output, say), so a miss on a loaded machine says why."""
    deadline = time.monotonic() + within
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, f"not within {within} s: {what}" + (
            f"\n{show()}" if show is not None else ""
        )
        await asyncio.sleep(every)


def worker_pids(output: str) -> dict[int, int]:
    """Worker index -> pid, from the parent's log lines ``worker I (pid P) listens``."""
    return {int(i): int(p) for i, p in re.findall(r"worker (\d+) \(pid (\d+)\) listens", output)}


async def streams_open(session: aiohttp.ClientSession, metrics_port: int) -> float:
    try:
        async with session.get(f"http://127.0.0.1:{metrics_port}/metrics") as resp:
            text = await resp.text()
    except aiohttp.ClientError:
        return -1.0
    match = re.search(r"^dealstream_streams_open (\S+)$", text, re.M)
    return float(match.group(1)) if match else -1.0


@dataclass
class Watcher:
    """A live stream that reconnects with ``Last-Event-ID`` whenever it ends before ``deal-over``."""

    base: str
    deal_id: str
    token: str | None = None
    versions: list[int] = field(default_factory=list)  # deal-event versions, in arrival order
    retries: int = 0  # ``retry`` messages received
    retry_fields: list[int] = field(default_factory=list)  # SSE ``retry:`` values seen
    connections: int = 0
    problems: list[str] = field(default_factory=list)
    over: bool = False
    last: int = 0
    last_id: str = ""  # the id of the last message read, as the stream gave it (version.tag)
    opened: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, session: aiohttp.ClientSession) -> None:
        deadline = time.monotonic() + 4 * WAIT_S
        while not self.over and time.monotonic() < deadline:
            headers = {"Last-Event-ID": self.last_id} if self.last_id else {}
            if self.token:
                headers["Authorization"] = f"Bearer {self.token}"
            try:
                async with session.get(
                    f"{self.base}/deals/{self.deal_id}/events/stream", headers=headers,
                    timeout=aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=90),
                ) as resp:  # fmt: skip
                    if resp.status != 200:
                        if resp.status >= 500:
                            self.problems.append(f"stream answered {resp.status}")
                        await asyncio.sleep(0.1)
                        continue
                    self.connections += 1
                    self.opened.set()
                    await self._read(resp)
            except (aiohttp.ClientError, TimeoutError, OSError):
                await asyncio.sleep(0.05)  # cut off: reconnect from the last id
        if not self.over:
            self.problems.append("the stream never reached deal-over")

    async def _read(self, resp: aiohttp.ClientResponse) -> None:
        event, ident = None, None
        async for raw in resp.content:
            line = raw.decode().rstrip("\r\n")
            if line.startswith("id: "):
                self.last_id = line[4:]
                ident = int(self.last_id.split(".")[0])
            elif line.startswith("event: "):
                event = line[7:]
            elif line.startswith("retry: "):
                self.retry_fields.append(int(line[7:]))
            elif line == "" and event is not None:
                if event == "deal-event":
                    assert ident is not None
                    if self.versions and ident <= self.versions[-1]:
                        self.problems.append(f"version {ident} again after {self.versions[-1]}")
                    self.versions.append(ident)
                if ident is not None:
                    self.last = max(self.last, ident)
                if event == "retry":
                    self.retries += 1
                    return
                if event == "deal-over":
                    self.over = True
                    return
                if event == "reset":
                    self.problems.append("reset")
                    return
                event, ident = None, None


async def reference_versions(session: aiohttp.ClientSession, base: str, deal_id: str, token: str | None):
    """The deal-event versions a fresh stream of the finished deal shows this viewer."""
    fresh = Watcher(base, deal_id, token)
    await asyncio.wait_for(fresh.run(session), WAIT_S)
    assert fresh.over and not fresh.problems, fresh.problems
    return fresh.versions


@pytest.mark.timeout(420)
async def test_sigterm_of_one_of_two_processes_under_load_loses_nothing(own_redis, own_store, prefix):
    metrics = free_port()
    service = ServiceProcess(
        own_redis.url, prefix, "--processes", "2", "--metrics-port", str(metrics)
    ).start()
    try:
        await service.ready(timeout=WAIT_S)
        pids = await wait_until(
            "both workers listen",
            lambda: len(worker_pids(service.output())) == 2,
            show=lambda: service.output()[-4000:],
        )
        pids = worker_pids(service.output())
        victim = pids[0]  # worker 0: its metrics on the metrics port itself
        async with Players([service.base], seed=21, retry_s=90) as players, aiohttp.ClientSession() as watch:
            # a deal nobody plays until after the SIGTERM: its streams are sure to be live then
            held = await players.create("paohuzi", spectators=True)  # watched without a seat too
            assert held is not None
            run = asyncio.create_task(players.run(tables=TABLES))
            await players.wait_acked(SIGTERM_AFTER, timeout=WAIT_S)
            # streams on the held deal (its seat's and spectators'), opened until two are on the victim
            watchers: list[Watcher] = []
            tasks: list[asyncio.Task] = []
            for i in range(60):
                w = Watcher(service.base, held.deal_id, held.tokens[0] if i % 2 == 0 else None)
                watchers.append(w)
                tasks.append(asyncio.create_task(w.run(watch)))
                await asyncio.wait_for(w.opened.wait(), WAIT_S)
                if i >= 3 and await streams_open(watch, metrics) >= 2:  # its count moves before the 200
                    break
            assert await streams_open(watch, metrics) >= 2, "no stream landed on worker 0"
            acked_before = players.acked
            stopped_at = time.monotonic()
            os.kill(victim, signal.SIGTERM)
            line = re.compile(rf"worker 0 \(pid {victim}\) (exited with code -?\d+|was killed by \w+)")
            ended = await wait_until("the parent saw worker 0 end", lambda: line.search(service.output()))
            took = time.monotonic() - stopped_at
            assert ended.group(1) == "exited with code 0", service.output()[-3000:]
            assert took < STOP_WAIT_S, took
            # the parent starts it again; the load goes on over both
            await wait_until("worker 0 listens again", lambda: worker_pids(service.output()).get(0) != victim)
            await players.play(held, client_seed="held")
            await asyncio.wait_for(run, 4 * WAIT_S)
            await asyncio.wait_for(asyncio.gather(*tasks), WAIT_S)
            assert players.acked > acked_before, "commands went on after the SIGTERM"
            # 0 5xx (no 503 either: the stopping process finished what it had and took nothing new)
            assert not players.stats.bad_5xx, players.stats.bad_5xx[:5]
            assert not players.stats.problems_503, players.stats.problems_503[:5]
            assert not players.stats.unexpected_4xx, players.stats.unexpected_4xx[:5]
            checked = await check_log(own_store, players)
            assert checked["deals"] == TABLES + 1
            # the streams on the stopped process were told to retry, and resumed without gaps
            told = [w for w in watchers if w.retries]
            assert len(told) >= 2, [(w.retries, w.connections) for w in watchers]
            for w in told:
                assert w.connections >= 2 and w.retry_fields, (w.connections, w.retry_fields)
            for w in watchers:
                assert w.over and not w.problems, w.problems
                assert w.versions == await reference_versions(watch, service.base, held.deal_id, w.token)
        assert "Traceback" not in service.output(), service.output()[-3000:]
    finally:
        service.cleanup()


def _serve_embedded(port: int, metrics: int, data_dir: Path, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALSTREAM_")}
    env.update(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    with open(log, "wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir", str(data_dir),
             "--processes", "2", "--metrics-port", str(metrics), "--bot-delay", "0", "--no-archiver"],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip


def redis_servers_of(parent: int) -> list[int]:
    """Pids of the redis-server processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
        if ppid == parent and name.startswith("redis-server"):
            found.append(int(entry.name))
    return found


@pytest.mark.timeout(300)
async def test_two_processes_share_one_embedded_redis_that_outlives_a_worker():
    port, metrics = free_port(), free_port()
    while metrics + 1 == port:
        metrics = free_port()
    data_dir = Path(tempfile.mkdtemp(prefix="ds-rel-procs-"))
    log = data_dir.parent / f"{data_dir.name}.log"
    proc = _serve_embedded(port, metrics, data_dir / "data", log)
    base = f"http://127.0.0.1:{port}"
    output = lambda: log.read_text(errors="replace")  # noqa: E731
    try:
        async with aiohttp.ClientSession() as session:

            async def healthy() -> bool:
                assert proc.poll() is None, output()[-3000:]
                try:
                    async with session.get(base + "/health") as resp:
                        return resp.status == 200
                except aiohttp.ClientError:
                    return False

            await wait_until("the service answers", healthy)
            await wait_until("both workers listen", lambda: len(worker_pids(output())) == 2)
            pids = worker_pids(output())
            # one Redis, the parent's; the data directory's lock names the parent
            redis = redis_servers_of(proc.pid)
            assert len(redis) == 1, redis
            assert (data_dir / "data" / "dealstream.lock").read_text().strip() == str(proc.pid)
            for pid in pids.values():
                assert redis_servers_of(pid) == []
            # both workers answer on the one port: streams opened on it land on each of them
            # open to spectators: the streams below are opened without a seat
            body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "spectators": True}
            async with session.post(base + "/deals", json=body) as resp:
                assert resp.status == 201
                deal_id = (await resp.json())["deal_id"]
            streams: list[aiohttp.ClientResponse] = []
            try:
                for _ in range(60):
                    resp = await session.get(
                        f"{base}/deals/{deal_id}/events/stream",
                        timeout=aiohttp.ClientTimeout(total=None, sock_read=60),
                    )
                    assert resp.status == 200
                    streams.append(resp)
                    await resp.content.readuntil(b"\r\n\r\n")  # its first message: the stream is open
                    counts = [await streams_open(session, metrics + i) for i in (0, 1)]
                    if min(counts) >= 1 and sum(counts) == len(streams):
                        break
                assert min(counts) >= 1 and sum(counts) == len(streams), counts
            finally:
                for resp in streams:
                    resp.close()
            # a worker killed with SIGKILL is started again; Redis stays, and so do the deals
            os.kill(pids[1], signal.SIGKILL)
            await wait_until(
                "the parent starts worker 1 again",
                lambda: worker_pids(output()).get(1) not in (None, pids[1]),
            )
            assert f"worker 1 (pid {pids[1]}) was killed by SIGKILL" in output()
            assert redis_servers_of(proc.pid) == redis
            await wait_until("the service answers", healthy)
            async with session.get(f"{base}/deals/{deal_id}/audit") as resp:  # not started: the chain
                assert resp.status == 200 and (await resp.json())["chain_ok"]
        # SIGTERM of the parent: the workers stop, then Redis; exit 0
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(STOP_WAIT_S + 30) == 0, output()[-3000:]
        for pid in (*redis, *worker_pids(output()).values()):
            await wait_until(f"pid {pid} is gone", lambda pid=pid: not Path(f"/proc/{pid}").exists())
        assert "Traceback" not in output(), output()[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        import shutil

        shutil.rmtree(data_dir, ignore_errors=True)
        log.unlink(missing_ok=True)


@pytest.mark.timeout(200)
def test_a_worker_that_cannot_listen_stops_the_start(own_redis):
    """A port held by a socket without SO_REUSEPORT: the workers cannot bind, the parent stops."""
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--redis", own_redis.url,
             "--processes", "2", "--metrics-port", "0", "--no-archiver"],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
            timeout=180, check=False,
        )  # fmt: skip
    assert done.returncode == 1, done.stderr[-3000:]
    assert "before it listened; stopping" in done.stderr, done.stderr[-3000:]
