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
    await client.close()  # stop the app (its bots and streams) before the store drops the keys


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


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


@pytest.fixture
async def second_server(real_redis_url, key_prefix):
    """A second service process (``--dev``) on the same Redis and key prefix as ``http``."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            str(port),
            "--redis",
            real_redis_url,
            "--prefix",
            key_prefix,
            "--bot-delay",
            "0",
            "--dev",
        ],
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession(base) as session:
        # a process start on a loaded machine takes seconds: wait for /health, bounded at 60 s
        deadline = asyncio.get_running_loop().time() + 60.0
        while True:
            try:
                async with session.get("/health") as resp:
                    if resp.status == 200:
                        break
            except aiohttp.ClientError:
                pass
            if proc.poll() is not None or asyncio.get_running_loop().time() > deadline:
                proc.kill()
                raise AssertionError(proc.stdout.read().decode())
            await asyncio.sleep(0.05)
        yield session
    proc.terminate()
    proc.wait(10)
