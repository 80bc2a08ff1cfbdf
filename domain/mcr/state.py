"""The deal's state: a compact mutable struct evolved in place (``clone`` before deciding)."""

from __future__ import annotations

import msgspec

from domain.mcr.messages import HandWon
from domain.mcr.rulesets import MCR1, ruleset_of
from domain.table.seating import Seating


class Meld(msgspec.Struct):
    """A set on the table. ``kind``: chow, pung, kong (exposed or added) or concealed_kong."""

    kind: str
    tiles: list[int]
    card: int | None = None  # the claimed tile
    from_seat: int | None = None
    added: bool = False


class Window(msgspec.Struct):
    window: int
    card: int
    source_seat: int
    source: str
    eligible: list[int]
    answers: dict[int, tuple[str, list[int]]] = {}

    def copy(self) -> Window:
        return Window(
            self.window, self.card, self.source_seat, self.source, list(self.eligible), dict(self.answers)
        )


class State(msgspec.Struct):
    deal_id: str = ""
    seat_kinds: list[str] = []
    commitment: str = ""
    server_seed: str = ""
    fixed_deck: list[int] | None = None
    fixed_dealer: int | None = None
    created: bool = False
    version: int = 0
    # new -> turn / claim / between (inside one decide) -> over
    phase: str = "new"
    client_seed: str = ""
    seed: str = ""  # revealed at the end
    dealer: int = 0
    prevailing_wind: int = 0
    seat_winds: list[int] = []
    wall: list[int] = []  # the whole deck order; the live wall is wall[front:back]
    front: int = 0
    back: int = 0
    hands: list[list[int]] = []
    flowers: list[list[int]] = []
    melds: list[list[Meld]] = []
    discards: list[list[int]] = []
    turn: int = 0
    last_tile: int | None = None  # the tile the seat on turn just drew (its self-drawn win tile)
    must_discard: bool = False  # MC-3.5: after a chow or pung
    after_kong: bool = False  # the last draw was a kong replacement (MC-4.2 out with replacement)
    window: Window | None = None
    windows: int = 0
    result: HandWon | None = None
    exhausted: bool = False
    ruleset: str = "mcr/1"  # as the deal's DealCreated names it: the rules its decide follows
    client_seeds: list[str] | None = None  # several people's seeds (TB-3.1)
    seating: Seating = msgspec.field(default_factory=Seating)  # who sits where (TB-1); immutable
    abandoned: bool = False  # TB-2.7: ended by DealAbandoned, nobody pays

    @property
    def rules(self) -> MCR1:
        """The ruleset object ``ruleset`` names: what the engine asks instead of comparing the text."""
        return ruleset_of(self.ruleset)

    @property
    def wall_count(self) -> int:
        return self.back - self.front

    def clone(self) -> State:
        """Copies what evolve changes in place (lists); Meld objects are shared, since evolve
        replaces a meld instead of changing it."""
        c = State(
            self.deal_id,
            self.seat_kinds,
            self.commitment,
            self.server_seed,
            self.fixed_deck,
            self.fixed_dealer,
            self.created,
            self.version,
            self.phase,
            self.client_seed,
            self.seed,
            self.dealer,
            self.prevailing_wind,
            self.seat_winds,
            self.wall,
            self.front,
            self.back,
            [list(h) for h in self.hands],
            [list(f) for f in self.flowers],
            [list(ms) for ms in self.melds],
            [list(d) for d in self.discards],
            self.turn,
            self.last_tile,
            self.must_discard,
            self.after_kong,
            self.window.copy() if self.window is not None else None,
            self.windows,
            self.result,
            self.exhausted,
            self.ruleset,
            self.client_seeds,
            self.seating,
            self.abandoned,
        )
        return c
