"""When a sweep should read its index of due looks next, as far as this process knows.

A match's or tournament's next look is a score in a Redis index that every process's sweep reads.
Reading it at a short fixed interval costs a round trip per interval in every process even when
nothing is due; the looks this process schedules itself are known here, so the sweep sleeps until
the earliest of them (never sooner than its shortest pause) or, at the latest, its idle interval,
which is how soon it finds the looks another process scheduled and then left undone.
"""

from __future__ import annotations

import asyncio
import heapq

from service.store.deal_index import now_ms

LIMIT = 10_000  # looks remembered; past this, later ones wait for the idle interval


class LookAlarm:
    """The looks this process scheduled, earliest first, and a wake-up when an earlier one comes."""

    def __init__(self) -> None:
        self._looks: list[tuple[int, int]] = []  # (due at, in ms; the order it was scheduled in)
        self._scheduled = 0
        self._earlier: asyncio.Event | None = None

    def schedule(self, at_ms: int) -> None:
        """A look at ``at_ms`` was put in the index: the sleeping sweep wakes for it if earlier."""
        if len(self._looks) >= LIMIT:
            return
        self._scheduled += 1
        heapq.heappush(self._looks, (at_ms, self._scheduled))
        if self._earlier is not None and self._looks[0][1] == self._scheduled:
            self._earlier.set()

    def mark(self) -> tuple[int, int]:
        """Taken as a sweep starts: it covers the looks scheduled so far and due by now."""
        return now_ms(), self._scheduled

    async def wait(self, swept: tuple[int, int], every_s: float, idle_s: float) -> None:
        """Sleep at least ``every_s`` and until the next look this process knows of is due, at
        most ``idle_s``; ``swept`` is the ``mark`` of the sweep that just ran."""
        swept_ms, seen = swept
        looks = self._looks
        while looks and looks[0][0] <= swept_ms and looks[0][1] <= seen:
            heapq.heappop(looks)
        loop = asyncio.get_running_loop()
        start = loop.time()
        if self._earlier is None:
            self._earlier = asyncio.Event()
        while True:
            delay = idle_s if not looks else min(idle_s, (looks[0][0] + 1 - now_ms()) / 1000)
            delay = max(delay, every_s - (loop.time() - start))
            if delay <= 0:
                return
            self._earlier.clear()
            try:
                async with asyncio.timeout(delay):
                    await self._earlier.wait()
            except TimeoutError:
                return
