"""What the read side answers: the response types of the reads (HTTP encodes them as they are).

They hold only what the gate (``service.app.reads.gate``) put in them for one viewer.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.table.view import TableView


class DealSummary(msgspec.Struct):
    """``seats_to_act``: the seats anyone may know the deal waits on (the seat whose turn it
    is), plus the viewer's own seat when it must answer; never who may claim."""

    deal_id: str
    game: str
    seats: list[str]
    version: int
    over: bool
    commitment: str
    seats_to_act: list[int]
    spectators: bool
    pace: str = "normal"
    coach: bool = False  # the seats may ask for advice
    rematch_of: str | None = None  # the deal this one plays again
    rematched_by: str | None = None  # the deal that plays this one again ("Play again")
    names: list[str | None] = []  # each seat's name (TB-1.3; public, always plain text)
    open_seats: list[int] = []  # seats still to be taken (TB-1.1)
    lobby: bool = False  # listed in the lobby: anyone may take an open seat (TB-1.2)
    # people whose StartDeal the deal still waits for (TB-1.4); never their seeds (TB-3.2)
    waiting_to_start: list[int] = []
    table: TableView | None = None  # names, away seats and the clocks, as this viewer may see them
    # a deal of a match (TB-5): {"match_id", "index", "next_deal_id"} (null until the next deal exists)
    match: dict[str, Any] | None = None
    # a duplicate board over here but still played at another table of its round (TN-3.6): it
    # reads as a live deal until the round ends
    sealed: bool = False


class ReplayFrame(msgspec.Struct):
    step: int
    total: int
    perspective: str
    event: dict[str, Any] | None
    view: Any


class DealListing(msgspec.Struct):
    deal_id: str
    game: str | None
    created_ms: int
    over: bool
    spectators: bool


class DealList(msgspec.Struct):
    """Deals anyone may find, newest first: finished ones, and live ones open to spectators."""

    deals: list[DealListing]


class LobbyTable(msgspec.Struct):
    deal_id: str
    game: str
    created_ms: int
    seats: list[str]
    names: list[str | None]
    open_seats: list[int]


class LobbyList(msgspec.Struct):
    """Live tables listed in the lobby that still have an open seat, newest first (TB-1.2)."""

    tables: list[LobbyTable]


class PlayerResult(msgspec.Struct):
    """A finished deal's public result, for one seat: the winner (null: nobody won), this
    seat's net payment and the game's unit."""

    winner: int | None
    score: int
    unit: str


class PlayerLinks(msgspec.Struct):
    """The web table's page of the seat, the replay (once over) and the review of the seat's
    decisions (the API route; once over)."""

    table: str
    replay: str | None
    review: str | None


class PlayerDeal(msgspec.Struct):
    """One seat a player took. ``created_at``: the deal's first record's time, as the log
    records it; ``status``: playing, over or abandoned (TB-2.7); ``result``: null while playing."""

    deal_id: str
    game: str
    ruleset: str
    created_at: str
    seat: int
    status: str
    result: PlayerResult | None
    links: PlayerLinks
    match_id: str | None = None


class PlayerMatch(msgspec.Struct):
    """One seat a player took in a match (TB-5): its game, time (the match log's first record),
    the seat (the same in every deal of it, TB-5.2), whether it is over, this seat's running
    score and the match's deals so far (``GET /matches/{id}`` has the rest)."""

    match_id: str
    game: str
    ruleset: str
    created_at: str
    seat: int
    status: str  # playing | over
    score: int
    unit: str
    deal_ids: list[str]
    links: dict[str, str]


class PlayerDeals(msgspec.Struct):
    """A player's deals and matches, each newest first; ``next_before``: the
    ``before`` of the next page (null: this is the last). A deal of a match names it in
    ``match_id``; a match's later deals are listed under the match."""

    deals: list[PlayerDeal]
    next_before: int | None = None
    matches: list[PlayerMatch] = []
