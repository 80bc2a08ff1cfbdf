"""What the table does for a seat whose time ran out (TB-2.5) or that is away (TB-2.6), written
once for both games: each engine hands over its own ``execute``, ``evolve``, state copy and
default move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.errors import RuleViolation
from domain.table.clock import Back, ClockExpired, Expire, SeatAway, SeatBack

AWAY_COMMAND_PREFIX = "away:"  # the stored command id of a move the table made for an away seat


def away_command_id(seat: int, version: int) -> str:
    """A move the greedy bot made for an away person (TB-2.6): the log says so in its id, which
    is how a review tells it from the person's own (``projections/review.py``)."""
    return f"{AWAY_COMMAND_PREFIX}{seat}:{version}"


def away_seat(command_id: str | None) -> int | None:
    """The away seat a stored command id says the table moved for, else None."""
    if not command_id or not command_id.startswith(AWAY_COMMAND_PREFIX):
        return None
    seat = command_id[len(AWAY_COMMAND_PREFIX) :].split(":", 1)[0]
    return int(seat) if seat.isdigit() else None


def decide_expiry(
    execute: Callable[[Any, Any, Any], tuple[list[Any], Any]],
    evolve: Callable[[Any, Any], Any],
    copy: Callable[[Any], Any],
    state: Any,
    command: Expire,
    default_move: Any,
    watch: Callable[[Any, Any], None] | None = None,
) -> tuple[list[Any], Any]:
    """``ClockExpired``, then the seat's default move decided as if the seat had sent it, then
    ``SeatAway`` on a second expiry in a row: one batch, one append. ``watch``: as the game's
    ``execute`` takes it."""
    if default_move is None:
        raise RuleViolation("DS-2", f"the deal does not wait on seat {command.seat}: nothing to expire")
    expired = ClockExpired(command.seat, command.deadline_ms, command.wait)
    before = evolve(copy(state), expired)
    if watch is not None:
        watch(expired, before)
    events, after = execute(before, default_move, watch)
    out: list[Any] = [expired, *events]
    if command.away:
        away = SeatAway(command.seat)
        after = evolve(after, away)
        out.append(away)
        if watch is not None:
            watch(away, after)
    return out, after


def decide_back(seating: Any, command: Back) -> list[Any]:
    if not 0 <= command.seat < len(seating.away) or not seating.away[command.seat]:
        raise RuleViolation("TB-2.6", f"seat {command.seat} is not away")
    return [SeatBack(command.seat)]
