"""The fold of a tournament's log: entrants, rounds, tables and rulings (TN-1.3)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.tournament.events import (
    PlayerEntered,
    PlayerWithdrew,
    RoundPaired,
    RoundSeedRevealed,
    Ruling,
    SeedCommitted,
    TableResult,
    TableStarted,
    TournamentCreated,
    TournamentEnded,
    TournamentStarted,
)

HOUSE_TABLE = 0  # a duplicate round's table of house bots (TN-3.5)


class Entrant(msgspec.Struct):
    player: str
    kind: str
    seed_hash: str
    filler: bool = False
    withdrawn: bool = False


class Table(msgspec.Struct):
    table: int
    players: list[str]
    match_id: str | None = None
    result: TableResult | None = None


class Round(msgspec.Struct):
    round: int
    commitment: str
    tables: dict[int, Table] = {}
    seed: str | None = None

    @property
    def paired(self) -> bool:
        return bool(self.tables)

    @property
    def results_in(self) -> bool:
        return self.paired and all(t.result is not None for t in self.tables.values())


class TournamentState(msgspec.Struct):
    created: TournamentCreated | None = None
    entrants: dict[str, Entrant] = {}
    started: bool = False
    rounds: dict[int, Round] = {}
    rulings: list[Ruling] = []
    ended: bool = False
    field: list[str] = []  # the entrants when it started: their digests mix into every round seed

    @property
    def current(self) -> Round | None:
        """The last paired round."""
        paired = [r for r in self.rounds.values() if r.paired]
        return paired[-1] if paired else None

    def field_hashes(self) -> list[str]:
        return [self.entrants[p].seed_hash for p in self.field]

    def active(self) -> list[str]:
        """Who is paired next: every entrant not withdrawn, in entry order."""
        return [e.player for e in self.entrants.values() if not e.withdrawn]


def evolve(state: TournamentState, event: Any) -> TournamentState:
    t = type(event)
    if t is TournamentCreated:
        state.created = event
    elif t is SeedCommitted:
        state.rounds[event.round] = Round(event.round, event.commitment)
    elif t is PlayerEntered:
        state.entrants[event.player] = Entrant(event.player, event.kind, event.seed_hash, event.filler)
    elif t is TournamentStarted:
        state.started = True
        state.field = list(state.entrants)
    elif t is RoundPaired:
        state.rounds[event.round].tables = {p.table: Table(p.table, list(p.players)) for p in event.tables}
    elif t is TableStarted:
        state.rounds[event.round].tables[event.table].match_id = event.match_id
    elif t is TableResult:
        state.rounds[event.round].tables[event.table].result = event
    elif t is RoundSeedRevealed:
        state.rounds[event.round].seed = event.seed
    elif t is Ruling:
        state.rulings.append(event)
    elif t is PlayerWithdrew:
        state.entrants[event.player].withdrawn = True
    elif t is TournamentEnded:
        state.ended = True
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"unknown tournament event {event!r}")
    return state


def fold(events: Iterable[Any]) -> TournamentState:
    state = TournamentState()
    for event in events:
        evolve(state, event)
    return state
