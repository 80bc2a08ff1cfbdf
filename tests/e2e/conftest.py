"""HTTP fixtures: the real app over a real Redis server, each test under its own key prefix."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from service import bootstrap
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def redis_client(real_redis_url):
    client = connect(real_redis_url)
    await client.ping()
    yield client
    await client.aclose()


@pytest.fixture
async def store(redis_client, key_prefix):
    yield EventStore(redis_client, key_prefix)
    await drop_prefix(redis_client, key_prefix)


@pytest.fixture
async def http(aiohttp_client, store):
    """A test client for a --dev server with no bot think time."""
    app = bootstrap.application(store.redis, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True))
    client = await aiohttp_client(app)
    yield client
    await close_within(client, 90)  # stop the app (its bots and streams) before the store drops the keys


async def close_within(client: Any, seconds: float) -> None:
    """Close a test client's app, bounded: a shutdown that hangs fails the teardown (with every
    task's stack printed, to say what it waited for) instead of stopping the whole run."""
    try:
        async with asyncio.timeout(seconds):
            await client.close()
    except TimeoutError:
        for task in asyncio.all_tasks():
            task.print_stack(limit=12)
        raise


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create_deal(http: Any, body: dict) -> dict:
    """``POST /deals`` that must succeed: its answer."""
    resp = await http.post("/deals", json=body)
    assert resp.status == 201, await resp.text()
    return await resp.json()


async def expect_problem(resp: Any, status: int, rule: str) -> dict:
    """The problem+json answer ``resp`` must be: its status, its type and the rule it names."""
    assert resp.status == status, await resp.text()
    assert resp.content_type == "application/problem+json"
    body = await resp.json()
    assert body["rule"] == rule, body
    return body


async def wait_for(check: Any, timeout: float = 30.0, interval: float = 0.02) -> Any:
    """Poll an async predicate until it returns something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(interval)


async def play_as_human(http: Any, deal_id: str, token: str, choose: Any, max_moves: int = 2000) -> dict:
    """Drive one human seat through HTTP until the deal is over; bots move in the server."""
    moves = 0
    while True:
        view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
        if view["result"] is not None:
            return view
        if view["legal_actions"]:
            command = choose(view)
            resp = await http.post(
                f"/deals/{deal_id}/commands",
                json={"command_id": f"m{moves}", "command": command, "expected_version": view["version"]},
                headers=auth(token),
            )
            assert resp.status in (200, 409), await resp.text()
            moves += 1
            assert moves < max_moves
        else:
            await asyncio.sleep(0.01)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServiceProcess:
    """``dealstream serve --dev`` as a process of its own on a free port, on a given Redis and
    key prefix; ``start`` returns once its /health answers (bounded at 60 s: a loaded machine
    starts Python slowly), ``kill`` is SIGKILL."""

    def __init__(self, redis_url: str, prefix: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "service.cli", "serve", "--port", str(self.port),
                "--redis", redis_url, "--prefix", prefix, "--bot-delay", "0", "--dev", "--processes", "1",
            ],
            cwd=str(ROOT),
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )  # fmt: skip

    async def started(self, session: aiohttp.ClientSession) -> float:
        """Wait for /health; the loop time it first answered."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60.0
        while True:
            try:
                async with session.get(f"{self.base}/health") as resp:
                    if resp.status == 200:
                        return loop.time()
            except aiohttp.ClientError:
                pass
            if self.proc.poll() is not None or loop.time() > deadline:
                self.proc.kill()
                raise AssertionError(self.proc.stdout.read().decode())
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)


@pytest.fixture
async def second_server(real_redis_url, key_prefix):
    """A second service process (``--dev``) on the same Redis and key prefix as ``http``."""
    server = ServiceProcess(real_redis_url, key_prefix)
    async with aiohttp.ClientSession(server.base) as session:
        await server.started(session)
        yield session
    server.stop()
