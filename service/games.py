"""Finds a game's domain object, projections module and bots by name (one registry, no branches)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

import msgspec

from domain.game import Game, get_game


class GameKit:
    """Everything the service needs about one game, with decoders built once."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.name = game.name
        self.projections: ModuleType = importlib.import_module(f"projections.{game.name}")
        self.bots: ModuleType = importlib.import_module(f"domain.{game.name}.bots")
        self.summary: ModuleType = importlib.import_module(f"projections.{game.name}.summary")
        self.event_decoder = msgspec.json.Decoder(game.event_type)
        self.bot_levels = sorted(self.bots.BOTS)

    def decode_event(self, data: bytes) -> Any:
        return self.event_decoder.decode(data)

    def deal_summary(self, state: Any) -> dict[str, Any]:
        """Winner (None: draw), net payments per seat, and the winner's score."""
        return self.summary.deal_summary(state)

    def make_bot(self, level: str, seed: int) -> Any:
        return self.bots.make_bot(level, seed)


@cache
def kit(name: str) -> GameKit:
    return GameKit(get_game(name))
