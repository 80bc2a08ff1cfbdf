"""Garbage-collector settings for a serving process.

Every command allocates many short-lived containers (a state copy, events, a view, JSON), so
with CPython's default threshold of 700 the young generation is collected every few commands,
and each pass also walks whatever is still young at that moment. Measured in ``bench.service``:
about 5 % of the server's CPU went to the collector and showed up as slow ``decide`` calls.
A larger first threshold collects the same garbage in far fewer passes; freezing moves what
start-up built (modules, tables, the app) out of every later full collection.

At a thousand tables that was still not enough (issue 46). Each table's state is replaced at
every move and the old one freed by its reference count, so the young generation always holds
the newest state of every table (tens of thousands of lists): each young collection walked them
all for nothing, 15–50 ms with the event loop stopped, every second or so, and the older
generations' passes 100–150 ms. That was 7 % of the process's CPU and most of its p99 latency
(``bench.capacity``: 76 ms at 1,000 tables, 20 ms without the collector). So a serving process
runs ``Collector``: the automatic collector is off, what is alive is frozen twice a second (out
of every collection; it is still freed by its reference count, which is how nearly everything
here dies), and every quarter of an hour everything is unfrozen and collected once, which
frees the few reference cycles made meanwhile (an exception kept with its frames, a connection's
objects; a few hundred objects a minute at a thousand tables, once the one hot path that made
them, a claim search's closure that called itself, was rewritten). That collection stops the
event loop for as long as a full collection of everything does (about 0.4 s at a thousand
tables, 0.9 s at two thousand, where the automatic collector's oldest generation took about
0.16 s at a thousand, every minute or two); it also comes early once the frozen objects grew by
half and by two million. Only how often the collector
looks changes: no garbage stays so longer than ``RECLAIM_S``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("dealstream.gc")

YOUNG_THRESHOLD = 10_000  # container allocations between young collections (CPython: 700)
FREEZE_S = 0.5  # how often what is alive is moved out of the collector's sight
RECLAIM_S = 900.0  # how often everything is collected once (reference cycles are freed then)
CHECK_S = 30.0  # how often the frozen objects are counted, for an early collection
# ... which comes once they grew by half, and by at least this many, since the last one: a path
# that makes reference cycles fast is not left to grow for RECLAIM_S. The floor is above what
# two thousand tables hold (about 1.5 million objects), so opening tables does not stop the
# event loop on its way up: a full collection is the price of a leak, not of a busy evening
GROWTH_FLOOR = 2_000_000


def tune_gc() -> None:
    """Call once the app is built, before it serves."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


class Collector:
    """The serving process's collection policy (see the module's docstring): ``run`` it as a
    task of the event loop; cancelling it gives the process the automatic collector back."""

    def __init__(
        self, freeze_s: float = FREEZE_S, reclaim_s: float = RECLAIM_S, check_s: float = CHECK_S
    ) -> None:
        self.freeze_s = freeze_s
        self.reclaim_s = reclaim_s
        self.check_s = check_s
        self.kept = 0  # objects frozen right after the last full collection (or the start)
        self.reclaims = 0  # full collections made (for tests and the log)
        self.freed = 0  # objects they found unreachable
        self.last_reclaim_ms = 0.0  # how long the last one stopped the event loop

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        gc.disable()
        gc.freeze()
        self.kept = gc.get_freeze_count()
        last = checked = loop.time()
        try:
            while True:
                await asyncio.sleep(self.freeze_s)
                now = loop.time()
                due = now - last >= self.reclaim_s
                if not due and now - checked >= self.check_s:
                    checked = now
                    due = gc.get_freeze_count() > self.kept + max(GROWTH_FLOOR, self.kept // 2)
                if due:
                    self.reclaim()
                    last = checked = loop.time()
                gc.freeze()
        finally:
            gc.unfreeze()
            gc.enable()

    def reclaim(self) -> int:
        """Collect everything once (the event loop waits meanwhile); the objects freed."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.kept = gc.get_freeze_count()
        self.last_reclaim_ms = (time.perf_counter() - started) * 1000
        self.reclaims += 1
        self.freed += freed
        log.info("garbage collected: %d objects freed in %.0f ms", freed, self.last_reclaim_ms)
        return freed
