"""Quick play's seeks in Redis, matched atomically (``seeks.lua``).

Per game two keys under the hash tag ``{seeks:<game>}`` (one slot on Redis Cluster): a sorted
set of the waiting seeks scored by their account's rating, and a hash of every seek as JSON (its
account, name, rating, when it began, when bots may fill in, when its person last asked about it,
and once seated its deal and seat), plus ``acct:<account id>`` -> the account's waiting seek and
``table:<deal id>`` -> the plan of a table made (its seeks in seat order, its bots). One
script call adds, reads, drops or matches, so two processes (or two hosts) never seat a seeker
twice: a match removes its seekers from the queue in the same step that picks them. No token is
kept here; a seated seek's token is made when its account reads it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from redis.exceptions import NoScriptError

_LUA = files("service.store").joinpath("seeks.lua").read_text()
_SHA = hashlib.sha1(_LUA.encode()).hexdigest()


@dataclass(frozen=True)
class Seek:
    """A seek as stored: ``status`` "waiting" or "seated" (then ``deal_id`` and ``seat``)."""

    seek_id: str
    account: str
    name: str
    rating: float
    since_ms: int
    status: str
    deal_id: str | None = None
    seat: int | None = None
    seated_ms: int | None = None


@dataclass(frozen=True)
class Table:
    """A match: the new deal's id, how many bots fill it, the seeks in seat order."""

    deal_id: str
    bots: int
    seek_ids: list[str]


class SeekStore:
    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def keys(self, game: str) -> tuple[str, str]:
        tag = f"{self.prefix}:{{seeks:{game}}}"
        return f"{tag}:queue", f"{tag}:all"

    async def _call(self, game: str, op: str, now_ms: int, *args: Any) -> Any:
        keys = self.keys(game)
        try:
            return await self.redis.evalsha(_SHA, 2, *keys, op, now_ms, *args)
        except NoScriptError:  # first call on this server, or after a restart
            return await self.redis.eval(_LUA, 2, *keys, op, now_ms, *args)

    async def add(
        self, game: str, seek_id: str, account: str, name: str, rating: float, bots_after_ms: int,
        now_ms: int, stale_ms: int,
    ) -> str:  # fmt: skip
        """The account's waiting seek of this game: ``seek_id``, or the one it has already."""
        held = await self._call(
            game, "add", now_ms, seek_id, account, name, repr(rating), bots_after_ms, stale_ms
        )
        return held.decode() if isinstance(held, bytes) else str(held)

    async def poll(self, game: str, seek_id: str, now_ms: int, account: str = "") -> Seek | None:
        """The seek (of ``account`` only, when given: another's is not kept alive by its reads)."""
        raw = await self._call(game, "poll", now_ms, seek_id, account)
        if raw is None:
            return None
        s = json.loads(raw)
        return Seek(
            seek_id, s["a"], s["n"], float(s["r"]), int(s["t"]), s["s"],
            s.get("d"), None if s.get("seat") is None else int(s["seat"]),
            None if s.get("m") is None else int(s["m"]),
        )  # fmt: skip

    async def drop(self, game: str, seek_id: str, account: str, now_ms: int) -> bool:
        return bool(await self._call(game, "drop", now_ms, seek_id, account))

    async def match(
        self, game: str, deal_id: str, seats: int, base: float, widen: float, stale_ms: int, now_ms: int
    ) -> Table | None:
        out = await self._call(game, "match", now_ms, deal_id, seats, repr(base), repr(widen), stale_ms)
        if not out:
            return None
        text = [x.decode() if isinstance(x, bytes) else str(x) for x in out]
        return Table(text[0], int(text[1]), text[2:])

    async def plan(self, game: str, deal_id: str, now_ms: int) -> Table | None:
        """The table a match made, as the script recorded it (to make its deal again)."""
        raw = await self._call(game, "plan", now_ms, deal_id)
        if raw is None:
            return None
        plan = json.loads(raw)
        ids = plan.get("ids") or []
        return Table(
            deal_id, int(plan.get("bots", 0)), [str(i) for i in (ids if isinstance(ids, list) else [])]
        )

    async def sweep(self, game: str, forget_ms: int, now_ms: int) -> int:
        return int(await self._call(game, "sweep", now_ms, forget_ms))

    async def waiting(self, game: str) -> int:
        return int(await self.redis.zcard(self.keys(game)[0]))
