"""What a tournament does next, decided from its state alone, so a runner that restarts (or a
second one) derives the same step from the log and appends nothing twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.tournament import seeds
from domain.tournament.events import (
    PlayerEntered,
    PlayerWithdrew,
    SeedCommitted,
    TournamentCreated,
    TournamentStarted,
)
from domain.tournament.pairing import pair_round
from domain.tournament.state import HOUSE_TABLE, TournamentState

FORMATS = ("swiss", "duplicate")
MAX_ROUNDS = 32
MAX_ENTRANTS = 1024
FILLER_KIND = "bot:greedy"  # TN-1.2
HOUSE_KIND = "bot:strong"  # TN-3.5


def bot_names(players: Sequence[str]) -> list[tuple[str, str]]:
    """(name, kind) per listed player: an account by its name, each house bot as ``kind#n``."""
    out: list[tuple[str, str]] = []
    counts: dict[str, int] = {}
    for p in players:
        if p.startswith("bot:"):
            counts[p] = counts.get(p, 0) + 1
            out.append((f"{p}#{counts[p]}", p))
        else:
            out.append((p, "person"))
    return out


def check_count(count: int, seats: int, fill: bool) -> int:
    """TN-1.2: the fillers a field of ``count`` needs (0 when it fills its tables)."""
    short = (-count) % seats
    if count < 1:
        raise RuleViolation("TN-1.2", "a tournament needs at least one player")
    if short and not fill:
        raise RuleViolation(
            "TN-1.2", f"{count} players do not fill tables of {seats}; add {short} or ask for fill_with_bots"
        )
    return short


def opening(
    created: TournamentCreated,
    commitments: Sequence[str],
    entries: Sequence[tuple[str, str, str]],
) -> list[Any]:
    """The first batch: the tournament, every round's commitment (before any entry, so no seed
    could be chosen after seeing the entrants), and the listed entries (name, kind, digest)."""
    if created.format not in FORMATS:
        raise RuleViolation("TN-1.1", f"format is one of {', '.join(FORMATS)}")
    if not 1 <= created.rounds <= MAX_ROUNDS:
        raise RuleViolation("TN-1.1", f"rounds are 1 to {MAX_ROUNDS}")
    if len(commitments) != created.rounds:
        raise ValueError("one commitment per round")
    if len(entries) > MAX_ENTRANTS:
        raise RuleViolation("TN-1.2", f"at most {MAX_ENTRANTS} players")
    names = [name for name, _, _ in entries]
    if len(set(names)) != len(names):
        raise RuleViolation("TN-1.2", "a player enters once")
    return [
        created,
        *(SeedCommitted(r, c) for r, c in enumerate(commitments, start=1)),
        *(PlayerEntered(name, kind, digest) for name, kind, digest in entries),
    ]


def filler_name(state: TournamentState, n: int) -> str:
    return f"filler:greedy#{sum(1 for e in state.entrants.values() if e.filler) + n}"


def start(state: TournamentState, filler_hashes: Sequence[str]) -> list[Any]:
    """Close entries: fillers for the empty seats (TN-1.2), then ``TournamentStarted``."""
    assert state.created is not None
    if state.started:
        raise RuleViolation("TN-1.1", "the tournament has started already")
    short = check_count(len(state.active()), state.created.seats, state.created.fill_with_bots)
    if len(filler_hashes) < short:
        raise ValueError("a seed digest per filler")
    fillers = [
        PlayerEntered(filler_name(state, i), FILLER_KIND, filler_hashes[i - 1], True)
        for i in range(1, short + 1)
    ]
    return [*fillers, TournamentStarted()]


def withdraw(state: TournamentState, player: str, filler_hash: str) -> list[Any]:
    """TN-1.4: the player withdraws; before the start they just leave no seat to fill, after it a
    filler takes their place in the next round's pairing."""
    entrant = state.entrants.get(player)
    if entrant is None or entrant.filler:
        raise RuleViolation("TN-1.4", f"{player!r} is not an entrant")
    if entrant.withdrawn:
        raise RuleViolation("TN-1.4", f"{player!r} has withdrawn already")
    if state.ended:
        raise RuleViolation("TN-1.4", "the tournament is over")
    events: list[Any] = [PlayerWithdrew(player)]
    if state.started:
        events.append(PlayerEntered(filler_name(state, 1), FILLER_KIND, filler_hash, True, player))
    return events


# --- the runner's steps --------------------------------------------------------------------------
class Pair(msgspec.Struct, frozen=True):
    round: int


class StartTables(msgspec.Struct, frozen=True):
    round: int
    tables: list[int]  # tables without a match yet


class Await(msgspec.Struct, frozen=True):
    round: int
    tables: list[int]  # tables whose match has no result yet


class Reveal(msgspec.Struct, frozen=True):
    round: int


class End(msgspec.Struct, frozen=True):
    pass


Step = Pair | StartTables | Await | Reveal | End | None


def next_step(state: TournamentState) -> Step:
    """None: nothing to do (entries open, or over)."""
    created = state.created
    if created is None or not state.started or state.ended:
        return None
    for r in range(1, created.rounds + 1):
        rnd = state.rounds[r]
        if not rnd.paired:
            return Pair(r)
        unstarted = [t.table for t in rnd.tables.values() if t.match_id is None]
        if unstarted:
            return StartTables(r, unstarted)
        waiting = [t.table for t in rnd.tables.values() if t.result is None]
        if waiting:
            return Await(r, waiting)
        if rnd.seed is None:
            return Reveal(r)
    return End()


def pairing(state: TournamentState, round_no: int, round_seed: bytes) -> list[Any]:
    from domain.tournament.events import RoundPaired

    return [RoundPaired(round_no, pair_round(state, round_no, round_seed))]


def seat_kind(state: TournamentState, player: str) -> str:
    """The match seat of a player: ``human`` for an account, the house bot's kind for a bot."""
    entrant = state.entrants.get(player)
    if entrant is None:
        return HOUSE_KIND
    return "human" if entrant.kind == "person" else entrant.kind


def board_of(
    state: TournamentState, round_seed: bytes, deal_index: int, deck_size: int
) -> tuple[int, list[int]]:
    """TN-3.4: the dealer and wall of deal ``deal_index`` of every table of a duplicate round."""
    assert state.created is not None
    mixed = seeds.mixed_seed(round_seed, state.field_hashes())
    return seeds.board(mixed, deal_index, deck_size, state.created.seats)


__all__ = ["HOUSE_TABLE", "bot_names", "opening", "start", "withdraw", "next_step", "pairing", "seat_kind"]
