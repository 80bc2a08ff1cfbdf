"""Each player's deals and matches, by the digest of its player key ("My games").

A browser makes a player key and sends it when it creates or joins a deal or a match; the
service keeps only ``HMAC-SHA256(salt, key)`` (``service.app.state.players``), with one salt
per installation kept here, in Redis. For each digest one sorted set,
``<prefix>:{player:<digest>}:deals``, lists the seats the player took: members
``deal:<id>:<seat>`` or ``match:<id>:<seat>``, scored by the deal's (or match's) creation time
in ms. Nothing of it is in a deal's keys, meta or log: finished logs are public, and a digest
there would link a person's deals. So the archiver, which removes a deal's own keys and its
index entries, leaves these sets alone, and a listed deal that left Redis is read from the
archive like any other.

One key per player (its own hash tag) spreads the players over a Redis Cluster; nothing reads two
of them in one command. A set keeps the newest ``MAX_ROWS`` seats of its player.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from service.store.autopipe import AutoPipeline
from service.store.keys import StoreKeys
from service.store.redis_log import text

MAX_ROWS = 5000  # seats one player's set keeps, newest first (older ones drop out of its list)
KINDS = ("deal", "match")


@dataclass(frozen=True)
class PlayerRow:
    """One seat a player took: a deal's or a match's, at its creation time (ms)."""

    kind: str  # deal | match
    id: str
    seat: int
    created_ms: int


def member(kind: str, id_: str, seat: int) -> str:
    if kind not in KINDS:
        raise ValueError(f"a player's row is one of {KINDS}, not {kind!r}")
    return f"{kind}:{id_}:{seat}"


def parse_member(raw: str, score: float) -> PlayerRow | None:
    kind, _, rest = raw.partition(":")
    id_, _, seat = rest.rpartition(":")
    if kind not in KINDS or not id_ or not seat.isdigit():
        return None
    return PlayerRow(kind, id_, int(seat), int(score))


class PlayerIndex:
    """The salt of player-key digests and each digest's seats, in Redis."""

    def __init__(self, redis: Any, keys: StoreKeys, *, appends: AutoPipeline) -> None:
        self.redis = redis
        self.keys = keys
        self.appends = appends

    async def salt(self) -> bytes:
        """The installation's salt: made once (``SET NX``), the same for every process after."""
        key = self.keys.player_salt
        held = await self.redis.get(key)
        if held is None:
            await self.redis.set(key, secrets.token_hex(32), nx=True)
            held = await self.redis.get(key)
        return text(held).encode()

    async def add(self, digest: str, kind: str, id_: str, seat: int, created_ms: int) -> None:
        """List one seat under the player (idempotent: a resend is harmless)."""
        key = self.keys.player(digest)
        await self.appends.call("ZADD", key, created_ms, member(kind, id_, seat))
        await self.appends.call("ZREMRANGEBYRANK", key, 0, -(MAX_ROWS + 1))

    async def rows(self, digest: str, before_ms: int | None, count: int) -> list[PlayerRow]:
        """Up to ``count`` rows created before ``before_ms`` (exclusive; None: all), newest first
        (equal times: by member, descending)."""
        if count <= 0:
            return []
        top = "+inf" if before_ms is None else f"({before_ms}"
        raw = await self.redis.zrevrangebyscore(
            self.keys.player(digest), top, "-inf", start=0, num=count, withscores=True
        )
        rows = [parse_member(text(m), score) for m, score in raw]
        return [row for row in rows if row is not None]
