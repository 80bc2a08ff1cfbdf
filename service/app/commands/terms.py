"""The command side's terms, shared by creating deals (``creation``) and running commands
(``deals``): how a seat's command id is formed, the refusals that are not a broken rule, what one
command did and how its seat is answered, and the checks of seats and times both make."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from domain.errors import RuleViolation
from domain.table.clock import Back
from domain.table.seating import (
    OPEN,
    PERSON,
    SeatFilled,
    SeatJoined,
)
from service.app.bots import programs
from service.app.bots.runner import PACE_FACTORS
from service.app.games import GameKit
from service.app.state.folds import (
    Folded,
)

JOIN_KEY = "join_key"  # the meta field an invited seat's token is derived from (TB-1.2)
PACES = tuple(PACE_FACTORS)  # a deal's pace: its bots think these many times the server's --bot-delay


def seat_command_id(seat: int, command_id: str) -> str:
    """The stored id of a seat's command: each seat has its own namespace of client ids."""
    return f"seat{seat}:{command_id}"


class CommandIdReused(Exception):
    """A command id already names another command of this seat (HTTP 409, DS-13)."""

    def __init__(self, command_id: str) -> None:
        super().__init__("this command id was already used for another command; send a new command_id")
        self.command_id = command_id


class AlreadyRematched(Exception):
    """This deal was played again already (HTTP 409, DS-15)."""

    def __init__(self, deal_id: str, rematched_by: str | None) -> None:
        super().__init__(f"deal {deal_id} was played again already, as {rematched_by}")
        self.rematched_by = rematched_by


@dataclass(frozen=True)
class Outcome:
    """What one command did: versions first..last, the events, whether it was a retry, and the
    deal as it stands after it (what the answer needs, so no caller reads the state again)."""

    first_version: int
    last_version: int
    events: list[Any]
    duplicate: bool = False
    folded: Folded | None = None
    batch: Any = None  # the batch as this process's stream hub delivered it (None: it did not)


@dataclass(frozen=True)
class CommandAnswer:
    """What a seat is answered after its command: the versions, its events as it may see them,
    and its view afterwards when it asked for one."""

    version: int
    first_version: int
    duplicate: bool
    events: list[dict[str, Any]]
    view: Any = None


def is_back(command: Any) -> bool:
    return isinstance(command, Back) or (isinstance(command, dict) and command.get("type") == "Back")


def is_program(kind: str) -> bool:
    """Whether a seat kind is a bot program the operator registered (``bot:NAME``)."""
    return kind.startswith("bot:") and programs.program(kind[4:]) is not None


def seats_taken(events: list[Any]) -> bool:
    """Whether a batch took an open seat (the lobby's open tables change only then, or at the end)."""
    return any(type(event) is SeatJoined or type(event) is SeatFilled for event in events)


def parse_seats(seats: Any, kit_: GameKit) -> list[str]:
    if not isinstance(seats, list) or len(seats) != kit_.game.seat_count:
        raise RuleViolation("DS-5", f"{kit_.name} needs a list of {kit_.game.seat_count} seats")
    parsed = []
    for seat in seats:
        if seat in (PERSON, OPEN):
            parsed.append(seat)
            continue
        parsed.append(bot_kind(seat, kit_))
    return parsed


def bot_kind(seat: Any, kit_: GameKit) -> str:
    """``bot:<level>`` for one of the game's bot levels, else DS-5."""
    if isinstance(seat, str) and seat.startswith("bot:") and seat[4:] in kit_.bot_levels:
        return seat
    levels = ", ".join(f"bot:{lvl}" for lvl in kit_.bot_levels)
    raise RuleViolation("DS-5", f"a seat is 'human', 'open' or one of {levels}; got {seat!r}")


def rated_seats(seat_kinds: list[str], account: str, open_seats: bool = False) -> list[str]:
    """The rated player of each seat of a rated table: ``account`` in its one person seat, the
    house bot's kind in each bot seat, and, with ``open_seats`` (a deal), ``""`` in each open seat:
    the signed-in account that joins it (``rated_joiner``) or the house bot put there. DS-41 for
    any other table: a bot program, a second person seat, an open seat of a match, a bot twice."""
    from projections.ratings import RATED_BOTS

    players = [account if kind == PERSON else "" if kind == OPEN else kind for kind in seat_kinds]
    allowed = (*RATED_BOTS, PERSON, *((OPEN,) if open_seats else ()))
    if seat_kinds.count(PERSON) != 1 or any(k not in allowed for k in seat_kinds):
        raise RuleViolation(
            "DS-41", "a rated table seats the signed-in account once, house bots (bot:random, "
            "bot:greedy, bot:strong)" + (" and open seats for signed-in accounts" if open_seats else "")
            + " in every other seat",
        )  # fmt: skip
    named = [p for p in players if p]
    if len(set(named)) != len(named):
        raise RuleViolation("DS-41", "a rated deal seats each player once: its bots are of different levels")
    return players


def invited_token(join_key: str, deal_id: str, seat: int, invite: str, name: str) -> str:
    """An invited seat's token, the same for the same invite and name: a join whose answer was
    lost is answered again with it (TB-1.2). Only its digest is kept, in the log, as for any
    token; without the deal's secret key nobody can work it out from the invite and the name."""
    message = json.dumps([deal_id, seat, invite, name]).encode()
    mac = hmac.new(bytes.fromhex(join_key), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def check_seen(folded: Folded, seat: int, seen_version: int | None) -> None:
    """TB-2.8: a person's command answers the situation its sender saw (``seen_version``): once
    the table has acted for the seat or asked it anew since then, the command is refused."""
    if seen_version is None:
        return
    if seen_version > folded.version:
        raise RuleViolation("DS-5", f"seen_version {seen_version} is ahead of the deal (at {folded.version})")
    clock = folded.clock
    if clock is not None and clock.answered_since(seat, seen_version):
        raise RuleViolation(
            "TB-2.8",
            f"decided on version {seen_version}, but since then the table moved for seat {seat} or "
            f"asked it again (the deal is at {folded.version}): look at the table and decide again",
        )


def check_start_clock(folded: Folded, seat: int, at_ms: int) -> None:
    """TB-1.4 (table/2): a joined seat whose person never started gets a bot only once the
    clock's ``move_s`` has run since the last open seat was taken (the audit checks the same)."""
    clock = folded.clock
    if clock is None or clock.seated_ms is None:
        raise RuleViolation(
            "TB-1.4", f"seat {seat} is a person's: a bot may take it only at a full table with a clock"
        )
    due = clock.seated_ms + clock.settings.own_ms("move")
    if at_ms < due:
        raise RuleViolation(
            "TB-1.4",
            f"seat {seat}'s person may still start: a bot may take the seat in {-(-(due - at_ms) // 1000)} s",
        )


def join_link(deal_id: str, code: str) -> str:
    """Where an invited person opens the seat in the web table."""
    return f"/#/join/{deal_id}/{code}"
