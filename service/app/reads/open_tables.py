"""The lobby's tables: lobby tables with a free seat, read from their own index in the store.

The command side lists a lobby table when it creates it and takes it off when its last seat is
taken or it ends (``DealService``; the end through the ``over`` status). A seat never opens
again, so an entry whose table turns out full, finished or gone is stale for good: the reader
drops it, which also mends what a process that died between a seat's append and the index's
update left behind. Every row is checked against the table's own fold before it is shown.

A store from before this index lists its open tables in it once, at the first lobby read
(``…:deals:open:built`` says it was done; doing it twice is harmless).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from service.app.state.folds import DealNotFound, Folded, Folds, LogDoesNotReplay
from service.store.event_store import EventStore

T = TypeVar("T")
MOST = 1000  # index entries one lobby read looks through (stale ones are dropped as it goes)
BACKFILL_PAGE = 500


class OpenTables:
    """``rows(count, row)``: up to ``count`` open tables, newest first, each as ``row`` makes it
    from the table's fold (None: not an open table now, and the entry is dropped)."""

    def __init__(self, store: EventStore, folds: Folds) -> None:
        self.store = store
        self.folds = folds
        self._built = False

    async def rows(self, count: int, row: Callable[[str, Folded], T | None]) -> list[T]:
        await self._backfill(row)
        found: list[T] = []
        for deal_id in await self.store.indexes.open_tables(0, MOST):
            shown = await self._row(deal_id, row)
            if shown is not None:
                found.append(shown)
                if len(found) >= count:
                    break
        return found

    async def _row(self, deal_id: str, row: Callable[[str, Folded], T | None]) -> T | None:
        try:
            shown = row(deal_id, await self.folds.load(deal_id))
        except (DealNotFound, LogDoesNotReplay):  # no table to join
            shown = None
        if shown is None:
            await self.store.indexes.close_table(deal_id)  # full, finished or gone: for good
        return shown

    async def _backfill(self, row: Callable[[str, Folded], T | None]) -> None:
        """List the open tables a store from before the index holds (once per store)."""
        if self._built:
            return
        indexes = self.store.indexes
        if await indexes.open_tables_built():
            self._built = True
            return
        offset = 0
        while True:
            page = await indexes.public_range(offset, BACKFILL_PAGE)
            ids = [deal_id for _created, deal_id in page]
            metas = await indexes.deal_summaries(ids)
            for (created, deal_id), meta in zip(page, metas, strict=True):
                if meta.get("status") == "over" or "game" not in meta:
                    continue
                if (await self.store.reader.meta_field(deal_id, "lobby")) != "1":
                    continue
                try:
                    folded = await self.folds.load(deal_id)
                except (DealNotFound, LogDoesNotReplay):  # no table to join
                    continue
                if row(deal_id, folded) is not None:
                    await self.store.indexes.open_table(deal_id, created)
            if len(page) < BACKFILL_PAGE:
                break
            offset += BACKFILL_PAGE
        await indexes.mark_open_tables_built()
        self._built = True
