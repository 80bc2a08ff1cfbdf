"""The command side of matches (TB-5): create a match, and create each next deal when the last
one ends.

A match is created with its first deal (``DealService.create``, the body of ``POST /deals``),
then its log: ``MatchCreated`` and ``MatchDealStarted``. When a deal of a match ends, the
command side calls ``deal_over`` (``DealService.on_match_deal_over``), which appends
``MatchDealEnded`` with the result read from the deal's log and either the next deal's
``MatchDealStarted`` (its id, dealer and round from the game's plan) or ``MatchEnded``, in one
conditional append, and then creates that deal under the id the log names. A sweep (every
process, every ``sweep_s``) looks at the live matches in the match log's index, so a process
that died between a deal's end and the next deal's creation is made good by another: the
conditional append records each deal's end once, and a deal id is created once (the deal's own
first append is conditional too).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.game import MatchPlace
from domain.match import (
    DealEntry,
    MatchCreated,
    MatchDealStarted,
    MatchState,
    after_deal,
    check_length,
    fold,
    plan,
    rules_for,
)
from service.app.commands.creation import NewDeal
from service.app.commands.deals import DealService
from service.app.commands.terms import parse_seats, rated_seats
from service.app.games import kit
from service.app.lru import LRUCache
from service.app.state.folds import DealNotFound
from service.app.state.match_log import MatchLog, MatchNotFound, deal_ended
from service.app.sweeps import look_at_each, sweep_forever
from service.store.event_store import VersionConflict, now_ms

log = logging.getLogger("dealstream.matches")

LOOK_AGAIN_MS = 5_000  # a live match is looked at by the sweep this often (its deals end the usual way)
SWEEP_S = 1.0
IDLE_S = 5.0  # the sweep's longest pause: how soon it finds a look another process left undone
MAX_STEPS = 8  # re-reads of the match log in one look (a conflict, a deal ended at once)
_ADVANCING = contextvars.ContextVar("match_advancing", default=False)

__all__ = ["MatchService", "MatchNotFound"]


class MatchService:
    def __init__(self, deals: DealService, matches: MatchLog, sweep_s: float = SWEEP_S) -> None:
        self.deals = deals
        self.log = matches
        self.sweep_s = sweep_s
        self.stopped = False  # set by ``stop``: the sweep's loop ends
        deals.on_match_deal_over = self.deal_over
        self._locks: LRUCache[str, asyncio.Lock] = LRUCache(2048, keep=lambda lock: lock.locked())
        self._tasks: set[asyncio.Task] = set()
        # (match id, deal index) -> the dealer and wall that deal must have (a duplicate
        # tournament's board, TN-3.4), or None; the tournament service sets it
        self.board_for: Callable[[str, int], Awaitable[tuple[int, list[int]] | None]] | None = None

    # creation ----------------------------------------------------------------------------------
    async def create(
        self, game: str, length: Any, target: Any = None, match_id: str | None = None, **deal: Any
    ) -> dict[str, Any]:
        """A match and its first deal: ``deal`` is what ``DealService.create`` takes (the body
        of ``POST /deals``); the answer is the first deal's creation answer and ``match_id``.
        A refused request stores nothing: the length is checked first, the deal next.
        ``match_id``: the id a caller claimed for it beforehand (a tournament's table)."""
        kit_ = kit(game)
        deals, word = check_length(rules_for(kit_.name), length, target)
        rated_by = deal.pop("rated_by", None)
        # a rated match: its players, checked before anything is made (DS-41); its deals are
        # not rated one by one, the match is, by its standings
        seats = parse_seats(deal.get("seats"), kit_)
        rated = rated_seats(seats, rated_by, open_seats=True) if rated_by is not None else None
        match_id, deal_id = match_id or secrets.token_hex(8), secrets.token_hex(8)
        first = plan(fold([MatchCreated(match_id, kit_.name, kit_.game.ruleset, [], deals, word, target)]))
        place = MatchPlace(match_id, first.index, first.round)
        board = await self.board_for(match_id, first.index) if self.board_for is not None else None
        created = await self.deals.create(kit_.name, deal_id=deal_id, match=place, board=board, **deal)
        events = [
            MatchCreated(
                match_id,
                kit_.name,
                created.ruleset,
                list(created.seats),
                deals,
                word,
                target,
                rated=rated,
            ),
            MatchDealStarted(first.index, deal_id, first.dealer, first.round),
        ]
        await self.log.append(match_id, 0, events, command_id="create")
        await self.log.look_at(match_id, now_ms() + LOOK_AGAIN_MS)
        await self.deal_over(match_id)  # a deal of bots may have ended already
        return {**created.as_dict(), "match_id": match_id, "length": deals, "target": target}

    # going on after a deal ---------------------------------------------------------------------
    async def deal_over(self, match_id: str) -> None:
        """A deal of the match ended: record it and create the next one. Called from inside a
        look (a deal that ends as it is created), it looks again in a task of its own."""
        if _ADVANCING.get():
            task = asyncio.create_task(self.advance(match_id), context=contextvars.Context())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        await self.advance(match_id)

    async def _record_rated(self, match_id: str) -> None:
        """A rated match's result into the ratings' index (twice adds nothing), read from its
        log as the rebuild reads it."""
        from service.app.ratings import result_of_match_records

        result = result_of_match_records(await self.log.raw(match_id))
        if result is not None:
            await self.deals.ratings.record(result)

    async def advance(self, match_id: str) -> MatchState | None:
        """Bring the match up to date with its deals; the state after (None: no such match)."""
        async with self._locks.get_or_put(match_id, asyncio.Lock):
            mark = _ADVANCING.set(True)
            try:
                return await self._advance(match_id)
            finally:
                _ADVANCING.reset(mark)

    async def _advance(self, match_id: str) -> MatchState | None:
        for _step in range(MAX_STEPS):
            try:
                state, version = await self.log.state(match_id)
            except MatchNotFound:
                return None
            if state.over:
                await self._record_rated(match_id)
                await self.log.done(match_id, now_ms())
                await self.deals.program_seats.release(match_id)  # its bot program seats, if any
                return state
            entry = state.current
            assert entry is not None
            try:
                folded = await self.deals.load(entry.deal_id)
            except DealNotFound:
                if entry.index == 0:  # the first deal is created before the log: never missing
                    log.error("match %s: its first deal %s is missing", match_id, entry.deal_id)
                    return state
                await self._create_next(match_id, state, entry)
                continue
            if entry.index > 0:  # the deal before tells its readers which deal came next
                await self.deals.store.indexes.claim_live_meta(
                    state.deals[entry.index - 1].deal_id, "next_deal_id", entry.deal_id
                )
                if not folded.started and not folded.over:  # a creation cut short: its people again
                    await self._create_next(match_id, state, entry)
            if not folded.over:
                await self.log.look_at(match_id, now_ms() + LOOK_AGAIN_MS)
                return state
            match_rated = state.created.rated if state.created is not None else None
            events = after_deal(state, deal_ended(entry, folded, match_rated), secrets.token_hex(8))
            try:
                await self.log.append(match_id, version, events, command_id=f"ended:{entry.index}")
            except VersionConflict:
                pass  # another process recorded it: read again
        log.warning("match %s: still moving after %d looks", match_id, MAX_STEPS)
        return None

    async def _create_next(self, match_id: str, state: MatchState, entry: DealEntry) -> None:
        """Deal ``entry`` under the id the log names, with the seats of the deal before (TB-5.2):
        bots keep their levels, people their seats and tokens; the clock and pace as before."""
        before = await self.deals.load(state.deals[entry.index - 1].deal_id)
        created = before.events[0]
        plan = await self.deals.carried_seats(before)
        board = await self.board_for(match_id, entry.index) if self.board_for is not None else None
        await self.deals._create(
            NewDeal(
                before.kit.name,
                plan.seats,
                deck=board[1] if board is not None else None,
                dealer=board[0] if board is not None else entry.dealer,
                spectators=before.spectators,
                pace=before.pace,
                deal_id=entry.deal_id,
                coach=before.coach,
                name=plan.name,
                clock=msgspec.to_builtins(before.clock.settings) if before.clock is not None else None,
                idle_s=created.idle_limit_s,
                match=MatchPlace(match_id, entry.index, entry.round),
                creator_digests=plan.creator,
                joined=plan.joined,
            )
        )

    # the sweep ---------------------------------------------------------------------------------
    async def sweep(self) -> int:
        """Look at every live match whose look is due; the number looked at."""

        async def look_again(match_id: str) -> None:
            await self.log.look_at(match_id, now_ms() + LOOK_AGAIN_MS)

        return await look_at_each(await self.log.due(now_ms()), look_again, self.advance, "match", log)

    async def run(self) -> None:
        """Sweep for as long as the service runs; a store outage is waited out."""
        await sweep_forever(
            self.sweep, self.sweep_s, "match", log, lambda: self.stopped, self.log.alarm, IDLE_S
        )

    def stop(self) -> None:
        """End the sweep's loop at its next turn (the service is shutting down)."""
        self.stopped = True

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.log.close()
