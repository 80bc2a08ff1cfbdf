"""Shared fixtures: a real Redis server (never skipped: if it does not answer, tests fail)."""

from __future__ import annotations

import os
import uuid

import pytest
import redis.asyncio as aioredis

REAL_REDIS_URL = os.environ.get("DEALSTREAM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def real_redis_url() -> str:
    return REAL_REDIS_URL


@pytest.fixture
def key_prefix() -> str:
    """A prefix no other test and no real data uses."""
    return f"dstest-{uuid.uuid4().hex[:12]}"


async def drop_prefix(client: aioredis.Redis, prefix: str) -> None:
    keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=500)]
    if keys:
        await client.delete(*keys)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    """A real Redis Cluster for the session: ``DEALSTREAM_TEST_CLUSTER_URL`` if set (``.ci/run``
    starts one), else one started here on free loopback ports (3 masters, 3 replicas)."""
    from tests.cluster import Cluster

    url = os.environ.get("DEALSTREAM_TEST_CLUSTER_URL")
    if url:
        yield _ExistingCluster(url)
        return
    started = Cluster(tmp_path_factory.mktemp("cluster")).start()
    yield started
    started.cleanup()


class _ExistingCluster:
    def __init__(self, url: str) -> None:
        self.url = url
