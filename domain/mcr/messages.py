"""Commands and events of MCR, the same records under every ruleset (``mcr/1``, ``mcr/2``: what
differs is in ``rulesets.py``). Tagged msgspec structs, tag = class name, field ``type``."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.game import (
    ClaimAnswer,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealCreated,
    SeedRevealed,
    StartDeal,
)
from domain.mcr.scoring import Fan
from domain.table.clock import Back
from domain.table.seating import TableEvent

ClaimKind = Literal["win", "kong", "pung", "chow"]
Answer = Literal["pass", "win", "kong", "pung", "chow"]


class _C(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    pass


# ---- commands ---------------------------------------------------------------------------
class Discard(_C):
    """MC-3.1: discard one tile from the hand (the UI confirms before sending)."""

    seat: int
    tile: int


class DeclareWin(_C):
    """MC-4.5: a self-drawn win on one's own turn (wins on a discard are ``Claim(claim="win")``)."""

    seat: int


class ConcealedKong(_C):
    """MC-3.3: four of a kind from the hand, on one's own turn."""

    seat: int
    tiles: list[int]


class AddedKong(_C):
    """MC-3.3: the fourth tile onto one's own exposed pung, on one's own turn."""

    seat: int
    tile: int


class Claim(_C):
    """MC-3.2: answer an open claim window with a claim; ``tiles`` are the hand tiles used."""

    seat: int
    window: int
    claim: ClaimKind
    tiles: list[int] = []


class Pass(_C):
    """MC-3.2 / MC-4.5: answer an open claim window with no claim."""

    seat: int
    window: int


Command = StartDeal | Discard | DeclareWin | ConcealedKong | AddedKong | Claim | Pass | Back


# ---- events -----------------------------------------------------------------------------
class DealStarted(_C, omit_defaults=True):
    """MC-2.2/2.3: the client seed is mixed in; the dealer is known. The deck stays hidden.
    ``client_seeds``: every person's seed in seat order when two or more people started the
    deal (TB-3.1; ``client_seed`` is then empty), left out of the record otherwise."""

    dealer: int
    client_seed: str
    prevailing_wind: int
    seat_winds: list[int]
    client_seeds: list[str] | None = None


class TilesDealt(_C):
    """MC-2.4: a seat's starting tiles from the front of the wall (dealer 14, others 13)."""

    seat: int
    tiles: list[int]


class FlowerReplaced(_C):
    """MC-2.4: a flower put face up, replaced from the back (``replacement`` None: wall empty)."""

    seat: int
    flower: int
    replacement: int | None


class TileDrawn(_C):
    """MC-3.1 (front) or MC-3.3 (``replacement``: from the back after a kong)."""

    seat: int
    tile: int
    replacement: bool = False


class TileDiscarded(_C):
    seat: int
    tile: int


class ClaimAnswered(ClaimAnswer):
    """A seat's secret answer (MC-5.2: ``answer`` is one of ``Answer``), shown to others only
    after the window resolves. ``ClaimWindowOpened`` (MC-3.2, MC-3.4: the discarded or added
    tile) and ``ClaimWindowResolved`` are the shapes every game shares, from ``domain.game``."""

    tiles: list[int] = []


class SetClaimed(_C):
    """A chow, pung or exposed kong made with the claimed ``card`` from ``from_seat``."""

    seat: int
    meld: Literal["chow", "pung", "kong"]
    tiles: list[int]
    card: int
    from_seat: int


class ConcealedKongDeclared(_C):
    seat: int
    tiles: list[int]


class AddedKongDeclared(_C):
    seat: int
    tile: int


class HandWon(_C):
    """MC-4: the win, its fans (value, count, names) and the payments per seat."""

    seat: int
    tile: int
    from_seat: int | None
    self_drawn: bool
    robbing_kong: bool
    about_kong: bool
    wall_last: bool
    fourth_tile: bool
    hand: list[int]
    fans: list[Fan]
    fan_points: int
    flower_points: int
    total: int
    payments: list[int]


class WallExhausted(_C):
    """MC-3.6: the seat on turn cannot draw; the deal is a draw."""

    seat: int


Event = (
    DealCreated
    | DealStarted
    | TilesDealt
    | FlowerReplaced
    | TileDrawn
    | TileDiscarded
    | ClaimWindowOpened
    | ClaimAnswered
    | ClaimWindowResolved
    | SetClaimed
    | ConcealedKongDeclared
    | AddedKongDeclared
    | HandWon
    | WallExhausted
    | SeedRevealed
    | TableEvent
)
