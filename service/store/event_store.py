"""The event store: one Redis stream per deal, conditional appends, a hash chain, live reads.

Works with any redis-py asyncio client (a real server, Redis Cluster, or fakeredis with Lua),
which is what lets one contract test base run against every backend.

``EventStore`` is the one object the service holds; it composes the parts, each small and on
its own for a reason:

- ``RedisLogRecorder`` (``service.store.redis_log``, interface ``service.store.log``): append,
  read, head and version, the part every log backend must honour;
- ``DealIndexes`` (``service.store.deal_index``): deal meta, the deal, public, finished and clock
  indexes, presence and archive leases;
- ``PlayerIndex`` (``service.store.player_index``): each player's deals and matches by the
  digest of its player key, kept apart from every deal's keys;
- ``DealRemoval`` (``service.store.handoff``): the archiver's snapshot and conditional removal;
- ``RedisThenArchive`` (``service.store.reader``): every read that may meet a deal that left
  Redis, the single place that knows to try Redis first and then the archive.

They share one key layout (``StoreKeys``) and the store's two auto-pipelines. The methods here
only pass calls on, so the public surface callers know stays as it was.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import msgspec

from domain.envelope import StoredEvent
from service.store.archive import Archive, ArchivedLogs
from service.store.autopipe import AutoPipeline
from service.store.deal_index import DealIndexes, now_ms
from service.store.handoff import DealRemoval
from service.store.keys import StoreKeys
from service.store.log import MAX_BATCH, AppendResult, StreamHead, VersionConflict, event_type_name
from service.store.player_index import PlayerIndex
from service.store.reader import RedisThenArchive
from service.store.redis_log import RedisLogRecorder, default_wait_replicas

__all__ = [
    "MAX_BATCH",
    "AppendResult",
    "EventStore",
    "StreamHead",
    "VersionConflict",
    "event_type_name",
    "now_ms",
]

_encode = msgspec.json.Encoder().encode


class EventStore:
    """Deal logs, meta and indexes in Redis, and (given one) the archive behind them."""

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
        if wait_replicas is None:
            wait_replicas = default_wait_replicas(redis)
        self.wait_replicas = wait_replicas
        # concurrent appends share a round trip; resending one is safe: the script checks the
        # expected version and the command id before it writes anything
        self._appends = AutoPipeline(redis, resend=True, wait_replicas=wait_replicas)
        # the reads every command, bot step and stream delivery makes (a log's tail, heads) go
        # the same lean way: redis-py's parsing of an XRANGE reply cost more CPU than the rest
        # of a bot step (bench.capacity's profile); a read is safe to send twice
        self._reads = AutoPipeline(redis, resend=True)
        self.keys = StoreKeys(prefix)
        self.log = RedisLogRecorder(
            redis, self.keys, appends=self._appends, reads=self._reads, head_cache_size=head_cache_size
        )
        self.indexes = DealIndexes(redis, self.keys, appends=self._appends, reads=self._reads)
        self.removal = DealRemoval(redis, self.keys, self.log, self.indexes)
        self.players = PlayerIndex(redis, self.keys, appends=self._appends)
        self.reader = RedisThenArchive(self.log, self.indexes, archive)

    @property
    def archived(self) -> ArchivedLogs | None:
        """The archive behind the reads (None: Redis alone)."""
        return self.reader.archived

    def close(self) -> None:
        """Close the store's own connections; the redis client stays the caller's."""
        self._appends.close()
        self._reads.close()

    @property
    def append_round_trips(self) -> tuple[int, int]:
        """(round trips, appends) the pipelined append path has made so far."""
        return self._appends.batches, self._appends.commands

    def observe_appends(self, observer: Any) -> None:
        """Report the append pipeline's round trips and latencies to ``observer`` (a
        ``service.metrics.Metrics``)."""
        self._appends.observer = observer

    # keys ------------------------------------------------------------------
    def events_key(self, deal_id: str) -> str:
        return self.keys.events(deal_id)

    def meta_key(self, deal_id: str) -> str:
        return self.keys.meta(deal_id)

    def commands_key(self, deal_id: str) -> str:
        return self.keys.commands(deal_id)

    def archive_lease_key(self, deal_id: str) -> str:
        return self.keys.archive_lease(deal_id)

    def channel(self, deal_id: str) -> str:
        """The pub/sub channel the append script rings after each append (the stream's key)."""
        return self.keys.events(deal_id)

    @property
    def index_key(self) -> str:
        return self.keys.index

    @property
    def public_index_key(self) -> str:
        """Deals anyone may find: finished ones, and live ones open to spectators."""
        return self.keys.public_index

    @property
    def finished_index_key(self) -> str:
        """Finished deals scored by their finish time (ms): what the archiver works from."""
        return self.keys.finished_index

    @property
    def clocks_key(self) -> str:
        """Live deals with a clock, scored by when to look at them next (ms, TB-2.5)."""
        return self.keys.clocks

    # the log ---------------------------------------------------------------------
    async def append(
        self,
        deal_id: str,
        expected_version: int,
        events: Sequence[msgspec.Struct],
        command_id: str | None = None,
        command: msgspec.Struct | None = None,
        recorded_ns: int | None = None,
        head_hash: str | None = None,
    ) -> AppendResult:
        """Append ``events`` as versions expected+1.. iff the log is at ``expected_version``.

        Raises ``VersionConflict`` (nothing written). A ``command_id`` seen before returns the
        versions of its first append and writes nothing. ``command`` (what produced the batch)
        is kept on the batch's first record. ``recorded_ns``: the time the batch is recorded
        at (default: now), so a caller that judged a deadline at that time records that time.
        ``head_hash``: the record at ``expected_version`` as the caller folded it (saves reading
        the head when another process appended last; the append script checks it).
        """
        payloads = [(event_type_name(e), _encode(e)) for e in events]
        encoded_command = _encode(command) if command is not None else None
        return await self.log.append_encoded(
            deal_id, expected_version, payloads, command_id, encoded_command, recorded_ns, head_hash
        )

    async def append_records(self, deal_id: str, raws: Sequence[bytes]) -> AppendResult:
        """Store already-encoded records verbatim (``dealstream import``); the log must be empty."""
        return await self.log.append_records(deal_id, raws)

    async def restore_command_ids(self, deal_id: str, raws: Sequence[bytes]) -> int:
        """The command ids of a log stored before (an import run again after a crash)."""
        return await self.log.restore_command_ids(deal_id, raws)

    async def _run_append(
        self,
        deal_id: str,
        expected_version: int,
        head: str,
        new_head: str,
        records: list[bytes],
        command_id: str | None,
    ) -> AppendResult:
        """The append script on records as given (the contract tests send it a malformed call)."""
        return await self.log.run_append(deal_id, expected_version, head, new_head, records, command_id)

    def _remember(self, deal_id: str, version: int, head_hash: str) -> None:
        """Set the cached head (the contract tests plant a wrong one)."""
        self.log.remember(deal_id, version, head_hash)

    async def version(self, deal_id: str) -> int:
        return await self.reader.version(deal_id)

    async def read_raw(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[bytes]:
        """Stored records exactly as written, versions ``from_version``..``to_version``."""
        return await self.reader.read_raw(deal_id, from_version, to_version)

    async def read(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        return await self.reader.read(deal_id, from_version, to_version)

    async def read_many_raw(
        self, after: Sequence[tuple[str, int]], count: int = MAX_BATCH
    ) -> list[list[bytes]]:
        """For each (deal, version): the records after that version (at most ``count``)."""
        return await self.reader.read_many_raw(after, count)

    async def head_hash(self, deal_id: str) -> str | None:
        """The hash of the last record as the append script recorded it (the audit's anchor)."""
        return await self.reader.head_hash(deal_id)

    async def heads(self, deal_ids: Sequence[str]) -> list[StreamHead | None]:
        """Each deal's recorded head in one pipeline (None: no log)."""
        return await self.reader.heads(deal_ids)

    async def command_result(self, deal_id: str, command_id: str) -> tuple[int, int] | None:
        """The versions a command id produced, if it was appended before."""
        return await self.reader.command_result(deal_id, command_id)

    async def command_at(self, deal_id: str, version: int) -> bytes | None:
        """The command stored on the record at ``version`` (the first record of its batch)."""
        return await self.reader.command_at(deal_id, version)

    async def subscribe(
        self, deal_id: str, after_version: int = 0, block_ms: int = 5000
    ) -> AsyncIterator[StoredEvent]:
        """Yield every event after ``after_version`` as it is appended (``XREAD BLOCK``)."""
        async for batch in self.log.subscribe_batches(deal_id, after_version, block_ms):
            for record in batch:
                yield record

    # meta and the deal list --------------------------------------------------------
    async def put_meta(
        self, deal_id: str, fields: dict[str, str], created_ms: int | None = None, *, public: bool = False
    ) -> None:
        """Write meta fields and list the deal (``DealIndexes.put_meta``)."""
        await self.indexes.put_meta(deal_id, fields, created_ms, public=public)

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """Set a meta field unless it is set; the value it holds afterwards (Redis or archive)."""
        return await self.reader.claim_meta(deal_id, field, value)

    async def claim_live_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """``claim_meta`` in Redis only while the deal's meta exists (None: not in Redis)."""
        return await self.indexes.claim_live_meta(deal_id, field, value)

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        """Undo a ``claim_meta`` that won, in Redis and in the archive."""
        await self.reader.release_meta(deal_id, field, value)

    async def meta_field(self, deal_id: str, field: str) -> str | None:
        return await self.reader.meta_field(deal_id, field)

    async def get_meta(self, deal_id: str) -> dict[str, str]:
        return await self.reader.get_meta(deal_id)

    async def list_deals(
        self, offset: int = 0, count: int = 100, newest_first: bool = True, *, public: bool = False
    ) -> list[str]:
        """Deal ids by creation time; ``public``: only those in the index anyone may read."""
        return await self.indexes.list_deals(offset, count, newest_first, public=public)

    async def public_deals(self, offset: int = 0, count: int = 100) -> tuple[list[str], list[dict[str, str]]]:
        """A page of the deals anyone may find, newest first, Redis's and the archive's merged."""
        return await self.reader.public_deals(offset, count)

    # open tables (the lobby's index) -------------------------------------------------------
    async def delete_deal(self, deal_id: str) -> None:
        """Remove a deal from Redis: its keys and every index entry."""
        await self.removal.delete_deal(deal_id)

    # clocks and presence -------------------------------------------------------------
    # the archive of finished deals (service/app/archive/archiver.py) -----------------------------
    async def mark_finished(self, deal_id: str, finished_ms: int) -> None:
        """List a finished deal for the archiver (a second call keeps the first time)."""
        await self.indexes.mark_finished(deal_id, finished_ms)

    async def finished_before(
        self, cutoff_ms: int, offset: int = 0, count: int = 100
    ) -> list[tuple[str, int]]:
        """(deal id, finish time) of deals finished at or before ``cutoff_ms``, oldest first."""
        return await self.indexes.finished_before(cutoff_ms, offset, count)

    async def finished_count(self, cutoff_ms: int | None = None) -> int:
        return await self.indexes.finished_count(cutoff_ms)

    async def archive_snapshot(
        self, deal_id: str
    ) -> tuple[list[bytes], dict[str, str], int | None, str | None]:
        """(records, meta, recorded version, recorded head hash) of one deal, in one round trip."""
        return await self.removal.archive_snapshot(deal_id)

    async def remove_archived(
        self,
        deal_id: str,
        lease_token: str,
        head_hash: str,
        count: int,
        meta: dict[str, str],
        chat_said: int = 0,
        watch_said: int = 0,
    ) -> int:
        """Delete the deal's keys iff it is still what was archived (``DealRemoval``): 0 removed,
        1 lease lost, 2 log changed, 3 meta changed, 4 chat (either room) said since its copy."""
        return await self.removal.remove_archived(
            deal_id, lease_token, head_hash, count, meta, chat_said, watch_said
        )
