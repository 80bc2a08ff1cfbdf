"""Redis first, then the archive: the one place that knows that order.

Given an archive (``service.store.archive``), the reads of a deal that is no longer in Redis
answer from the archive: the records byte for byte, the head hash, the meta, the version, a
command's first result. So every reader above (folds, the read side, reviews, the stream hub)
serves an archived deal as it served it before, and its checks that Redis did not lose data
see the archived records instead of nothing. "No longer in Redis" means the deal's key is
gone: a deal Redis holds is answered by Redis alone, so the hot path never asks the archive.

Every read that may meet an archived deal goes through this class, so no reader can forget
the archive; the log recorder and the indexes answer for Redis alone. The two meta writes a
finished deal may still get (claim, release) follow the same rule and live here too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from domain.envelope import StoredEvent, decode_record
from service.store.archive import ArchivedLog, ArchivedLogs
from service.store.deal_index import DealIndexes
from service.store.log import MAX_BATCH, LogRecorder, StreamHead


class RedisThenArchive:
    """Reads of deal logs and meta that ask the archive when Redis holds no such deal."""

    def __init__(self, log: LogRecorder, indexes: DealIndexes, archived: ArchivedLogs | None) -> None:
        self.log = log
        self.indexes = indexes
        self.archived = archived

    async def _archived_log(self, deal_id: str) -> ArchivedLog | None:
        """The archived log of a deal Redis does not hold (callers checked that), if archived."""
        return None if self.archived is None else await self.archived.log(deal_id)

    # the log -----------------------------------------------------------------------
    async def version(self, deal_id: str) -> int:
        version = await self.log.version(deal_id)
        if version == 0:
            log = await self._archived_log(deal_id)
            return 0 if log is None else len(log.records)
        return version

    async def read_raw(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[bytes]:
        """Stored records exactly as written, versions ``from_version``..``to_version``."""
        raws = await self.log.read_raw(deal_id, from_version, to_version)
        if not raws and self.archived is not None and not await self.log.has_log(deal_id):
            log = await self._archived_log(deal_id)
            return [] if log is None else _versions(log.records, from_version, to_version)
        return raws

    async def read(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        return [decode_record(raw) for raw in await self.read_raw(deal_id, from_version, to_version)]

    async def read_many_raw(
        self, after: Sequence[tuple[str, int]], count: int = MAX_BATCH
    ) -> list[list[bytes]]:
        """For each (deal, version): the records after that version (at most ``count``), in one
        pipeline: what a stream reader fetches when several deals' doorbells rang at once."""
        replies = await self.log.read_many_raw(after, count)
        empty = [i for i, raws in enumerate(replies) if not raws]
        if empty and self.archived is not None:  # caught up, or no longer in Redis?
            held = await self.log.has_logs([after[i][0] for i in empty])
            for i, exists in zip(empty, held, strict=True):
                if not exists:
                    deal_id, version = after[i]
                    log = await self._archived_log(deal_id)
                    if log is not None:
                        replies[i] = log.records[version : version + count]
        return replies

    async def head_hash(self, deal_id: str) -> str | None:
        """The hash of the last record as the append script recorded it (the audit's anchor)."""
        head = await self.log.head_hash(deal_id)
        if head is None:
            log = await self._archived_log(deal_id)
            return None if log is None else log.head_hash
        return head

    async def heads(self, deal_ids: Sequence[str]) -> list[StreamHead | None]:
        """Each deal's recorded head in one pipeline (None: no log), for the stream readers'
        periodic check that nothing was missed and that the log did not move backwards."""
        heads = await self.log.heads(deal_ids)
        for i, head in enumerate(heads):
            if head is None:  # not in Redis: an archived deal's head is the archived one
                log = await self._archived_log(deal_ids[i])
                heads[i] = None if log is None else StreamHead(len(log.records), log.head_hash)
        return heads

    async def command_result(self, deal_id: str, command_id: str) -> tuple[int, int] | None:
        """The versions a command id produced, if it was appended before."""
        seen, log_version = await self.log.command_lookup(deal_id, command_id)
        if seen is None and log_version is None and self.archived is not None:  # archived?
            log = await self._archived_log(deal_id)
            if log is None:
                return None
            versions = [r.version for r in map(decode_record, log.records) if r.command_id == command_id]
            return (versions[0], versions[-1]) if versions else None
        return seen

    async def command_at(self, deal_id: str, version: int) -> bytes | None:
        """The command stored on the record at ``version`` (the first record of its batch)."""
        raws = await self.read_raw(deal_id, version, version)
        if not raws:
            return None
        command = decode_record(raws[0]).command
        return bytes(command) if command else None

    # meta ----------------------------------------------------------------------------
    async def get_meta(self, deal_id: str) -> dict[str, str]:
        meta = await self.indexes.get_meta(deal_id)
        if not meta and self.archived is not None:
            return await self.archived.meta(deal_id) or {}
        return meta

    async def meta_field(self, deal_id: str, field: str) -> str | None:
        held, game = await self.indexes.meta_fields(deal_id, field, "game")
        if held is None and game is None and self.archived is not None:  # not in Redis
            meta = await self.archived.meta(deal_id)
            return None if meta is None else meta.get(field)
        return held

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """Set a meta field unless it is set (``HSETNX``): the value it holds afterwards, so the
        caller whose value it is knows it won. With an archive, a deal no longer in Redis is
        claimed in the archive (and one in Redis only while its meta hash exists, so a claim
        never leaves a stray hash behind the archiver; a claim between its copy and its
        removal makes the removal refuse, and the next copy carries the field)."""
        if self.archived is None:
            return await self.indexes.claim_meta(deal_id, field, value)
        held = await self.indexes.claim_live_meta(deal_id, field, value)
        if held is not None:
            return held
        return await self.archived.claim_meta(deal_id, field, value)

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        """Undo a ``claim_meta`` that won (the deal it was for was not made): drop the field
        wherever it holds ``value``, in Redis and in the archive (the deal may have been archived
        in between, the field with it)."""
        await self.indexes.release_meta(deal_id, field, value)
        if self.archived is not None:
            await self.archived.release_meta(deal_id, field, value)

    # the public deal list ---------------------------------------------------------------
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
        indexes = self.indexes
        if self.archived is None:
            return await indexes.public_rows(await indexes.public_range(offset, count))
        archived = self.archived
        total = await indexes.public_count()

        async def redis_at(i: int) -> tuple[int, str] | None:
            rows = await indexes.public_range(i, 1)
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
            indexes.public_range(lo, count + spare), archived.list(offset - lo, count + spare)
        )
        _ids, metas = await indexes.public_rows(redis_rows)
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


def _versions(records: list[bytes], from_version: int, to_version: int | None) -> list[bytes]:
    """Versions ``from_version``..``to_version`` of a whole log (version n is the n-th record)."""
    start = max(from_version, 1) - 1
    return records[start:] if to_version is None else records[start : max(start, to_version)]
