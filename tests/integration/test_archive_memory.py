"""Redis memory stays flat while bot deals finish and are archived (the shape of issue 17's
20,000-deal target, bounded: 300 deals).

A redis-server of the test's own (nothing else writes to it), the archiver's loop running the
whole time (deals finished 0 s ago are due); 300 Paohuzi bot deals, 20 at a time, in six waves.
After each wave, once the archiver has caught up (and Redis's cron has shrunk the tables the
deleted keys left), ``used_memory`` is read: every reading stays
within 10 % of the first (each wave holds about 2 MB while its deals are in Redis, so a deal
left behind would show at once), Redis holds no key at all, and the archive holds every deal.
"""

from __future__ import annotations

import asyncio

from bench.archive import PrivateRedis, play, used_memory
from service.app.archive.archiver import Archiver
from service.app.commands.deals import DealService
from service.store.archive.sqlite import SqliteArchive
from service.store.connection import connect
from service.store.event_store import EventStore

WAVES = 6
PER_WAVE = 50


async def test_redis_memory_stays_flat_while_deals_finish_and_are_archived(tmp_path):
    server = PrivateRedis()
    client = connect(server.url)
    archive = SqliteArchive(tmp_path / "archive.sqlite3")
    task = None
    try:
        await server.ready(client)
        store = EventStore(client, "ds")
        deals = DealService(store)
        task = asyncio.create_task(Archiver(store, archive, older_than=0).run(interval=0.2))
        readings = []
        peak_keys = 0
        for wave in range(WAVES):

            async def count_keys(_done: int) -> None:
                nonlocal peak_keys
                peak_keys = max(peak_keys, await client.dbsize())

            await play(deals, store, "paohuzi", PER_WAVE, 20, count_keys)
            for _ in range(600):  # the archiver catches up within a few of its rounds
                if await client.dbsize() == 0:
                    break
                await asyncio.sleep(0.05)
            assert await client.dbsize() == 0, f"wave {wave}: keys left in Redis"
            assert await archive.count() == PER_WAVE * (wave + 1)
            # Redis shrinks the tables its deleted keys leave behind in its cron (10 times a
            # second); read once that ran, so a reading shows what Redis holds, not what it is
            # about to give back
            await asyncio.sleep(1.0)
            readings.append(await used_memory(client))
        assert not task.done()
        await deals.close()
        store.close()
        # flat: no reading grows past the first by more than a tenth, and the waves after the
        # first (whose reading may still hold what Redis gives back later) stay within a tenth
        # of each other
        first, settled = readings[0], readings[1:]
        assert all(r <= first * 1.10 for r in readings), readings
        assert max(settled) <= min(settled) * 1.10, readings
        assert peak_keys > 0  # deals were in Redis while they were played
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await archive.close()
        await client.aclose()
        server.stop()
