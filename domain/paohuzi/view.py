"""What one seat may know (PH-7): the seat view that projections build and bots read."""

from __future__ import annotations

import msgspec

from domain.paohuzi.cards import needs_discard
from domain.paohuzi.messages import Command, WinGroup
from domain.table.view import TableView


class MeldView(msgspec.Struct, frozen=True):
    meld: str  # ti | pao | wei | peng | chi
    kind: str  # kind of the first card (for chi: the lowest kind)
    cards: list[int]


class TableCard(msgspec.Struct, frozen=True):
    card: int
    source: str  # reveal | discard
    seat: int


class Resolution(msgspec.Struct, frozen=True):
    window: int
    seat: int | None
    claim: str | None
    rule_id: str


class DealResult(msgspec.Struct, frozen=True):
    outcome: str  # won | drawn
    rule_id: str
    winner: int | None = None
    card: int | None = None
    from_seat: int | None = None
    huxi: int = 0
    tun: int = 0
    payments: list[int] = []
    heavenly: bool = False
    groups: list[WinGroup] = []
    server_seed: str | None = None
    client_seed: str | None = None
    # every seat's free concealed cards and own kan, shown only once the deal is over (PH-7.3)
    hands: list[list[int]] = []
    kans: list[list[list[int]]] = []


class SeatView(msgspec.Struct, frozen=True):
    version: int
    seat: int | None  # None: a spectator's view (no hand, no actions)
    phase: str  # new | discard | claim | over
    dealer: int | None
    face_up: int | None  # the dealer's public 21st card (PH-2.4)
    hand: list[int]  # this seat's free concealed cards
    kans: list[list[int]]  # this seat's own kan (PH-7.2)
    chou: list[str]  # kinds this seat may no longer chi/peng (PH-6.7)
    melds: list[list[MeldView]]  # exposed melds of every seat (PH-7.1)
    rows: list[list[int]]  # discard rows of every seat
    concealed: list[int]  # concealed card count of every seat
    dead: list[bool]
    stock_left: int
    table: TableCard | None
    turn: int | None  # the seat that must discard (None during a claim window)
    window: int | None  # open claim window id
    my_answer: str | None  # own secret answer in the open window
    last_resolution: Resolution | None
    legal_actions: list[Command]
    prompt: str | None  # start | discard | claim | None
    result: DealResult | None
    seating: TableView | None = None  # names, away seats, clocks: added by the read side's gate


def visible_cards(view: SeatView) -> set[int]:
    """Card ids this seat holds or sees out of the hidden hands: its hand and own kan, every
    exposed meld and discard row, and the card on the table. The dealer's open card is among them
    for the dealer only (in its hand): to the others it is public but still in the dealer's hand,
    which the coach counts as seen and the sampler deals to the dealer."""
    seen = set(view.hand)
    for kan in view.kans:
        seen.update(kan)
    for ms in view.melds:
        for m in ms:
            seen.update(m.cards)
    for row in view.rows:
        seen.update(row)
    if view.table is not None:
        seen.add(view.table.card)
    return seen


def pao_kills_hand(view: SeatView) -> bool:
    """PH-6.6 (decided): a pao after which PH-5.2 calls for a discard that the hand cannot make,
    every concealed card being in a kan, is offered like any pao and makes the hand dead. The
    bots never take it. The pao adds a card and a four-card group, so after it the seat holds
    one card more and one four-card group more (PH-5.2's target)."""
    if view.hand or view.seat is None:
        return False
    me = view.seat
    fours = sum(1 for m in view.melds[me] if m.meld in ("ti", "pao"))
    held = 3 * len(view.kans) + sum(len(m.cards) for m in view.melds[me])
    return needs_discard(held + 1, fours + 1)
