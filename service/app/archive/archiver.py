"""The archiver: moves deals finished a while ago from Redis to the archive, losing nothing.

For each deal in the finished index (``DealIndexes.mark_finished``) older than ``older_than``:

1. take the deal's lease in Redis (``SET NX PX``), so two archivers (two service processes, or
   a service and ``dealstream archive``) never work on one deal at once;
2. read the records, meta and head hash in one MULTI/EXEC, check the chain, and copy them to
   the archive (``Archive.put``: a no-op when the archive holds them already);
3. read the copy back from the archive and check it byte for byte against Redis: the same
   records, the chain verifies, the last record's hash is the recorded head hash; the deal's
   chat (never part of its log) is copied beside it and checked the same way;
4. only then remove the deal's keys and index entries from Redis, with a script that first
   checks that the lease is still ours and the log and meta are still the ones archived, so a
   deal that changed in between stays in Redis (and is copied again next round).

A crash between any two steps loses nothing: until step 4 the deal is whole in Redis; step 4 is
one script; the archive put is one transaction and a repeated put of the same deal is a no-op,
so the deal is archived once however often a step is run again. A lease left by a dead archiver
expires after ``lease_ms``.

``DEALSTREAM_ARCHIVER_CRASH_AFTER=<step>:<n>`` (tests only) makes the process kill itself with
SIGKILL right after ``<step>`` (``leased``, ``copied``, ``verified``, ``removed``) of its n-th deal.
"""

from __future__ import annotations

import asyncio
import calendar
import logging
import os
import secrets
import signal
import time
from collections.abc import Callable
from typing import Any

import msgspec

from domain.envelope import record_hash, verify_chain
from service.app.cancellation import raise_if_cancelled
from service.app.chat import WATCH_SUFFIX
from service.store.archive import Archive, ArchiveConflict, ArchivedDeal
from service.store.event_store import EventStore, now_ms

log = logging.getLogger("dealstream.archiver")

DEFAULT_OLDER_THAN_S = 600.0
DEFAULT_LEASE_MS = 60_000
CRASH_ENV = "DEALSTREAM_ARCHIVER_CRASH_AFTER"
STEPS = ("leased", "copied", "verified", "removed")
FINAL_EVENT = "SeedRevealed"  # every game's log ends with it (the shuffle's reveal)
MATCH_FINAL_EVENT = "MatchEnded"  # a match's log ends with its standings (TB-5.4)


class ArchiveCounts(msgspec.Struct):
    """What one round did. ``archived``: deals now only in the archive (``already`` of them were
    in the archive before this round: a crash or a lost lease earlier); ``leased``: another
    archiver holds them; ``changed``: Redis refused the removal (the deal changed after the
    copy; tried again next round); ``dangling``: index entries of deals whose keys were gone,
    dropped; ``failed``: errors, logged, the deal left in Redis."""

    due: int = 0
    archived: int = 0
    already: int = 0
    leased: int = 0
    changed: int = 0
    dangling: int = 0
    failed: int = 0
    seconds: float = 0.0

    @property
    def deals_per_s(self) -> float:
        return round(self.archived / self.seconds, 2) if self.seconds > 0 else 0.0


class NotArchivable(Exception):
    """The deal in Redis is not one the archive may take (not over, or its chain breaks)."""


class CopyMismatch(Exception):
    """The archive's copy does not match Redis: the deal stays in Redis."""


def _crash_point() -> tuple[str, int] | None:
    value = os.environ.get(CRASH_ENV)
    if not value:
        return None
    step, _, n = value.partition(":")
    if step not in STEPS:
        raise ValueError(f"{CRASH_ENV} names one of {', '.join(STEPS)}, not {step!r}")
    return step, int(n or "1")


class Archiver:
    """Copies finished deals from ``store`` (Redis) to ``archive``, then removes them from Redis.
    ``Archiver.of_matches`` does the same for the match logs (TB-5.1), whose log ends with
    ``MatchEnded`` instead of the shuffle's reveal."""

    def __init__(
        self,
        store: EventStore,
        archive: Archive,
        *,
        older_than: float = DEFAULT_OLDER_THAN_S,
        lease_ms: int = DEFAULT_LEASE_MS,
        concurrency: int = 4,
        page: int = 200,
        final_event: str = FINAL_EVENT,
        kind: str = "deal",
    ) -> None:
        self.store = store
        self.archive = archive
        self.final_event = final_event
        self.kind = kind  # what the log lines call one of them
        self.older_than = older_than
        self.lease_ms = lease_ms
        self.concurrency = max(1, concurrency)
        self.page = max(1, page)
        self._crash = _crash_point()
        self._started = 0  # deals this process began, for the crash point

    @classmethod
    def of_matches(cls, match_store: EventStore, archive: Archive, **options: Any) -> Archiver:
        """The archiver of the match logs: ``match_store`` is ``MatchLog.store``, ``archive`` the
        deals' archive (its ``matches()`` shelf is used)."""
        return cls(match_store, archive.matches(), final_event=MATCH_FINAL_EVENT, kind="match", **options)

    # one round ---------------------------------------------------------------------
    async def archive_once(self, progress: Callable[[int, int], None] | None = None) -> ArchiveCounts:
        """Archive every deal finished more than ``older_than`` seconds ago; ``progress(done,
        total)`` after each deal. Errors on one deal are logged and counted, never raised."""
        started = time.perf_counter()
        cutoff = now_ms() - int(self.older_than * 1000)
        counts = ArchiveCounts(due=await self.store.indexes.finished_count(cutoff))
        done = 0
        offset = 0  # deals of the index left in place so far: the next page starts after them
        gate = asyncio.Semaphore(self.concurrency)

        async def one(deal_id: str, finished_ms: int) -> str:
            async with gate:
                return await self._archive_one(deal_id, finished_ms)

        while True:
            page = await self.store.indexes.finished_before(cutoff, offset, self.page)
            if not page:
                break
            for outcome in await asyncio.gather(*(one(d, f) for d, f in page)):
                if outcome in ("archived", "already", "dangling"):
                    counts.archived += outcome != "dangling"
                    counts.already += outcome == "already"
                    counts.dangling += outcome == "dangling"
                else:
                    offset += 1
                    setattr(counts, outcome, getattr(counts, outcome) + 1)
                done += 1
                if progress is not None:
                    progress(done, max(done, counts.due))
        counts.due = max(counts.due, done)
        counts.seconds = round(time.perf_counter() - started, 3)
        return counts

    async def run(self, interval: float = 30.0) -> None:
        """``archive_once`` every ``interval`` seconds until cancelled (the service's background
        task); a failed round is logged and the next one runs as planned."""
        while True:
            try:
                counts = await self.archive_once()
                raise_if_cancelled()  # a client may swallow a cancellation and answer anyway
                if counts.archived or counts.failed or counts.changed or counts.dangling:
                    log.info("archive round (%s logs): %s", self.kind, msgspec.json.encode(counts).decode())
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the archiver must outlive any round's trouble
                raise_if_cancelled()  # a cancellation a client turned into an error of its own
                log.exception("archive round failed; trying again in %.0f s", interval)
            await asyncio.sleep(interval)

    # one deal ------------------------------------------------------------------------
    async def _archive_one(self, deal_id: str, finished_ms: int) -> str:
        try:
            return await self._archive_deal(deal_id, finished_ms)
        except asyncio.CancelledError:
            raise
        except (ArchiveConflict, NotArchivable, CopyMismatch) as exc:
            log.error("%s %s not archived: %s", self.kind, deal_id, exc)
            return "failed"
        except Exception:  # noqa: BLE001 - one deal's trouble must not stop the round
            raise_if_cancelled()
            log.exception("%s %s not archived", self.kind, deal_id)
            return "failed"

    def _step(self, step: str, number: int) -> None:
        if self._crash is not None and self._crash == (step, number):
            log.warning("%s=%s:%d: killing this process", CRASH_ENV, step, number)
            os.kill(os.getpid(), signal.SIGKILL)

    async def _archive_deal(self, deal_id: str, finished_ms: int) -> str:
        token = secrets.token_hex(12)
        if not await self.store.indexes.take_archive_lease(deal_id, token, self.lease_ms):
            return "leased"
        self._started += 1
        number = self._started
        removed = False
        try:
            self._step("leased", number)
            # a meta change between the copy and the removal (a "play again" claim) makes the
            # script refuse: copy again at once, the archive adds the new field
            for _attempt in range(3):
                deal = await self._snapshot(deal_id, finished_ms)
                if deal is None:
                    removed = True  # _dangling releases the lease itself
                    return await self._dangling(deal_id, token)
                stored_now = await self.archive.put(deal)
                said, chat = await self.store.removal.chat_snapshot(deal_id)
                if said:
                    await self.archive.put_chat(deal_id, said, chat)
                # the spectators' room, under its own row (``<deal_id>#watch``)
                watch_said, watch = await self.store.removal.chat_snapshot(deal_id, watch=True)
                if watch_said:
                    await self.archive.put_chat(deal_id + WATCH_SUFFIX, watch_said, watch)
                self._step("copied", number)
                await self._verify(deal)
                if said and await self.archive.chat(deal_id) != (said, chat):
                    raise CopyMismatch("the archived chat differs from Redis's")
                if watch_said and await self.archive.chat(deal_id + WATCH_SUFFIX) != (watch_said, watch):
                    raise CopyMismatch("the archived spectators' room differs from Redis's")
                self._step("verified", number)
                answer = await self.store.removal.remove_archived(
                    deal_id, token, deal.head_hash, len(deal.records), deal.meta, said, watch_said
                )
                if answer == 0:
                    removed = True
                    self._step("removed", number)
                    return "archived" if stored_now else "already"
                if answer == 1:
                    log.warning("%s %s: the archive lease expired before the removal", self.kind, deal_id)
                    return "leased"
                if answer == 2:
                    log.error("%s %s changed in Redis after it was archived; left there", self.kind, deal_id)
                    return "changed"
                # 3 (meta) or 4 (chat) changed since the copy: copy again
            return "changed"
        finally:
            if not removed:
                await self.store.indexes.release_archive_lease(deal_id, token)

    async def _snapshot(self, deal_id: str, finished_ms: int) -> ArchivedDeal | None:
        records, meta, version, head = await self.store.removal.archive_snapshot(deal_id)
        if not records:
            return None
        # over: as the command side marks it, or (its service died right after the last append)
        # as the log itself shows
        if meta.get("status") != "over" and _type_of(records[-1]) != self.final_event:
            raise NotArchivable(f"its meta status is {meta.get('status')!r} and its log does not end")
        if head is None or version != len(records):
            raise NotArchivable(f"{len(records)} records but the recorded version is {version}")
        broken = verify_chain(records)
        if broken is not None:
            raise NotArchivable(f"its chain breaks at version {broken.version}: {broken.reason}")
        if record_hash(records[-1]) != head:
            raise NotArchivable("the last record's hash is not the recorded head hash")
        created = meta.get("created_ms")
        if created is None:  # an imported deal has its creation time in the index only
            score = await self.store.redis.zscore(self.store.keys.index, deal_id)
            created = score if score is not None else finished_ms
        game = meta.get("game") or _game_of(records[0])
        return ArchivedDeal(deal_id, game, int(float(created)), finished_ms, meta, records, head)

    async def _verify(self, deal: ArchivedDeal) -> None:
        copy = await self.archive.get(deal.deal_id)
        if copy is None:
            raise CopyMismatch("the archive does not have it after the put")
        if len(copy.records) != len(deal.records):
            raise CopyMismatch(f"{len(copy.records)} records archived, {len(deal.records)} in Redis")
        if copy.records != deal.records:
            raise CopyMismatch("the archived records differ from Redis's")
        if copy.head_hash != deal.head_hash or record_hash(copy.records[-1]) != deal.head_hash:
            raise CopyMismatch("the archived head hash is not the last record's hash")
        broken = verify_chain(copy.records)
        if broken is not None:
            raise CopyMismatch(f"the archived chain breaks at version {broken.version}")
        differ = [name for name, value in deal.meta.items() if copy.meta.get(name) != value]
        if differ:
            raise CopyMismatch(f"archived meta differs in {', '.join(sorted(differ))}")

    async def _dangling(self, deal_id: str, token: str) -> str:
        """The finished index names a deal whose keys are gone: it was removed after its copy
        (a removal split from its index updates) or deleted. Drop the index entries."""
        if await self.archive.get(deal_id) is None:
            log.warning("%s %s is listed as finished, but not in Redis or the archive", self.kind, deal_id)
        await self.store.indexes.forget_finished(deal_id)
        await self.store.indexes.release_archive_lease(deal_id, token)
        return "dangling"

    # deals finished before the finished index existed ---------------------------------
    async def backfill(self, batch: int = 500) -> int:
        """Add to the finished index every deal of the deal index whose log ends with the
        final event but which is not in the finished index (deals finished before this code,
        or whose service died between the last append and ``mark_finished``); the finish time
        is the last record's ``recorded_at``. Returns how many it added."""
        redis = self.store.redis
        added = 0
        cursor = 0
        while True:
            cursor, rows = await redis.zscan(self.store.keys.index, cursor, count=batch)
            ids = [d.decode() if isinstance(d, bytes) else d for d, _score in rows]
            if ids:
                scores = await redis.zmscore(self.store.keys.finished_index, ids)
                unmarked = [d for d, s in zip(ids, scores, strict=True) if s is None]
                pipe = redis.pipeline(transaction=False)
                for deal_id in unmarked:
                    pipe.xrevrange(self.store.keys.events(deal_id), "+", "-", count=1)
                for deal_id, last in zip(unmarked, await pipe.execute() if unmarked else [], strict=True):
                    if not last:
                        continue
                    record = _decode_last(last[0][1])
                    if record is not None and record[0] == self.final_event:
                        await self.store.indexes.mark_finished(deal_id, record[1])
                        added += 1
            if cursor == 0:
                return added

    async def backfill_by_keys(self, batch: int = 500) -> int:
        """``backfill`` for a store without an index of every log (the match logs): a scan of
        the store's stream keys (on every node of a cluster), each log ending with the final
        event listed as finished. Returns how many it added."""
        redis = self.store.redis
        pattern = self.store.keys.events("*")
        added = 0
        async for key in redis.scan_iter(match=pattern, count=batch):
            name = key.decode() if isinstance(key, bytes) else key
            log_id = name[name.index("{") + 1 : name.rindex("}")]
            last = await redis.xrevrange(name, "+", "-", count=1)
            record = _decode_last(last[0][1]) if last else None
            if record is None or record[0] != self.final_event:
                continue
            if await redis.zscore(self.store.keys.finished_index, log_id) is None:
                await self.store.indexes.mark_finished(log_id, record[1])
                added += 1
        return added


class _LastRecord(msgspec.Struct):
    type: str
    recorded_at: str


def _decode_last(fields: dict) -> tuple[str, int] | None:
    raw = fields.get(b"e") or fields.get("e")
    if raw is None:
        return None
    record = msgspec.json.decode(raw, type=_LastRecord)
    stamp = time.strptime(record.recorded_at[:19], "%Y-%m-%dT%H:%M:%S")
    micros = int(record.recorded_at[20:26] or 0)
    return record.type, calendar.timegm(stamp) * 1000 + micros // 1000


class _Typed(msgspec.Struct):
    type: str


def _type_of(record: bytes) -> str:
    return msgspec.json.decode(record, type=_Typed).type


class _Created(msgspec.Struct):
    ruleset: str


class _First(msgspec.Struct):
    data: msgspec.Raw


def _game_of(first_record: bytes) -> str:
    data = msgspec.json.decode(first_record, type=_First).data
    return msgspec.json.decode(data, type=_Created).ruleset.split("/", 1)[0]
