"""Chinese Official Mahjong: rules in docs/rules/mcr.md, ids MC-x.y.

Two rulesets: ``mcr/1`` and ``mcr/2`` (MC-3.7: the discard after the wall's last draw can only be
won; MC-4.6: a kong whose replacement was a flower gives no Out with Replacement Tile). One engine
plays both: the state learns its ruleset from the deal's ``DealCreated``, so a log is always
decided by the rules it was played under. New deals are ``mcr/2`` (``GAME``). What each ruleset
changes is a named flag of its class in ``rulesets`` (``MCR1``, ``MCR2``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.game import DealCreation, Watch
from domain.mcr.changes import evolve, fold
from domain.mcr.decide import decide, execute
from domain.mcr.messages import Command, Event
from domain.mcr.queries import is_over, legal_actions, seats_to_act
from domain.mcr.rulesets import MCR1, ruleset_of
from domain.mcr.rulesets import RULESETS as RULESET_OBJECTS
from domain.mcr.state import State
from domain.mcr.tiles import DECK_SIZE


class MCRGame(DealCreation):
    name = "mcr"
    seat_count = 4
    deck_size = DECK_SIZE
    piece_field = "tile"
    command_type = Command
    event_type = Event
    creation_rules = ("MC-2.1", "MC-1.2", "MC-2.2")

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset  # what ``create`` writes into a new deal's DealCreated
        self.rules: MCR1 = ruleset_of(ruleset)  # the rules of the deals it creates

    def initial_state(self) -> State:
        return State()

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
        return state.clone()


RULESETS = {ruleset: MCRGame(ruleset) for ruleset in RULESET_OBJECTS}  # "mcr/1", "mcr/2"
GAME = RULESETS["mcr/2"]

__all__ = ["GAME", "RULESETS", "MCRGame"]
