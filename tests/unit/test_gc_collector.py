"""The serving process's collection policy (``service.gc_tuning.Collector``, issue 46): the
automatic collector is off while it runs, what is alive is frozen, a reference cycle dropped
meanwhile is freed by the next full collection (on time, or early once the frozen objects grew),
and stopping it gives the process the automatic collector back."""

from __future__ import annotations

import asyncio
import gc
import weakref

from service import gc_tuning
from service.gc_tuning import Collector


class _Node:
    """An object that can sit in a reference cycle (and be watched through a weak reference)."""

    def __init__(self) -> None:
        self.other: _Node | None = None


def _dropped_cycle() -> weakref.ref:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def _until(check, seconds: float = 30.0) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.01)


async def test_a_cycle_dropped_while_frozen_is_freed_by_the_next_full_collection() -> None:
    collector = Collector(freeze_s=0.01, reclaim_s=3600.0, check_s=3600.0)
    task = asyncio.create_task(collector.run())
    try:
        await _until(lambda: not gc.isenabled())
        kept = [_Node() for _ in range(100)]
        await _until(lambda: gc.get_freeze_count() > 0 and not gc.is_finalized(kept[0]))
        cycle = _dropped_cycle()
        await asyncio.sleep(0.05)  # several freezes: the collector alone would never look
        assert cycle() is not None
        assert collector.reclaim() >= 2
        assert cycle() is None and collector.reclaims == 1
        assert all(node.other is None for node in kept)  # what is alive stays alive
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert gc.isenabled() and gc.get_freeze_count() == 0


async def test_the_full_collection_comes_on_time_and_early_once_the_frozen_objects_grew(monkeypatch) -> None:
    collector = Collector(freeze_s=0.01, reclaim_s=0.2, check_s=3600.0)
    task = asyncio.create_task(collector.run())
    try:
        cycle = _dropped_cycle()
        await _until(lambda: cycle() is None)  # on time
        assert collector.reclaims >= 1
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    monkeypatch.setattr(gc_tuning, "GROWTH_FLOOR", 1_000)
    collector = Collector(freeze_s=0.01, reclaim_s=3600.0, check_s=0.02)
    task = asyncio.create_task(collector.run())
    try:
        await asyncio.sleep(0.1)
        assert collector.reclaims == 0  # nothing grew
        cycle = _dropped_cycle()
        grown = [[i] for i in range(max(2_000, collector.kept))]  # the frozen objects grow by half
        await _until(lambda: cycle() is None)  # early
        assert collector.reclaims == 1 and len(grown) >= 2_000
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert gc.isenabled() and gc.get_freeze_count() == 0
