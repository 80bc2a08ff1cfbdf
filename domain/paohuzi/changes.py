"""Paohuzi state changes: ``evolve`` applies one event to a state, ``fold`` a whole log.

Nothing is decided here: each event's change records what the event says happened (the rules
are checked in ``decide``, before the event exists). One chain of type tests, commonest event
first, serves both: the service folds a deal's log whenever it is not cached, and a whole deal
must fold in under twice the time msgspec takes to decode its events (``bench.paohuzi``'s
``fold_over_decode``), so the chain avoids a call per event for the short changes.

``fold`` works on a state of its own, so it may change in place what ``evolve`` has to replace
because a ``State.copy`` shares it (the resolutions so far).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.game import DealCreated, SeedRevealed
from domain.paohuzi.cards import SEATS, kind_from_name
from domain.paohuzi.messages import (
    CardDiscarded,
    CardRevealed,
    CardUnclaimed,
    ChouMarked,
    ClaimAnswered,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealDrawn,
    DealStarted,
    DealWon,
    DiscardRequired,
    HandDead,
    KanFormed,
    MeldMade,
)
from domain.paohuzi.state import State
from domain.table.clock import DealAbandoned
from domain.table.seating import SEATING_EVENTS, Seating


def _remove_card(s: State, seat: int, card: int) -> None:
    """Take ``card`` out of the seat's concealed cards: from the hand, or with its whole kan."""
    hand = s.hands[seat]
    if card in hand:
        hand.remove(card)
        s.counts[seat][card >> 2] -= 1
        return
    kans = s.kans[seat]
    for i, kan in enumerate(kans):
        if card in kan:
            del kans[i]
            return
    raise ValueError(f"card {card} is not in seat {seat}'s concealed hand")


def _started(s: State, e: DealStarted) -> None:
    s.client_seed = e.client_seed
    s.client_seeds = e.client_seeds
    s.dealer = e.dealer
    s.face_up = e.face_up
    s.stock = e.stock  # never changed: the position in it moves (``stock_pos``)
    s.stock_pos = 0
    hands = s.hands
    counts = s.counts
    for seat in range(SEATS):
        dealt = e.hands[seat]
        hands[seat] = list(dealt)
        c = [0] * 20
        for card in dealt:
            c[card >> 2] += 1
        counts[seat] = c
    s.phase = "dealing"


def _kan(s: State, e: KanFormed) -> None:
    hand = s.hands[e.seat]
    cnt = s.counts[e.seat]
    for card in e.cards:
        hand.remove(card)
        cnt[card >> 2] -= 1
    s.kans[e.seat].append(tuple(e.cards))


def _meld(s: State, e: MeldMade) -> None:
    seat = e.seat
    cards = e.cards
    claimed = e.claimed
    if claimed is not None and claimed in cards:
        s.table = None  # the claimed card leaves the table for the meld
    upgrades = e.upgrades
    if upgrades is not None:  # the other cards are the exposed meld being upgraded (pao)
        s.melds[seat][upgrades] = (e.meld, tuple(cards))
        return
    hand = s.hands[seat]
    cnt = s.counts[seat]
    rest = iter(cards)
    for card in rest:
        if card == claimed:
            continue
        try:
            hand.remove(card)
        except ValueError:  # not in the hand: a ti or pao onto a kan in hand takes the whole kan
            _remove_card(s, seat, card)
            for card in rest:  # noqa: B020 - the same walk goes on, past the kan
                if card != claimed and card in hand:
                    hand.remove(card)
                    cnt[card >> 2] -= 1
            break
        cnt[card >> 2] -= 1
    s.melds[seat].append((e.meld, tuple(cards)))
    if e.rule_id == "PH-2.5":
        s.opening_fours[seat] += 1


def _apply(s: State, events: Iterable[Any], owned: bool) -> None:
    """Apply ``events`` in order. ``owned``: no copy shares ``s``'s resolutions (``fold``)."""
    for e in events:
        t = type(e)
        if t is ClaimAnswered:
            s.answers[e.seat] = (e.answer, e.groups)
        elif t is ClaimWindowOpened:
            s.window = e.window
            s.eligible = e.eligible  # never changed in place: a new window brings a new list
            if owned:
                s.answers.clear()
            else:  # a state copy has its own answers, but the state it was copied from keeps them
                s.answers = {}
            s.phase = "claim"
        elif t is ClaimWindowResolved:
            if owned:
                s.resolutions[e.window] = (e.seat, e.claim, e.rule_id)
            else:  # copied on write: a state copy shares the dict
                s.resolutions = {**s.resolutions, e.window: (e.seat, e.claim, e.rule_id)}
            s.phase = "resolved"
        elif t is MeldMade:
            _meld(s, e)
        elif t is DiscardRequired:
            s.phase = "discard"
            s.turn = e.seat
        elif t is CardDiscarded:
            seat = e.seat
            card = e.card
            s.hands[seat].remove(card)
            k = card >> 2
            s.counts[seat][k] -= 1
            s.chou[seat].add(k)  # PH-6.7: a discarded kind is chou for its seat
            s.table = card
            s.table_source = "discard"
            s.table_seat = seat
            s.phase = "discarded"
        elif t is CardRevealed:
            s.stock_pos += 1
            s.table = e.card
            s.table_source = "reveal"
            s.table_seat = s.turn = e.seat
            s.phase = "reveal"
        elif t is CardUnclaimed:
            s.rows[e.seat].append(e.card)
            s.table = None
        elif t is KanFormed:
            _kan(s, e)
        elif t is ChouMarked:
            s.chou[e.seat].add(kind_from_name(e.kind))
        elif t is DealStarted:
            _started(s, e)
        elif t is DealCreated:
            s.created = e
            s.seating = Seating.of(e.seats, e.table)
        elif t is DealWon or t is DealDrawn or t is DealAbandoned:  # DealAbandoned: TB-2.7
            s.result = e
            s.phase = "over"
        elif t is SeedRevealed:
            s.seed_revealed = True
            s.phase = "over"
        elif t is HandDead:
            s.dead[e.seat] = True
        elif t in SEATING_EVENTS:
            s.seating = s.seating.after(e)
        else:
            raise KeyError(t)  # not a Paohuzi event


def evolve(state: State, event: Any) -> State:
    """``state`` after ``event``: changed in place and returned."""
    _apply(state, (event,), False)
    state.version += 1
    return state


def fold(events: Iterable[Any]) -> State:
    """The state after every event of ``events``, from a new state."""
    s = State()
    if not isinstance(events, (list, tuple)):
        events = list(events)
    _apply(s, events, True)
    s.version = len(events)
    return s


def initial_state() -> State:
    return State()
