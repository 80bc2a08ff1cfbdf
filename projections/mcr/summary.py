"""The outcome of a finished MCR deal in the one shape tournaments and the CLI read."""

from __future__ import annotations

from typing import Any

SCORE_UNIT = "points"


def deal_summary(state: Any) -> dict[str, Any]:
    """``winner`` (None for a draw), net ``payments`` per seat, ``score`` = the win's total (MC-4)."""
    from projections.mcr import view_from_state

    result = view_from_state(state, 0).result
    if result is None or result.win is None:
        return {"winner": None, "payments": [0, 0, 0, 0], "score": 0}
    win = result.win
    return {"winner": win.seat, "payments": list(win.payments), "score": win.total}
