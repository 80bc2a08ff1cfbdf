"""The match log (TB-5.1): each match's events in a stream of their own, beside the deals' logs.

It is the deals' machinery under another key space: an ``EventStore`` whose prefix is the deal
store's with ``:match`` after it (``<prefix>:match:{<match>}:events``), so a match gets the same
conditional append, command ids, hash chain and recorded times as a deal, and no deal index,
lobby or deal archiver ever sees one (the match archiver, ``Archiver.of_matches``, moves a
finished one to the archive's matches shelf, where the reads find it). Its clock index
(``<prefix>:match:deals:clocks``) holds the live matches, scored by when the sweep should look
at each again. Shared by the command side (which appends) and the read side (which only reads).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.match import DealEntry, MatchDealEnded, MatchEvent, MatchState, fold
from domain.table.clock import DealAbandoned
from service.app.state.folds import Folded
from service.store.event_store import AppendResult, EventStore
from service.store.looks import LookAlarm

_decode = msgspec.json.Decoder(MatchEvent).decode


def deal_ended(entry: DealEntry, folded: Folded, match_rated: list[str] | None = None) -> MatchDealEnded:
    """The deal's result as its own log has it (TB-5.5): dealer, winner and payments; for the
    first deal of a rated match with open seats (``match_rated``, its ``MatchCreated.rated``)
    also who took each seat, the rated players."""
    from projections.ratings import rated_players

    outcome = folded.kit.deal_summary(folded.state)
    open_seats = entry.index == 0 and bool(match_rated) and "" in (match_rated or [])
    return MatchDealEnded(
        index=entry.index,
        deal_id=entry.deal_id,
        dealer=folded.kit.projections.dealer_of(folded.state),
        winner=outcome.winner,
        payments=list(outcome.payments),
        abandoned=any(type(e) is DealAbandoned for e in folded.events),
        rated=rated_players(match_rated or [], folded.events) if open_seats else None,
    )


class MatchNotFound(RuleViolation):
    """No match has this id (HTTP 404, DS-23)."""

    def __init__(self, match_id: str) -> None:
        super().__init__("DS-23", f"no match {match_id!r}")
        self.match_id = match_id


class MatchLog:
    def __init__(self, deals: EventStore) -> None:
        # a finished match's log leaves Redis for the archive's matches shelf as a deal's does
        # (``Archiver.of_matches``); its reads then answer from there, as a deal's do
        archived = deals.reader.archived
        self.store = EventStore(
            deals.redis,
            f"{deals.prefix}:match",
            wait_replicas=deals.wait_replicas,
            archive=None if archived is None else archived.matches(),
        )
        self.alarm = LookAlarm()  # the looks scheduled here, for the sweep's sleep

    async def events(self, match_id: str) -> list[Any]:
        """The match's events in order; ``MatchNotFound`` when it has none."""
        records = await self.store.read(match_id)
        if not records:
            raise MatchNotFound(match_id)
        return [_decode(record.data) for record in records]

    async def state(self, match_id: str) -> tuple[MatchState, int]:
        """The match folded, and its log's version."""
        events = await self.events(match_id)
        return fold(events), len(events)

    async def raw(self, match_id: str) -> list[bytes]:
        return await self.store.read_raw(match_id)

    async def head_hash(self, match_id: str) -> str | None:
        return await self.store.reader.head_hash(match_id)

    async def append(self, match_id: str, expected: int, events: list[Any], command_id: str) -> AppendResult:
        return await self.store.append(match_id, expected, events, command_id=command_id)

    async def look_at(self, match_id: str, at_ms: int) -> None:
        """The sweep looks at the match next at ``at_ms``."""
        await self.store.indexes.schedule_clock(match_id, at_ms)
        self.alarm.schedule(at_ms)

    async def done(self, match_id: str, ended_ms: int) -> None:
        """The match ended: no more looks, and its log is listed for the archiver."""
        await self.store.indexes.unschedule_clock(match_id)
        await self.store.indexes.mark_finished(match_id, ended_ms)

    async def due(self, now_ms: int, count: int = 100) -> list[str]:
        return await self.store.indexes.clocks_due(now_ms, count)

    def close(self) -> None:
        self.store.close()
