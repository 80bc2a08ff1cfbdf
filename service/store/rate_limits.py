"""Per-client budgets kept in Redis, so every process of ``serve --processes N`` (and every host
on the same store) counts one budget per address, not one each.

A budget is ``limit`` requests per ``window_s`` seconds, over a sliding window estimated from two
fixed ones (``rate_limit.lua``): the current window's count plus the previous window's, weighed
by the share of it the sliding window still covers. One script call decides and counts at once;
a refused request counts nothing, so a client that keeps knocking is let in as soon as its
budget allows. Work that may fail after it was let in (a deal's creation) reserves its place
with ``reserve`` and gives it back with ``release`` when it failed: deciding first and counting
once the work is done would let a burst of concurrent requests all pass the check. The address
is stored only as a digest (no address list in Redis), and a counter lives two windows.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from redis.exceptions import NoScriptError

_LUA = files("service.store").joinpath("rate_limit.lua").read_text()
_SHA = hashlib.sha1(_LUA.encode()).hexdigest()


@dataclass(frozen=True)
class Reservation:
    """A place a request holds in a budget: the client and the window it was counted in."""

    client: str
    window: int


class SharedRateLimiter:
    """``allow(client)`` decides and counts at once; ``check`` then ``count`` split the two, for
    a request that must store nothing when it is refused for another reason (a deal's creation:
    only a deal made is counted). Each answers None when there is room, else the whole seconds
    to wait."""

    def __init__(self, redis: Any, prefix: str, name: str, limit: int, window_s: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.name = name
        self.limit = limit
        self.window_ms = max(1, int(window_s * 1000))

    def _keys(self, client: str, window: int) -> tuple[str, str]:
        digest = hashlib.sha256(client.encode()).hexdigest()[:32]
        tag = f"{self.prefix}:{{limit:{self.name}:{digest}}}"  # both counters in one hash slot
        return f"{tag}:{window}", f"{tag}:{window - 1}"

    async def _call(
        self, client: str, mode: str, now_ms: int | None, window: int | None = None
    ) -> int | None:
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        current, elapsed = divmod(now_ms, self.window_ms)
        keys = self._keys(client, current if window is None else window)
        args = (self.limit, elapsed, self.window_ms, mode)
        try:
            wait_ms = int(await self.redis.evalsha(_SHA, 2, *keys, *args))
        except NoScriptError:  # first call on this server, or after SCRIPT FLUSH / a restart
            wait_ms = int(await self.redis.eval(_LUA, 2, *keys, *args))
        return None if wait_ms == 0 else max(1, math.ceil(wait_ms / 1000))

    async def allow(self, client: str, now_ms: int | None = None) -> int | None:
        return await self._call(client, "allow", now_ms)

    async def check(self, client: str, now_ms: int | None = None) -> int | None:
        return await self._call(client, "check", now_ms)

    async def count(self, client: str, now_ms: int | None = None) -> None:
        await self._call(client, "count", now_ms)

    async def reserve(self, client: str, now_ms: int | None = None) -> tuple[Reservation | None, int | None]:
        """Take a place in the budget at once (``allow``): (the reservation, None), or (None, the
        seconds to wait) when there is no room."""
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        wait = await self._call(client, "allow", now_ms)
        if wait is not None:
            return None, wait
        return Reservation(client, now_ms // self.window_ms), None

    async def release(self, reservation: Reservation, now_ms: int | None = None) -> None:
        """Give a reservation back (its work failed): the window it was counted in counts one less
        (nothing when that window has expired meanwhile)."""
        await self._call(reservation.client, "release", now_ms, reservation.window)
