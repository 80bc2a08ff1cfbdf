"""One kit per game: its domain object, projections, bots, view type and summary (one registry).

Kits are built by explicit imports, one small function per game, so a reader (and a type checker)
sees exactly what the service takes from each game; a third game is one more function here and one
line in ``domain.game.GAMES``. Each kit is built on first use (the MCR one loads the fan
calculator).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.game import Game, Projections, get_ruleset


class GameKit:
    """Everything the service needs about one game, with decoders built once."""

    def __init__(
        self,
        game: Game,
        projections: Projections,
        bots: ModuleType,
        summary: ModuleType,
        view_type: Any,
        review: ModuleType | None = None,
        coach: ModuleType | None = None,
    ) -> None:
        self.game = game
        self.review = review  # the evaluator and floors a review of a deal uses
        self.coach = coach  # advice from one seat view (``coach(view)``)
        self.name = game.name
        self.projections = projections  # views, redaction and the claim audit (``Projections``)
        self.bots = bots
        self.summary = summary
        self.view_type = view_type  # the seat view bots read (a msgspec Struct)
        self.event_decoder = msgspec.json.Decoder(game.event_type)
        self.bot_levels = sorted(bots.BOTS)
        # msgspec caches what it learns about a Struct type on the class, but not about a bare
        # Union: converting into a one-field Struct costs ~1 µs where the Union costs ~18 µs
        self._command_box = msgspec.defstruct(f"{game.name}_command_box", [("command", game.command_type)])

    def convert_command(self, command: dict[str, Any]) -> Any:
        """The game's typed command from request JSON; ``msgspec.ValidationError`` if it is not one."""
        try:
            return msgspec.convert({"command": command}, self._command_box).command
        except msgspec.ValidationError as exc:  # name paths from the command, not from the box
            message = str(exc).replace(" - at `$.command`", "").replace("`$.command", "`$")
            raise msgspec.ValidationError(message) from None

    def decode_event(self, data: bytes) -> Any:
        return self.event_decoder.decode(data)

    def deal_summary(self, state: Any) -> dict[str, Any]:
        """Winner (None: draw), net payments per seat, and the winner's score."""
        return self.summary.deal_summary(state)

    def make_bot(self, level: str, seed: int) -> Any:
        return self.bots.make_bot(level, seed)


def _paohuzi() -> GameKit:
    import domain.paohuzi
    import domain.paohuzi.bots
    import domain.paohuzi.coach
    import domain.paohuzi.view
    import projections.paohuzi
    import projections.paohuzi.review
    import projections.paohuzi.summary

    return GameKit(
        domain.paohuzi.GAME,
        projections.paohuzi,
        domain.paohuzi.bots,
        projections.paohuzi.summary,
        domain.paohuzi.view.SeatView,
        projections.paohuzi.review,
        domain.paohuzi.coach,
    )


def _mcr() -> GameKit:
    import domain.mcr
    import domain.mcr.bots
    import domain.mcr.coach
    import domain.mcr.view
    import projections.mcr
    import projections.mcr.review
    import projections.mcr.summary

    return GameKit(
        domain.mcr.GAME,
        projections.mcr,
        domain.mcr.bots,
        projections.mcr.summary,
        domain.mcr.view.SeatView,
        projections.mcr.review,
        domain.mcr.coach,
    )


KITS: dict[str, Callable[[], GameKit]] = {"paohuzi": _paohuzi, "mcr": _mcr}


@cache
def kit(name: str) -> GameKit:
    """The kit of the game ``name`` (new deals: its current ruleset); an unknown name is a
    protocol error (DS-1), not a crash."""
    build = KITS.get(name)
    if build is None:
        raise RuleViolation("DS-1", f"unknown game {name!r}; known: {', '.join(sorted(KITS))}")
    return build()


@cache
def kit_for_ruleset(ruleset: str) -> GameKit:
    """The kit that decides a log of ``ruleset`` (as its DealCreated names it); a ruleset this
    build lacks is refused (DS-1). The engines read the rules from the state, which learns them
    from that same DealCreated, so the kit differs only in the game object's ``ruleset``."""
    game = get_ruleset(ruleset)
    base = kit(game.name)
    if game is base.game:
        return base
    return GameKit(game, base.projections, base.bots, base.summary, base.view_type, base.review, base.coach)
