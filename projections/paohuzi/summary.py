"""The outcome of a finished Paohuzi deal in the shape the service's tournaments and CLI read."""

from __future__ import annotations

from typing import Any

from domain.paohuzi.messages import DealWon

SCORE_UNIT = "tun"


def deal_summary(state: Any) -> dict[str, Any]:
    """``winner`` (None for a draw or an unfinished deal), net ``payments`` per seat (PH-8.4),
    ``score`` = the winner's tun (PH-8.3), ``huxi`` of the winning split."""
    r = state.result
    if not isinstance(r, DealWon):
        return {"winner": None, "payments": [0, 0, 0], "score": 0, "huxi": 0}
    return {"winner": r.seat, "payments": list(r.payments), "score": r.tun, "huxi": r.huxi}
