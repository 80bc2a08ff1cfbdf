"""The service's background loops stop when cancelled even when a client turns the cancellation
into an error of its own (a Redis client closing the connection it was reading on raises a
connection error), instead of taking it for an outage and running on while the shutdown waits."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
import redis.exceptions as rx

from service.app.archive.archiver import Archiver
from service.app.commands.clocks import ClockKeeper


async def _call_that_converts_its_cancellation() -> None:
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        raise rx.ConnectionError("Connection closed by the client") from None


async def _stops_when_cancelled(loop) -> None:
    task = asyncio.create_task(loop)
    await asyncio.sleep(0.1)  # the loop is inside its call now
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=10)  # not wait_for: it would wait for the loop too
    assert task in done, "the loop ran on after it was cancelled"
    with pytest.raises(asyncio.CancelledError):
        task.result()


async def test_the_clock_keeper_stops_when_its_sweep_turns_the_cancellation_into_an_outage():
    keeper = ClockKeeper(SimpleNamespace(store=None), interval_s=0.01)
    keeper.sweep = _call_that_converts_its_cancellation  # type: ignore[method-assign]
    await _stops_when_cancelled(keeper.run())


async def test_the_archiver_stops_when_a_round_turns_the_cancellation_into_an_error():
    archiver = Archiver(SimpleNamespace(), SimpleNamespace())  # type: ignore[arg-type]
    archiver.archive_once = _call_that_converts_its_cancellation  # type: ignore[method-assign]
    await _stops_when_cancelled(archiver.run(0.01))


async def _call_that_swallows_its_cancellation() -> None:
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        return  # the call answers after all, as a client retrying on a fresh connection does


async def test_the_clock_keeper_stops_when_its_sweep_swallows_the_cancellation():
    keeper = ClockKeeper(SimpleNamespace(store=None), interval_s=0.01)
    keeper.sweep = _call_that_swallows_its_cancellation  # type: ignore[method-assign]
    await _stops_when_cancelled(keeper.run())


async def test_the_archiver_stops_when_a_round_swallows_the_cancellation():
    archiver = Archiver(SimpleNamespace(), SimpleNamespace())  # type: ignore[arg-type]
    archiver.archive_once = _call_that_swallows_its_cancellation  # type: ignore[method-assign]
    await _stops_when_cancelled(archiver.run(0.01))
