"""Loads of one deal at once share one read of the store, and a caller that gives up (is
cancelled) mid-read costs the others nothing but a read of their own."""

from __future__ import annotations

import asyncio

import pytest

from service.app.bots.runner import BotRunner
from service.app.commands.deals import DealService
from service.app.state.folds import Folds
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix

pytestmark = pytest.mark.redis


@pytest.fixture
async def store(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    yield EventStore(client, key_prefix)
    await drop_prefix(client, key_prefix)
    await client.aclose()


class SlowReads:
    """The store's ``read_raw`` counted, each call held until the test lets reads go on."""

    def __init__(self, store: EventStore, monkeypatch) -> None:
        self.calls = 0
        self.go = asyncio.Event()
        read_raw = store.read_raw

        async def held(*args, **kwargs):
            self.calls += 1
            await self.go.wait()
            return await read_raw(*args, **kwargs)

        monkeypatch.setattr(store, "read_raw", held)


async def _deal(store: EventStore) -> tuple[str, int]:
    deals = DealService(store, bots=BotRunner(0.0))
    try:
        created = await deals.create("paohuzi", ["human", "bot:greedy", "bot:greedy"])
        return created.deal_id, (await deals.load(created.deal_id)).version
    finally:
        await deals.close()


async def test_loads_at_once_share_one_read(store, monkeypatch):
    deal_id, version = await _deal(store)
    folds = Folds(store)
    reads = SlowReads(store, monkeypatch)
    loads = [asyncio.ensure_future(folds.load(deal_id)) for _ in range(5)]
    while reads.calls == 0:
        await asyncio.sleep(0)
    await asyncio.sleep(0.05)
    assert reads.calls == 1  # the first one's read; the other four wait for it
    reads.go.set()
    folded = await asyncio.gather(*loads)
    assert all(f is folded[0] for f in folded) and folded[0].version == version
    assert reads.calls == 1


async def test_a_cancelled_first_load_leaves_the_others_to_read_again(store, monkeypatch):
    deal_id, version = await _deal(store)
    folds = Folds(store)
    reads = SlowReads(store, monkeypatch)
    first = asyncio.ensure_future(folds.load(deal_id))
    while reads.calls == 0:
        await asyncio.sleep(0)
    others = [asyncio.ensure_future(folds.load(deal_id)) for _ in range(3)]
    await asyncio.sleep(0.05)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    reads.go.set()
    folded = await asyncio.gather(*others)
    assert all(f is folded[0] for f in folded) and folded[0].version == version
    assert reads.calls == 2  # the cancelled one's, then one more shared by the other three
    assert (await folds.load(deal_id)) is folded[0]
