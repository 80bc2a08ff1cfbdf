"""Paohuzi (``paohuzi/1``): the rules of shared/rules/paohuzi.md, event-sourced."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain.errors import RuleViolation
from domain.game import DealCreated
from domain.shuffle import commitment

from . import aggregate
from .messages import Command, Event


class Paohuzi:
    name = "paohuzi"
    ruleset = "paohuzi/1"
    seat_count = 3
    deck_size = 80
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
    ) -> list[Any]:
        if len(seats) != self.seat_count:
            raise RuleViolation("PH-2.1", f"Paohuzi needs 3 seats, got {len(seats)}")
        if fixed_deck is not None and sorted(fixed_deck) != list(range(self.deck_size)):
            raise RuleViolation("PH-1.3", "a fixed deck must hold every card id 0..79 once")
        if fixed_dealer is not None and not 0 <= fixed_dealer < self.seat_count:
            raise RuleViolation("PH-2.2", "the fixed dealer must be a seat 0..2")
        return [
            DealCreated(
                deal_id=deal_id,
                ruleset=self.ruleset,
                seats=list(seats),
                commitment=commitment(server_seed),
                server_seed=server_seed.hex(),
                fixed_deck=list(fixed_deck) if fixed_deck is not None else None,
                fixed_dealer=fixed_dealer,
            )
        ]

    def initial_state(self) -> aggregate.State:
        return aggregate.initial_state()

    def decide(self, state: aggregate.State, command: Any) -> list[Any]:
        return aggregate.decide(state, command)

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


GAME = Paohuzi()

__all__ = ["GAME", "Paohuzi", "Command", "Event"]
