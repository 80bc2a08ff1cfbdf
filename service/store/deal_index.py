"""What the store keeps about deals beside their logs: meta, indexes, clocks, presence, leases.

Kept apart from the log because none of it is on a command's path (a command touches no index;
only creating a deal and its end do) and none of it is part of what a log backend must honour.
Every answer here is Redis's alone: a deal that left Redis has no meta hash and no index entry
here, and ``service.store.reader`` is the one place that then asks the archive.

Each index is one sorted set, so on Redis Cluster it lives on one node. That is on purpose:
two to three ``ZADD`` in a deal's life against the hundreds of appends that spread over the
cluster by deal, and the indexes hold only the deals still in Redis, since the archiver removes
a deal's entries with its keys; at 1,000 live tables and a 10-minute archive age that is some
thousands of entries, not millions. One set also gives the deal list and the archiver an exact
order and one ``ZRANGE`` per page; buckets would turn every page into a merge over all of them.
If one node's share ever mattered, the finished index is the one to split (it is only read by
the archiver, which could walk buckets in turn).

The open tables (lobby tables with a free seat) are one more sorted set, so the lobby never
looks through finished or full deals to find them: a table enters it when it is created and
leaves when its last seat is taken or it ends (a seat never opens again, so leaving is final,
and a reader that finds an entry that is no open table may drop it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from service.store.autopipe import AutoPipeline
from service.store.keys import StoreKeys
from service.store.redis_log import text

_RELEASE_LEASE_LUA = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
)
_RELEASE_FIELD_LUA = (
    "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end "
    "return 0"
)
_CLAIM_LIVE_LUA = (
    "if redis.call('EXISTS', KEYS[1]) == 0 then return false end "
    "redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) return redis.call('HGET', KEYS[1], ARGV[1])"
)
SUMMARY_FIELDS = ("game", "created_ms", "status", "spectators")


def now_ms() -> int:
    return int(time.time() * 1000)


class DealIndexes:
    """Meta hashes and index sets in Redis. Writes go through the append pipeline (each is
    idempotent, so a resend is harmless); the reads every stream makes through the read one."""

    def __init__(self, redis: Any, keys: StoreKeys, *, appends: AutoPipeline, reads: AutoPipeline) -> None:
        self.redis = redis
        self.keys = keys
        self.appends = appends
        self.reads = reads

    # meta --------------------------------------------------------------------
    async def put_meta(
        self, deal_id: str, fields: dict[str, str], created_ms: int | None = None, *, public: bool = False
    ) -> None:
        """Write meta fields; with ``created_ms`` also list the deal in the index (and, with
        ``public``, in the index anyone may read).

        A ``status`` of ``over`` also lists the deal in the finished index, timed now
        (``mark_finished``): every path that ends a deal (its last command, ``dealstream
        import`` of a finished log) writes that status, so none can leave a deal in Redis for
        good. It is written after the status, so the archiver never finds a deal it lists
        without it."""
        if fields:
            flat = [part for item in fields.items() for part in item]
            await self.appends.call("HSET", self.keys.meta(deal_id), *flat)
        if created_ms is not None:
            await self.appends.call("ZADD", self.keys.index, created_ms, deal_id)
            if public:
                await self.appends.call("ZADD", self.keys.public_index, created_ms, deal_id)
        if fields.get("status") == "over":
            await self.mark_finished(deal_id, now_ms())
            await self.close_table(deal_id)

    async def meta_fields(self, deal_id: str, *names: str) -> list[str | None]:
        held = await self.redis.hmget(self.keys.meta(deal_id), *names)
        return [None if value is None else text(value) for value in held]

    async def get_meta(self, deal_id: str) -> dict[str, str]:
        raw = await self.redis.hgetall(self.keys.meta(deal_id))
        return {text(k): text(v) for k, v in raw.items()}

    async def drop_meta_field(self, deal_id: str, field: str) -> None:
        await self.redis.hdel(self.keys.meta(deal_id), field)

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """``HSETNX``, then the value held (a claim on a deal that has no meta makes the hash)."""
        await self.redis.hsetnx(self.keys.meta(deal_id), field, value)
        return (await self.meta_fields(deal_id, field, "game"))[0]

    async def claim_live_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """``claim_meta`` for a deal that may have left Redis: sets the field only while the
        meta hash exists (never makes a stray one after the archiver removed the deal) and
        answers the value held, or None when the deal is not in Redis (ask the archive)."""
        reply = await self.redis.eval(_CLAIM_LIVE_LUA, 1, self.keys.meta(deal_id), field, value)
        return None if reply is None else text(reply)

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        """Drop the field if it still holds ``value`` (undo a claim that won)."""
        await self.redis.eval(_RELEASE_FIELD_LUA, 1, self.keys.meta(deal_id), field, value)

    async def deal_summaries(self, deal_ids: Sequence[str]) -> list[dict[str, str]]:
        """game, created_ms, status and spectators of each deal, in one pipeline."""
        pipe = self.redis.pipeline(transaction=False)
        for deal_id in deal_ids:
            pipe.hmget(self.keys.meta(deal_id), *SUMMARY_FIELDS)
        rows = await pipe.execute() if deal_ids else []
        return [
            {n: text(v) for n, v in zip(SUMMARY_FIELDS, row, strict=True) if v is not None} for row in rows
        ]

    # the deal indexes ------------------------------------------------------------
    async def list_deals(
        self, offset: int = 0, count: int = 100, newest_first: bool = True, *, public: bool = False
    ) -> list[str]:
        """Deal ids by creation time; ``public``: only those in the index anyone may read."""
        fetch = self.redis.zrevrange if newest_first else self.redis.zrange
        ids = await fetch(self.keys.public_index if public else self.keys.index, offset, offset + count - 1)
        return [text(i) for i in ids]

    async def public_count(self) -> int:
        return await self.redis.zcard(self.keys.public_index)

    async def public_range(self, offset: int, count: int) -> list[tuple[int, str]]:
        """(created ms, deal id) of a slice of the public index, newest first."""
        if count <= 0:
            return []
        rows = await self.redis.zrevrange(self.keys.public_index, offset, offset + count - 1, withscores=True)
        return [(int(score), text(deal_id)) for deal_id, score in rows]

    async def public_rows(self, rows: list[tuple[int, str]]) -> tuple[list[str], list[dict[str, str]]]:
        """The ids and summaries of ``public_range`` rows; ``created_ms`` is the index's score
        where the meta lacks it (imported deals)."""
        ids = [deal_id for _created, deal_id in rows]
        metas = await self.deal_summaries(ids)
        for (created, _deal_id), meta in zip(rows, metas, strict=True):
            if "game" in meta:
                meta.setdefault("created_ms", str(created))
        return ids, metas

    # open tables (the lobby) -------------------------------------------------------------
    async def open_table(self, deal_id: str, created_ms: int) -> None:
        """List a lobby table with a free seat (at its creation, or the backfill)."""
        await self.appends.call("ZADD", self.keys.open_tables, created_ms, deal_id)

    async def close_table(self, deal_id: str) -> None:
        """Its last seat was taken, or it ended: the lobby no longer lists it."""
        await self.appends.call("ZREM", self.keys.open_tables, deal_id)

    async def open_tables(self, offset: int, count: int) -> list[str]:
        """Open tables' ids, newest first."""
        ids = await self.redis.zrevrange(self.keys.open_tables, offset, offset + count - 1)
        return [text(i) for i in ids]

    async def open_tables_built(self) -> bool:
        return bool(await self.redis.exists(self.keys.open_tables_built))

    async def mark_open_tables_built(self) -> None:
        await self.redis.set(self.keys.open_tables_built, "1")

    # finished deals (the archiver's work list) -------------------------------------
    async def mark_finished(self, deal_id: str, finished_ms: int) -> None:
        """List a finished deal for the archiver (the command side calls this when a deal ends;
        a second call keeps the first time)."""
        await self.appends.call("ZADD", self.keys.finished_index, "NX", finished_ms, deal_id)

    async def finished_before(
        self, cutoff_ms: int, offset: int = 0, count: int = 100
    ) -> list[tuple[str, int]]:
        """(deal id, finish time) of deals finished at or before ``cutoff_ms``, oldest first."""
        rows = await self.redis.zrangebyscore(
            self.keys.finished_index, "-inf", cutoff_ms, start=offset, num=count, withscores=True
        )
        return [(text(d), int(score)) for d, score in rows]

    async def oldest_finished(self) -> int | None:
        """The finish time (ms) of the oldest finished deal still in Redis (one ZRANGE of one
        entry: the archive backlog's metric reads it at each scrape); None when there is none."""
        rows = await self.redis.zrange(self.keys.finished_index, 0, 0, withscores=True)
        return int(rows[0][1]) if rows else None

    async def finished_count(self, cutoff_ms: int | None = None) -> int:
        return await self.redis.zcount(
            self.keys.finished_index, "-inf", "+inf" if cutoff_ms is None else cutoff_ms
        )

    async def forget_finished(self, deal_id: str) -> None:
        """Drop the index entries of a deal whose keys are gone (an archived deal's leftovers)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in (self.keys.index, self.keys.public_index, self.keys.finished_index, self.keys.open_tables):
            pipe.zrem(key, deal_id)
        await pipe.execute()

    # clocks (TB-2.5) ----------------------------------------------------------------
    async def schedule_clock(self, deal_id: str, at_ms: int) -> None:
        await self.appends.call("ZADD", self.keys.clocks, at_ms, deal_id)

    async def unschedule_clock(self, deal_id: str) -> None:
        await self.appends.call("ZREM", self.keys.clocks, deal_id)

    async def clocks_due(self, now_ms: int, count: int = 100) -> list[str]:
        """Deals whose next look is due at ``now_ms``, earliest first."""
        rows = await self.redis.zrangebyscore(self.keys.clocks, "-inf", now_ms, start=0, num=count)
        return [text(d) for d in rows]

    # presence -------------------------------------------------------------------------
    # which seats have a live stream now: ``<seat>:<stream>`` → until when (epoch ms), refreshed
    # by the process serving that stream; the key expires with its last stream
    async def touch_presence(self, deal_id: str, member: str, until_ms: int, ttl_ms: int) -> None:
        key = self.keys.presence(deal_id)
        await self.appends.call("HSET", key, member, until_ms)
        await self.appends.call("PEXPIRE", key, ttl_ms)

    async def drop_presence(self, deal_id: str, member: str) -> None:
        await self.appends.call("HDEL", self.keys.presence(deal_id), member)

    async def read_presence(self, deal_id: str) -> dict[str, int]:
        rows = await self.reads.call("HGETALL", self.keys.presence(deal_id))
        if isinstance(rows, dict):
            items = rows.items()
        else:  # a flat [field, value, …] reply
            items = zip(rows[::2], rows[1::2], strict=True)
        return {text(k): int(v) for k, v in items}

    # archive leases: keep two archivers off one deal -----------------------------------------
    async def take_archive_lease(self, deal_id: str, token: str, lease_ms: int) -> bool:
        return bool(await self.redis.set(self.keys.archive_lease(deal_id), token, nx=True, px=lease_ms))

    async def release_archive_lease(self, deal_id: str, token: str) -> None:
        await self.redis.eval(_RELEASE_LEASE_LUA, 1, self.keys.archive_lease(deal_id), token)
