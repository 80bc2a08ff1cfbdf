"""Matches (TB-5): a series of deals at one table with a running score, as a log of its own.

Pure: the match's events, the fold of them into a ``MatchState`` and the plan (which deal comes
next, who deals it, in which round, whether the match is over, the standings). What differs
between games (MCR's rounds and winds, MC-6; Paohuzi's dealer rule and target, PH-9) is each
game's ``domain/<game>/match.py``, an object satisfying ``MatchRules``, found through the one
game registry (``domain.game.GAMES``), so nothing here names a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec

from domain.errors import RuleViolation
from domain.game import GAMES

MAX_DEALS = 64  # the longest match a request may ask for (DS-23 beyond it)


# --- events ------------------------------------------------------------------------------------
class MatchCreated(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """The match's first event: its game, the ruleset its first deal was created with, the
    seats as requested, its length in deals and (Paohuzi, PH-9.1) the target score."""

    match_id: str
    game: str
    ruleset: str
    seats: list[str]
    length: int
    length_word: str | None = None  # "round" / "game" when the request named MCR's rounds
    target: int | None = None
    # a rated match (docs/api.md, ratings): per seat the rated player (the account's name or
    # ``bot:<level>``), ranked by the standings when it ends; None: not rated
    rated: list[str] | None = None


class MatchDealStarted(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Deal ``index`` (from 0) of the match is ``deal_id``. ``dealer``: the dealer the plan gave
    it (None for the first deal, whose dealer its seed draws); ``round``: MC-6.2's round."""

    index: int
    deal_id: str
    dealer: int | None = None
    round: int = 0


class MatchDealEnded(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Deal ``index`` ended: its dealer, winner (None: drawn or abandoned) and net payments, as
    its own log has them (TB-5.5). ``abandoned``: it ended by TB-2.7, which ends the match."""

    index: int
    deal_id: str
    dealer: int
    winner: int | None
    payments: list[int]
    abandoned: bool = False
    # a rated match's first deal whose seats were open at the creation: the rated player of each
    # seat as that deal's log has it (the joining accounts' names); None otherwise
    rated: list[str] | None = None


class Standing(msgspec.Struct, frozen=True):
    seat: int
    score: int
    rank: int


class MatchEnded(msgspec.Struct, frozen=True, tag=True):
    """The last event: the standings (TB-5.4)."""

    standings: list[Standing]


MatchEvent = MatchCreated | MatchDealStarted | MatchDealEnded | MatchEnded


# --- the fold ----------------------------------------------------------------------------------
class DealEntry(msgspec.Struct):
    index: int
    deal_id: str
    dealer: int | None
    round: int
    result: MatchDealEnded | None = None


class MatchState(msgspec.Struct):
    created: MatchCreated | None = None
    deals: list[DealEntry] = []
    scores: list[int] = []
    ended: MatchEnded | None = None

    @property
    def over(self) -> bool:
        return self.ended is not None

    @property
    def current(self) -> DealEntry | None:
        """The deal last started (None before the first)."""
        return self.deals[-1] if self.deals else None


def evolve(state: MatchState, event: Any) -> MatchState:
    t = type(event)
    if t is MatchCreated:
        state.created = event
        state.scores = [0] * len(event.seats)
    elif t is MatchDealStarted:
        state.deals.append(DealEntry(event.index, event.deal_id, event.dealer, event.round))
    elif t is MatchDealEnded:
        entry = state.deals[event.index]
        entry.result = event
        if entry.dealer is None:
            entry.dealer = event.dealer
        state.scores = [a + b for a, b in zip(state.scores, event.payments, strict=True)]
    elif t is MatchEnded:
        state.ended = event
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"unknown match event {event!r}")
    return state


def fold(events: Iterable[Any]) -> MatchState:
    state = MatchState()
    for event in events:
        evolve(state, event)
    return state


# --- the per-game rules ------------------------------------------------------------------------
class MatchRules(Protocol):
    """What a game says about its matches (``domain/<game>/match.py``: ``MATCH``)."""

    rule: str  # the rule id a refused request cites (MC-6.1, PH-9.1)

    def length(self, length: Any, target: Any) -> tuple[int, str | None]:
        """The number of deals a request's ``length`` (and ``target``) means, and the length
        word when it was one; ``RuleViolation`` for what this game's matches do not take."""
        ...

    def round_of(self, index: int) -> int:
        """The round deal ``index`` is played in (0 where the game has none)."""
        ...

    def next_dealer(self, last: MatchDealEnded, seats: int) -> int:
        """Who deals after ``last`` ended."""
        ...

    def ends_early(self, created: MatchCreated, scores: Sequence[int]) -> bool:
        """Whether the running scores end the match before its length (a target)."""
        ...


def rules_for(game: str) -> MatchRules:
    module = GAMES.get(game)
    if module is None:
        raise RuleViolation("DS-1", f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")
    return importlib.import_module(f"{module}.match").MATCH


def check_length(rules: MatchRules, length: Any, target: Any) -> tuple[int, str | None]:
    """The game's reading of a request's ``length`` and ``target``, within 1..``MAX_DEALS``."""
    deals, word = rules.length(length, target)
    if not 1 <= deals <= MAX_DEALS:
        raise RuleViolation(rules.rule, f"a match is 1 to {MAX_DEALS} deals, not {deals}")
    return deals, word


# --- the plan ----------------------------------------------------------------------------------
class NextDeal(msgspec.Struct, frozen=True):
    index: int
    dealer: int | None
    round: int


def standings(scores: Sequence[int]) -> list[Standing]:
    """TB-5.4: seats by running score, highest first; equal scores share a rank (1, 1, 3)."""
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    return [Standing(seat, scores[seat], 1 + sum(1 for s in scores if s > scores[seat])) for seat in order]


def plan(state: MatchState) -> NextDeal | None:
    """What follows the last ended deal: the next deal, or None when the match is over (its
    length reached, a target reached, or the last deal abandoned, TB-5.3). Before any deal:
    the first, dealt by its seed."""
    created = state.created
    assert created is not None, "a match starts with MatchCreated"
    rules = rules_for(created.game)
    if not state.deals:
        return NextDeal(0, None, rules.round_of(0))
    last = state.deals[-1].result
    assert last is not None, "the plan follows an ended deal"
    if last.abandoned or last.index + 1 >= created.length or rules.ends_early(created, state.scores):
        return None
    index = last.index + 1
    return NextDeal(index, rules.next_dealer(last, len(created.seats)), rules.round_of(index))


def after_deal(state: MatchState, ended: MatchDealEnded, next_deal_id: str) -> list[Any]:
    """The events that record ``ended`` and what follows it: the next deal (named
    ``next_deal_id``) or the match's end with its standings."""
    after = evolve(fold_copy(state), ended)
    nxt = plan(after)
    if nxt is None:
        return [ended, MatchEnded(standings(after.scores))]
    return [ended, MatchDealStarted(nxt.index, next_deal_id, nxt.dealer, nxt.round)]


def fold_copy(state: MatchState) -> MatchState:
    return MatchState(
        state.created,
        [DealEntry(d.index, d.deal_id, d.dealer, d.round, d.result) for d in state.deals],
        list(state.scores),
        state.ended,
    )
