"""Chinese Official Mahjong (``mcr/1``): rules in ../shared/rules/mcr.md, ids MC-x.y."""

from __future__ import annotations

from collections.abc import Iterable

from domain.game import DealCreation
from domain.mcr import engine
from domain.mcr.messages import Command, Event
from domain.mcr.state import State
from domain.mcr.tiles import DECK_SIZE


class MCRGame(DealCreation):
    name = "mcr"
    ruleset = "mcr/1"
    seat_count = 4
    deck_size = DECK_SIZE
    command_type = Command
    event_type = Event
    creation_rules = ("MC-2.1", "MC-1.2", "MC-2.2")

    def initial_state(self) -> State:
        return State()

    def decide(self, state: State, command) -> list:
        return engine.decide(state, command)

    def execute(self, state: State, command) -> tuple[list, State]:
        return engine.execute(state, command)

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
