"""What every game offers the rest of the system: one small protocol, one registry.

A game is a subpackage of ``domain`` exposing a module-level object satisfying ``Game``.
The service and the projections only ever talk to this protocol, so adding a third game is a
new folder plus one line in ``GAMES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec

from domain.errors import RuleViolation


class DealCreated(msgspec.Struct, frozen=True, tag=True):
    """First event of every deal. ``server_seed`` is private until ``SeedRevealed``."""

    deal_id: str
    ruleset: str
    seats: list[str]
    commitment: str
    server_seed: str
    fixed_deck: list[int] | None = None
    fixed_dealer: int | None = None


class SeedRevealed(msgspec.Struct, frozen=True, tag=True):
    """Last event of every deal: anyone can now re-derive the deck (DESIGN.md section 6)."""

    server_seed: str
    client_seed: str
    seed: str


class StartDeal(msgspec.Struct, frozen=True, tag=True):
    """The command that mixes the client seed in and deals."""

    seat: int
    client_seed: str = ""


class Game(Protocol):
    name: str
    ruleset: str
    seat_count: int
    deck_size: int
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
    ) -> list[Any]: ...

    def initial_state(self) -> Any: ...

    def decide(self, state: Any, command: Any) -> list[Any]: ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def fold(self, events: Iterable[Any]) -> Any: ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...

    def seats_to_act(self, state: Any) -> list[int]: ...

    def is_over(self, state: Any) -> bool: ...


GAMES: dict[str, str] = {
    "paohuzi": "domain.paohuzi",
    "mcr": "domain.mcr",
}


def get_game(name: str) -> Game:
    """The game object for ``name``; unknown names are a protocol error, not a crash."""
    module = GAMES.get(name)
    if module is None:
        raise RuleViolation("DS-1", f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")
    return importlib.import_module(module).GAME
