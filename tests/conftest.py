"""Shared fixtures: a real Redis server (never skipped: if it does not answer, tests fail).

The session's servers come from ``tests/servers.py``: the ones ``DEALSTREAM_TEST_REDIS_URL`` and
``DEALSTREAM_TEST_POSTGRES_URL`` name, else ones started for the session on free loopback ports
(exported in those variables before any test module is collected, so the processes tests start
read them too). What cannot be had ends the run with one line saying what to do."""

from __future__ import annotations

import os
import uuid

import pytest
import redis.asyncio as aioredis

from tests import servers


def pytest_configure(config: pytest.Config) -> None:
    try:
        servers.redis_url()
        servers.postgres_url()
    except servers.SetupError as exc:
        servers.stop_all()
        pytest.exit(f"dealstream tests: {exc}", returncode=3)


def pytest_unconfigure(config: pytest.Config) -> None:
    servers.stop_all()


def __getattr__(name: str) -> str:
    # REAL_REDIS_URL is read when asked for: the session's Redis is known only from pytest_configure on
    if name == "REAL_REDIS_URL":
        return os.environ[servers.REDIS_VAR]
    raise AttributeError(name)


@pytest.fixture
def real_redis_url() -> str:
    return os.environ[servers.REDIS_VAR]


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
