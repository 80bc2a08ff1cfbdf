"""What every game offers the rest of the system: two small protocols, one registry.

A game is a subpackage of ``domain`` exposing a module-level object satisfying ``Game``, and a
package of ``projections`` satisfying ``Projections`` (the views and the claim audit the service
reads). The service only ever talks to these two protocols, so adding a third game is a new
folder in each plus one line in ``GAMES`` and one kit in ``service.app.games``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec

from domain.errors import RuleViolation
from domain.shuffle import commitment
from domain.table.clock import ClockSettings

# shown each event of an execution with the state just after it (``Game.execute``)
Watch = Callable[[Any, Any], None]


class MatchPlace(msgspec.Struct, frozen=True, omit_defaults=True):
    """Where a deal stands in a match (TB-5): the match's id, the deal's index in it (from 0) and
    its round (MCR's prevailing wind, MC-6.2; 0 where the game has no rounds)."""

    match_id: str
    index: int
    round: int = 0


class DealCreated(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """First event of every deal. ``server_seed`` is private until ``SeedRevealed``.

    ``rematch_of``: the deal this one plays again ("Play again"): the same seats, and the dealer
    moved on by one seat from that deal's dealer, named here in ``fixed_dealer`` (the deck is
    still shuffled from the seed). Otherwise ``fixed_deck`` / ``fixed_dealer`` are test fixtures
    (``--dev``). Fields at their default are left out of the record, so a log written before
    a field existed reads the same.
    """

    deal_id: str
    ruleset: str
    seats: list[str]
    commitment: str
    server_seed: str
    fixed_deck: list[int] | None = None
    fixed_dealer: int | None = None
    rematch_of: str | None = None
    table: str | None = None  # "table/1": the table rules hold (docs/rules/table.md); None before them
    clock: ClockSettings | None = None  # TB-2.1: the deal's clock; None: untimed
    # TB-2.7: seconds an untimed deal may wait before it is abandoned; None: the rule's hour
    # (a shorter one is a test fixture, ``--dev``, like the fixed deck)
    idle_limit_s: int | None = None
    # TB-5.1: the match this deal is one of (its dealer is then in ``fixed_dealer``); None: a
    # deal on its own, whose record is what it always was
    match: MatchPlace | None = None
    # where a deal played elsewhere came from ("botzone": a judge's match, docs/botzone.md): its
    # deck and dealer are the match's (``fixed_deck``), its seed was never committed to before the
    # deal, so the audit checks no commitment; None: a deal played here
    imported: str | None = None
    # a rated deal (docs/design.md, ratings): per seat the rated player, the signed-in account's
    # name for a person seat, ``bot:<level>`` for a house bot; None: a deal that is not rated
    rated: list[str] | None = None


class SeedRevealed(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Last event of every deal: anyone can now re-derive the deck (docs/design.md, the shuffle).

    ``client_seeds``: with two or more people, every person's seed in seat order (TB-3.1; then
    ``client_seed`` is empty); left out of the record otherwise, so a one-person log is
    byte for byte what it always was."""

    server_seed: str
    client_seed: str
    seed: str
    client_seeds: list[str] | None = None


class ClaimWindowOpened(msgspec.Struct, frozen=True, tag=True):
    """A piece on offer (PH-6, MC-3.2): the ``eligible`` seats may answer for ``card``, the
    piece's id (a Paohuzi card or an MCR tile), revealed, discarded or added to a kong
    (``source``) by ``source_seat``. Who is eligible is private to each of them (the gate)."""

    window: int
    card: int
    source_seat: int
    source: str  # "reveal" | "discard" (Paohuzi), "discard" | "added_kong" (MCR)
    eligible: list[int]


class ClaimAnswer(msgspec.Struct, frozen=True, tag=True):
    """The fields every game's ``ClaimAnswered`` starts with: one seat's answer to a window,
    secret until the window is resolved (PH-7.2, MC-5.2). Each game subclasses it as
    ``ClaimAnswered`` and adds what a claim of its own names (Paohuzi's chi groups, MCR's tiles)."""

    window: int
    seat: int
    answer: str  # "pass" or a claim the game knows ("win", "pung", "chi", ...)


class ClaimWindowResolved(msgspec.Struct, frozen=True, tag=True):
    """How a window closed: the ``seat`` that took the piece with ``claim`` (``None`` for both:
    everyone passed) and the rule that decided it (PH-6.4, MC-3.2); never arrival order."""

    window: int
    seat: int | None
    claim: str | None
    rule_id: str


class DealOutcome(msgspec.Struct, frozen=True):
    """How a deal ended, in the words every game shares (``projections/<game>/summary.py``
    makes it): the arena, ``dealstream simulate`` and anything else that compares deals read
    only this. ``details`` holds what only one game has (Paohuzi's huxi, MCR's fan points)."""

    winner: int | None  # None: a drawn deal, or one not over
    payments: list[int]  # net per seat; they sum to 0
    score: int  # the winner's score in ``unit`` (0 without a winner)
    unit: str  # the game's score unit: "tun", "points"
    details: dict[str, Any] = {}


class StartDeal(msgspec.Struct, frozen=True, tag=True):
    """The command that mixes the client seed in and deals."""

    seat: int
    client_seed: str = ""


class DealCreation:
    """``Game.create`` for every game: the checks, then the one ``DealCreated`` of a new deal.

    A game sets ``creation_rules``: its rule ids for (seat count, deck ids, dealer seat), cited
    when a check fails.
    """

    name: str
    ruleset: str
    seat_count: int
    deck_size: int
    piece_field: str
    creation_rules: tuple[str, str, str]

    def create(
        self,
        *,
        deal_id: str,
        seats: Sequence[str],
        server_seed: bytes,
        fixed_deck: list[int] | None = None,
        fixed_dealer: int | None = None,
        rematch_of: str | None = None,
        table: str | None = None,
        clock: ClockSettings | None = None,
        idle_limit_s: int | None = None,
        match: MatchPlace | None = None,
        rated: list[str] | None = None,
    ) -> list[DealCreated]:
        seats_rule, deck_rule, dealer_rule = self.creation_rules
        if len(seats) != self.seat_count:
            raise RuleViolation(seats_rule, f"{self.name} needs {self.seat_count} seats, got {len(seats)}")
        if fixed_deck is not None and sorted(fixed_deck) != list(range(self.deck_size)):
            last = self.deck_size - 1
            raise RuleViolation(deck_rule, f"a fixed deck holds every id 0..{last} exactly once")
        if fixed_dealer is not None and not 0 <= fixed_dealer < self.seat_count:
            raise RuleViolation(dealer_rule, f"the fixed dealer must be a seat 0..{self.seat_count - 1}")
        return [
            DealCreated(
                deal_id=deal_id,
                ruleset=self.ruleset,
                seats=list(seats),
                commitment=commitment(server_seed),
                server_seed=server_seed.hex(),
                fixed_deck=list(fixed_deck) if fixed_deck is not None else None,
                fixed_dealer=fixed_dealer,
                rematch_of=rematch_of,
                table=table,
                clock=clock,
                idle_limit_s=idle_limit_s,
                match=match,
                rated=rated,
            )
        ]


class Game(Protocol):
    name: str
    ruleset: str
    seat_count: int
    deck_size: int
    # The field in which this game's commands and events name one piece ("card": Paohuzi,
    # "tile": MCR). It is a name of the log and of the API, so it stays what logs were written
    # with (docs/GAME_CONTRACT.md, "One vocabulary"); code that reads any game's actions asks here.
    piece_field: str
    command_type: Any  # the game's tagged union of commands
    event_type: Any  # the game's tagged union of events

    def create(
        self,
        *,
        deal_id: str,
        seats: Sequence[str],
        server_seed: bytes,
        fixed_deck: list[int] | None = None,
        fixed_dealer: int | None = None,
        rematch_of: str | None = None,
        table: str | None = None,
        clock: Any = None,
        idle_limit_s: int | None = None,
        match: Any = None,
        rated: list[str] | None = None,
    ) -> list[Any]: ...

    def initial_state(self) -> Any: ...

    def decide(self, state: Any, command: Any) -> list[Any]: ...

    def execute(self, state: Any, command: Any, watch: Watch | None = None) -> tuple[list[Any], Any]:
        """``decide`` plus the state after its events (equal to evolving ``state`` by them,
        which is left unchanged): the service keeps it instead of evolving again. ``watch``,
        when given, is called with each event and the state just after it, in order, as the
        execution applies them (to be read then, not kept: the same state goes on changing):
        the clock of a clocked deal reads each state on the way through a batch, so nothing
        evolves the batch a second time to show it them."""
        ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def fold(self, events: Iterable[Any]) -> Any: ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...

    def seats_to_act(self, state: Any) -> list[int]: ...

    def is_over(self, state: Any) -> bool: ...

    def copy_state(self, state: Any) -> Any:
        """A copy that evolving leaves ``state`` unchanged (the clock steps through a batch on it)."""
        ...


@runtime_checkable
class Projections(Protocol):
    """What a game's projections package (``projections/<game>/__init__.py``) provides: pure
    functions of the state or the events, so the service never reads a state's fields itself.

    A module satisfies it by defining these functions at module level. Every read of a deal
    passes through them, so they are also where hidden cards are kept from the wrong viewer.
    """

    def view_from_state(self, state: Any, seat: int | None, /) -> Any:
        """The seat's view (its hand, the public table, its legal actions); ``None``: a spectator."""
        ...

    def seat_view(self, events: Iterable[Any], seat: int | None, /) -> Any:
        """``view_from_state`` of the events folded (replay frames)."""
        ...

    def full_view(self, events: Iterable[Any], /) -> dict[str, Any]:
        """Everything, every hand and the stock: the replay perspective ``all`` after the end."""
        ...

    def redact_event(self, event: Any, seat: int | None, /) -> dict[str, Any] | None:
        """The event as ``seat`` may see it live, JSON-ready; ``None`` if it must not learn of it."""
        ...

    def claim_audit(self, events: Iterable[Any], /) -> list[dict[str, Any]]:
        """Per claim window: options, answers, the resolution and the one the rules give."""
        ...

    def public_turn(self, state: Any, /) -> list[int]:
        """The seats anyone may know the deal waits on (never who may claim in a window)."""
        ...

    def dealer_of(self, state: Any, /) -> int:
        """The deal's dealer (a rematch's dealer is the seat after it)."""
        ...


GAMES: dict[str, str] = {
    "paohuzi": "domain.paohuzi",
    "mcr": "domain.mcr",
}


def get_game(name: str) -> Game:
    """The game object new deals of ``name`` are created with (its current ruleset); unknown
    names are a protocol error, not a crash."""
    module = GAMES.get(name)
    if module is None:
        raise RuleViolation("DS-1", f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")
    return importlib.import_module(module).GAME


def rulesets(name: str) -> dict[str, Game]:
    """Every ruleset of the game ``name`` this build can decide, by its full id."""
    get_game(name)  # DS-1 for an unknown game
    return dict(importlib.import_module(GAMES[name]).RULESETS)


def get_ruleset(ruleset: str) -> Game:
    """The game object of a full ruleset id (``mcr/1``) as a log names it. A log of a ruleset
    this build lacks is refused (DS-1), never decided with other rules."""
    name = ruleset.split("/", 1)[0]
    if name not in GAMES:
        raise RuleViolation("DS-1", f"unknown game in ruleset {ruleset!r}; known: {', '.join(sorted(GAMES))}")
    known = rulesets(name)
    if ruleset not in known:
        raise RuleViolation(
            "DS-1", f"this build has no ruleset {ruleset!r}; it decides {', '.join(sorted(known))}"
        )
    return known[ruleset]
