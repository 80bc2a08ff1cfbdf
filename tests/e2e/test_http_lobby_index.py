"""The lobby reads an index of open tables: however many newer deals come, an open table stays
listed until its last seat is taken or it ends, in every process on the store."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from aiohttp.test_utils import TestClient, TestServer

from service import bootstrap
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import close_within, wait_for

pytestmark = pytest.mark.redis

OPEN_TABLE = {"game": "mcr", "seats": ["human", "open", "bot:random", "bot:random"], "lobby": True}


async def _listed(http, deal_id: str) -> bool:
    lobby = await (await http.get("/lobby?count=200")).json()
    return any(t["deal_id"] == deal_id for t in lobby["tables"])


async def test_an_open_table_stays_listed_after_250_newer_all_bot_deals(http, store):
    resp = await http.post("/deals", json=OPEN_TABLE)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    deal_id = created["deal_id"]
    assert await _listed(http, deal_id)
    newer: list[str] = []
    for _batch in range(10):  # 250 newer public deals, bots only (they play, and finish)
        answers = await asyncio.gather(
            *(http.post("/deals", json={"game": "paohuzi", "seats": ["bot:random"] * 3}) for _ in range(25))
        )
        for answer in answers:
            assert answer.status == 201, await answer.text()
            newer.append((await answer.json())["deal_id"])
    assert len(await store.indexes.list_deals(0, 300, public=True)) >= 251
    assert await _listed(http, deal_id)

    # another process on the store lists it too, and drops it once its last seat is taken there
    other = bootstrap.application(
        store.redis, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True)
    )
    second = TestClient(TestServer(other))
    await second.start_server()
    try:
        assert await _listed(second, deal_id)
        joined = await second.post(f"/deals/{deal_id}/join", json={"seat": 1, "name": "Bo"})
        assert joined.status == 201, await joined.text()
        assert not await _listed(http, deal_id)
        assert not await _listed(second, deal_id)
    finally:
        await close_within(second, 90)
    # the newer deals' bots finish them meanwhile; none of them was ever a lobby table
    await wait_for(lambda: _all_over(http, newer[-5:]), timeout=60)
    assert not await _listed(http, newer[-1])


async def _all_over(http, deal_ids: list[str]) -> bool:
    for deal_id in deal_ids:
        summary = await (await http.get(f"/deals/{deal_id}")).json()
        if not summary["over"]:
            return False
    return True


@pytest.fixture(params=["redis", "cluster"])
async def on_store(request, aiohttp_client, real_redis_url, key_prefix):
    """Two service processes (two apps) on one store: a Redis server, or a Redis Cluster."""
    url = real_redis_url if request.param == "redis" else request.getfixturevalue("cluster").url
    client = connect(url)
    settings = replace(bootstrap.TEST_SETTINGS, prefix=key_prefix, dev=True)
    first = await aiohttp_client(bootstrap.application(client, settings))
    second = await aiohttp_client(bootstrap.application(client, settings))
    yield first, second, EventStore(client, key_prefix)
    for http in (first, second):
        await close_within(http, 90)
    await drop_prefix(client, key_prefix)
    await client.aclose()


async def test_open_tables_are_kept_across_processes_and_mended_on_read(on_store):
    first, second, store = on_store
    tables = []
    for _ in range(3):
        resp = await first.post("/deals", json=OPEN_TABLE)
        assert resp.status == 201, await resp.text()
        tables.append((await resp.json())["deal_id"])
    for http in (first, second):
        assert [await _listed(http, t) for t in tables] == [True, True, True]
    # the last seat of one taken on the second process: off the lobby in both
    assert (await second.post(f"/deals/{tables[0]}/join", json={"seat": 1, "name": "Bo"})).status == 201
    assert [await _listed(first, t) for t in tables] == [False, True, True]
    # an entry whose deal is gone (a process that died half-way) is dropped by the reader
    await store.indexes.open_table("no-such-deal", 1)
    lobby = await (await first.get("/lobby")).json()
    assert "no-such-deal" not in [t["deal_id"] for t in lobby["tables"]]
    assert "no-such-deal" not in await store.indexes.open_tables(0, 100)

    # a store from before the index: its open tables are listed in it at the first lobby read
    await store.redis.delete(store.keys.open_tables, store.keys.open_tables_built)
    third = bootstrap.application(store.redis, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix))
    fresh = TestClient(TestServer(third))
    await fresh.start_server()
    try:
        assert [await _listed(fresh, t) for t in tables] == [False, True, True]
        assert sorted(await store.indexes.open_tables(0, 100)) == sorted(tables[1:])
    finally:
        await close_within(fresh, 90)
