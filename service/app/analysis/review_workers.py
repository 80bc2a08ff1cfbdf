"""The worker processes of reviews, apart from the bot workers (live tables first).

Reviews once ran their chunks in the bot workers, first come, first served: 50 review starts
queued 535 decisions ahead of every live table's next search, and for 13 minutes each strong seat
of that process played its greedy fallback. Now the bot workers serve live tables only, and
reviews have a pool of their own whose worker runs at ``nice 19``: beside a bot worker (``nice
10``) on a busy core it gets about an eighth of the CPU, so a review chunk that is already running
never holds up a bot's search for long (the kernel preempts it, which no queue in front of a
shared pool could do), and reviews still move on while tables play. (Linux's ``SCHED_IDLE`` was
tried: on a machine busy with other work its worker got next to nothing, and no review finished.)
One worker by default: a review is background work, and its queue is bounded where reviews are
started (``service.app.analysis.reviews``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from service.app.bots.workers import die_with_parent, stop_pool

REVIEW_WORKERS = 1


REVIEW_NICE = 19


def lowest_priority(nice: int = REVIEW_NICE) -> int:
    """Lower this process to niceness ``nice`` (``REVIEW_NICE`` by default); the niceness it has
    then."""
    try:
        return os.nice(max(0, nice - os.nice(0)))
    except OSError:  # not permitted here: review at the priority we have
        return os.nice(0)


def _start_worker(parent: int, nice: int) -> None:
    die_with_parent(parent)
    lowest_priority(nice)


class ReviewPool:
    """Worker processes for review chunks (any picklable work), started on first use."""

    def __init__(self, workers: int = REVIEW_WORKERS, nice: int = REVIEW_NICE) -> None:
        """``nice``: the workers' niceness. 19 serves live tables first; beside other busy
        programs on the machine (at 0) it leaves reviews almost no CPU, which is why tests that
        wait for a review run them at 0 (``--review-nice``)."""
        self.workers = max(1, workers)
        self.nice = nice
        self._pool: ProcessPoolExecutor | None = None
        self.replaced = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), self.nice),
            )
        return self._pool

    def worker_pids(self) -> list[int]:
        pool = self._pool
        return list(pool._processes) if pool is not None and pool._processes else []  # noqa: SLF001

    async def run(self, fn: Any, *args: Any) -> Any:
        pool = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                self.replaced += 1
                self._drop()
            raise

    def _drop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)

    def close(self) -> None:
        self._drop()
