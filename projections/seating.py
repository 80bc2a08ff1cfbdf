"""The seat events (TB-1, TB-3) as any viewer may see them: both games' redaction uses this.

A join's token digest is never shown (it is how every process recognises the seat's token), and
a person's client seed stays out of its ``SeatReady`` for everyone, the person included: the
deal's ``DealStarted`` names every seed once it is dealt (TB-3.2).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.table.seating import SeatJoined, SeatReady


def public_seating_event(event: Any) -> dict[str, Any]:
    d = msgspec.to_builtins(event)
    if type(event) is SeatJoined:
        d.pop("token_digest", None)
    elif type(event) is SeatReady:
        d.pop("client_seed", None)
    return d
