"""The event store: one Redis stream per deal, conditional appends, a hash chain, live reads.

Works with any redis-py asyncio client (a real server, Redis Cluster, or fakeredis with Lua),
which is what lets one contract test base run against every backend.

``EventStore`` builds the parts and answers the few calls nearly every caller makes: ``append``,
``read`` and ``read_raw``, ``version`` and ``subscribe``. Everything else is asked of the part
that does it, which the store holds and bootstrap hands on (``Presence`` gets ``indexes``,
``Players`` gets ``players``):

- ``log``, a ``RedisLogRecorder`` (``service.store.redis_log``, interface ``service.store.log``):
  append, read, head and version, the part every log backend must honour; the import of
  verbatim records (``append_records``, ``restore_command_ids``); and the contract tests' two
  hooks, ``run_append`` (the append script on a malformed call) and ``remember`` (a planted head);
- ``indexes``, the ``DealIndexes`` (``service.store.deal_index``): writing deal meta, the deal,
  public, finished and clock indexes, presence and archive leases;
- ``players``, the ``PlayerIndex`` (``service.store.player_index``): each player's deals and
  matches by the digest of its player key, kept apart from every deal's keys;
- ``removal``, the ``DealRemoval`` (``service.store.handoff``): the archiver's snapshot and
  conditional removal, and deleting a deal;
- ``reader``, the ``RedisThenArchive`` (``service.store.reader``): every read that may meet a deal
  that left Redis (meta, heads, command results, the public list, ``archived``), the single place
  that knows to try Redis first and then the archive;
- ``keys``, the ``StoreKeys`` they share (a deal's stream key is also the channel the append
  script rings).

They share the store's two auto-pipelines.
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

    async def subscribe(
        self, deal_id: str, after_version: int = 0, block_ms: int = 5000
    ) -> AsyncIterator[StoredEvent]:
        """Yield every event after ``after_version`` as it is appended (``XREAD BLOCK``)."""
        async for batch in self.log.subscribe_batches(deal_id, after_version, block_ms):
            for record in batch:
                yield record
