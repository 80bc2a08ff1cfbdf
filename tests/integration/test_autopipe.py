"""AutoPipeline on a real Redis and on fakeredis: batching, per-command errors, failures, cancels."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import fakeredis
import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from service.store.autopipe import AutoPipeline
from tests.conftest import drop_prefix


@pytest.fixture(params=["real", "fake"])
async def client(request, real_redis_url: str, key_prefix: str) -> AsyncIterator[aioredis.Redis]:
    if request.param == "real":
        redis = aioredis.from_url(real_redis_url)
    else:
        redis = fakeredis.FakeAsyncRedis()
    yield redis
    await drop_prefix(redis, key_prefix)
    await redis.aclose()


async def test_concurrent_calls_share_round_trips_and_keep_their_own_replies(client, key_prefix):
    pipe = AutoPipeline(client)
    replies = await asyncio.gather(*(pipe.call("INCRBY", f"{key_prefix}:n{i % 7}", i) for i in range(200)))
    expected: dict[int, int] = {}
    for i, reply in enumerate(replies):
        expected[i % 7] = expected.get(i % 7, 0) + i
        assert reply == expected[i % 7]  # each caller sees its own reply, in issue order
    assert pipe.commands == 200
    assert pipe.batches < 20, "200 calls issued together must not take 200 round trips"


async def test_an_error_reply_fails_only_its_own_caller(client, key_prefix):
    pipe = AutoPipeline(client)
    await client.set(f"{key_prefix}:text", "not a number")
    results = await asyncio.gather(
        pipe.call("INCR", f"{key_prefix}:a"),
        pipe.call("INCR", f"{key_prefix}:text"),
        pipe.call("INCR", f"{key_prefix}:a"),
        return_exceptions=True,
    )
    assert results[0] == 1 and results[2] == 2
    assert isinstance(results[1], ResponseError)
    alone = pipe.call("INCR", f"{key_prefix}:text")  # a batch of one takes the plain path
    with pytest.raises(ResponseError):
        await alone


async def test_a_cancelled_caller_leaves_the_others_alone(client, key_prefix):
    pipe = AutoPipeline(client)
    futures = [pipe.call("INCR", f"{key_prefix}:c") for _ in range(5)]
    futures[2].cancel()
    done = await asyncio.gather(*futures, return_exceptions=True)
    assert isinstance(done[2], asyncio.CancelledError)
    assert [d for i, d in enumerate(done) if i != 2] == [1, 2, 3, 4]


async def test_a_lost_connection_reaches_every_caller_of_the_batch():
    dead = aioredis.from_url("redis://127.0.0.1:1", socket_connect_timeout=0.5)
    pipe = AutoPipeline(dead)
    results = await asyncio.gather(*(pipe.call("PING") for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, RedisConnectionError) for r in results)
    assert len({id(r) for r in results}) == 3  # each caller raises its own exception object
    again = await asyncio.gather(pipe.call("PING"), return_exceptions=True)  # the sender carries on
    assert isinstance(again[0], RedisConnectionError)
    await dead.aclose()
