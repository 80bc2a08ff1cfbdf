"""The outcome of a finished Paohuzi deal in the one shape tournaments and the CLI read."""

from __future__ import annotations

from typing import Any

SCORE_UNIT = "tun"


def deal_summary(state: Any) -> dict[str, Any]:
    """``winner`` (None for a draw), net ``payments`` per seat, ``score`` = the winner's tun (PH-8)."""
    from projections.paohuzi import view_from_state

    result = view_from_state(state, 0).result
    if result is None or result.outcome != "won":
        return {"winner": None, "payments": [0, 0, 0], "score": 0}
    return {"winner": result.winner, "payments": list(result.payments), "score": result.tun}
