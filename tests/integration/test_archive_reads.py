"""The event store's reads of deals that left Redis, on a real Redis and both archive backends:
each read answers from the archive what Redis answered before, the public deal list pages
through Redis and the archive as one list, and what ends or deletes a deal keeps the finished
index right."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from service.app.archive.archiver import Archiver
from service.store.archive import ArchiveUnavailable, open_archive
from service.store.archive.postgres import PostgresArchive
from service.store.connection import connect
from service.store.event_store import EventStore, StreamHead
from tests.conftest import drop_prefix
from tests.contracts.archive_contract import make_deal
from tests.integration.archive_helpers import Original, in_redis, snapshot
from tests.integration.archive_helpers import play_finished as play_bots
from tests.integration.postgres_url import POSTGRES_URL, with_schema

pytestmark = pytest.mark.redis


async def play_finished(store: EventStore, games: list[str]) -> list[Original]:
    """Bot deals played to the end, snapshot with their status. The helper waits until the
    command side is done with each deal; a status write that failed there (an outage on the
    deal's last step: the bot runner does not write it again) is written here, as that step
    would have."""
    originals = await play_bots(store, games)
    for original in originals:
        if await store.redis.hget(store.keys.meta(original.deal_id), "status") != b"over":
            await store.indexes.put_meta(original.deal_id, {"status": "over"})
    return [await snapshot(store, o.deal_id) for o in originals]


@pytest.fixture(params=["sqlite", "postgres"])
async def archive(request, tmp_path):
    if request.param == "sqlite":
        archive = open_archive(None, tmp_path, prefix="ds")
        yield archive
        await archive.close()
        return
    archive = PostgresArchive(with_schema(POSTGRES_URL, f"dstest_{uuid.uuid4().hex[:12]}"))
    yield archive
    await archive.drop_schema()
    await archive.close()


@pytest.fixture
async def client(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    await client.ping()
    yield client
    await drop_prefix(client, key_prefix)
    await client.aclose()


@pytest.fixture
async def store(client, key_prefix, archive):
    """A store that reads through to the archive (what the service runs with)."""
    store = EventStore(client, key_prefix, archive=archive)
    yield store
    store.close()


async def test_every_read_of_an_archived_deal_answers_what_redis_answered(store, archive):
    [original] = await play_finished(store, ["paohuzi"])
    deal_id, n = original.deal_id, len(original.records)
    first_command = next(r for r in map(json.loads, original.records) if r["command_id"] != "create")
    before = {
        "version": await store.version(deal_id),
        "head": await store.reader.head_hash(deal_id),
        "slice": await store.read_raw(deal_id, 3, 7),
        "tail": await store.read_raw(deal_id, n - 1),
        "meta": await store.reader.get_meta(deal_id),
        "seats": await store.reader.meta_field(deal_id, "seats"),
        "absent": await store.reader.meta_field(deal_id, "rematched_by"),
        "command": await store.reader.command_result(deal_id, first_command["command_id"]),
        "unknown_command": await store.reader.command_result(deal_id, "never-sent"),
        "heads": await store.reader.heads([deal_id]),
        "after": await store.reader.read_many_raw([(deal_id, 5), (deal_id, n)], count=4),
    }
    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert counts.archived == 1 and not await in_redis(store, deal_id)
    after = {
        "version": await store.version(deal_id),
        "head": await store.reader.head_hash(deal_id),
        "slice": await store.read_raw(deal_id, 3, 7),
        "tail": await store.read_raw(deal_id, n - 1),
        "meta": await store.reader.get_meta(deal_id),
        "seats": await store.reader.meta_field(deal_id, "seats"),
        "absent": await store.reader.meta_field(deal_id, "rematched_by"),
        "command": await store.reader.command_result(deal_id, first_command["command_id"]),
        "unknown_command": await store.reader.command_result(deal_id, "never-sent"),
        "heads": await store.reader.heads([deal_id]),
        "after": await store.reader.read_many_raw([(deal_id, 5), (deal_id, n)], count=4),
    }
    assert after == before
    assert before["heads"] == [StreamHead(n, original.head_hash)]
    assert await store.read_raw(deal_id) == original.records
    # a deal that is nowhere is still nothing
    assert await store.read_raw("nowhere0000000000") == []
    assert await store.reader.get_meta("nowhere0000000000") == {}
    assert await store.reader.heads(["nowhere0000000000"]) == [None]
    # the store without the archive sees Redis alone (the archiver's and the CLI's view)
    bare = EventStore(store.redis, store.prefix)
    assert await bare.read_raw(deal_id) == [] and await bare.reader.get_meta(deal_id) == {}


async def test_a_claim_on_an_archived_deal_is_made_in_the_archive_and_leaves_redis_alone(store, archive):
    [original] = await play_finished(store, ["paohuzi"])
    deal_id = original.deal_id
    await Archiver(store, archive, older_than=0).archive_once()
    assert await store.reader.claim_meta(deal_id, "rematched_by", "a" * 16) == "a" * 16
    assert await store.reader.claim_meta(deal_id, "rematched_by", "b" * 16) == "a" * 16
    assert await store.reader.meta_field(deal_id, "rematched_by") == "a" * 16
    assert not await store.redis.exists(store.keys.meta(deal_id))  # no stray meta hash in Redis
    await store.reader.release_meta(deal_id, "rematched_by", "b" * 16)  # not the holder: nothing happens
    assert (await archive.meta(deal_id))["rematched_by"] == "a" * 16
    await store.reader.release_meta(deal_id, "rematched_by", "a" * 16)
    assert "rematched_by" not in await archive.meta(deal_id)
    assert not await store.redis.exists(store.keys.meta(deal_id))


async def test_a_claim_on_a_deal_still_in_redis_is_made_in_redis(store, archive):
    [original] = await play_finished(store, ["paohuzi"])
    deal_id = original.deal_id
    assert await store.reader.claim_meta(deal_id, "rematched_by", "c" * 16) == "c" * 16
    assert await store.redis.hget(store.keys.meta(deal_id), "rematched_by") == b"c" * 16
    await store.reader.release_meta(deal_id, "rematched_by", "c" * 16)
    assert await store.redis.hget(store.keys.meta(deal_id), "rematched_by") is None
    assert await archive.get(deal_id) is None


async def _redis_row(store: EventStore, deal_id: str, created: int, public: bool = True) -> None:
    await store.indexes.put_meta(
        deal_id, {"game": "mcr", "created_ms": str(created), "spectators": "1"}, created, public=public
    )


async def test_the_public_list_pages_through_redis_and_the_archive_newest_first(store, archive):
    rng = random.Random(17)
    expected: dict[str, int] = {}
    # archived deals and deals in Redis interleave in time, with ties in the same millisecond
    for i in range(23):
        created = rng.choice([100, 200, 300, 400, 500]) + rng.randrange(40)
        await archive.put(make_deal(f"a{i:02d}", n=3, created_ms=created, finished_ms=created + 1))
        expected[f"a{i:02d}"] = created
    for i in range(17):
        created = rng.choice([100, 250, 450, 600]) + rng.randrange(40)
        await _redis_row(store, f"r{i:02d}", created)
        expected[f"r{i:02d}"] = created
    await _redis_row(store, "hidden", 450, public=False)  # a live deal closed to spectators
    # a deal copied to the archive and not yet removed from Redis is listed once
    await archive.put(make_deal("both", n=3, created_ms=333, finished_ms=334))
    await _redis_row(store, "both", 333)
    expected["both"] = 333
    order = [d for d, _c in sorted(expected.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]

    ids, metas = await store.reader.public_deals(0, 200)
    assert ids == order
    assert [int(m["created_ms"]) for m in metas] == [expected[d] for d in ids]
    assert all(m["game"] == "mcr" for m in metas)
    archived_meta = metas[ids.index("a00")]
    assert archived_meta["status"] == "over"
    for count in (1, 2, 5, 7):
        paged: list[str] = []
        for offset in range(0, len(order) + 3, count):
            page, _ = await store.reader.public_deals(offset, count)
            paged += page
        # "both" is in Redis and the archive: it may fill one extra place while it is in both
        assert [d for d in dict.fromkeys(paged)] == order, count
    assert await store.reader.public_deals(len(order) + 5, 10) == ([], [])


async def test_an_ended_or_imported_deal_is_listed_as_finished_and_a_deleted_one_is_not(store):
    await store.indexes.put_meta("d1", {"game": "mcr", "status": "playing"}, created_ms=1)
    assert await store.indexes.finished_count() == 0
    await store.indexes.put_meta("d1", {"status": "over"}, created_ms=1, public=True)
    assert [d for d, _t in await store.indexes.finished_before(2**62)] == ["d1"]
    # a second end keeps the first time
    [(_, first)] = await store.indexes.finished_before(2**62)
    await store.indexes.put_meta("d1", {"status": "over"})
    assert await store.indexes.finished_before(2**62) == [("d1", first)]
    await store.removal.delete_deal("d1")
    assert await store.indexes.finished_count() == 0
    assert await store.indexes.list_deals() == [] and await store.indexes.list_deals(public=True) == []


async def test_an_unreachable_archive_is_a_store_outage_not_a_missing_deal(client, key_prefix):
    archive = PostgresArchive("postgresql://nobody@127.0.0.1:9/none")  # nothing listens on port 9
    store = EventStore(client, key_prefix, archive=archive)
    try:
        with pytest.raises(ArchiveUnavailable):
            await store.reader.get_meta("nowhere0000000000")
        assert isinstance(ArchiveUnavailable("x"), ConnectionError)
    finally:
        store.close()
        await archive.close()


async def test_an_imported_finished_log_is_listed_for_the_archiver(store, tmp_path, real_redis_url):
    """``dealstream import`` of a finished log ends with its status: that lists it as finished
    (the mark lives in the store, not in the command line), and the archiver then takes it."""
    from tests.integration.test_cli import cli

    [original] = await play_finished(store, ["paohuzi"])
    path = tmp_path / "deal.jsonl"
    path.write_bytes(b"\n".join(original.records) + b"\n")
    other = f"{store.prefix}-imported"
    try:
        cli("import", str(path), "--redis", real_redis_url, "--prefix", other)
        imported = EventStore(store.redis, other, archive=store.reader.archived)
        assert [d for d, _t in await imported.indexes.finished_before(2**62)] == [original.deal_id]
        # dated back beyond any age, the archiver takes it from the imported prefix
        await store.redis.zadd(imported.keys.finished_index, {original.deal_id: 1})
        counts = await Archiver(imported, store.reader.archived.archive, older_than=0).archive_once()
        assert counts.archived == 1 and counts.failed == 0
        assert await imported.read_raw(original.deal_id) == original.records
        imported.close()
    finally:
        await drop_prefix(store.redis, other)


async def test_archived_reads_on_a_redis_cluster(cluster, key_prefix, tmp_path):
    """The same reads on a 3+3 cluster: the fallbacks' existence checks and pipelines go to the
    node of each deal's slot, the deal list merges the index (one slot) with the archive."""
    client = connect(cluster.url)
    archive = open_archive(None, tmp_path, prefix="ds")
    store = EventStore(client, key_prefix, archive=archive)
    try:
        originals = await play_finished(store, ["paohuzi", "mcr"])
        heads_before = await store.reader.heads([o.deal_id for o in originals])
        listed_before = await store.reader.public_deals(0, 10)
        counts = await Archiver(store, archive, older_than=0).archive_once()
        assert (counts.archived, counts.failed) == (2, 0)
        for original in originals:
            assert not await in_redis(store, original.deal_id)
            assert await store.read_raw(original.deal_id) == original.records
            assert await store.reader.get_meta(original.deal_id) == original.meta
        assert await store.reader.heads([o.deal_id for o in originals]) == heads_before
        after = await store.reader.read_many_raw([(o.deal_id, 3) for o in originals], count=2)
        assert after == [o.records[3:5] for o in originals]
        assert await store.reader.public_deals(0, 10) == listed_before
    finally:
        store.close()
        await archive.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()
