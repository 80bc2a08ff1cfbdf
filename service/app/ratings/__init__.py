"""Rated results read from deal logs alone, and every rating rebuilt from them.

``result_of_records`` is what ``dealstream ratings rebuild`` reads of each deal: the first
record says whether the deal was rated and who sat where (``DealCreated.rated``), the fold of
the whole log gives the payments, the last record the time the result was recorded. The live
path (``DealService.record_rated``) records the same result from the same log when the deal
ends; ``projections.ratings.fold`` turns either list into the same ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.table.clock import DealAbandoned
from projections.ratings import RatedResult, Ratings, deal_result, fold


def abandoned(events: Sequence[Any]) -> bool:
    """TB-2.7 ended the deal: nobody paid, it is not rated."""
    return any(type(event) is DealAbandoned for event in events)


def result_of_records(records: Sequence[bytes]) -> RatedResult | None:
    """The rated result a finished deal's log records, or None (not rated, or not over)."""
    from service.app.games import kit_for_ruleset

    if not records:
        return None
    first = decode_record(records[0])
    head = msgspec.json.decode(first.data)
    if not isinstance(head, dict) or not head.get("rated"):
        return None
    kit_ = kit_for_ruleset(head["ruleset"])
    events = [kit_.decode_event(decode_record(raw).data) for raw in records]
    state = kit_.game.fold(events)
    if not kit_.game.is_over(state):
        return None
    payments = kit_.deal_summary(state).payments
    at = decode_record(records[-1]).recorded_at
    return deal_result(kit_.name, events[0], payments, at, abandoned(events), events)


def result_of_match_records(records: Sequence[bytes]) -> RatedResult | None:
    """The rated result a finished match's log records (its standings' ranks), or None: not
    rated, not over, or ended by an abandoned deal (TB-5.3)."""
    from domain.match import MatchDealEnded, MatchEvent
    from domain.match import fold as fold_match

    if not records:
        return None
    decode = msgspec.json.Decoder(MatchEvent).decode
    events = [decode(decode_record(raw).data) for raw in records]
    state = fold_match(events)
    created = state.created
    if created is None or not created.rated or state.ended is None:
        return None
    if any(type(e) is MatchDealEnded and e.abandoned for e in events):
        return None
    players = list(created.rated)
    if "" in players:  # seats open at the creation: who took them, as the first deal recorded it
        first = next((e for e in events if type(e) is MatchDealEnded and e.index == 0), None)
        if first is None or first.rated is None:
            return None
        players = list(first.rated)
    ranks = [0] * len(players)
    for standing in state.ended.standings:
        ranks[standing.seat] = standing.rank
    at = decode_record(records[-1]).recorded_at
    return RatedResult(created.game, "match", created.match_id, at, players, ranks)


async def results_in_store(store: Any) -> list[RatedResult]:
    """Every rated result of the store's deals, in Redis and in its archive (each deal once)."""
    results: dict[str, RatedResult] = {}
    matches: set[str] = set()

    def seen(deal_id: str, records: Sequence[bytes]) -> None:
        result = result_of_records(records)
        if result is not None:
            results[deal_id] = result
        if records:  # a deal of a match names it: its match log is read below
            head = msgspec.json.decode(decode_record(records[0]).data)
            match = head.get("match") if isinstance(head, dict) else None
            if isinstance(match, dict) and match.get("match_id"):
                matches.add(match["match_id"])

    offset, page = 0, 200
    while True:
        ids = await store.indexes.list_deals(offset, page, newest_first=False)
        for deal_id in ids:
            seen(deal_id, await store.read_raw(deal_id))
        if len(ids) < page:
            break
        offset += page
    archive = store.reader.archived
    if archive is not None:
        offset = 0
        while True:
            listings = await archive.list(offset, page)
            for listing in listings:
                if listing.deal_id in results:
                    continue
                log = await archive.log(listing.deal_id)
                if log is not None:
                    seen(listing.deal_id, log.records)
            if len(listings) < page:
                break
            offset += page
    if matches:
        from service.app.state.match_log import MatchLog

        match_log = MatchLog(store)
        try:
            for match_id in sorted(matches):
                result = result_of_match_records(await match_log.raw(match_id))
                if result is not None:
                    results[f"match:{match_id}"] = result
        finally:
            match_log.close()
    return list(results.values())


async def rebuild(store: Any) -> Ratings:
    """Every rating, from the logs alone."""
    return fold(await results_in_store(store))
