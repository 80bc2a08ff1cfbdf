"""Per-client budgets kept in Redis, so every process of ``serve --processes N`` (and every host
on the same store) counts one budget per address, not one each.

A budget is ``limit`` requests per ``window_s`` seconds, over a sliding window estimated from two
fixed ones (``rate_limit.lua``): the current window's count plus the previous window's, weighed
by the share of it the sliding window still covers. One script call decides and counts at once;
a refused request counts nothing, so a client that keeps knocking is let in as soon as its
budget allows. The address is stored only as a digest (no address list in Redis), and a counter
lives two windows.
"""

from __future__ import annotations

import hashlib
import math
import time
from importlib.resources import files
from typing import Any

from redis.exceptions import NoScriptError

_LUA = files("service.store").joinpath("rate_limit.lua").read_text()
_SHA = hashlib.sha1(_LUA.encode()).hexdigest()


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

    async def _call(self, client: str, mode: str, now_ms: int | None) -> int | None:
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        window, elapsed = divmod(now_ms, self.window_ms)
        keys = self._keys(client, window)
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
