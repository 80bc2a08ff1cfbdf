"""Chinese Official Mahjong (``mcr/1``): rules in ../shared/rules/mcr.md, ids MC-x.y."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.game import DealCreated, new_deal
from domain.mcr import engine
from domain.mcr.messages import Command, Event
from domain.mcr.state import State
from domain.mcr.tiles import DECK_SIZE


class MCRGame:
    name = "mcr"
    ruleset = "mcr/1"
    seat_count = 4
    deck_size = DECK_SIZE
    command_type = Command
    event_type = Event

    def create(
        self,
        *,
        deal_id: str,
        seats: Sequence[str],
        server_seed: bytes,
        fixed_deck: list[int] | None = None,
        fixed_dealer: int | None = None,
    ) -> list[DealCreated]:
        return new_deal(
            self,
            deal_id=deal_id,
            seats=seats,
            server_seed=server_seed,
            fixed_deck=fixed_deck,
            fixed_dealer=fixed_dealer,
            rules=("MC-2.1", "MC-1.2", "MC-2.2"),
        )

    def initial_state(self) -> State:
        return State()

    def decide(self, state: State, command) -> list:
        return engine.decide(state, command)

    def evolve(self, state: State, event) -> State:
        return engine.evolve(state, event)

    def fold(self, events: Iterable) -> State:
        return engine.fold(events)

    def legal_actions(self, state: State, seat: int) -> list:
        return engine.legal_actions(state, seat)

    def seats_to_act(self, state: State) -> list[int]:
        return engine.seats_to_act(state)

    def is_over(self, state: State) -> bool:
        return engine.is_over(state)


GAME = MCRGame()

__all__ = ["GAME", "MCRGame"]
