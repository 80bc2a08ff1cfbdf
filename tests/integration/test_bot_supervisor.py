"""The bot supervisor's sweep with several service processes (issue 26): a process that only
holds a deal's fold (it streams the deal; the deal's commands reach another process) does not
drive its bots as well, and a deal whose runner stopped is taken up once it stood still.

Two ``DealService`` objects over one key prefix of the real Redis are two processes' worth of
fold caches and bot runners; the sweep is given its clock (``kick_all(now=...)``), so no test
waits out the stall time."""

from __future__ import annotations

import asyncio

import pytest

from service.app.bots.runner import BotRunner
from service.app.commands.deals import DealService
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import wait_for

pytestmark = pytest.mark.redis


async def _service(url: str, prefix: str, delay: float) -> DealService:
    return DealService(EventStore(connect(url), prefix), bots=BotRunner(delay))


async def test_a_process_that_only_holds_a_deal_leaves_its_bots_to_the_one_driving_it(
    real_redis_url, key_prefix
):
    driving = await _service(real_redis_url, key_prefix, 0.05)
    reading = await _service(real_redis_url, key_prefix, 0.05)
    try:
        deal_id = (await driving.create("mcr", ["bot:greedy"] * 4, "sweep-1")).deal_id
        held = (await reading.folds.load(deal_id)).version  # cached here, as a stream would leave it

        async def moved() -> bool:
            return (await driving.folds.load(deal_id)).version >= held + 3

        await wait_for(moved, timeout=120)
        reading.bots.kick_all(now=0.0)
        reading.bots.kick_all(
            now=reading.bots.stall_s(reading.folds.cached(deal_id)) + 1.0
        )  # stood still, as far as this fold knows
        adopted = reading.bots._tasks.get(deal_id)
        assert adopted is not None  # the sweep looked at it ...
        await asyncio.wait_for(adopted, 60)
        assert reading.bots.decision_ms == []  # ... read the store, saw it moving, and left it alone
        assert (reading.folds.cached(deal_id)).version > held
    finally:
        for service in (driving, reading):
            await service.bots.close()
        await drop_prefix(driving.store.redis, key_prefix)


async def test_a_deal_whose_runner_stopped_is_taken_up_once_it_stood_still(real_redis_url, key_prefix):
    service = await _service(real_redis_url, key_prefix, 600.0)  # the first runner sleeps ...
    try:
        deal_id = (await service.create("paohuzi", ["bot:greedy"] * 3, "sweep-2")).deal_id
        runner = service.bots._tasks[deal_id]
        runner.cancel()  # ... and stops, as one that ended on an error
        await asyncio.gather(runner, return_exceptions=True)
        service.bots.delay = 0.0
        start = (await service.folds.load(deal_id)).version
        stall = service.bots.stall_s(service.folds.cached(deal_id))
        service.bots.kick_all(now=100.0)
        service.bots.kick_all(now=100.0 + stall / 2)
        assert deal_id not in service.bots._tasks or service.bots._tasks[deal_id] is runner  # not yet
        service.bots.kick_all(now=100.0 + stall)

        async def over() -> bool:
            return (await service.folds.load(deal_id)).over

        await wait_for(over, timeout=120)
        assert (await service.folds.load(deal_id)).version > start
        assert service.bots.decision_ms  # this process's runner played it out
    finally:
        await service.bots.close()
        await drop_prefix(service.store.redis, key_prefix)
