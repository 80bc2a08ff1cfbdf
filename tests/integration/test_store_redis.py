"""The store contract on a real Redis server (127.0.0.1:6379 unless DEALSTREAM_TEST_REDIS_URL)."""

from __future__ import annotations

import pytest

from service.store.connection import connect
from tests.contracts.log_contract import LogRecorderContract
from tests.contracts.store_contract import EventStoreContract

pytestmark = pytest.mark.redis


class TestRealRedisEventStore(EventStoreContract):
    @pytest.fixture
    async def redis_client(self, real_redis_url):
        client = connect(real_redis_url)
        await client.ping()  # a missing server fails here, loudly; it is never skipped
        yield client
        await client.aclose()

    @pytest.fixture
    def backend_url(self, real_redis_url):
        return real_redis_url


class TestRealRedisLogRecorder(LogRecorderContract):
    @pytest.fixture
    async def redis_client(self, real_redis_url):
        client = connect(real_redis_url)
        await client.ping()
        yield client
        await client.aclose()
