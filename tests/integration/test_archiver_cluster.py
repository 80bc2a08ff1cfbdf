"""The archiver on a real Redis Cluster (3 masters, 3 replicas): the removal script runs over the
deal's own slot, the index entries follow, and nothing is left behind."""

from __future__ import annotations

import pytest

from service.app.archive.archiver import Archiver
from service.store.archive.sqlite import SqliteArchive
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.integration.archive_helpers import (
    assert_whole_in_archive,
    in_redis,
    match_logs_round_trip,
    play_finished,
)

pytestmark = pytest.mark.redis


async def test_finished_deals_leave_a_cluster_whole(cluster, key_prefix, tmp_path):
    client = connect(cluster.url)
    await client.ping()  # redis-py's cluster client learns the slots and commands before concurrent use
    store = EventStore(client, key_prefix)
    archive = SqliteArchive(tmp_path / "archive.sqlite3")
    try:
        originals = await play_finished(store, ["paohuzi", "mcr", "paohuzi"])
        counts = await Archiver(store, archive, older_than=0).archive_once()
        assert (counts.archived, counts.failed) == (3, 0)
        for original in originals:
            await assert_whole_in_archive(archive, original)
            assert not await in_redis(store, original.deal_id)
            for key in (store.keys.meta(original.deal_id), store.keys.commands(original.deal_id)):
                assert not await client.exists(key)
        for key in (store.keys.index, store.keys.public_index, store.keys.finished_index):
            assert await client.zcard(key) == 0
    finally:
        await archive.close()
        store.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()


async def test_match_logs_leave_a_cluster_whole(cluster, key_prefix, tmp_path):
    """The match logs' key scan reaches every master, and the removal runs in each log's slot."""
    client = connect(cluster.url)
    await client.ping()
    store = EventStore(client, key_prefix)
    archive = SqliteArchive(tmp_path / "archive.sqlite3")
    try:
        await match_logs_round_trip(store, archive)
    finally:
        await archive.close()
        store.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()
