"""Fixtures for the reliability tests: a private Redis server (AOF, appendfsync always) per test."""

from __future__ import annotations

import uuid

import pytest

from service.store.connection import connect
from service.store.event_store import EventStore
from tests.reliability.harness import RedisServer


@pytest.fixture
def own_redis():
    server = RedisServer().start()
    yield server
    server.cleanup()


@pytest.fixture
def prefix() -> str:
    return f"dsrel-{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def own_store(own_redis, prefix):
    """An EventStore on the private server, under the test's prefix (to read logs directly)."""
    client = connect(own_redis.url)
    yield EventStore(client, prefix)
    await client.aclose()
