"""The archiver on a real Redis (random key prefix) and a SQLite archive: what leaves Redis,
when, and what guards each step."""

from __future__ import annotations

import asyncio
import logging

import pytest

from service.app.archive.archiver import Archiver
from service.app.commands.creation import CreatedDeal
from service.store.archive.sqlite import SqliteArchive
from service.store.connection import connect
from service.store.event_store import EventStore, now_ms
from tests.conftest import drop_prefix
from tests.integration.archive_helpers import (
    assert_whole_in_archive,
    assert_whole_in_redis,
    in_redis,
    match_logs_round_trip,
    play_finished,
    prefix_keys,
    snapshot,
)
from tests.reliability.harness import RedisServer

pytestmark = pytest.mark.redis


@pytest.fixture
async def store(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    await client.ping()
    store = EventStore(client, key_prefix)
    yield store
    store.close()
    await drop_prefix(client, key_prefix)
    await client.aclose()


@pytest.fixture
async def archive(tmp_path):
    archive = SqliteArchive(tmp_path / "archive.sqlite3")
    yield archive
    await archive.close()


async def test_finished_deals_move_to_the_archive_and_leave_nothing_in_redis(store, archive):
    originals = await play_finished(store, ["paohuzi", "mcr", "paohuzi", "mcr", "paohuzi"])
    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert (counts.due, counts.archived, counts.already, counts.failed) == (5, 5, 0, 0)
    for original in originals:
        await assert_whole_in_archive(archive, original)
        assert not await in_redis(store, original.deal_id)
    assert await prefix_keys(store) == []  # no stream, meta, cmds, lease or index entry is left
    assert await archive.count() == 5
    again = await Archiver(store, archive, older_than=0).archive_once()
    assert (again.due, again.archived) == (0, 0)


async def test_only_deals_finished_long_enough_ago_leave(store, archive):
    old = await play_finished(store, ["paohuzi", "paohuzi"], finished_ms=now_ms() - 700_000)
    recent = await play_finished(store, ["paohuzi"], finished_ms=now_ms() - 10_000)
    live = (await DealServiceFactory(store).create_unfinished()).deal_id
    counts = await Archiver(store, archive, older_than=600).archive_once()
    assert (counts.due, counts.archived) == (2, 2)
    for original in old:
        await assert_whole_in_archive(archive, original)
    await assert_whole_in_redis(store, recent[0])
    assert await archive.get(recent[0].deal_id) is None
    assert await in_redis(store, live)
    assert set(await store.indexes.list_deals()) == {recent[0].deal_id, live}


class DealServiceFactory:
    """A deal with a person's seat, never started: live and never finished."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def create_unfinished(self) -> CreatedDeal:
        from service.app.commands.deals import DealService

        deals = DealService(self.store)
        try:
            return await deals.create("paohuzi", ["human", "bot:greedy", "bot:greedy"])
        finally:
            await deals.close()


async def test_a_deal_copied_before_a_crash_is_archived_once(store, archive):
    """The archive already holds the deal (a crash after the copy): the next round removes it
    from Redis and counts it as already archived; a claim made since the copy is kept."""
    [original] = await play_finished(store, ["mcr"])
    from service.store.archive import ArchivedDeal

    created = int(original.meta["created_ms"])
    await archive.put(
        ArchivedDeal(original.deal_id, "mcr", created, 1, original.meta, original.records, original.head_hash)
    )
    await store.redis.hset(store.keys.meta(original.deal_id), "rematched_by", "f" * 16)
    with_claim = await snapshot(store, original.deal_id)
    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert (counts.archived, counts.already, counts.failed) == (1, 1, 0)
    await assert_whole_in_archive(archive, with_claim)
    assert await archive.count() == 1
    assert await prefix_keys(store) == []


async def test_a_leased_deal_is_left_to_its_holder(store, archive):
    originals = await play_finished(store, ["paohuzi", "paohuzi"])
    held = originals[0].deal_id
    assert await store.indexes.take_archive_lease(held, "someone-else", 60_000)
    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert (counts.archived, counts.leased) == (1, 1)
    await assert_whole_in_redis(store, originals[0])
    await assert_whole_in_archive(archive, originals[1])
    await store.indexes.release_archive_lease(held, "not-the-holder")  # only the holder's token releases it
    assert (await Archiver(store, archive, older_than=0).archive_once()).leased == 1
    await store.indexes.release_archive_lease(held, "someone-else")
    assert (await Archiver(store, archive, older_than=0).archive_once()).archived == 1
    await assert_whole_in_archive(archive, originals[0])


async def test_two_archivers_at_once_archive_each_deal_once(store, archive, tmp_path, real_redis_url):
    originals = await play_finished(store, ["paohuzi"] * 12)
    other_client = connect(real_redis_url)
    other_store = EventStore(other_client, store.prefix)
    other_archive = SqliteArchive(archive.path)  # another handle on the same file, as another process
    try:
        first, second = await asyncio.gather(
            Archiver(store, archive, older_than=0, concurrency=3).archive_once(),
            Archiver(other_store, other_archive, older_than=0, concurrency=3).archive_once(),
        )
    finally:
        await other_archive.close()
        other_store.close()
        await other_client.aclose()
    assert first.failed == second.failed == 0
    assert first.archived + second.archived == 12
    assert first.already == second.already == 0  # a lease is held from the copy to the removal
    for original in originals:
        await assert_whole_in_archive(archive, original)
    assert await archive.count() == 12
    assert await prefix_keys(store) == []


async def test_the_removal_script_refuses_a_deal_that_is_not_the_archived_one(store):
    [original] = await play_finished(store, ["paohuzi"])
    deal_id, head, n = original.deal_id, original.head_hash, len(original.records)
    assert await store.indexes.take_archive_lease(deal_id, "mine", 60_000)
    assert await store.removal.remove_archived(deal_id, "not-mine", head, n, original.meta) == 1
    assert await store.removal.remove_archived(deal_id, "mine", "0" * 64, n, original.meta) == 2
    assert await store.removal.remove_archived(deal_id, "mine", head, n - 1, original.meta) == 2
    fewer = dict(original.meta)
    fewer.pop("pace")
    assert await store.removal.remove_archived(deal_id, "mine", head, n, fewer) == 3
    assert (
        await store.removal.remove_archived(deal_id, "mine", head, n, {**original.meta, "status": "x"}) == 3
    )
    await store.redis.hset(store.keys.meta(deal_id), "rematched_by", "e" * 16)
    assert await store.removal.remove_archived(deal_id, "mine", head, n, original.meta) == 3
    await assert_whole_in_redis(store, await snapshot(store, deal_id))
    assert await store.indexes.list_deals() == [deal_id]
    assert await store.indexes.finished_before(now_ms()) == [(deal_id, 1)]
    meta = await store.reader.get_meta(deal_id)
    assert await store.removal.remove_archived(deal_id, "mine", head, n, meta) == 0
    assert await prefix_keys(store) == []


async def test_a_deal_that_is_not_over_or_does_not_verify_stays(store, archive, caplog):
    originals = await play_finished(store, ["paohuzi", "paohuzi", "paohuzi"])
    live = (await DealServiceFactory(store).create_unfinished()).deal_id
    await store.redis.zadd(store.keys.finished_index, {live: 1})  # listed as finished by mistake
    # the service died between the last append and the meta write: the log shows it is over
    await store.redis.hdel(store.keys.meta(originals[0].deal_id), "status")
    originals[0] = await snapshot(store, originals[0].deal_id)
    key = store.keys.events(originals[1].deal_id)
    entries = await store.redis.xrange(key)
    await store.redis.delete(key)
    for entry_id, fields in entries:  # the same log with one byte of record 5 changed
        raw = fields[b"e"]
        if entry_id == b"0-5":
            raw = raw.replace(b'"recorded_at":"', b'"recorded_at":"x', 1)
        await store.redis.xadd(key, {"e": raw}, id=entry_id)
    with caplog.at_level(logging.ERROR, logger="dealstream.archiver"):
        counts = await Archiver(store, archive, older_than=0).archive_once()
    assert (counts.due, counts.archived, counts.failed) == (4, 2, 2)
    assert "its log does not end" in caplog.text and "chain breaks at version" in caplog.text
    assert await in_redis(store, live) and await in_redis(store, originals[1].deal_id)
    assert await store.reader.get_meta(live) != {}
    for original in (originals[0], originals[2]):
        await assert_whole_in_archive(archive, original)
    assert await archive.count() == 2
    assert not await store.redis.exists(store.keys.archive_lease(live))
    assert not await store.redis.exists(store.keys.archive_lease(originals[1].deal_id))


async def test_index_entries_of_a_deal_already_gone_are_dropped(store, archive):
    originals = await play_finished(store, ["paohuzi", "paohuzi"])
    await Archiver(store, archive, older_than=0).archive_once()
    # a removal split from its index updates (as on a cluster) leaves entries behind
    for original in originals:
        await store.redis.zadd(store.keys.finished_index, {original.deal_id: 5})
        await store.redis.zadd(store.keys.public_index, {original.deal_id: 5})
    await store.redis.zadd(store.keys.finished_index, {"neverexisted0000": 5})
    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert (counts.archived, counts.dangling, counts.failed) == (0, 3, 0)
    assert await prefix_keys(store) == []
    for original in originals:
        await assert_whole_in_archive(archive, original)


async def test_backfill_lists_deals_finished_before_the_index(store, archive):
    originals = await play_finished(store, ["paohuzi", "mcr"])
    live = (await DealServiceFactory(store).create_unfinished()).deal_id
    await store.redis.delete(store.keys.finished_index)
    archiver = Archiver(store, archive, older_than=0)
    assert await archiver.backfill(batch=1) == 2
    assert await archiver.backfill() == 0
    finished = dict(await store.indexes.finished_before(now_ms()))
    assert set(finished) == {o.deal_id for o in originals}
    for original in originals:
        last = (await store.read(original.deal_id))[-1]
        assert last.type == "SeedRevealed"
        assert abs(finished[original.deal_id] - now_ms()) < 600_000  # the recorded_at of the last record
    assert (await archiver.archive_once()).archived == 2
    assert await in_redis(store, live)


async def test_claim_live_meta_never_makes_a_stray_meta_hash(store):
    [original] = await play_finished(store, ["paohuzi"])
    assert await store.indexes.claim_live_meta(original.deal_id, "rematched_by", "a") == "a"
    assert await store.indexes.claim_live_meta(original.deal_id, "rematched_by", "b") == "a"
    assert await store.indexes.claim_live_meta("gone0000gone0000", "rematched_by", "a") is None
    assert not await store.redis.exists(store.keys.meta("gone0000gone0000"))


async def test_the_run_loop_survives_a_redis_outage(tmp_path, key_prefix, caplog):
    """Redis stops answering between rounds: the rounds fail with a logged error, the loop goes
    on, and once Redis is back (restarted on its append-only file) the deal is archived."""
    server = RedisServer().start(timeout=60)
    client = connect(server.url, socket_timeout=1.0)
    store = EventStore(client, key_prefix)
    archive = SqliteArchive(tmp_path / "archive.sqlite3")
    task = None
    try:
        [original] = await play_finished(store, ["paohuzi"])
        server.stop()
        task = asyncio.create_task(Archiver(store, archive, older_than=0).run(interval=0.1))
        deadline = asyncio.get_running_loop().time() + 60
        while "archive round failed" not in caplog.text and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert "archive round failed" in caplog.text and not task.done()
        server.start(timeout=60)
        deadline = asyncio.get_running_loop().time() + 60  # a restart, then the next rounds
        while asyncio.get_running_loop().time() < deadline:
            archived = await archive.get(original.deal_id) is not None
            if archived and not await in_redis(store, original.deal_id):
                break
            await asyncio.sleep(0.05)
        assert not task.done()
        await assert_whole_in_archive(archive, original)
        assert not await in_redis(store, original.deal_id)
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await archive.close()
        store.close()
        await client.aclose()
        server.cleanup()


async def test_match_logs_ended_before_archiving_are_listed_archived_and_read_back(store, archive):
    """TB-5.1: a match log that ended before match logs were archived is in no finished index;
    the key scan lists it (and nothing live), the match archiver moves it, and the match log
    reads it from the archive's matches shelf as it read it from Redis."""
    await match_logs_round_trip(store, archive)
