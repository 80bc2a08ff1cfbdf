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


async def _hmget_calls(client) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_hmget", {}).get("calls", 0))


async def test_a_folded_head_spares_the_read_before_an_append(real_redis_url, key_prefix):
    """Issue 26: with several processes the one that appended last is often another, so the
    recorder's cached head is stale; the command side passes the head of its fold, and the append
    is one round trip (the script's own HMGET), not a read of the head and then the script. The
    count is Redis's own (``INFO commandstats``); another client's HMGETs could only add to it."""
    import msgspec

    from service.store.keys import StoreKeys
    from service.store.redis_log import RedisLogRecorder
    from tests.conftest import drop_prefix

    client = connect(real_redis_url)
    recorder = RedisLogRecorder(client, StoreKeys(key_prefix))
    payload = [("Noted", msgspec.json.encode({"n": 1}))]
    appends = 20
    try:
        head = (await recorder.append_encoded("d", 0, payload)).head_hash
        before = await _hmget_calls(client)
        for version in range(1, appends + 1):
            recorder.forget("d")  # as if another process had appended the last batch
            head = (await recorder.append_encoded("d", version, payload, head_hash=head)).head_hash
        with_head = await _hmget_calls(client) - before
        before = await _hmget_calls(client)
        for version in range(appends + 1, 2 * appends + 1):
            recorder.forget("d")
            await recorder.append_encoded("d", version, payload)
        without_head = await _hmget_calls(client) - before
        assert with_head < 1.5 * appends <= 2 * appends <= without_head
    finally:
        recorder.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()
