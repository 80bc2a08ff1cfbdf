"""The outcome of a finished MCR deal in the shape the service's tournaments and CLI read."""

from __future__ import annotations

from typing import Any

from domain.game import DealOutcome
from domain.mcr.messages import HandWon

SCORE_UNIT = "points"
# the arena's names for the share of deals a seat's tile made another's win, and (Paohuzi only)
# the discards the next seat took per deal
FED_NAME = "deal_in_rate"
TAKEN_NAME: str | None = None


def deal_summary(state: Any) -> DealOutcome:
    """The winner (None for a draw or an unfinished deal), net payments per seat (MC-4.4), the
    winner's total with flowers; ``details``: ``fan_points`` before flowers (MC-4.3) and
    ``self_drawn``."""
    r = state.result
    if not isinstance(r, HandWon):
        return DealOutcome(None, [0, 0, 0, 0], 0, SCORE_UNIT, {"fan_points": 0, "self_drawn": False})
    details = {"fan_points": r.fan_points, "self_drawn": r.self_drawn}
    return DealOutcome(r.seat, list(r.payments), r.total, SCORE_UNIT, details)


def seat_faults(events: list[Any], seats: int) -> tuple[list[int], list[int]]:
    """Deal-in: another seat won on this seat's discard or on the tile of its added kong."""
    fed = [0] * seats
    won = next((e for e in reversed(events) if isinstance(e, HandWon)), None)
    if won is not None and not won.self_drawn and won.from_seat not in (None, won.seat):
        fed[won.from_seat] = 1
    return fed, [0] * seats
