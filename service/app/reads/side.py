"""The read side's I/O: ``ReadSide`` loads what a read needs and hands it through the gate
(``service.app.reads.gate``), the one place that decides what a viewer may see."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from domain.envelope import decode_record
from domain.errors import RuleViolation
from service.app.lru import LRUCache
from service.app.reads.answers import (
    DealList,
    DealSummary,
    LobbyList,
    PlayerDeal,
    PlayerDeals,
    PlayerMatch,
    ReplayFrame,
)
from service.app.reads.audit import AuditReport, audit_log
from service.app.reads.boards import Boards
from service.app.reads.gate import (
    audit,
    coach_view,
    listing,
    lobby_table,
    may_open_board,
    may_read_log,
    may_watch,
    player_deal,
    public_record,
    replay_frame,
    shows_match,
    summary,
)
from service.app.reads.open_tables import OpenTables
from service.app.state.folds import DealNotFound, Folded, Folds, LogDoesNotReplay
from service.app.state.match_log import MatchLog, MatchNotFound
from service.app.state.players import Players
from service.app.state.presence import Presence
from service.app.state.seats import SeatTokens
from service.app.viewer import NOBODY, Viewer
from service.app.visibility import sealed, sealed_fold, sealed_view, view
from service.store.event_store import EventStore

PLAYER_READS = 8  # deals of one list folded at once


class ReadSide:
    """Loads what a read needs and hands it through the gate (``gate``). It only reads: it appends
    nothing and starts no bot (a handler that wants a waiting bot seat to move asks the command
    side). It shares the fold cache, the seat tokens and the presence with the command side,
    which ``bootstrap`` hands to both."""

    def __init__(
        self,
        store: EventStore,
        *,
        folds: Folds,
        seats: SeatTokens,
        presence: Presence,
        players: Players | None = None,
        match_log: MatchLog | None = None,
        audit_cache_size: int = 256,
    ) -> None:
        self.store = store
        self.folds = folds
        self.seats = seats
        self.presence = presence
        self.players = players if players is not None else Players(store.players)
        self.match_log = match_log if match_log is not None else MatchLog(store)
        self.open_tables = OpenTables(store, folds)  # the lobby's tables
        self._audits: LRUCache[tuple[str, str], AuditReport] = LRUCache(audit_cache_size)
        # advice is a pure function of the seat's view at a record: asked again on every redraw of
        # the table, it is computed once per move (a few ms for MCR, see bench.coach). Keyed by the
        # head record's hash too: a Redis rollback can make the same version again with other
        # events
        self._coach: LRUCache[tuple[str, int, int, str], Any] = LRUCache(4096)
        # whether a finished deal is a duplicate board still sealed (TN-3.6); set by ``bootstrap``
        # once the tournaments' store exists (None: no tournaments here, nothing sealed)
        self.boards: Boards | None = None

    async def is_sealed(self, folded: Folded) -> bool:
        """The gate's ``sealed`` with what the tournament's record says of the deal's round."""
        if self.boards is None:
            return False
        return sealed(folded.over, await self.boards.round_over(folded))

    async def may_review(self, deal_id: str) -> None:
        """DS-47 for a review of a sealed board (a review shows every seat's cards)."""
        may_open_board(await self.is_sealed(await self.folds.load(deal_id)))

    async def viewer(self, deal_id: str, token: str | None, *, anonymous: Viewer = NOBODY) -> Viewer:
        """The seat a token acts for (a bad token is refused, never read as a spectator)."""
        if token is None:
            return anonymous
        return Viewer.of_seat(await self.seats.authenticate(deal_id, token))

    async def summary(self, deal_id: str, viewer: Viewer) -> DealSummary:
        folded = await self.folds.load(deal_id)
        answer = summary(deal_id, folded, viewer, await self.presence.seats(deal_id))
        answer.sealed = await self.is_sealed(folded)
        if folded.over:  # only a finished deal is played again
            answer.rematched_by = await self.store.reader.meta_field(deal_id, "rematched_by")
        place = getattr(folded.events[0], "match", None)
        # TB-5.1: the next deal of its match, once created; a private match's only to its seats
        if place is not None and shows_match(folded, viewer):
            nxt = await self.next_in_match(deal_id, place.match_id, place.index) if folded.over else None
            answer.match = {"match_id": place.match_id, "index": place.index, "next_deal_id": nxt}
        return answer

    async def next_in_match(self, deal_id: str, match_id: str, index: int) -> str | None:
        """The deal after this finished one in its match, once it exists. The match keeps the
        link beside the deal after creating the next one; until it has (or when an archived
        deal never got it) the match log answers, so a deal the match lists is always named."""
        kept = await self.store.reader.meta_field(deal_id, "next_deal_id")
        if kept is not None:
            return kept
        try:
            state, _version = await self.match_log.state(match_id)
        except MatchNotFound:
            return None
        if index + 1 >= len(state.deals):
            return None
        nxt = state.deals[index + 1].deal_id
        try:
            await self.folds.load(nxt)
        except DealNotFound:  # named, being created
            return None
        except LogDoesNotReplay:  # named; its own reads say what is wrong with it
            return nxt
        return nxt

    async def view(self, deal_id: str, viewer: Viewer) -> Any:
        if viewer.seat is None:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        folded = await self.folds.load(deal_id)
        connected = await self.presence.seats(deal_id)
        if await self.is_sealed(folded):
            return sealed_view(sealed_fold(folded), viewer, connected)
        return view(folded, viewer, connected)

    async def replay(
        self, deal_id: str, viewer: Viewer, step: int | None, perspective: str | None
    ) -> ReplayFrame:
        folded = await self.folds.load(deal_id)
        if await self.is_sealed(folded):
            # a seat replays its own perspective up to where the deal ended; nobody else anything
            may_open_board(viewer.seat is None or perspective not in (None, str(viewer.seat)))
            folded = sealed_fold(folded)
        return replay_frame(folded, viewer, step, perspective)

    async def log(self, deal_id: str, viewer: Viewer) -> bytes:
        folded = await self.folds.load(deal_id)
        may_read_log(folded, viewer)
        may_open_board(await self.is_sealed(folded))
        raws = await self.store.read_raw(deal_id)
        hide_match = not shows_match(folded, viewer)
        return b"\n".join(public_record(raw, hide_match) for raw in raws) + b"\n"

    async def audit(self, deal_id: str, viewer: Viewer) -> AuditReport:
        try:
            folded: Folded | None = await self.folds.load(deal_id)  # 404 for an unknown deal
        except LogDoesNotReplay:
            folded = None  # the audit says where and why, as a failed check
        if folded is not None:
            may_watch(folded, viewer)
        raws = await self.store.read_raw(deal_id)
        head = await self.store.reader.head_hash(deal_id)
        # the audit of the same bytes is the same report: keyed by a digest of what was read
        key = (deal_id, hashlib.sha256(b"\n".join(raws) + f"|{head}".encode()).hexdigest())
        report = self._audits.get(key)
        if report is None:
            report = await asyncio.get_running_loop().run_in_executor(None, audit_log, raws, head)
            self._audits.put(key, report)
        if folded is not None and await self.is_sealed(folded):
            folded = sealed_fold(folded)  # audited as a live deal is: its own seat's part only
        return audit(report, folded, viewer)

    async def coach(self, deal_id: str, viewer: Viewer) -> Any:
        folded = await self.folds.load(deal_id)
        may_open_board(await self.is_sealed(folded))  # nothing to advise; the end stays shut
        seat_view = coach_view(folded, viewer)  # refuses a spectator or a deal without the coach
        key = (deal_id, viewer.seat, folded.version, folded.head_hash)
        advice = self._coach.get(key)
        if advice is None:
            # pure work on an immutable view, in a thread: the event loop gets the interpreter
            # back every few milliseconds however long one answer takes (bench.coach: p95 2-4
            # ms, but up to 66 ms for a Paohuzi hand with many splits)
            advice = await asyncio.get_running_loop().run_in_executor(None, folded.kit.coach.coach, seat_view)
            self._coach.put(key, advice)
        return advice

    async def deals_list(self, viewer: Viewer, offset: int, count: int) -> DealList:
        """The public index in Redis and the archive's finished deals, one list newest first."""
        ids, metas = await self.store.reader.public_deals(offset, count)
        return listing(ids, metas)

    async def lobby(self, count: int) -> LobbyList:
        """Lobby tables with a free seat, newest first, from the open tables' index (however
        many deals are newer); each row is checked against the table's own fold."""
        return LobbyList(tables=await self.open_tables.rows(count, lobby_table))

    async def player_deals(
        self,
        player_key: Any,
        before_ms: int | None,
        count: int,
        match_row: Any = None,
        digest: str | None = None,
    ) -> PlayerDeals:
        """The deals the holder of ``player_key`` took a seat in, newest first, each through
        ``player_deal``; deals that neither Redis nor the archive holds are left out. A key
        nobody used has an empty list, like any other. A page ends between two creation times,
        so ``next_before`` loses no row of the next page. ``match_row``: reads a match's row
        (``MatchReads.player_match``; the matches' read side is built on this one). ``digest``:
        an account's list (``service.app.accounts``) instead of the key's."""
        if digest is None:
            digest = await self.players.digest(player_key)
        rows = await self.players.rows(digest, before_ms, count + 1)
        if len(rows) > count:
            page = rows[:count]
            boundary = page[-1].created_ms
            if rows[count].created_ms == boundary:  # the next page starts inside this ms
                page = [row for row in page if row.created_ms > boundary] or page
            more = True
        else:
            page, more = rows, False
        limit = asyncio.Semaphore(PLAYER_READS)

        async def one(row: Any) -> PlayerDeal | PlayerMatch | None:
            if row.kind == "match":
                if match_row is None:
                    return None
                async with limit:
                    return await match_row(row.id, row.seat)
            if row.kind != "deal":
                return None
            async with limit:
                try:
                    folded = await self.folds.load(row.id)
                except (DealNotFound, LogDoesNotReplay):
                    return None
                first = await self.store.read_raw(row.id, 1, 1)
            created_at = decode_record(first[0]).recorded_at if first else ""
            match = getattr(folded.events[0], "match", None) if folded.events else None
            return player_deal(row.id, folded, row.seat, created_at, match.match_id if match else None)

        shown = await asyncio.gather(*(one(row) for row in page))
        return PlayerDeals(
            deals=[d for d in shown if isinstance(d, PlayerDeal)],
            next_before=page[-1].created_ms if more and page else None,
            matches=[m for m in shown if isinstance(m, PlayerMatch)],
        )
