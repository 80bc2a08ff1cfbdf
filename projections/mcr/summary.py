"""The outcome of a finished MCR deal in the shape the service's tournaments and CLI read."""

from __future__ import annotations

from typing import Any

from domain.mcr.messages import HandWon

SCORE_UNIT = "points"


def deal_summary(state: Any) -> dict[str, Any]:
    """``winner`` (None for a draw or an unfinished deal), net ``payments`` per seat (MC-4.4),
    ``score`` = the winner's total with flowers, ``fan_points`` before flowers (MC-4.3)."""
    r = state.result
    if not isinstance(r, HandWon):
        return {"winner": None, "payments": [0, 0, 0, 0], "score": 0, "fan_points": 0, "self_drawn": False}
    return {
        "winner": r.seat,
        "payments": list(r.payments),
        "score": r.total,
        "fan_points": r.fan_points,
        "self_drawn": r.self_drawn,
    }
