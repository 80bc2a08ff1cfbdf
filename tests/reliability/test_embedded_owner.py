"""The embedded Redis owns its data directory: one owner at a time (a lock file), never two servers
on one append-only file, and the server stops when its service dies, even by ``kill -9``."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
import redis

from service.store.embedded import EmbeddedRedis
from tests.reliability.harness import ROOT, free_port

LOCK_NAME = "dealstream.lock"  # the owner's lock file in the data dir (named here as the README does)


def _serve(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "DEALSTREAM_REDIS_URL"}
    env.update(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir", str(data_dir),
         "--bot-delay", "0", "--processes", "1"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


async def _ready(port: int, process: subprocess.Popen[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            assert process.poll() is None, process.stdout.read()
            try:
                async with session.get(f"http://127.0.0.1:{port}/health") as resp:
                    if resp.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
    raise AssertionError("the service did not come up")


def _redis_pid(data_dir: Path) -> int:
    client = redis.Redis(unix_socket_path=str(EmbeddedRedis(data_dir).socket_path), socket_timeout=2)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def _servers_on(data_dir: Path) -> list[int]:
    """Redis servers working in ``data_dir`` (Redis changes into its ``dir``)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if Path(os.readlink(proc / "cwd")) == data_dir.resolve() and "redis" in os.readlink(
                    proc / "exe"
                ):
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # a zombie child of a dead parent is reaped by init; check its state too
            if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


async def _deal(port: int) -> str:
    async with aiohttp.ClientSession() as session:
        body = {"game": "paohuzi", "seats": ["bot:greedy"] * 3}
        async with session.post(f"http://127.0.0.1:{port}/deals", json=body) as resp:
            assert resp.status == 201
            return (await resp.json())["deal_id"]


@pytest.mark.timeout(120)
async def test_a_second_service_on_an_owned_data_dir_is_refused_and_the_first_lives_on(tmp_path):
    data_dir = tmp_path / "data"
    first_port, second_port = free_port(), free_port()
    first = _serve(data_dir, first_port)
    try:
        await _ready(first_port, first)
        deal_id = await _deal(first_port)
        second = _serve(data_dir, second_port)
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 1, out
        assert "in use by another dealstream process" in out and str(first.pid) in out, out
        assert (data_dir / LOCK_NAME).read_text().strip() == str(first.pid)
        # the first still serves its deals, on the one server
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{first_port}/deals/{deal_id}") as resp:
                assert resp.status == 200
        pid = _redis_pid(data_dir)
        first.send_signal(signal.SIGTERM)
        first.wait(30)
        assert _gone(pid, 10), "the embedded server outlived a clean stop"
    finally:
        if first.poll() is None:
            first.kill()


@pytest.mark.timeout(120)
async def test_two_services_started_at_the_same_moment_run_one_server(tmp_path):
    data_dir = tmp_path / "data"
    ports = [free_port(), free_port()]
    both = [_serve(data_dir, p) for p in ports]
    try:
        await asyncio.sleep(0.5)
        deadline = time.monotonic() + 45
        while sum(p.poll() is None for p in both) == 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            if any(p.poll() is not None for p in both):
                break
        alive = [(p, port) for p, port in zip(both, ports, strict=True) if p.poll() is None]
        refused = [p for p in both if p.poll() is not None]
        assert len(alive) == 1 and len(refused) == 1, [p.poll() for p in both]
        assert refused[0].returncode == 1
        await _ready(alive[0][1], alive[0][0])
        assert len(_servers_on(data_dir)) == 1
    finally:
        for p in both:
            if p.poll() is None:
                p.terminate()
                p.wait(30)


@pytest.mark.timeout(120)
async def test_kill_9_of_the_service_stops_its_embedded_server_and_the_next_start_has_the_data(tmp_path):
    data_dir = tmp_path / "data"
    port = free_port()
    service = _serve(data_dir, port)
    try:
        await _ready(port, service)
        deal_id = await _deal(port)
        pid = _redis_pid(data_dir)
        service.kill()  # SIGKILL: no clean-up code of the service runs
        service.wait(10)
        assert _gone(pid, 10), "the embedded Redis was orphaned by kill -9 of its service"
        again = _serve(data_dir, port)
        try:
            await _ready(port, again)
            async with aiohttp.ClientSession() as session:
                async with session.get(f"http://127.0.0.1:{port}/deals/{deal_id}") as resp:
                    assert resp.status == 200  # the AOF came back with the deal
        finally:
            again.terminate()
            again.wait(30)
    finally:
        if service.poll() is None:
            service.kill()


def test_a_server_left_answering_is_adopted_and_stopped_by_the_new_owner(tmp_path):
    """A server whose owner died without the parent-death signal (started by hand here) is
    adopted, not doubled, and stops with its new owner."""
    data_dir = tmp_path / "data"
    first = EmbeddedRedis(data_dir)
    first.start()
    orphan = first.process
    first.process = None  # forget it, as a dead owner would
    first._release_lock()
    try:
        owner = EmbeddedRedis(data_dir)
        owner.start(owner=True)
        assert owner.adopted_pid == orphan.pid and owner.process is None
        owner.stop()
        orphan.wait(10)
        assert orphan.returncode is not None
    finally:
        if orphan.poll() is None:
            orphan.kill()
