"""TN-5.2: check a tournament's record offline and name the first record that fails.

The caller reads the bundle and audits each deal log as a deal's audit does (that needs the
games); it hands over what each deal's log says (``DealFacts``). Checked here, in log order:
the chain, each round's commitment against its revealed seed, each pairing re-derived, each
table's result against its deals' logs, every duplicate board's wall and dealer, and the
standings the bundle states against the fold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.envelope import decode_record, verify_chain
from domain.tournament import seeds
from domain.tournament.events import (
    RoundPaired,
    RoundSeedRevealed,
    SeedCommitted,
    TableResult,
    TableStarted,
    event_decoder,
)
from domain.tournament.pairing import pair_round
from domain.tournament.scores import standings
from domain.tournament.state import HOUSE_TABLE, TournamentState, evolve


class DealFacts(msgspec.Struct, frozen=True):
    """What one deal's log says, as the caller read and audited it."""

    deal_id: str
    match_id: str | None
    index: int
    payments: list[int]
    fixed_deck: list[int] | None = None
    fixed_dealer: int | None = None
    deck_size: int = 0
    problem: str | None = None  # the deal's own audit failed: why


class Failure(msgspec.Struct, frozen=True):
    record: str  # "tournament record 12", "deal 3fa0…", "standings"
    check: str  # chain | decode | commitment | pairing | table | deal | board | standings
    detail: str

    def __str__(self) -> str:
        return f"{self.record}: [{self.check}] {self.detail}"


def verify(
    raws: Sequence[bytes], deals: dict[str, DealFacts], stated_standings: list[dict[str, Any]] | None
) -> Failure | None:
    """None when every check passes; else the first failure."""
    broken = verify_chain(raws)
    if broken is not None:
        return Failure(f"tournament record {broken.version}", "chain", broken.reason)
    events: list[Any] = []
    for version, raw in enumerate(raws, start=1):
        try:
            events.append(event_decoder.decode(decode_record(raw).data))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return Failure(f"tournament record {version}", "decode", str(exc))
    # the seeds that match their commitments: a pairing is re-derived from those only, so a
    # forged seed is named at its own record, not at the pairing it would fail to draw
    committed = {e.round: e.commitment for e in events if type(e) is SeedCommitted}
    revealed = {
        e.round: e.seed
        for e in events
        if type(e) is RoundSeedRevealed
        and (seed := _seed_bytes(e.seed)) is not None
        and seeds.commitment(seed) == committed.get(e.round)
    }
    state = TournamentState()
    for version, event in enumerate(events, start=1):
        where = f"tournament record {version}"
        failure = _check(state, event, revealed, deals, where)
        if failure is not None:
            return failure
        try:
            evolve(state, event)
        except (KeyError, AttributeError, TypeError) as exc:
            return Failure(where, "decode", f"does not follow the records before: {exc!r}")
    if stated_standings is not None:
        again = msgspec.to_builtins(standings(state)) if state.created is not None else []
        if again != stated_standings:
            return Failure("standings", "standings", "the stated standings are not the fold of the log")
    return None


def _seed_bytes(seed: str | None) -> bytes | None:
    try:
        return bytes.fromhex(seed) if seed is not None else None
    except ValueError:
        return None


def _check(
    state: TournamentState, event: Any, revealed: dict[int, str], deals: dict[str, DealFacts], where: str
) -> Failure | None:
    t = type(event)
    if t is RoundSeedRevealed:
        rnd = state.rounds.get(event.round)
        seed = _seed_bytes(event.seed)
        if rnd is None or seed is None or seeds.commitment(seed) != rnd.commitment:
            return Failure(where, "commitment", f"round {event.round}'s seed does not match its commitment")
    elif t is RoundPaired:
        seed = _seed_bytes(revealed.get(event.round))
        if seed is None:
            return None  # a round still in play (or a forged seed, named at its own record)
        if pair_round(state, event.round, seed) != event.tables:
            return Failure(where, "pairing", f"round {event.round}'s tables are not the ones its seed draws")
    elif t is TableStarted:
        rnd = state.rounds.get(event.round)
        if rnd is None or event.table not in rnd.tables:
            return Failure(where, "table", f"round {event.round} has no table {event.table}")
    elif t is TableResult:
        return _check_result(state, event, revealed, deals, where)
    return None


def _check_result(
    state: TournamentState,
    event: TableResult,
    revealed: dict[int, str],
    deals: dict[str, DealFacts],
    where: str,
) -> Failure | None:
    table = state.rounds[event.round].tables.get(event.table)
    if table is None or table.match_id is None:
        return Failure(where, "table", f"round {event.round} table {event.table} never started")
    totals = [sum(col) for col in zip(*(d.payments for d in event.deals), strict=True)] if event.deals else []
    if event.deals and totals != event.scores:
        return Failure(where, "table", "the match scores are not the sum of its deals")
    seed = _seed_bytes(revealed.get(event.round))
    duplicate = state.created is not None and state.created.format == "duplicate"
    for j, result in enumerate(event.deals):
        facts = deals.get(result.deal_id)
        if facts is None and duplicate and seed is None:
            continue  # a duplicate round still in play: its boards are sealed, out of the bundle (TN-3.6)
        if facts is None:
            return Failure(where, "deal", f"deal {result.deal_id} is not in the bundle")
        if facts.problem is not None:
            return Failure(f"deal {result.deal_id}", "deal", facts.problem)
        if facts.match_id != table.match_id or facts.index != j:
            return Failure(where, "deal", f"deal {result.deal_id} is not deal {j} of the table's match")
        if facts.payments != result.payments:
            return Failure(where, "deal", f"deal {result.deal_id}'s payments are not its log's")
        if duplicate and seed is not None:
            dealer, deck = seeds.board(
                seeds.mixed_seed(seed, state.field_hashes()), j, facts.deck_size, len(table.players)
            )
            if facts.fixed_deck != deck or facts.fixed_dealer != dealer:
                which = "the house table" if event.table == HOUSE_TABLE else f"table {event.table}"
                return Failure(
                    f"deal {result.deal_id}", "board", f"{which}'s wall of board {j} is not the round's"
                )
    return None
