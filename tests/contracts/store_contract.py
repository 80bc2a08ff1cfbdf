"""The event store contract, one abstract base run against every backend.

A backend's test class subclasses ``EventStoreContract`` and provides two fixtures:
``redis_client`` (an asyncio redis-py compatible client) and ``backend_url`` (a URL other OS
processes can connect to, for the race).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from domain.envelope import GENESIS, decode_record, record_hash, verify_chain
from service.store.event_store import EventStore, VersionConflict
from tests.conftest import drop_prefix

ROOT = Path(__file__).resolve().parents[2]


class Played(msgspec.Struct, frozen=True, tag=True):
    seat: int
    card: int


class Passed(msgspec.Struct, frozen=True, tag=True):
    seat: int


async def _rewrite_stream(client, key: str, replace: dict[int, bytes]) -> None:
    entries = await client.xrange(key)
    await client.delete(key)
    for entry_id, fields in entries:
        version = int(entry_id.split(b"-")[1])
        value = replace.get(version, fields[b"e"])
        await client.xadd(key, {"e": value}, id=f"0-{version}")


class EventStoreContract:
    @pytest.fixture
    async def store(self, redis_client, key_prefix):
        store = EventStore(redis_client, key_prefix)
        yield store
        await drop_prefix(redis_client, key_prefix)

    # round trip ------------------------------------------------------------
    async def test_append_then_read_round_trip(self, store):
        result = await store.append("d1", 0, [Played(0, 5), Passed(1)], command_id="c1")
        assert (result.first_version, result.last_version, result.duplicate) == (1, 2, False)
        records = await store.read("d1")
        assert [r.version for r in records] == [1, 2]
        assert [r.type for r in records] == ["Played", "Passed"]
        assert msgspec.json.decode(records[0].data, type=Played) == Played(0, 5)
        assert records[0].prev == GENESIS
        assert records[0].command_id == "c1"
        assert await store.version("d1") == 2

    async def test_read_from_a_version(self, store):
        for v in range(5):
            await store.append("d1", v, [Played(0, v)])
        tail = await store.read("d1", from_version=3)
        assert [r.version for r in tail] == [3, 4, 5]
        assert [r.version for r in await store.read("d1", 2, 3)] == [2, 3]

    async def test_unknown_deal_reads_empty(self, store):
        assert await store.read("nobody") == []
        assert await store.version("nobody") == 0

    # optimistic concurrency ---------------------------------------------------
    async def test_wrong_expected_version_conflicts_and_writes_nothing(self, store):
        await store.append("d1", 0, [Played(0, 1)])
        with pytest.raises(VersionConflict) as info:
            await store.append("d1", 0, [Played(1, 2), Played(2, 3)])
        assert info.value.actual == 1
        with pytest.raises(VersionConflict):
            await store.append("d1", 5, [Played(1, 2)])
        assert [r.version for r in await store.read("d1")] == [1]

    async def test_a_second_store_instance_with_a_stale_cache_conflicts(self, store, redis_client):
        other = EventStore(redis_client, store.prefix)
        await store.append("d1", 0, [Played(0, 1)])
        await other.append("d1", 1, [Played(0, 2)])
        with pytest.raises(VersionConflict) as info:
            await store.append("d1", 1, [Played(0, 3)])
        assert info.value.actual == 2
        # after the conflict the store knows the head and appends cleanly
        await store.append("d1", 2, [Played(0, 3)])
        raws = await store.read_raw("d1")
        assert verify_chain(raws) is None

    async def test_batch_is_all_or_nothing(self, store, redis_client):
        await store.append("d1", 0, [Played(0, 1)])
        # stale batch of eight: none of it lands
        with pytest.raises(VersionConflict):
            await store.append("d1", 0, [Played(0, i) for i in range(8)])
        assert await store.version("d1") == 1
        # an oversized batch is refused before anything is sent
        with pytest.raises(ValueError):
            await store.append("d1", 1, [Played(0, i) for i in range(10_000)])
        assert await store.version("d1") == 1
        # a malformed call to the script (bad expected version) writes nothing either
        with pytest.raises(ValueError):
            await store.log.run_append("d1", "x", "", "", [b"{}"], None)  # type: ignore[arg-type]
        assert await store.version("d1") == 1
        # a good batch lands whole, with consecutive versions
        await store.append("d1", 1, [Played(0, i) for i in range(8)])
        assert [r.version for r in await store.read("d1")] == list(range(1, 10))

    async def test_concurrent_appends_share_round_trips_and_survive_a_script_flush(self, store, redis_client):
        """Appends to many deals at once are pipelined, each judged on its own; after SCRIPT
        FLUSH (or a restarted server) every one of them still lands, the script sent again."""
        await redis_client.script_flush()
        deals = [f"p{i}" for i in range(40)]
        results = await asyncio.gather(*(store.append(d, 0, [Played(0, 1)]) for d in deals))
        assert [r.last_version for r in results] == [1] * 40
        mixed = await asyncio.gather(
            *(store.append(d, 1 if i % 2 else 0, [Played(1, 2)]) for i, d in enumerate(deals)),
            return_exceptions=True,
        )
        for i, outcome in enumerate(mixed):  # the stale half conflicts, the other half lands
            if i % 2:
                assert outcome.last_version == 2
            else:
                assert isinstance(outcome, VersionConflict) and outcome.actual == 1
        assert store._appends.batches < store._appends.commands
        for d in deals:
            assert verify_chain(await store.read_raw(d)) is None

    async def test_a_wrong_head_hash_conflicts_and_writes_nothing(self, store):
        await store.append("d1", 0, [Played(0, 1)])
        # the caller believes in a different record at version 1
        store.log.remember("d1", 1, "f" * 64)
        with pytest.raises(VersionConflict):
            await store.append("d1", 1, [Played(0, 2)])
        assert await store.version("d1") == 1

    # idempotency -----------------------------------------------------------
    async def test_same_command_id_twice_returns_first_result_and_one_copy(self, store):
        first = await store.append("d1", 0, [Played(0, 1), Played(0, 2)], command_id="same")
        again = await store.append("d1", 0, [Played(0, 1), Played(0, 2)], command_id="same")
        assert (again.first_version, again.last_version) == (first.first_version, first.last_version)
        assert again.duplicate and not first.duplicate
        # even after the log moved on, the id still answers with its first result
        await store.append("d1", 2, [Passed(1)], command_id="other")
        late = await store.append("d1", 7, [Played(0, 9)], command_id="same")
        assert (late.first_version, late.last_version, late.duplicate) == (1, 2, True)
        assert [r.version for r in await store.read("d1")] == [1, 2, 3]

    # concurrency across processes ---------------------------------------------
    async def test_two_processes_racing_2000_appends(self, store, backend_url):
        procs = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "tests" / "contracts" / "race_worker.py"),
                backend_url,
                store.prefix,
                "race",
                str(p),
                "20",
                "50",
                stdout=subprocess.PIPE,
                cwd=str(ROOT),
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            for p in range(2)
        ]
        outputs = await asyncio.gather(*(p.communicate() for p in procs))
        assert [p.returncode for p in procs] == [0, 0]
        acknowledged = {tuple(x) for out, _ in outputs for x in json.loads(out)}
        assert len(acknowledged) == 2000
        raws = await store.read_raw("race")
        records = [decode_record(r) for r in raws]
        assert [r.version for r in records] == list(range(1, 2001))  # no gap, no duplicate version
        notes = [msgspec.json.decode(r.data) for r in records]
        stored = {(n["process"], n["task"], n["seq"]) for n in notes}
        assert len(stored) == 2000  # no note twice
        assert acknowledged <= stored  # every acknowledged append is there
        assert verify_chain(raws) is None

    # live reads ------------------------------------------------------------
    async def test_a_blocked_subscriber_gets_later_appends(self, store):
        await store.append("d1", 0, [Played(0, 1)])
        received = []

        async def listen():
            async for record in store.subscribe("d1", after_version=1, block_ms=2000):
                received.append(record)
                if len(received) == 3:
                    return

        listener = asyncio.create_task(listen())
        await asyncio.sleep(0.2)  # the subscriber is now blocked in XREAD
        assert not listener.done()
        await store.append("d1", 1, [Played(1, 2)])
        await store.append("d1", 2, [Played(2, 3), Passed(0)])
        await asyncio.wait_for(listener, 60)
        assert [r.version for r in received] == [2, 3, 4]

    # tamper evidence ---------------------------------------------------------
    async def test_hash_chain_verifies_and_a_tampered_entry_is_located(self, store, redis_client):
        for v in range(6):
            await store.append("d1", v, [Played(v % 3, v)])
        raws = await store.read_raw("d1")
        assert verify_chain(raws) is None
        assert decode_record(raws[3]).prev == record_hash(raws[2])
        # change one stored record behind the store's back (rewriting the stream, as a forger must)
        key = store.keys.events("d1")
        forged = raws[3].replace(b'"card":3', b'"card":7')
        assert forged != raws[3]
        await _rewrite_stream(redis_client, key, {4: forged})
        broken = verify_chain(await store.read_raw("d1"))
        assert broken is not None and broken.version == 5
        # a record removed leaves a gap that is located too
        await redis_client.xdel(key, "0-2")
        gap = verify_chain(await store.read_raw("d1"))
        assert gap is not None and gap.version == 2

    # keys, meta, index -------------------------------------------------------
    async def test_every_deal_key_has_the_prefix_and_a_hash_tag(self, store, redis_client):
        await store.append("deal-7", 0, [Played(0, 1)], command_id="k")
        await store.indexes.put_meta("deal-7", {"game": "paohuzi"}, created_ms=1000)
        keys = sorted(
            [
                k.decode() if isinstance(k, bytes) else k
                async for k in redis_client.scan_iter(match=f"{store.prefix}:*")
            ]
        )
        assert keys == sorted(
            [
                f"{store.prefix}:{{deal-7}}:events",
                f"{store.prefix}:{{deal-7}}:cmds",
                f"{store.prefix}:{{deal-7}}:meta",
                f"{store.prefix}:deals",
            ]
        )

    async def test_deal_meta_and_index(self, store):
        await store.indexes.put_meta("a", {"game": "mcr", "status": "open"}, created_ms=1)
        await store.indexes.put_meta("b", {"game": "paohuzi"}, created_ms=2)
        await store.indexes.put_meta("a", {"status": "over"})
        assert await store.reader.get_meta("a") == {"game": "mcr", "status": "over"}
        assert await store.indexes.list_deals() == ["b", "a"]
        assert await store.indexes.list_deals(newest_first=False) == ["a", "b"]
        assert await store.indexes.deal_summaries(["b", "a", "nobody"]) == [
            {"game": "paohuzi"},
            {"game": "mcr", "status": "over"},
            {},
        ]
        await store.removal.delete_deal("a")
        assert await store.indexes.list_deals() == ["b"]
        assert await store.reader.get_meta("a") == {}
