"""The tournament runner against real Redis: a restart between a table's match and its record
makes no second match, and a runner that does not hold the lease takes no step."""

from __future__ import annotations

import asyncio
import time

from domain.tournament import log as tlog
from domain.tournament import plan
from domain.tournament.events import TableStarted
from service.app.commands.deals import DealService
from service.app.commands.matches import MatchService
from service.app.state.match_log import MatchLog
from service.app.tournaments import TournamentService
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix

WAIT_S = 300.0


async def _matches(redis, prefix: str) -> int:
    return len([k async for k in redis.scan_iter(match=f"{prefix}:match:{{*}}:events")])


async def test_a_restart_between_a_match_and_its_record_makes_no_second_match(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    deals = DealService(store)
    matches = MatchService(deals, MatchLog(store), sweep_s=0.05)
    sweeping = asyncio.gather(matches.run(), deals.bots.supervise(2.0))
    try:
        first = TournamentService(matches)
        made = await first.create({"game": "mcr", "rounds": 2, "players": ["bot:random"] * 8, "pace": "fast"})
        tid = made["tournament_id"]
        # a runner paired round 1 and made table 1's match, then died before recording it
        assert await first.store.take_lease(tid, first.holder, 60_000)
        state, version = await first.store.state(tid)
        seed = await first._round_seed(tid, 1)
        await first.store.append(tid, version, plan.pairing(state, 1, seed), command_id="pair:1")
        state, _ = await first.store.state(tid)
        made_before = await first._start_table(tid, state, 1, 1)
        # another process finds the lease held: it takes no step
        second = TournamentService(matches)
        assert await second.advance(tid) is None
        assert [type(e) for e in tlog.events_of(await second.store.raw(tid))].count(TableStarted) == 0
        # the lease lapses (the first process is gone): the second goes on from the log
        await client.delete(f"{key_prefix}:tournament:{{{tid}}}:lease")
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            state = await second.advance(tid)
            if state is not None and state.ended:
                break
            await asyncio.sleep(0.05)
        events = tlog.events_of(await second.store.raw(tid))
        started = {(e.round, e.table): e.match_id for e in events if type(e) is TableStarted}
        assert started[(1, 1)] == made_before
        assert sorted(started) == [(1, 1), (1, 2), (2, 1), (2, 2)]
        assert await _matches(client, key_prefix) == 4
        # running the finished tournament again appends nothing
        length = len(events)
        await second.advance(tid)
        assert len(await second.store.raw(tid)) == length
    finally:
        sweeping.cancel()
        await asyncio.gather(sweeping, return_exceptions=True)
        await matches.close()
        await deals.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()
