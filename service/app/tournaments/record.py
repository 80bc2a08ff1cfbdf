"""TN-5: a tournament's record as one JSON-lines bundle, and its offline audit.

The bundle: a header line ``{"bundle": "tournament/1", ...}``; a section line
``{"section": "tournament"}`` and the tournament's records as stored (they hold nothing secret);
per deal of every table a section line ``{"section": "deal", "deal_id": ...}`` and the deal's
records as the service publishes them (no token or invite digest: each such record names the
stored one's hash, so its chain still verifies); and ``{"section": "standings"}`` with the
standings as one line. The audit checks every deal as ``dealstream audit`` checks one, then the
tournament (``domain.tournament.verify``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.game import DealCreated
from domain.tournament.scores import standings
from domain.tournament.state import fold
from domain.tournament.verify import DealFacts, Failure, verify
from service.app.games import kit_for_ruleset

BUNDLE = "tournament/1"


def is_bundle(first_line: bytes) -> bool:
    try:
        head = json.loads(first_line)
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("bundle") == BUNDLE


async def bundle(service: Any, tournament_id: str) -> list[bytes]:
    """The lines of the record of ``tournament_id`` (``TournamentService``)."""
    from domain.tournament import log as tlog
    from service.app.reads.gate import public_record

    raws = await service.store.raw(tournament_id)
    if not raws:
        raise KeyError(tournament_id)
    state = fold(tlog.events_of(raws))
    created = state.created
    assert created is not None
    lines = [
        json.dumps(
            {"bundle": BUNDLE, "tournament_id": tournament_id, "game": created.game}, separators=(",", ":")
        ).encode(),
        b'{"section":"tournament"}',
        *raws,
    ]
    for rnd in state.rounds.values():
        if created.format == "duplicate" and rnd.seed is None:
            continue  # TN-3.6: a duplicate round's boards are sealed until it ends
        for table in sorted(rnd.tables.values(), key=lambda t: t.table):
            if table.result is None:
                continue
            for deal in table.result.deals:
                lines.append(
                    json.dumps({"section": "deal", "deal_id": deal.deal_id}, separators=(",", ":")).encode()
                )
                lines.extend(
                    public_record(raw, hide_match=False)
                    for raw in await service.deals.store.read_raw(deal.deal_id)
                )
    lines.append(b'{"section":"standings"}')
    lines.append(msgspec.json.encode(standings(state)))
    return lines


def _split(lines: Sequence[bytes]) -> tuple[list[bytes], dict[str, list[bytes]], list[dict[str, Any]] | None]:
    tournament: list[bytes] = []
    deals: dict[str, list[bytes]] = {}
    stated: list[dict[str, Any]] | None = None
    current: list[bytes] | None = None
    section = None
    for line in lines[1:]:
        if line.startswith(b'{"section"'):
            head = json.loads(line)
            section = head["section"]
            if section == "tournament":
                current = tournament
            elif section == "deal":
                current = deals.setdefault(str(head["deal_id"]), [])
            else:
                current = None
            continue
        if section == "standings":
            stated = json.loads(line)
        elif current is not None:
            current.append(line)
    return tournament, deals, stated


def deal_facts(deal_id: str, raws: list[bytes]) -> DealFacts:
    """What a deal's log says, after the deal's own audit (its failure, if any, in ``problem``)."""
    from service.app.reads.audit import audit_log

    report = audit_log(raws)
    if not report.ok:
        first = report.problems[0] if report.problems else None
        why = (
            f"version {first.version}: [{first.check}] {first.detail}"
            if first
            else "the deal is not finished"
        )
        return DealFacts(deal_id, None, 0, [], problem=why)
    records = [decode_record(raw) for raw in raws]
    created = msgspec.json.decode(records[0].data, type=DealCreated)
    kit_ = kit_for_ruleset(created.ruleset)
    events = [created, *(kit_.decode_event(r.data) for r in records[1:])]
    outcome = kit_.deal_summary(kit_.game.fold(events))
    place = created.match
    return DealFacts(
        created.deal_id,
        place.match_id if place is not None else None,
        place.index if place is not None else 0,
        list(outcome.payments),
        created.fixed_deck,
        created.fixed_dealer,
        kit_.game.deck_size,
    )


def audit_bundle(lines: Sequence[bytes]) -> Failure | None:
    """None when the record holds; else the first record that fails."""
    tournament, deals, stated = _split(lines)
    facts = {}
    for deal_id, raws in deals.items():
        try:
            facts[deal_id] = deal_facts(deal_id, raws)
        except Exception as exc:  # noqa: BLE001 - a forged log may break any reading of it
            facts[deal_id] = DealFacts(deal_id, None, 0, [], problem=f"does not read: {exc}")
        if facts[deal_id].deal_id != deal_id:
            facts[deal_id] = DealFacts(deal_id, None, 0, [], problem="its log is another deal's")
    if stated is None:
        return Failure("standings", "standings", "the bundle states no standings")
    return verify(tournament, facts, stated)
