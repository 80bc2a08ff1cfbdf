"""The event store: one Redis stream per deal, conditional appends, a hash chain, live reads.

Works with any redis-py asyncio client (a real server, Redis Cluster, or fakeredis with Lua),
which is what lets one contract test base run against every backend.

Given an archive (``service.store.archive``), the reads of a deal that is no longer in Redis
answer from the archive: the records byte for byte, the head hash, the meta, the version, a
command's first result. So every reader above (folds, the read side, reviews, the stream hub)
serves an archived deal as it served it before, and its checks that Redis did not lose data
see the archived records instead of nothing. "No longer in Redis" means the deal's key is
gone: a deal Redis holds is answered by Redis alone, so the hot path never asks the archive.

Why one file of over 350 lines: one class, so every read and write of a deal's keys shares one
key layout, one pipeline and one "Redis first, then the archive" rule; split, a read could
forget the archive.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from hashlib import sha256
from importlib.resources import files
from typing import Any

import msgspec
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from domain.envelope import GENESIS, NO_COMMAND, StoredEvent, decode_record, encode_record, record_hash
from service.store.archive import Archive, ArchivedLog, ArchivedLogs
from service.store.autopipe import AutoPipeline

MAX_BATCH = 512
_APPEND_LUA = files("service.store").joinpath("append.lua").read_text()


class VersionConflict(Exception):
    """The log moved on since the caller read it: re-fold and decide again, or answer 409."""

    def __init__(self, deal_id: str, expected: int, actual: int) -> None:
        super().__init__(f"deal {deal_id}: expected version {expected}, log is at {actual}")
        self.deal_id = deal_id
        self.expected = expected
        self.actual = actual


class AppendResult(msgspec.Struct, frozen=True):
    """Versions written (or, for a repeated command id, written the first time), and the hash
    of the record now at the head when this call wrote it (None for a repeated command id)."""

    first_version: int
    last_version: int
    duplicate: bool = False
    head_hash: str | None = None


class StreamHead(msgspec.Struct, frozen=True):
    """A deal's head as the append script recorded it: the version and the last record's hash."""

    version: int
    hash: str


_encode = msgspec.json.Encoder().encode


def event_type_name(event: msgspec.Struct) -> str:
    tag = type(event).__struct_config__.tag
    return tag if isinstance(tag, str) else type(event).__name__


_clock_second = -1
_clock_text = ""


def _now(ns: int | None = None) -> str:
    """UTC time as ISO 8601 with microseconds and a Z (what ``recorded_at`` holds): now, or the
    moment ``ns`` (nanoseconds since the epoch) a caller decided at.

    Formats the date and time once per second; appends run far more often than that.
    """
    global _clock_second, _clock_text
    ns = time.time_ns() if ns is None else ns
    second = ns // 1_000_000_000
    if second != _clock_second:
        _clock_second = second
        _clock_text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{_clock_text}.{ns // 1000 % 1_000_000:06d}Z"


def _version_of(entry_id: bytes | str) -> int:
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-", 1)[1])


def _entry_record(fields: dict | list) -> bytes:
    """The record of a stream entry: redis-py gives the fields as a dict, a raw reply (the lean
    connections) as a flat [field, value, ...] list; a record is always its exact bytes."""
    if isinstance(fields, dict):
        return _field(fields, b"e")
    for i in range(0, len(fields) - 1, 2):
        if fields[i] in (b"e", "e"):
            value = fields[i + 1]
            return value if isinstance(value, bytes) else value.encode()
    raise KeyError("e")


def _field(fields: dict, name: bytes) -> bytes:
    value = fields.get(name)
    if value is None:
        value = fields[name.decode()]
    return value if isinstance(value, bytes) else value.encode()


class EventStore:
    """Deal logs in Redis. Keys: ``<prefix>:{<deal>}:events|meta|cmds`` and the indexes
    ``<prefix>:deals``, ``<prefix>:deals:public`` and ``<prefix>:deals:finished``.

    Each index is one sorted set, so on Redis Cluster it lives on one node. That is on purpose:
    a command touches no index (only creating a deal and its end do: two to three ``ZADD`` in a
    deal's life, against the hundreds of appends that spread over the cluster by deal), and the
    indexes hold only the deals still in Redis, since the archiver removes a deal's entries with
    its keys; at 1,000 live tables and a 10-minute archive age that is some thousands of
    entries, not millions. One set also gives the deal list and the archiver an exact order and
    one ``ZRANGE`` per page; buckets would turn every page into a merge over all of them. If
    one node's share ever mattered, the finished index is the one to split (it is only read by
    the archiver, which could walk buckets in turn).
    """

    def __init__(
        self,
        redis: Any,
        prefix: str = "ds",
        head_cache_size: int = 4096,
        wait_replicas: int | None = None,
        *,
        archive: Archive | ArchivedLogs | None = None,
    ) -> None:
        """``wait_replicas``: an append is acknowledged once this many replicas have it (default:
        1 on Redis Cluster, where a failover must lose nothing acknowledged; 0 on one server).
        ``archive``: where the reads find a deal that left Redis (an ``ArchivedLogs`` to share
        its cache with another store on the same archive); the caller closes it."""
        self.redis = redis
        self.prefix = prefix
        if archive is not None and not isinstance(archive, ArchivedLogs):
            archive = ArchivedLogs(archive)
        self.archived: ArchivedLogs | None = archive
        self._append_sha = hashlib.sha1(_APPEND_LUA.encode()).hexdigest()
        # deal -> (version, hash of the record at that version): saves a read before most appends
        self._heads: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._head_cache_size = head_cache_size
        # concurrent appends share a round trip; resending one is safe: the script checks the
        # expected version and the command id before it writes anything
        if wait_replicas is None:
            wait_replicas = 1 if isinstance(redis, RedisCluster) else 0
        self.wait_replicas = wait_replicas
        self._appends = AutoPipeline(redis, resend=True, wait_replicas=wait_replicas)
        # the reads every command, bot step and stream delivery makes (a log's tail, heads) go
        # the same lean way: redis-py's parsing of an XRANGE reply cost more CPU than the rest
        # of a bot step (bench.capacity's profile); a read is safe to send twice
        self._reads = AutoPipeline(redis, resend=True)

    def close(self) -> None:
        """Close the store's own connections; the redis client stays the caller's."""
        self._appends.close()
        self._reads.close()

    @property
    def append_round_trips(self) -> tuple[int, int]:
        """(round trips, appends) the pipelined append path has made so far."""
        return self._appends.batches, self._appends.commands

    # keys ------------------------------------------------------------------
    def events_key(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:events"

    def meta_key(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:meta"

    def commands_key(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:cmds"

    @property
    def index_key(self) -> str:
        return f"{self.prefix}:deals"

    @property
    def public_index_key(self) -> str:
        """Deals anyone may find: finished ones, and live ones open to spectators."""
        return f"{self.prefix}:deals:public"

    # writing ---------------------------------------------------------------
    async def append(
        self,
        deal_id: str,
        expected_version: int,
        events: Sequence[msgspec.Struct],
        command_id: str | None = None,
        command: msgspec.Struct | None = None,
        recorded_ns: int | None = None,
    ) -> AppendResult:
        """Append ``events`` as versions expected+1.. iff the log is at ``expected_version``.

        Raises ``VersionConflict`` (nothing written). A ``command_id`` seen before returns the
        versions of its first append and writes nothing. ``command`` (what produced the batch)
        is kept on the batch's first record. ``recorded_ns``: the time the batch is recorded
        at (default: now), so a caller that judged a deadline at that time records that time.
        """
        payloads = [(event_type_name(e), _encode(e)) for e in events]
        encoded_command = _encode(command) if command is not None else None
        return await self.append_encoded(
            deal_id, expected_version, payloads, command_id, encoded_command, recorded_ns
        )

    async def append_encoded(
        self,
        deal_id: str,
        expected_version: int,
        payloads: Sequence[tuple[str, bytes]],
        command_id: str | None = None,
        command: bytes | None = None,
        recorded_ns: int | None = None,
    ) -> AppendResult:
        """``append`` for events already encoded as (type, JSON). One coroutine on the hot path."""
        if not payloads:
            raise ValueError("an append needs at least one event")
        if len(payloads) > MAX_BATCH:
            raise ValueError(f"a batch holds at most {MAX_BATCH} events")
        cached = self._heads.get(deal_id)  # the common case, without a read
        if cached is not None and cached[0] == expected_version:
            head = cached[1]
        else:
            head = await self._head_hash(deal_id, expected_version)
        prev = head
        at = _now(recorded_ns)
        records = []
        first_command = msgspec.Raw(command) if command is not None else NO_COMMAND
        for offset, (type_name, data) in enumerate(payloads, start=1):
            raw = encode_record(
                StoredEvent(
                    version=expected_version + offset,
                    type=type_name,
                    data=msgspec.Raw(data),
                    prev=prev,
                    recorded_at=at,
                    command_id=command_id,
                    command=first_command if offset == 1 else NO_COMMAND,
                )
            )
            records.append(raw)
            prev = sha256(raw).hexdigest()
        keys_and_args = (
            f"{self.prefix}:{{{deal_id}}}:events",
            f"{self.prefix}:{{{deal_id}}}:cmds",
            expected_version,
            command_id or "",
            head,
            prev,
            *records,
        )
        try:
            reply = await self._appends.call("EVALSHA", self._append_sha, 2, *keys_and_args)
        except NoScriptError:  # first call on this server, or after SCRIPT FLUSH / a restart
            reply = await self.redis.eval(_APPEND_LUA, 2, *keys_and_args)
        if type(reply) is int:  # appended: the script answers with the last version alone
            self._heads[deal_id] = (reply, prev)
            if len(self._heads) > self._head_cache_size:
                self._heads.popitem(last=False)
            return AppendResult(expected_version + 1, reply, head_hash=prev)
        return self._refused(deal_id, expected_version, reply)

    async def append_records(self, deal_id: str, raws: Sequence[bytes]) -> AppendResult:
        """Store already-encoded records verbatim (``dealstream import``); the log must be empty."""
        if not raws:
            raise ValueError("an import needs at least one record")
        return await self._run_append(deal_id, 0, GENESIS, record_hash(raws[-1]), list(raws), None)

    async def _run_append(
        self,
        deal_id: str,
        expected_version: int,
        head: str,
        new_head: str,
        records: list[bytes],
        command_id: str | None,
    ) -> AppendResult:
        keys_and_args = (
            self.events_key(deal_id),
            self.commands_key(deal_id),
            expected_version,
            command_id or "",
            head,
            new_head,
            *records,
        )
        try:
            reply = await self.redis.evalsha(self._append_sha, 2, *keys_and_args)
        except NoScriptError:
            reply = await self.redis.eval(_APPEND_LUA, 2, *keys_and_args)
        if type(reply) is int:
            return AppendResult(expected_version + 1, reply, head_hash=new_head)
        return self._refused(deal_id, expected_version, reply)

    def _refused(self, deal_id: str, expected_version: int, reply: list) -> AppendResult:
        """Turn the script's other answers into a duplicate result or an exception."""
        status = int(reply[0])
        if status == 1:
            return AppendResult(int(reply[1]), int(reply[2]), duplicate=True)
        if status == 2:
            actual = int(reply[1])
            actual_head = reply[2].decode() if isinstance(reply[2], bytes) else str(reply[2])
            self._remember(deal_id, actual, actual_head)
            raise VersionConflict(deal_id, expected_version, actual)
        message = reply[1].decode() if isinstance(reply[1], bytes) else str(reply[1])
        raise ValueError(f"append refused: {message}")

    async def _head_hash(self, deal_id: str, version: int) -> str:
        """The hash a batch appended at ``version`` chains onto ('' if the log is not there)."""
        if version == 0:
            return GENESIS
        cached = self._heads.get(deal_id)
        if cached is not None and cached[0] == version:
            self._heads.move_to_end(deal_id)
            return cached[1]
        stored_version, stored_head = await self.redis.hmget(self.commands_key(deal_id), "v", "h")
        if stored_version is not None and int(stored_version) == version and stored_head:
            head = stored_head.decode() if isinstance(stored_head, bytes) else stored_head
            self._remember(deal_id, version, head)
            return head
        # not at that version: the script answers with the command's first result or a conflict
        return ""

    def _remember(self, deal_id: str, version: int, head_hash: str) -> None:
        self._heads[deal_id] = (version, head_hash)
        self._heads.move_to_end(deal_id)
        while len(self._heads) > self._head_cache_size:
            self._heads.popitem(last=False)

    def _forget(self, deal_id: str) -> None:
        self._heads.pop(deal_id, None)

    async def command_result(self, deal_id: str, command_id: str) -> tuple[int, int] | None:
        """The versions a command id produced, if it was appended before."""
        seen, version = await self.redis.hmget(self.commands_key(deal_id), f"c:{command_id}", "v")
        if seen is None:
            if version is None and self.archived is not None:  # not in Redis: archived?
                return await self._archived_command(deal_id, command_id)
            return None
        first, last = (seen.decode() if isinstance(seen, bytes) else seen).split(":")
        return int(first), int(last)

    async def head_hash(self, deal_id: str) -> str | None:
        """The hash of the last record as the append script recorded it (the audit's anchor)."""
        value = await self.redis.hget(self.commands_key(deal_id), "h")
        if value is None:
            log = await self._archived_log(deal_id)
            return None if log is None else log.head_hash
        return value.decode() if isinstance(value, bytes) else value

    async def heads(self, deal_ids: Sequence[str]) -> list[StreamHead | None]:
        """Each deal's recorded head in one pipeline (None: no log), for the stream readers'
        periodic check that nothing was missed and that the log did not move backwards."""
        if not deal_ids:
            return []
        replies = await asyncio.gather(
            *(self._reads.call("HMGET", self.commands_key(deal_id), "v", "h") for deal_id in deal_ids)
        )
        heads: list[StreamHead | None] = []
        for deal_id, (version, hash_) in zip(deal_ids, replies, strict=True):
            if version is None:  # not in Redis: an archived deal's head is the archived one
                log = await self._archived_log(deal_id)
                heads.append(None if log is None else StreamHead(len(log.records), log.head_hash))
                continue
            text = hash_.decode() if isinstance(hash_, bytes) else (hash_ or "")
            heads.append(StreamHead(int(version), text))
        return heads

    async def command_at(self, deal_id: str, version: int) -> bytes | None:
        """The command stored on the record at ``version`` (the first record of its batch)."""
        raws = await self.read_raw(deal_id, version, version)
        if not raws:
            return None
        command = decode_record(raws[0]).command
        return bytes(command) if command else None

    # reading ---------------------------------------------------------------
    async def version(self, deal_id: str) -> int:
        last = await self.redis.xrevrange(self.events_key(deal_id), "+", "-", count=1)
        if not last:
            log = await self._archived_log(deal_id)
            return 0 if log is None else len(log.records)
        return _version_of(last[0][0])

    async def read_raw(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[bytes]:
        """Stored records exactly as written, versions ``from_version``..``to_version``."""
        start = f"0-{max(from_version, 1)}"
        end = "+" if to_version is None else f"0-{to_version}"
        key = self.events_key(deal_id)
        entries = await self._reads.call("XRANGE", key, start, end)
        if not entries and self.archived is not None and not await self.redis.exists(key):
            log = await self._archived_log(deal_id)
            return [] if log is None else _versions(log.records, from_version, to_version)
        return [_entry_record(fields) for _id, fields in entries]

    async def read(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        return [decode_record(raw) for raw in await self.read_raw(deal_id, from_version, to_version)]

    async def read_many_raw(
        self, after: Sequence[tuple[str, int]], count: int = MAX_BATCH
    ) -> list[list[bytes]]:
        """For each (deal, version): the records after that version (at most ``count``), in one
        pipeline: what a stream reader fetches when several deals' doorbells rang at once."""
        if not after:
            return []
        calls = [
            self._reads.call("XRANGE", self.events_key(deal_id), f"0-{version + 1}", "+", "COUNT", count)
            for deal_id, version in after
        ]
        replies = [
            [_entry_record(fields) for _id, fields in entries] for entries in await asyncio.gather(*calls)
        ]
        empty = [i for i, raws in enumerate(replies) if not raws]
        if empty and self.archived is not None:  # caught up, or no longer in Redis?
            pipe = self.redis.pipeline(transaction=False)
            for i in empty:
                pipe.exists(self.events_key(after[i][0]))
            for i, exists in zip(empty, await pipe.execute(), strict=True):
                if not exists:
                    deal_id, version = after[i]
                    log = await self._archived_log(deal_id)
                    if log is not None:
                        replies[i] = log.records[version : version + count]
        return replies

    def channel(self, deal_id: str) -> str:
        """The pub/sub channel the append script rings after each append (the stream's key)."""
        return self.events_key(deal_id)

    async def subscribe_batches(
        self, deal_id: str, after_version: int = 0, block_ms: int = 5000
    ) -> AsyncIterator[list[StoredEvent]]:
        """Yield the events after ``after_version`` as they are appended, one list per read.

        Blocks in ``XREAD BLOCK`` on a connection of its own, so it suits tools and tests that
        follow one deal; the service's streams go through ``service.streams.StreamHub``, which
        holds no connection per subscriber. The client's socket timeout must exceed
        ``block_ms``. Runs until the caller stops iterating.
        """
        last = after_version
        key = self.events_key(deal_id)
        while True:
            reply = await self.redis.xread({key: f"0-{last}"}, block=block_ms, count=256)
            for _stream, entries in reply or ():
                batch = [decode_record(_field(fields, b"e")) for _entry_id, fields in entries]
                if batch:
                    last = batch[-1].version
                    yield batch

    async def subscribe(
        self, deal_id: str, after_version: int = 0, block_ms: int = 5000
    ) -> AsyncIterator[StoredEvent]:
        """Yield every event after ``after_version`` as it is appended (``XREAD BLOCK``)."""
        async for batch in self.subscribe_batches(deal_id, after_version, block_ms):
            for record in batch:
                yield record

    # deal meta and index -----------------------------------------------------
    async def put_meta(
        self,
        deal_id: str,
        fields: dict[str, str],
        created_ms: int | None = None,
        *,
        public: bool = False,
    ) -> None:
        """Write meta fields; with ``created_ms`` also list the deal in the index (and, with
        ``public``, in the index anyone may read).

        A ``status`` of ``over`` also lists the deal in the finished index, timed now
        (``mark_finished``): every path that ends a deal (its last command, ``dealstream
        import`` of a finished log) writes that status, so none can leave a deal in Redis for
        good. It is written after the status, so the archiver never finds a deal it lists
        without it."""
        # through the append pipeline: every write is idempotent, so a resend is harmless
        if fields:
            flat = [part for item in fields.items() for part in item]
            await self._appends.call("HSET", self.meta_key(deal_id), *flat)
        if created_ms is not None:
            await self._appends.call("ZADD", self.index_key, created_ms, deal_id)
            if public:
                await self._appends.call("ZADD", self.public_index_key, created_ms, deal_id)
        if fields.get("status") == "over":
            await self.mark_finished(deal_id, now_ms())

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """Set a meta field unless it is set (``HSETNX``): the value it holds afterwards, so the
        caller whose value it is knows it won. With an archive, a deal no longer in Redis is
        claimed in the archive (and one in Redis only while its meta hash exists, so a claim
        never leaves a stray hash behind the archiver; a claim between its copy and its
        removal makes the removal refuse, and the next copy carries the field)."""
        if self.archived is None:
            await self.redis.hsetnx(self.meta_key(deal_id), field, value)
            return await self.meta_field(deal_id, field)
        held = await self.claim_live_meta(deal_id, field, value)
        if held is not None:
            return held
        return await self.archived.claim_meta(deal_id, field, value)

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        """Undo a ``claim_meta`` that won (the deal it was for was not made): drop the field
        wherever it holds ``value``, in Redis and in the archive (the deal may have been archived
        in between, the field with it)."""
        await self.redis.eval(_RELEASE_FIELD_LUA, 1, self.meta_key(deal_id), field, value)
        if self.archived is not None:
            await self.archived.release_meta(deal_id, field, value)

    async def meta_field(self, deal_id: str, field: str) -> str | None:
        held, game = await self.redis.hmget(self.meta_key(deal_id), field, "game")
        if held is None and game is None and self.archived is not None:  # not in Redis
            meta = await self.archived.meta(deal_id)
            return None if meta is None else meta.get(field)
        return held.decode() if isinstance(held, bytes) else held

    async def drop_meta_field(self, deal_id: str, field: str) -> None:
        await self.redis.hdel(self.meta_key(deal_id), field)

    async def get_meta(self, deal_id: str) -> dict[str, str]:
        raw = await self.redis.hgetall(self.meta_key(deal_id))
        if not raw and self.archived is not None:
            return await self.archived.meta(deal_id) or {}
        return {
            (k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
            for k, v in raw.items()
        }

    async def list_deals(
        self, offset: int = 0, count: int = 100, newest_first: bool = True, *, public: bool = False
    ) -> list[str]:
        """Deal ids by creation time; ``public``: only those in the index anyone may read."""
        fetch = self.redis.zrevrange if newest_first else self.redis.zrange
        ids = await fetch(self.public_index_key if public else self.index_key, offset, offset + count - 1)
        return [i.decode() if isinstance(i, bytes) else i for i in ids]

    async def deal_summaries(self, deal_ids: Sequence[str]) -> list[dict[str, str]]:
        """game, created_ms, status and spectators of each deal, in one pipeline."""
        names = ("game", "created_ms", "status", "spectators")
        pipe = self.redis.pipeline(transaction=False)
        for deal_id in deal_ids:
            pipe.hmget(self.meta_key(deal_id), *names)
        rows = await pipe.execute() if deal_ids else []
        return [
            {
                n: (v.decode() if isinstance(v, bytes) else v)
                for n, v in zip(names, row, strict=True)
                if v is not None
            }
            for row in rows
        ]

    async def public_deals(self, offset: int = 0, count: int = 100) -> tuple[list[str], list[dict[str, str]]]:
        """A page of the deals anyone may find, newest first by (creation time, deal id): the
        public index in Redis and, with an archive, every archived deal (each finished, and a
        finished deal is public), merged; ids with their ``deal_summaries`` rows.

        The page is found without reading what comes before it from both sides: a binary search
        over how many of the first ``offset`` deals come from Redis, each step one ``ZREVRANGE``
        of one entry and one archive row (the Redis index holds only deals still in Redis, so a
        few steps). A deal in both (copied, not yet removed) is shown once; while it is in both
        it counts twice before ``offset``, so a page may then repeat one row of the page before.
        A row's ``created_ms`` is the index's score where the meta lacks it (imported deals)."""
        count = max(0, count)
        if self.archived is None:
            redis_rows = await self._public_range(offset, count)
            return await self._redis_rows(redis_rows)
        archived = self.archived
        total = await self.redis.zcard(self.public_index_key)

        async def redis_at(i: int) -> tuple[int, str] | None:
            rows = await self._public_range(i, 1)
            return rows[0] if rows else None

        async def archive_at(j: int) -> tuple[int, str] | None:
            rows = await archived.list(j, 1)
            return (rows[0].created_ms, rows[0].deal_id) if rows else None

        # the smallest i such that Redis's i-th deal does not come before the archive's
        # (offset - i - 1)-th: then the first ``offset`` deals are Redis's first i and the
        # archive's first offset - i (ties: Redis first, so a deal in both is adjacent)
        lo, hi = 0, min(offset, total)
        while lo < hi:
            mid = (lo + hi) // 2
            ours, theirs = await asyncio.gather(redis_at(mid), archive_at(offset - mid - 1))
            if ours is not None and (theirs is None or ours >= theirs):
                lo = mid + 1
            else:
                hi = mid
        spare = 8  # rows a deal in both sides takes twice
        redis_rows, archive_rows = await asyncio.gather(
            self._public_range(lo, count + spare), archived.list(offset - lo, count + spare)
        )
        ids, metas = await self._redis_rows(redis_rows)
        merged: list[tuple[tuple[int, str, int], str, dict[str, str]]] = [
            ((created, deal_id, 1), deal_id, meta)
            for (created, deal_id), meta in zip(redis_rows, metas, strict=True)
        ]
        merged += [
            (
                (row.created_ms, row.deal_id, 0),
                row.deal_id,
                {
                    "game": row.game,
                    "created_ms": str(row.created_ms),
                    "status": "over",
                    "spectators": "1" if row.spectators else "0",
                },
            )  # fmt: skip
            for row in archive_rows
        ]
        merged.sort(key=lambda item: item[0], reverse=True)
        page_ids: list[str] = []
        page_metas: list[dict[str, str]] = []
        for _key, deal_id, meta in merged:
            if page_ids and page_ids[-1] == deal_id:  # in both: Redis's row unless its keys are gone
                if "game" not in page_metas[-1]:
                    page_metas[-1] = meta
                continue
            if len(page_ids) == count:
                break
            page_ids.append(deal_id)
            page_metas.append(meta)
        return page_ids, page_metas

    async def _public_range(self, offset: int, count: int) -> list[tuple[int, str]]:
        if count <= 0:
            return []
        rows = await self.redis.zrevrange(self.public_index_key, offset, offset + count - 1, withscores=True)
        return [(int(score), _text(deal_id)) for deal_id, score in rows]

    async def _redis_rows(self, rows: list[tuple[int, str]]) -> tuple[list[str], list[dict[str, str]]]:
        ids = [deal_id for _created, deal_id in rows]
        metas = await self.deal_summaries(ids)
        for (created, _deal_id), meta in zip(rows, metas, strict=True):
            if "game" in meta:
                meta.setdefault("created_ms", str(created))
        return ids, metas

    async def delete_deal(self, deal_id: str) -> None:
        """Remove a deal from Redis: its keys and every index entry (the finished index too, so
        the archiver does not look for it)."""
        await self.redis.delete(
            self.events_key(deal_id), self.meta_key(deal_id), self.commands_key(deal_id),
            self.archive_lease_key(deal_id),
        )  # fmt: skip
        await self.forget_finished(deal_id)
        self._forget(deal_id)

    # --- archive of finished deals (issue 17; service/app/archiver.py) --------------------------
    # The finished index says which deals may leave Redis and since when; a lease keeps two
    # archivers off one deal; the removal script deletes a deal only while it is still exactly
    # what the archive holds.
    @property
    def finished_index_key(self) -> str:
        """Finished deals scored by their finish time (ms): what the archiver works from."""
        return f"{self.prefix}:deals:finished"

    @property
    def clocks_key(self) -> str:
        """Live deals with a clock, scored by when to look at them next (ms): the deals' next
        deadlines, read by every process's clock keeper (TB-2.5)."""
        return f"{self.prefix}:deals:clocks"

    async def schedule_clock(self, deal_id: str, at_ms: int) -> None:
        await self._appends.call("ZADD", self.clocks_key, at_ms, deal_id)

    async def unschedule_clock(self, deal_id: str) -> None:
        await self._appends.call("ZREM", self.clocks_key, deal_id)

    async def clocks_due(self, now_ms: int, count: int = 100) -> list[str]:
        """Deals whose next look is due at ``now_ms``, earliest first."""
        rows = await self.redis.zrangebyscore(self.clocks_key, "-inf", now_ms, start=0, num=count)
        return [d.decode() if isinstance(d, bytes) else d for d in rows]

    def presence_key(self, deal_id: str) -> str:
        """Which seats have a live stream now: ``<seat>:<stream>`` → until when (epoch ms),
        refreshed by the process serving that stream; the key expires with its last stream."""
        return f"{self.prefix}:{{{deal_id}}}:presence"

    async def touch_presence(self, deal_id: str, member: str, until_ms: int, ttl_ms: int) -> None:
        key = self.presence_key(deal_id)
        await self._appends.call("HSET", key, member, until_ms)
        await self._appends.call("PEXPIRE", key, ttl_ms)

    async def drop_presence(self, deal_id: str, member: str) -> None:
        await self._appends.call("HDEL", self.presence_key(deal_id), member)

    async def read_presence(self, deal_id: str) -> dict[str, int]:
        rows = await self._reads.call("HGETALL", self.presence_key(deal_id))
        if isinstance(rows, dict):
            items = rows.items()
        else:  # a flat [field, value, …] reply
            items = zip(rows[::2], rows[1::2], strict=True)
        return {(k.decode() if isinstance(k, bytes) else k): int(v) for k, v in items}

    def archive_lease_key(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:archiving"

    async def mark_finished(self, deal_id: str, finished_ms: int) -> None:
        """List a finished deal for the archiver (the command side calls this when a deal ends;
        a second call keeps the first time)."""
        await self._appends.call("ZADD", self.finished_index_key, "NX", finished_ms, deal_id)

    async def finished_before(
        self, cutoff_ms: int, offset: int = 0, count: int = 100
    ) -> list[tuple[str, int]]:
        """(deal id, finish time) of deals finished at or before ``cutoff_ms``, oldest first."""
        rows = await self.redis.zrangebyscore(
            self.finished_index_key, "-inf", cutoff_ms, start=offset, num=count, withscores=True
        )
        return [(d.decode() if isinstance(d, bytes) else d, int(score)) for d, score in rows]

    async def finished_count(self, cutoff_ms: int | None = None) -> int:
        return await self.redis.zcount(
            self.finished_index_key, "-inf", "+inf" if cutoff_ms is None else cutoff_ms
        )

    async def take_archive_lease(self, deal_id: str, token: str, lease_ms: int) -> bool:
        return bool(await self.redis.set(self.archive_lease_key(deal_id), token, nx=True, px=lease_ms))

    async def release_archive_lease(self, deal_id: str, token: str) -> None:
        await self.redis.eval(_RELEASE_LEASE_LUA, 1, self.archive_lease_key(deal_id), token)

    async def archive_snapshot(
        self, deal_id: str
    ) -> tuple[list[bytes], dict[str, str], int | None, str | None]:
        """(records, meta, recorded version, recorded head hash) of one deal, in one round trip.
        Not a transaction (a cluster client pipelines without one): the archiver checks the
        four agree, and the removal script checks them again before it deletes anything."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.events_key(deal_id), "-", "+")
        pipe.hgetall(self.meta_key(deal_id))
        pipe.hmget(self.commands_key(deal_id), "v", "h")
        entries, meta, (version, head) = await pipe.execute()
        records = [_field(fields, b"e") for _id, fields in entries]
        text = {_text(k): _text(v) for k, v in meta.items()}
        return records, text, None if version is None else int(version), None if head is None else _text(head)

    async def remove_archived(
        self, deal_id: str, lease_token: str, head_hash: str, count: int, meta: dict[str, str]
    ) -> int:
        """Delete the deal's keys and index entries iff the lease is ``lease_token``'s and the
        log and meta are still the archived ones. 0 removed, 1 lease lost, 2 log changed,
        3 meta changed (``remove_archived.lua``); nothing is written unless 0.

        On one server the index entries go in the same script. On Redis Cluster the indexes
        live in other slots, so the script deletes the deal's own keys and the entries follow
        (a crash in between leaves entries that the archiver's next round drops)."""
        from redis.asyncio.cluster import RedisCluster

        on_cluster = isinstance(self.redis, RedisCluster)
        keys = [self.events_key(deal_id), self.meta_key(deal_id), self.commands_key(deal_id)]
        keys.append(self.archive_lease_key(deal_id))
        if not on_cluster:
            keys += [self.index_key, self.public_index_key, self.finished_index_key]
        args = (lease_token, deal_id, head_hash, count, *(part for item in meta.items() for part in item))
        try:
            answer = int(await self.redis.evalsha(_REMOVE_SHA, len(keys), *keys, *args))
        except NoScriptError:
            answer = int(await self.redis.eval(_REMOVE_LUA, len(keys), *keys, *args))
        if answer == 0:
            self._forget(deal_id)
            if on_cluster:
                await self.forget_finished(deal_id)
        return answer

    async def forget_finished(self, deal_id: str) -> None:
        """Drop the index entries of a deal whose keys are gone (an archived deal's leftovers)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in (self.index_key, self.public_index_key, self.finished_index_key):
            pipe.zrem(key, deal_id)
        await pipe.execute()

    # --- reads of deals that left Redis ---------------------------------------------------
    async def _archived_log(self, deal_id: str) -> ArchivedLog | None:
        """The archived log of a deal Redis does not hold (callers checked that), if archived."""
        return None if self.archived is None else await self.archived.log(deal_id)

    async def _archived_command(self, deal_id: str, command_id: str) -> tuple[int, int] | None:
        """The versions ``command_id`` produced in an archived log (what ``cmds`` said)."""
        log = await self._archived_log(deal_id)
        if log is None:
            return None
        versions = [r.version for r in map(decode_record, log.records) if r.command_id == command_id]
        return (versions[0], versions[-1]) if versions else None

    async def claim_live_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """``claim_meta`` for a deal that may have left Redis: sets the field only while the
        meta hash exists (never makes a stray one after the archiver removed the deal) and
        answers the value held, or None when the deal is not in Redis (ask the archive)."""
        reply = await self.redis.eval(_CLAIM_LIVE_LUA, 1, self.meta_key(deal_id), field, value)
        return None if reply is None else _text(reply)


_REMOVE_LUA = files("service.store").joinpath("remove_archived.lua").read_text()
_REMOVE_SHA = hashlib.sha1(_REMOVE_LUA.encode()).hexdigest()
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


def _versions(records: list[bytes], from_version: int, to_version: int | None) -> list[bytes]:
    """Versions ``from_version``..``to_version`` of a whole log (version n is the n-th record)."""
    start = max(from_version, 1) - 1
    return records[start:] if to_version is None else records[start : max(start, to_version)]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def now_ms() -> int:
    return int(time.time() * 1000)
