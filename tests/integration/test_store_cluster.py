"""The store contract on a real Redis Cluster (3 masters, 3 replicas on loopback)."""

from __future__ import annotations

import pytest

from service.store.connection import connect
from tests.contracts.log_contract import LogRecorderContract
from tests.contracts.store_contract import EventStoreContract

pytestmark = pytest.mark.redis


class TestClusterEventStore(EventStoreContract):
    @pytest.fixture
    async def redis_client(self, cluster):
        client = connect(cluster.url)
        await client.ping()
        yield client
        await client.aclose()

    @pytest.fixture
    def backend_url(self, cluster):
        return cluster.url


class TestClusterLogRecorder(LogRecorderContract):
    @pytest.fixture
    async def redis_client(self, cluster):
        client = connect(cluster.url)
        await client.ping()
        yield client
        await client.aclose()
