"""The shared sweep loop ends when told to stop, even where a client swallowed its cancellation
(a service's shutdown must never wait for ever on a background loop)."""

from __future__ import annotations

import asyncio
import logging

from service.app.sweeps import sweep_forever
from service.store.deal_index import now_ms
from service.store.looks import LookAlarm

log = logging.getLogger("test.sweeps")


async def test_a_loop_whose_cancellation_is_swallowed_ends_once_stopped():
    stop = False
    inside = asyncio.Event()
    swallowed = asyncio.Event()

    async def swallowing_sweep() -> int:
        inside.set()
        try:
            await asyncio.sleep(0.5)
        except asyncio.CancelledError:  # as a client that turns a cancellation into its own answer
            task = asyncio.current_task()
            assert task is not None
            task.uncancel()
            swallowed.set()
        return 0

    task = asyncio.create_task(sweep_forever(swallowing_sweep, 0.0, "test", log, lambda: stop))
    await asyncio.wait_for(inside.wait(), timeout=30)
    task.cancel()  # delivered inside the sweep, which swallows it
    await asyncio.wait_for(swallowed.wait(), timeout=30)
    await asyncio.sleep(0.05)
    assert not task.done()  # the cancellation was lost: without the flag it would run for ever
    stop = True
    await asyncio.wait_for(task, timeout=30)
    assert task.done() and not task.cancelled()


async def test_a_loop_ends_on_cancellation_as_before():
    async def sweep() -> int:
        await asyncio.sleep(0.01)
        return 0

    task = asyncio.create_task(sweep_forever(sweep, 0.01, "test", log))
    await asyncio.sleep(0.05)
    task.cancel()
    try:
        await asyncio.wait_for(task, timeout=30)
    except asyncio.CancelledError:
        pass
    assert task.cancelled()


async def test_an_idle_loop_sweeps_at_its_idle_interval_and_wakes_for_a_look_scheduled_here():
    alarm = LookAlarm()
    swept: list[float] = []
    loop = asyncio.get_running_loop()

    async def sweep() -> int:
        swept.append(loop.time())
        return 0

    task = asyncio.create_task(sweep_forever(sweep, 0.01, "test", log, alarm=alarm, idle_s=30.0))
    try:
        while not swept:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        assert len(swept) == 1  # idle: no look known here, no read of the index every 0.01 s
        alarm.schedule(now_ms() + 200)  # a look this process put in the index
        while len(swept) < 2:
            await asyncio.wait_for(asyncio.sleep(0.01), timeout=30)
        assert swept[1] - swept[0] >= 0.45  # woken for the look when it was due, not before
        await asyncio.sleep(0.3)
        assert len(swept) == 2  # that look was covered: idle again
        alarm.schedule(now_ms())  # due at once (a tournament just created)
        await asyncio.wait_for(_until(lambda: len(swept) == 3), timeout=30)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def _until(done) -> None:
    while not done():
        await asyncio.sleep(0.01)
