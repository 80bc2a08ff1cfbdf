"""What one seat may see (MC-5): the seat view type bots and the service read."""

from __future__ import annotations

import msgspec

from domain.mcr.messages import Command, HandWon
from domain.table.view import TableView


class MeldView(msgspec.Struct, frozen=True):
    """A set on the table; another seat's concealed kong shows no tiles (MC-5.1)."""

    kind: str  # chow | pung | kong | concealed_kong
    tiles: list[int]
    card: int | None = None
    from_seat: int | None = None


class SeatPublic(msgspec.Struct, frozen=True):
    seat: int
    wind: int
    hand_count: int
    flowers: list[int]
    melds: list[MeldView]
    concealed_kongs: int
    discards: list[int]


class WindowView(msgspec.Struct, frozen=True):
    window: int
    card: int
    source: str
    source_seat: int
    eligible: bool  # this seat may answer
    answer: str | None  # this seat's own answer (others' stay secret, MC-5.2)


class ResultView(msgspec.Struct, frozen=True):
    exhausted: bool
    win: HandWon | None
    hands: list[list[int]]  # every concealed hand, shown once the deal is over (MC-5.3)
    concealed_kongs: list[list[list[int]]]
    server_seed: str
    seed: str
    abandoned: bool = False  # TB-2.7: nobody moved for the deal's idle limit; nobody pays


class SeatView(msgspec.Struct, frozen=True):
    version: int
    seat: int | None
    phase: str
    dealer: int | None  # None until the deal is dealt (DealStarted names the dealer)
    prevailing_wind: int
    turn: int
    wall_count: int
    hand: list[int]
    drawn: int | None
    seats: list[SeatPublic]
    window: WindowView | None
    legal_actions: list[Command]
    prompt: str | None
    result: ResultView | None = None
    # the drawn tile is a kong's own replacement (Out with Replacement Tile would count, MC-4.6)
    drawn_replacement: bool = False
    seating: TableView | None = None  # names, away seats, clocks: added by the read side's gate
