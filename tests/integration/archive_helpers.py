"""Finished bot deals in a real Redis, and the checks every archiver test makes afterwards."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from domain.envelope import record_hash, verify_chain
from service.app.commands.deals import DealService
from service.store.archive import Archive
from service.store.event_store import EventStore


@dataclass(frozen=True)
class Original:
    """A deal as Redis held it before any archiving: what the archive must hold afterwards."""

    deal_id: str
    records: list[bytes]
    meta: dict[str, str]
    head_hash: str


async def play_finished(
    store: EventStore, games: list[str], finished_ms: int | None = None, concurrency: int = 10
) -> list[Original]:
    """Bot deals played to the end through the command side, listed in the finished index."""
    await store.redis.ping()  # a cluster client learns its slots before the concurrent plays below
    deals = DealService(store)
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int, game: str) -> str:
        async with gate:
            seats = {"paohuzi": 3, "mcr": 4}[game]
            deal_id = (await deals.create(game, ["bot:greedy"] * seats, f"archive-{i}")).deal_id
            for _ in range(6000):
                if (await deals.load(deal_id)).over:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError(f"deal {deal_id} did not finish")
            return deal_id

    try:
        ids = await asyncio.gather(*(one(i, g) for i, g in enumerate(games)))
        # a deal's log ends before the command side writes its end (status, indexes, finished
        # index) in the same bot step: wait for every bot step to be over, so closing the service
        # cancels no write and none lands after the snapshot below
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while any(not task.done() for task in deals.bots._tasks.values()):  # noqa: SLF001
            if loop.time() > deadline:
                raise AssertionError("the bot runner still works on a finished deal after 60 s")
            await asyncio.sleep(0.01)
    finally:
        await deals.close()
    originals = []
    for deal_id in ids:
        # the command side lists a deal here when it ends; the tests set the time they need
        await store.indexes.mark_finished(deal_id, 1)
        when = finished_ms if finished_ms is not None else 1
        await store.redis.zadd(store.keys.finished_index, {deal_id: when})
        originals.append(await snapshot(store, deal_id))
    return originals


async def snapshot(store: EventStore, deal_id: str) -> Original:
    records = await store.read_raw(deal_id)
    return Original(
        deal_id, records, await store.reader.get_meta(deal_id), await store.reader.head_hash(deal_id)
    )


async def prefix_keys(store: EventStore) -> list[str]:
    keys = [k async for k in store.redis.scan_iter(match=f"{store.prefix}:*", count=1000)]
    return sorted(k.decode() if isinstance(k, bytes) else k for k in keys)


async def in_redis(store: EventStore, deal_id: str) -> bool:
    return bool(await store.redis.exists(store.keys.events(deal_id)))


async def assert_whole_in_archive(archive: Archive, original: Original) -> None:
    copy = await archive.get(original.deal_id)
    assert copy is not None, f"deal {original.deal_id} is not in the archive"
    assert copy.records == original.records
    assert verify_chain(copy.records) is None
    assert copy.head_hash == original.head_hash == record_hash(copy.records[-1])
    assert copy.meta == original.meta


async def assert_whole_in_redis(store: EventStore, original: Original) -> None:
    assert await store.read_raw(original.deal_id) == original.records
    assert await store.reader.head_hash(original.deal_id) == original.head_hash
    assert await store.reader.get_meta(original.deal_id) == original.meta


async def match_logs_round_trip(store: EventStore, archive: Archive) -> None:
    """An ended match log in no finished index (as before match logs were archived) and a live
    one: the key scan lists the ended one once, the match archiver moves it to the matches shelf
    (never among the deals), the live one stays, and the log reads back as it read from Redis."""
    from domain.match import MatchCreated, MatchDealEnded, MatchDealStarted, MatchEnded, Standing
    from service.app.archive.archiver import Archiver
    from service.app.state.match_log import MatchLog

    on_archive = EventStore(store.redis, store.prefix, archive=archive)
    log = MatchLog(on_archive)
    ended, live = "0a0a0a0a0a0a0a0a", "0b0b0b0b0b0b0b0b"
    events = [
        MatchCreated(ended, "mcr", "mcr/2", ["bot:greedy"] * 4, 1),
        MatchDealStarted(0, "d" * 16),
        MatchDealEnded(0, "d" * 16, dealer=0, winner=1, payments=[-8, 24, -8, -8]),
        MatchEnded([Standing(1, 24, 1), Standing(0, -8, 2), Standing(2, -8, 2), Standing(3, -8, 2)]),
    ]
    try:
        await log.append(ended, 0, events, command_id="old")
        await log.append(live, 0, events[:2], command_id="old")
        before = (await log.raw(ended), await log.state(ended))
        matches = Archiver.of_matches(log.store, archive, older_than=0)
        assert await matches.backfill_by_keys() == 1
        assert await matches.backfill_by_keys() == 0  # listed once
        counts = await matches.archive_once()
        assert (counts.archived, counts.failed) == (1, 0)
        assert not await store.redis.exists(log.store.keys.events(ended))
        assert not await store.redis.exists(log.store.keys.commands(ended))
        assert await store.redis.exists(log.store.keys.events(live))  # a live match stays
        assert await store.redis.zcard(log.store.keys.finished_index) == 0
        assert await archive.get(ended) is None and (await archive.matches().get(ended)) is not None
        assert (await log.raw(ended), await log.state(ended)) == before
    finally:
        log.close()
        on_archive.close()
