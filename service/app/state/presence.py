"""Who is connected: the seats that have a live stream open now, in any process.

Each process serving a seat's stream keeps a member ``<seat>:<stream>`` in the deal's presence
hash in Redis, refreshed every ``REFRESH_S`` and valid for ``VALID_MS``; it removes it when the
stream ends. A process that dies leaves members that run out on their own. Reads are cached for
``CACHE_S`` per deal, so a busy table costs at most one Redis read in that time (a table of bots
moves about once a second, and every move's views show who is connected); this process's own
streams drop the deal's cached read as they open and end, so only another process's stream shows
up to ``CACHE_S`` late. Presence is not part of the log: it says who is watching now, not what
happened, and no rule depends on it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Coroutine
from typing import Any

from service.app.cancellation import raise_if_cancelled
from service.app.lru import LRUCache
from service.store.deal_index import DealIndexes
from service.store.outages import STORE_OUTAGES

log = logging.getLogger("dealstream.presence")

REFRESH_S = 10.0
VALID_MS = 30_000
CACHE_S = 5.0


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Presence:
    def __init__(self, indexes: DealIndexes, cache_size: int = 4096) -> None:
        """``indexes``: the store's part that keeps who is present (``EventStore.indexes``)."""
        self.indexes = indexes
        self._ids = itertools.count(1)
        self._token = secrets.token_hex(6)  # tells this process's streams from another's
        self._tasks: set[asyncio.Task] = set()
        self._cache: LRUCache[str, tuple[float, list[int]]] = LRUCache(cache_size)

    async def hold(self, deal_id: str, seat: int) -> PresenceHold:
        """Mark ``seat`` connected while the returned hold is not released: written before this
        returns, so every view the stream then sends counts the seat."""
        member = f"{seat}:{self._token}.{next(self._ids)}"
        hold = PresenceHold(self, deal_id, member)
        await hold.touch()
        task = asyncio.create_task(hold.keep())
        hold.task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self._cache.pop(deal_id)
        return hold

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def seats(self, deal_id: str) -> list[int]:
        """The seats with a live stream (sorted); on a store outage, none known."""
        cached = self._cache.get(deal_id)
        now = time.monotonic()
        if cached is not None and now - cached[0] < CACHE_S:
            return cached[1]
        try:
            members = await self.indexes.read_presence(deal_id)
        except STORE_OUTAGES:
            return cached[1] if cached is not None else []
        at = now_ms()
        live = [m for m, until in members.items() if until > at and m[:1].isdigit()]
        seats = sorted({int(m.split(":", 1)[0]) for m in live})
        self._cache.put(deal_id, (now, seats))
        return seats

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=10.0)


class PresenceHold:
    def __init__(self, presence: Presence, deal_id: str, member: str) -> None:
        self.presence = presence
        self.deal_id = deal_id
        self.member = member
        self.task: asyncio.Task | None = None

    async def touch(self) -> None:
        try:
            await self.presence.indexes.touch_presence(
                self.deal_id, self.member, now_ms() + VALID_MS, VALID_MS
            )
        except STORE_OUTAGES as exc:  # waited out: the member runs out meanwhile
            raise_if_cancelled()
            log.debug("presence of %s waits for the store: %s", self.deal_id, exc)

    async def keep(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_S)
            await self.touch()
            raise_if_cancelled()

    def release(self) -> None:
        """The stream ended: stop refreshing and remove the member (in the background)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self.presence._cache.pop(self.deal_id)
        self.presence._spawn(self._drop())

    async def _drop(self) -> None:
        try:
            await self.presence.indexes.drop_presence(self.deal_id, self.member)
        except STORE_OUTAGES:
            pass  # it runs out on its own
