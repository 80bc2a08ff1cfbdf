"""Paohuzi (``paohuzi/1``): the rules of docs/rules/paohuzi.md, event-sourced."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.game import DealCreation, Watch
from domain.paohuzi import aggregate
from domain.paohuzi.messages import Command, Event


class Paohuzi(DealCreation):
    name = "paohuzi"
    ruleset = "paohuzi/1"
    seat_count = 3
    deck_size = 80
    piece_field = "card"
    command_type = Command
    event_type = Event
    creation_rules = ("PH-2.1", "PH-1.3", "PH-2.2")

    def initial_state(self) -> aggregate.State:
        return aggregate.initial_state()

    def decide(self, state: aggregate.State, command: Any) -> list[Any]:
        return aggregate.decide(state, command)

    def execute(
        self, state: aggregate.State, command: Any, watch: Watch | None = None
    ) -> tuple[list[Any], aggregate.State]:
        return aggregate.execute(state, command, watch)

    def evolve(self, state: aggregate.State, event: Any) -> aggregate.State:
        return aggregate.evolve(state, event)

    def fold(self, events: Iterable[Any]) -> aggregate.State:
        return aggregate.fold(events)

    def legal_actions(self, state: aggregate.State, seat: int) -> list[Any]:
        return aggregate.legal_actions(state, seat)

    def seats_to_act(self, state: aggregate.State) -> list[int]:
        return aggregate.seats_to_act(state)

    def is_over(self, state: aggregate.State) -> bool:
        return aggregate.is_over(state)

    def copy_state(self, state: aggregate.State) -> aggregate.State:
        return state.copy()


GAME = Paohuzi()
RULESETS = {GAME.ruleset: GAME}  # every ruleset this build can decide (a rule change adds one)

__all__ = ["GAME", "RULESETS", "Paohuzi", "Command", "Event"]
