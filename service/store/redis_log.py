"""The log recorder on Redis: one stream per deal, appended by one script (``append.lua``).

The script checks the expected version, the head hash and the command id before it writes
anything, so an append is all or nothing and safe to send twice; it keeps the head (version
and hash) and each command id's versions in the deal's ``cmds`` hash, and rings the stream's
channel. This module answers for Redis alone: a deal whose keys left Redis reads as no log
here, and ``service.store.reader`` decides whether to ask the archive.
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
from service.store.autopipe import AutoPipeline
from service.store.keys import StoreKeys
from service.store.log import (
    MAX_BATCH,
    AppendResult,
    LogRecorder,
    StreamHead,
    VersionConflict,
    command_ranges,
)

_APPEND_LUA = files("service.store").joinpath("append.lua").read_text()
_APPEND_SHA = hashlib.sha1(_APPEND_LUA.encode()).hexdigest()

_clock_second = -1
_clock_text = ""


def now_text(ns: int | None = None) -> str:
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


def version_of(entry_id: bytes | str) -> int:
    """A stream entry's version: the entry id is ``0-<version>``."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-", 1)[1])


def entry_record(fields: dict | list) -> bytes:
    """The record of a stream entry: redis-py gives the fields as a dict, a raw reply (the lean
    connections) as a flat [field, value, ...] list; a record is always its exact bytes."""
    if isinstance(fields, dict):
        return field_bytes(fields, b"e")
    for i in range(0, len(fields) - 1, 2):
        if fields[i] in (b"e", "e"):
            value = fields[i + 1]
            return value if isinstance(value, bytes) else value.encode()
    raise KeyError("e")


def field_bytes(fields: dict, name: bytes) -> bytes:
    value = fields.get(name)
    if value is None:
        value = fields[name.decode()]
    return value if isinstance(value, bytes) else value.encode()


def default_wait_replicas(redis: Any) -> int:
    """Replicas an append waits for unless told: 1 on Redis Cluster, where a failover must lose
    nothing acknowledged; 0 on one server."""
    return 1 if isinstance(redis, RedisCluster) else 0


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisLogRecorder(LogRecorder):
    """Deal logs as Redis streams. Keeps each deal's last known head (version, hash) so most
    appends chain onto it without a read first; a stale one only costs a conflict and a retry."""

    def __init__(
        self,
        redis: Any,
        keys: StoreKeys,
        *,
        appends: AutoPipeline | None = None,
        reads: AutoPipeline | None = None,
        head_cache_size: int = 4096,
    ) -> None:
        """``appends``/``reads``: the auto-pipelines to send through (shared with the other
        parts of a store, which closes them); without them the recorder makes and closes its own."""
        self.redis = redis
        self.keys = keys
        self._owned: list[AutoPipeline] = []
        if appends is None:
            appends = AutoPipeline(redis, resend=True, wait_replicas=default_wait_replicas(redis))
            self._owned.append(appends)
        if reads is None:
            reads = AutoPipeline(redis, resend=True)
            self._owned.append(reads)
        self.appends = appends
        self.reads = reads
        # deal -> (version, hash of the record at that version): saves a read before most appends
        self._heads: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._head_cache_size = head_cache_size

    def close(self) -> None:
        """Close the pipelines this recorder made itself (not the ones it was given)."""
        for pipeline in self._owned:
            pipeline.close()

    # writing ---------------------------------------------------------------
    async def append_encoded(
        self,
        deal_id: str,
        expected_version: int,
        payloads: Sequence[tuple[str, bytes]],
        command_id: str | None = None,
        command: bytes | None = None,
        recorded_ns: int | None = None,
        head_hash: str | None = None,
    ) -> AppendResult:
        """Raises ``VersionConflict`` (nothing written). A ``command_id`` seen before returns the
        versions of its first append and writes nothing. ``recorded_ns``: the time the batch is
        recorded at (default: now). One coroutine on the hot path."""
        if not payloads:
            raise ValueError("an append needs at least one event")
        if len(payloads) > MAX_BATCH:
            raise ValueError(f"a batch holds at most {MAX_BATCH} events")
        cached = self._heads.get(deal_id)  # the common case, without a read
        if cached is not None and cached[0] == expected_version:
            head = cached[1]
        elif head_hash:  # the caller's fold (another process appended last): the script checks it
            head = head_hash
        else:
            head = await self._head_hash(deal_id, expected_version)
        prev = head
        at = now_text(recorded_ns)
        records = []
        built = []
        first_command = msgspec.Raw(command) if command is not None else NO_COMMAND
        for offset, (type_name, data) in enumerate(payloads, start=1):
            record = StoredEvent(
                version=expected_version + offset,
                type=type_name,
                data=msgspec.Raw(data),
                prev=prev,
                recorded_at=at,
                command_id=command_id,
                command=first_command if offset == 1 else NO_COMMAND,
            )
            raw = encode_record(record)
            built.append(record)
            records.append(raw)
            prev = sha256(raw).hexdigest()
        keys_and_args = (
            self.keys.events(deal_id),
            self.keys.commands(deal_id),
            expected_version,
            command_id or "",
            head,
            prev,
            *records,
        )
        try:
            reply = await self.appends.call("EVALSHA", _APPEND_SHA, 2, *keys_and_args)
        except NoScriptError:  # first call on this server, or after SCRIPT FLUSH / a restart
            reply = await self.redis.eval(_APPEND_LUA, 2, *keys_and_args)
        if type(reply) is int:  # appended: the script answers with the last version alone
            self._heads[deal_id] = (reply, prev)
            if len(self._heads) > self._head_cache_size:
                self._heads.popitem(last=False)
            return AppendResult(
                expected_version + 1, reply, head_hash=prev, raws=tuple(records), records=tuple(built)
            )
        return self._refused(deal_id, expected_version, reply)

    async def append_records(self, deal_id: str, raws: Sequence[bytes]) -> AppendResult:
        if not raws:
            raise ValueError("an import needs at least one record")
        result = await self.run_append(deal_id, 0, GENESIS, record_hash(raws[-1]), list(raws), None)
        # after the records (a crash in between: an import run again finds the same log and
        # restores them then); never before, or a refused import would have written ids
        await self.restore_command_ids(deal_id, raws)
        return result

    async def restore_command_ids(self, deal_id: str, raws: Sequence[bytes]) -> int:
        ranges = command_ranges(raws)
        if ranges:
            fields = {f"c:{command_id}": f"{first}:{last}" for command_id, (first, last) in ranges.items()}
            await self.redis.hset(self.keys.commands(deal_id), mapping=fields)
        return len(ranges)

    async def run_append(
        self,
        deal_id: str,
        expected_version: int,
        head: str,
        new_head: str,
        records: list[bytes],
        command_id: str | None,
    ) -> AppendResult:
        """Run the append script on records as given, outside the pipeline (imports, and the
        contract test's malformed call)."""
        keys_and_args = (
            self.keys.events(deal_id),
            self.keys.commands(deal_id),
            expected_version,
            command_id or "",
            head,
            new_head,
            *records,
        )
        try:
            reply = await self.redis.evalsha(_APPEND_SHA, 2, *keys_and_args)
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
            self.remember(deal_id, actual, actual_head)
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
        stored_version, stored_head = await self.redis.hmget(self.keys.commands(deal_id), "v", "h")
        if stored_version is not None and int(stored_version) == version and stored_head:
            head = text(stored_head)
            self.remember(deal_id, version, head)
            return head
        # not at that version: the script answers with the command's first result or a conflict
        return ""

    def remember(self, deal_id: str, version: int, head_hash: str) -> None:
        """Take ``head_hash`` as the deal's head at ``version`` (what the next append chains onto)."""
        self._heads[deal_id] = (version, head_hash)
        self._heads.move_to_end(deal_id)
        while len(self._heads) > self._head_cache_size:
            self._heads.popitem(last=False)

    def forget(self, deal_id: str) -> None:
        self._heads.pop(deal_id, None)

    # heads and command ids ----------------------------------------------------
    async def command_lookup(
        self, deal_id: str, command_id: str
    ) -> tuple[tuple[int, int] | None, int | None]:
        seen, version = await self.redis.hmget(self.keys.commands(deal_id), f"c:{command_id}", "v")
        log_version = None if version is None else int(version)
        if seen is None:
            return None, log_version
        first, last = text(seen).split(":")
        return (int(first), int(last)), log_version

    async def head_hash(self, deal_id: str) -> str | None:
        value = await self.redis.hget(self.keys.commands(deal_id), "h")
        return None if value is None else text(value)

    async def heads(self, deal_ids: Sequence[str]) -> list[StreamHead | None]:
        if not deal_ids:
            return []
        replies = await asyncio.gather(
            *(self.reads.call("HMGET", self.keys.commands(deal_id), "v", "h") for deal_id in deal_ids)
        )
        return [
            None if version is None else StreamHead(int(version), text(hash_) if hash_ else "")
            for version, hash_ in replies
        ]

    async def has_logs(self, deal_ids: Sequence[str]) -> list[bool]:
        if not deal_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for deal_id in deal_ids:
            pipe.exists(self.keys.events(deal_id))
        return [bool(exists) for exists in await pipe.execute()]

    async def has_log(self, deal_id: str) -> bool:
        return bool(await self.redis.exists(self.keys.events(deal_id)))

    # reading ---------------------------------------------------------------
    async def version(self, deal_id: str) -> int:
        last = await self.redis.xrevrange(self.keys.events(deal_id), "+", "-", count=1)
        return version_of(last[0][0]) if last else 0

    async def read_raw(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[bytes]:
        start = f"0-{max(from_version, 1)}"
        end = "+" if to_version is None else f"0-{to_version}"
        entries = await self.reads.call("XRANGE", self.keys.events(deal_id), start, end)
        return [entry_record(fields) for _id, fields in entries]

    async def read_many_raw(
        self, after: Sequence[tuple[str, int]], count: int = MAX_BATCH
    ) -> list[list[bytes]]:
        """In one pipeline: what a stream reader fetches when several deals' doorbells rang."""
        if not after:
            return []
        calls = [
            self.reads.call("XRANGE", self.keys.events(deal_id), f"0-{version + 1}", "+", "COUNT", count)
            for deal_id, version in after
        ]
        return [[entry_record(fields) for _id, fields in entries] for entries in await asyncio.gather(*calls)]

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
        key = self.keys.events(deal_id)
        while True:
            reply = await self.redis.xread({key: f"0-{last}"}, block=block_ms, count=256)
            for _stream, entries in reply or ():
                batch = [decode_record(field_bytes(fields, b"e")) for _entry_id, fields in entries]
                if batch:
                    last = batch[-1].version
                    yield batch
