"""Commands and events of Paohuzi (msgspec tagged unions; tag = class name, field ``type``).

Commands name cards by id (discard) or by kind (chi groups: ``"s1"`` .. ``"b10"``); events always
name card ids (PH-1.3), so every copy keeps its identity in the log.
"""

from __future__ import annotations

import msgspec

from domain.game import (
    ClaimAnswer,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealCreated,
    SeedRevealed,
    StartDeal,
)
from domain.table.clock import Back
from domain.table.seating import TableEvent


class _Cmd(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    pass


class Discard(_Cmd):
    """Discard one card of the concealed hand (PH-5.3)."""

    seat: int
    card: int


class Win(_Cmd):
    """Claim the card of the open window as the winning card (PH-4, PH-6.2)."""

    seat: int
    window: int


class Pao(_Cmd):
    """Claim the card as a pao onto a kan in hand or an exposed wei/peng (PH-6.2, PH-6.3)."""

    seat: int
    window: int


class Peng(_Cmd):
    """Claim the card with a pair in hand (PH-6.2, PH-6.3)."""

    seat: int
    window: int


class Chi(_Cmd):
    """Claim the card into a chi. ``groups[0]`` holds the claimed kind; further groups are the
    bi groups (PH-6.5). Kinds are written ``s1``..``b10``."""

    seat: int
    window: int
    groups: list[list[str]]


class Pass(_Cmd):
    """Decline every option in the open window."""

    seat: int
    window: int


Command = StartDeal | Discard | Win | Pao | Peng | Chi | Pass | Back


class _Ev(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    pass


class DealStarted(_Ev, omit_defaults=True):
    """PH-2.2/2.3: the dealer and the dealt cards. ``hands[s]`` is seat s's 20 or 21 ids,
    ``stock`` top first. ``face_up`` is the dealer's public 21st card (PH-2.4).
    ``client_seeds``: every person's seed in seat order when two or more people started the
    deal (TB-3.1; ``client_seed`` is then empty), left out of the record otherwise."""

    client_seed: str
    dealer: int
    hands: list[list[int]]
    stock: list[int]
    face_up: int
    client_seeds: list[str] | None = None


class KanFormed(_Ev):
    """PH-2.5: three identical cards locked as a concealed kan (private to the seat)."""

    seat: int
    cards: list[int]
    rule_id: str = "PH-2.5"


class MeldMade(_Ev):
    """An exposed meld. ``claimed`` is the table card it took (None for an opening ti or a bi
    group); ``upgrades`` is the index of the seat's exposed wei/peng that became this pao."""

    seat: int
    meld: str  # ti | pao | wei | peng | chi
    cards: list[int]
    rule_id: str
    claimed: int | None = None
    from_seat: int | None = None
    upgrades: int | None = None


class CardRevealed(_Ev):
    """PH-5.1: the seat turns the top stock card face up."""

    seat: int
    card: int
    stock_left: int


class CardDiscarded(_Ev):
    """PH-5.3: a card from the concealed hand is laid face up."""

    seat: int
    card: int


class CardUnclaimed(_Ev):
    """Nobody took the table card: it goes to ``seat``'s discard row (PH-5.1, PH-5.4)."""

    seat: int
    card: int
    rule_id: str


class ClaimAnswered(ClaimAnswer):
    """Secret until the window is resolved (PH-6.4, PH-7.2). ``answer``: win | pao | peng | chi
    | pass; ``groups``: chi groups as ids. (``ClaimWindowOpened`` and ``ClaimWindowResolved``
    are the shapes every game shares, from ``domain.game``.)"""

    groups: list[list[int]] | None = None


class ChouMarked(_Ev):
    """PH-6.7: the seat passed a chi/peng on this kind and may no longer chi/peng it."""

    seat: int
    kind: str
    rule_id: str = "PH-6.7"


class DiscardRequired(_Ev):
    """PH-5.2: the seat holds more than its target and must discard."""

    seat: int
    rule_id: str = "PH-5.2"


class HandDead(_Ev):
    """PH-6.6: a mandatory meld left no legal discard and no win."""

    seat: int
    rule_id: str = "PH-6.6"


class WinGroup(msgspec.Struct, frozen=True):
    group: str  # ti | pao | wei | kan | peng | chi | pair
    cards: list[int]
    huxi: int
    exposed: bool


class DealWon(_Ev):
    seat: int
    card: int | None
    from_seat: int | None
    groups: list[WinGroup]
    huxi: int
    tun: int
    payments: list[int]
    heavenly: bool
    rule_id: str


class DealDrawn(_Ev):
    """PH-5.5: the stock is empty and the last card found no winner. Nobody pays (PH-8.4)."""

    rule_id: str = "PH-5.5"


Event = (
    DealCreated
    | DealStarted
    | KanFormed
    | MeldMade
    | CardRevealed
    | CardDiscarded
    | CardUnclaimed
    | ClaimWindowOpened
    | ClaimAnswered
    | ChouMarked
    | ClaimWindowResolved
    | DiscardRequired
    | HandDead
    | DealWon
    | DealDrawn
    | SeedRevealed
    | TableEvent
)
