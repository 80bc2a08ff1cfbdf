"""The clock keeper: acts for a person whose time ran out (TB-2.5, TB-2.6), and ends an untimed
deal that waited on its person for its idle limit, or a clocked one not dealt within its start
limit (TB-2.7).

Every service process runs one. Which deal to look at when is kept in Redis (the store's clock
index, scored by each clocked deal's next deadline), not in a process, so a process started
after another died acts on every deadline that passed meanwhile at its first sweep. The action
goes through the command side like any seat's command: ``Expire`` with a command id made of the
deal's version and the seat, decided on that version, so two processes acting on one expiry
append it once.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from domain.errors import RuleViolation
from domain.game import StartDeal
from domain.table.absence import away_command_id
from domain.table.clock import Abandon, Expire, idle_limit_ms, recorded_ms
from domain.table.seating import PERSON
from service.app.cancellation import raise_if_cancelled
from service.app.commands.deals import DealService
from service.app.state.folds import DealNotFound, LogDoesNotReplay, StaleVersion, start_deadline_ms
from service.metrics import Metrics
from service.store.event_store import now_ms
from service.store.outages import STORE_OUTAGES

log = logging.getLogger("dealstream.clocks")

SWEEP_S = 0.05  # how often the keeper reads the index of due deals
BATCH = 500  # due deals read per sweep (the rest at the next)
MAX_LOOKING = 1000  # looks in flight at once in one process


def expiry_command_id(version: int, seat: int) -> str:
    """The same in every process that acts on this expiry (the append keeps the first)."""
    return f"clock:{version}:{seat}"


class ClockKeeper:
    def __init__(
        self, deals: DealService, interval_s: float = SWEEP_S, metrics: Metrics | None = None
    ) -> None:
        self.deals = deals
        # expiries and outages: the command side's metrics unless given others
        self.metrics = metrics if metrics is not None else getattr(deals, "metrics", None) or Metrics()
        self.store = deals.store
        self.interval_s = interval_s
        self.expired = 0  # ClockExpired batches this process appended
        self.abandoned = 0  # DealAbandoned batches this process appended (TB-2.7)
        self._looking: set[str] = set()  # deals a look of this process is busy with
        self._tasks: set[asyncio.Task] = set()
        self.lateness_ms: list[int] = []  # how late each of them was after its deadline (bounded)

    async def run(self) -> None:
        """Sweep for as long as the service runs; a store outage is waited out."""
        backoff = self.interval_s
        while True:
            try:
                await self.sweep()
                raise_if_cancelled()  # a client may swallow a cancellation and answer anyway
                backoff = self.interval_s
            except asyncio.CancelledError:
                raise
            except STORE_OUTAGES as exc:
                raise_if_cancelled()  # a cancellation the Redis client turned into an outage
                self.metrics.outage("clocks", exc)
                log.warning("clock keeper waits for the event store: %s", exc)
                backoff = min(2.0, backoff * 2)
            except Exception:  # noqa: BLE001 - one deal's trouble must not stop every clock
                raise_if_cancelled()
                log.exception("clock keeper sweep failed")
            await asyncio.sleep(backoff)

    async def sweep(self) -> int:
        """Look at every deal whose next deadline has come; the number looked at."""
        due = [d for d in await self.store.indexes.clocks_due(now_ms(), BATCH) if d not in self._looking]
        for deal_id in due[: max(0, MAX_LOOKING - len(self._looking))]:
            # each look runs on its own: one slow deal (or store call) holds up no other clock
            self._looking.add(deal_id)
            task = asyncio.create_task(self.look(deal_id))
            self._tasks.add(task)
            task.add_done_callback(lambda t, d=deal_id: self._done(t, d))
        return len(due)

    def _done(self, task: asyncio.Task, deal_id: str) -> None:
        self._tasks.discard(task)
        self._looking.discard(deal_id)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if isinstance(exc, STORE_OUTAGES):
                self.metrics.outage("clocks", exc)
                log.warning("clock keeper: deal %s waits for the event store: %s", deal_id, exc)
            else:
                log.error("clock keeper: deal %s: %r", deal_id, exc)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=10.0)  # bounded, as the shutdown is

    async def look(self, deal_id: str) -> bool:
        """Act on the deal's earliest overdue wait, if any; True when an expiry was appended."""
        try:
            folded = await self.deals.load(deal_id)
        except DealNotFound:
            await self.store.indexes.unschedule_clock(deal_id)
            return False
        except LogDoesNotReplay as exc:  # no clock runs on a log that does not fold
            log.error("clock keeper: %s", exc.message)
            await self.store.indexes.unschedule_clock(deal_id)
            return False
        if folded.over:
            await self.store.indexes.unschedule_clock(deal_id)
            return False
        if folded.clock is None:
            return await self.abandon_if_idle(deal_id, folded)
        if not folded.started:
            return await self.abandon_if_undealt(deal_id, folded)
        now = now_ms()
        overdue = folded.clock.overdue(now)
        if not overdue:
            await self.deals.schedule(deal_id, folded)  # not yet (or moved on): the next deadline
            return False
        wait, due = overdue[0]
        seat = wait.seat
        command = Expire(seat, due.final_ms, wait.wait, away=folded.clock.last_expired[seat])
        version = folded.version
        try:
            outcome = await self.deals.execute(
                deal_id, None, command, command_id=expiry_command_id(version, seat), expected_version=version
            )
        except StaleVersion:  # someone moved first: that append scheduled the next look
            return False
        except RuleViolation as exc:  # refused on the very version seen: look again at the next deadline
            log.warning("deal %s: no expiry of seat %d at version %d: %s", deal_id, seat, version, exc)
            await self.deals.schedule(deal_id, await self.deals.load(deal_id))
            return False
        if not outcome.duplicate:
            self.expired += 1
            self.metrics.clock_expiries.labels("expired").inc()
            self.lateness_ms.append(max(0, now_ms() - due.final_ms))
            if len(self.lateness_ms) > 100_000:
                del self.lateness_ms[:50_000]
        return not outcome.duplicate

    async def abandon_if_undealt(self, deal_id: str, folded: Any) -> bool:
        """TB-2.7 (table/2): a clocked deal not dealt within its start limit after its last open
        seat was taken ends as abandoned. The ``Abandon`` names that record's time and the limit,
        both from the log, so the audit checks them."""
        due = start_deadline_ms(folded)
        if due is None or now_ms() < due:  # seats still open (or an older log): look again later
            await self.deals.schedule(deal_id, folded)
            return False
        if await self._plays_for_absent(folded):
            return await self.start_for_absent(deal_id, folded)
        assert folded.clock is not None and folded.clock.seated_ms is not None
        command = Abandon(folded.clock.seated_ms, due - folded.clock.seated_ms)
        version = folded.version
        try:
            outcome = await self.deals.execute(
                deal_id, None, command, command_id=f"abandon:{version}", expected_version=version
            )
        except StaleVersion:  # dealt (or moved) meanwhile: that append scheduled the next look
            return False
        except RuleViolation as exc:
            log.warning("deal %s: not abandoned at version %d: %s", deal_id, version, exc)
            await self.deals.schedule(deal_id, await self.deals.load(deal_id))
            return False
        if not outcome.duplicate:
            self.abandoned += 1
            self.metrics.clock_expiries.labels("abandoned").inc()
        return not outcome.duplicate

    async def _plays_for_absent(self, folded: Any) -> bool:
        place = getattr(folded.events[0], "match", None) if folded.events else None
        hook = getattr(self.deals, "plays_for_absent", None)
        return place is not None and hook is not None and await hook(place.match_id)

    async def start_for_absent(self, deal_id: str, folded: Any) -> bool:
        """TN-1.4: a tournament table's deal is not abandoned for a person who never started it:
        past its start limit the table sends that seat's ``StartDeal`` (a client seed the table
        draws; the command's id says the table made it for the seat, as an away seat's moves
        do), and the clock plays the seat from then on (TB-2.5, TB-2.6)."""
        seating = folded.state.seating
        absent = [seat for seat in seating.people if not seating.has_started(seat)]
        started = False
        for seat in absent:
            command = StartDeal(seat=seat, client_seed=secrets.token_hex(16))
            try:
                outcome = await self.deals.execute(
                    deal_id, seat, command, command_id=away_command_id(seat, folded.version)
                )
            except RuleViolation as exc:  # started meanwhile (the person came), or dealt
                log.info("deal %s: not started for seat %d: %s", deal_id, seat, exc)
                continue
            started = started or not outcome.duplicate
        await self.deals.schedule(deal_id, await self.deals.load(deal_id))
        return started

    async def abandon_if_idle(self, deal_id: str, folded: Any) -> bool:
        """TB-2.7: an untimed deal of a person whose last record is older than its idle limit ends
        as abandoned; otherwise the keepers look again when the limit could next pass. The
        ``Abandon`` names that record's time, so the audit checks it against the log."""
        if PERSON not in folded.seats:
            await self.store.indexes.unschedule_clock(deal_id)
            return False
        limit = idle_limit_ms(folded.events[0])
        version = folded.version
        last = await self.store.read(deal_id, version, version)
        if not last:
            return False
        since = recorded_ms(last[0].recorded_at)
        if now_ms() < since + limit:
            await self.store.indexes.schedule_clock(deal_id, since + limit)
            return False
        try:
            command = Abandon(since, limit)
            outcome = await self.deals.execute(
                deal_id, None, command, command_id=f"abandon:{version}", expected_version=version
            )
        except StaleVersion:  # someone moved meanwhile: the limit runs from that record
            await self.store.indexes.schedule_clock(deal_id, now_ms() + limit)
            return False
        except RuleViolation as exc:
            log.warning("deal %s: not abandoned at version %d: %s", deal_id, version, exc)
            await self.store.indexes.unschedule_clock(deal_id)
            return False
        if not outcome.duplicate:
            self.abandoned += 1
            self.metrics.clock_expiries.labels("abandoned").inc()
        return not outcome.duplicate
