"""Paohuzi (``paohuzi/1``): the rules of docs/rules/paohuzi.md, event-sourced."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.game import DealCreation, Watch
from domain.paohuzi.changes import evolve, fold, initial_state
from domain.paohuzi.decide import decide, execute
from domain.paohuzi.messages import Command, Event
from domain.paohuzi.queries import is_over, legal_actions, seats_to_act
from domain.paohuzi.state import State


class Paohuzi(DealCreation):
    name = "paohuzi"
    ruleset = "paohuzi/1"
    seat_count = 3
    deck_size = 80
    piece_field = "card"
    command_type = Command
    event_type = Event
    creation_rules = ("PH-2.1", "PH-1.3", "PH-2.2")

    def initial_state(self) -> State:
        return initial_state()

    def decide(self, state: State, command: Any) -> list[Any]:
        return decide(state, command)

    def execute(self, state: State, command: Any, watch: Watch | None = None) -> tuple[list[Any], State]:
        return execute(state, command, watch)

    def evolve(self, state: State, event: Any) -> State:
        return evolve(state, event)

    def fold(self, events: Iterable[Any]) -> State:
        return fold(events)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        return legal_actions(state, seat)

    def seats_to_act(self, state: State) -> list[int]:
        return seats_to_act(state)

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def copy_state(self, state: State) -> State:
        return state.copy()


GAME = Paohuzi()
RULESETS = {GAME.ruleset: GAME}  # every ruleset this build can decide (a rule change adds one)

__all__ = ["GAME", "RULESETS", "Paohuzi", "Command", "Event"]
