"""MCR state changes: ``evolve`` applies one event to a state in place, ``fold`` a whole log.

Nothing is decided here: an event records what happened, and its change follows it. The one
ruleset difference a change knows is MC-4.6 (``State.rules``), since it decides what the tile
in hand counts as, not whether a command was legal. One chain of type tests serves both the
service's folds and ``decide``'s private clone.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.game import DealCreated, SeedRevealed
from domain.mcr.messages import (
    AddedKongDeclared,
    ClaimAnswered,
    ClaimWindowOpened,
    ClaimWindowResolved,
    ConcealedKongDeclared,
    DealStarted,
    Event,
    FlowerReplaced,
    HandWon,
    SetClaimed,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WallExhausted,
)
from domain.mcr.seats import SEATS
from domain.mcr.state import Meld, State, Window
from domain.mcr.tiles import DECK_SIZE
from domain.mcr.wall import deck_of
from domain.table.clock import DealAbandoned
from domain.table.seating import SEATING_EVENTS, Seating


def _remove(lst: list[int], tiles: Iterable[int]) -> None:
    for t in tiles:
        lst.remove(t)


def evolve(s: State, e: Event) -> State:  # noqa: C901 - one dispatch over the event union
    """``s`` after ``e``, changed in place and returned (``clone`` first to keep the old one)."""
    s.version += 1
    t = type(e)
    if t is TileDrawn:
        if e.replacement:
            s.back -= 1
        else:
            s.front += 1
        s.hands[e.seat].append(e.tile)
        s.turn = e.seat
        s.last_tile = e.tile
        s.after_kong = e.replacement
        s.must_discard = False
        s.phase = "turn"
    elif t is TileDiscarded:
        s.hands[e.seat].remove(e.tile)
        s.discards[e.seat].append(e.tile)
        s.last_tile = None
        s.must_discard = False
        s.after_kong = False
        s.phase = "between"
    elif t is ClaimAnswered:
        s.window.answers[e.seat] = (e.answer, list(e.tiles))
    elif t is ClaimWindowOpened:
        s.window = Window(e.window, e.card, e.source_seat, e.source, list(e.eligible), {})
        s.windows = e.window + 1
        s.phase = "claim"
    elif t is ClaimWindowResolved:
        s.window = None
        s.phase = "between"
    elif t is FlowerReplaced:
        s.hands[e.seat].remove(e.flower)
        s.flowers[e.seat].append(e.flower)
        if e.replacement is not None:
            s.back -= 1
            s.hands[e.seat].append(e.replacement)
            if e.seat == s.turn and s.last_tile == e.flower:
                s.last_tile = e.replacement
                if s.rules.flower_replacement_is_no_kong_replacement:
                    s.after_kong = False  # MC-4.6: the tile now in hand replaced a flower, not the kong
        elif s.last_tile == e.flower:
            s.last_tile = None
    elif t is SetClaimed:
        hand = s.hands[e.seat]
        _remove(hand, [x for x in e.tiles if x != e.card])
        s.discards[e.from_seat].remove(e.card)
        s.melds[e.seat].append(Meld(e.meld, list(e.tiles), e.card, e.from_seat))
        s.turn = e.seat
        s.last_tile = None
        s.after_kong = False
        s.must_discard = e.meld != "kong"
        s.phase = "turn"
    elif t is ConcealedKongDeclared:
        _remove(s.hands[e.seat], e.tiles)
        s.melds[e.seat].append(Meld("concealed_kong", list(e.tiles)))
        s.last_tile = None
    elif t is AddedKongDeclared:
        s.hands[e.seat].remove(e.tile)
        k = e.tile >> 2
        melds = s.melds[e.seat]
        for i, m in enumerate(melds):  # a new Meld: clones share Meld objects (State.clone)
            if m.kind == "pung" and m.tiles[0] >> 2 == k:
                melds[i] = Meld("kong", [*m.tiles, e.tile], m.card, m.from_seat, True)
                break
        s.last_tile = None
        s.phase = "between"
    elif t is HandWon:
        if e.robbing_kong:
            melds = s.melds[e.from_seat]
            for i, m in enumerate(melds):
                if m.added and e.tile in m.tiles:
                    tiles = list(m.tiles)
                    tiles.remove(e.tile)
                    melds[i] = Meld("pung", tiles, m.card, m.from_seat, False)
                    break
            s.hands[e.seat].append(e.tile)
        elif not e.self_drawn:
            s.discards[e.from_seat].remove(e.tile)
            s.hands[e.seat].append(e.tile)
        s.result = e
        s.window = None
        s.phase = "over"
    elif t is WallExhausted:
        s.exhausted = True
        s.phase = "over"
    elif t is TilesDealt:
        s.hands[e.seat] = list(e.tiles)
        s.front += len(e.tiles)
        if e.seat == s.dealer:
            s.last_tile = e.tiles[-1]
    elif t is DealStarted:
        s.dealer = e.dealer
        s.client_seed = e.client_seed
        s.client_seeds = e.client_seeds
        s.prevailing_wind = e.prevailing_wind
        s.seat_winds = list(e.seat_winds)
        s.wall = deck_of(s, e.client_seed, e.client_seeds)
        s.front = 0
        s.back = DECK_SIZE
        s.hands = [[] for _ in range(SEATS)]
        s.flowers = [[] for _ in range(SEATS)]
        s.melds = [[] for _ in range(SEATS)]
        s.discards = [[] for _ in range(SEATS)]
        s.turn = e.dealer
        s.phase = "turn"
    elif t is SeedRevealed:
        s.seed = e.seed
        s.phase = "over"
    elif t in SEATING_EVENTS:
        s.seating = s.seating.after(e)
    elif t is DealAbandoned:  # TB-2.7: over, nobody pays; the seed follows
        s.abandoned = True
        s.window = None
        s.phase = "over"
    elif t is DealCreated:
        s.deal_id = e.deal_id
        s.seat_kinds = list(e.seats)
        s.commitment = e.commitment
        s.server_seed = e.server_seed
        s.fixed_deck = list(e.fixed_deck) if e.fixed_deck is not None else None
        s.fixed_dealer = e.fixed_dealer
        # MC-6.2: a hand of a match is played in its round's wind (DealStarted names it)
        s.prevailing_wind = e.match.round % 4 if e.match is not None else 0
        s.ruleset = e.ruleset  # the text stays as the log wrote it; ``s.rules`` reads it
        s.seating = Seating.of(e.seats, e.table)
        s.created = True
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"unknown event {e!r}")
    return s


def fold(events: Iterable[Event]) -> State:
    """The state a log leaves, from an empty one."""
    s = State()
    for e in events:
        evolve(s, e)
    return s
