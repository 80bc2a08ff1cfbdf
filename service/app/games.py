"""One kit per game: its domain object, projections, bots, view type, summary and words.

The one registry of games is ``domain.game.GAMES``; a kit is built from the modules every game
has in its own folders (``docs/GAME_CONTRACT.md`` lists them), so a third game is its folders and
one line there. Each kit is built on first use (the MCR one loads the fan calculator).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.game import GAMES, DealOutcome, Game, Projections, get_ruleset
from service.app.bots import program_host, programs


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
        text: ModuleType | None = None,
        default_move: Any = None,
    ) -> None:
        self.game = game
        self.text = text  # the game in words: piece names, the table and result in a replay
        self.review = review  # the evaluator and floors a review of a deal uses
        self.coach = coach  # advice from one seat view (``coach(view)``)
        self.name = game.name
        self.projections = projections  # views, redaction and the claim audit (``Projections``)
        self.bots = bots
        self.summary = summary
        self.view_type = view_type  # the seat view bots read (a msgspec Struct)
        self.event_decoder = msgspec.json.Decoder(game.event_type)
        self.builtin_levels = sorted(bots.BOTS)
        self.default_move = default_move  # TB-2.5: (state, seat) -> the move a clock expiry plays
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

    def deal_summary(self, state: Any) -> DealOutcome:
        """Winner (None: draw), net payments per seat, and the winner's score in its unit."""
        return self.summary.deal_summary(state)

    @property
    def bot_levels(self) -> list[str]:
        """The game's own levels, then the bot programs the operator registered."""
        return self.builtin_levels + programs.levels_for(self.name)

    def has_level(self, level: str) -> bool:
        """A level of ``--bots``: one of ``bot_levels``, or ``prog:NAME`` for a program."""
        named = level.removeprefix(programs.PREFIX)
        return level in self.bot_levels or named in programs.levels_for(self.name)

    def make_bot(self, level: str, seed: int) -> Any:
        if level not in self.builtin_levels and programs.program(level) is not None:
            return program_host.ProgramBot(self, level)  # a bot program, for self-play
        return self.bots.make_bot(level, seed)


def _build(name: str) -> GameKit:
    """The kit of a game registered in ``domain.game.GAMES``, from the modules every game has
    (``docs/GAME_CONTRACT.md``): in ``domain/<game>/`` the game, ``bots``, ``coach`` and ``view``;
    in ``projections/<game>/`` the projections, ``review``, ``summary`` and ``text``."""
    package = GAMES[name]
    folder = package.rsplit(".", 1)[-1]

    def part(module: str) -> ModuleType:
        return importlib.import_module(module)

    return GameKit(
        part(package).GAME,
        part(f"projections.{folder}"),
        part(f"{package}.bots"),
        part(f"projections.{folder}.summary"),
        part(f"{package}.view").SeatView,
        part(f"projections.{folder}.review"),
        part(f"{package}.coach"),
        part(f"projections.{folder}.text"),
        part(f"{package}.queries").default_move,
    )


@cache
def kit(name: str) -> GameKit:
    """The kit of the game ``name`` (new deals: its current ruleset); an unknown name is a
    protocol error (DS-1), not a crash."""
    if name not in GAMES:
        raise RuleViolation("DS-1", f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")
    return _build(name)


@dataclass(frozen=True)
class BotzoneFace:
    """The modules of a game's ``botzone`` package, one per role (a game names none of them to
    the command line and the benches, which know no game by name)."""

    codes: ModuleType  # BotzoneError, NotTranslatable, the tile codes
    referee: ModuleType  # Referee, Penalty: the judge's reading of a match
    tracker: ModuleType  # SeatTracker, bot_seed, safe_answer: one seat's view from its requests
    translation: ModuleType  # match_of_deal, read_match, play_match


@cache
def botzone_game() -> tuple[GameKit, BotzoneFace]:
    """The game that speaks the Botzone judge's protocol (its domain package has a ``botzone``
    package: Chinese Standard Mahjong is MCR) and that package's modules; DS-1 when no game does."""
    import importlib.util

    for name, package in GAMES.items():
        if importlib.util.find_spec(f"{package}.botzone") is not None:
            roles = {role: importlib.import_module(f"{package}.botzone.{role}") for role in _BOTZONE_ROLES}
            return kit(name), BotzoneFace(**roles)
    raise RuleViolation("DS-1", "no registered game speaks the Botzone protocol")


_BOTZONE_ROLES = ("codes", "referee", "tracker", "translation")


@cache
def kit_for_ruleset(ruleset: str) -> GameKit:
    """The kit that decides a log of ``ruleset`` (as its DealCreated names it); a ruleset this
    build lacks is refused (DS-1). The engines read the rules from the state, which learns them
    from that same DealCreated, so the kit differs only in the game object's ``ruleset``."""
    game = get_ruleset(ruleset)
    base = kit(game.name)
    if game is base.game:
        return base
    return GameKit(
        game,
        base.projections,
        base.bots,
        base.summary,
        base.view_type,
        base.review,
        base.coach,
        base.text,
        base.default_move,
    )
