"""The table as a viewer may see it: names, kinds, who is away, and the clocks running (TB-1,
TB-2). Built by the read side's gate (it alone knows the viewer); both games' views carry it."""

from __future__ import annotations

import msgspec

from domain.table.clock import ClockSettings


class SeatDeadline(msgspec.Struct, frozen=True, omit_defaults=True):
    """A running wait. ``own_deadline_ms``: when the wait's own time ends (epoch ms). The seat
    itself also sees ``deadline_ms`` (its own time plus the bank left) and ``bank_ms``; nobody
    else does, since a bank spent in a claim window would tell that the seat could claim."""

    seat: int
    wait: str  # move | claim
    own_deadline_ms: int
    deadline_ms: int | None = None
    bank_ms: int | None = None


class TableView(msgspec.Struct, frozen=True):
    names: list[str | None]
    kinds: list[str]  # human | bot:<level> | open
    away: list[int]  # seats the greedy bot plays for their person (TB-2.6)
    open_seats: list[int]
    clock: ClockSettings | None = None
    # every turn's wait for anyone; a claim window's wait for the asked seat only
    deadlines: list[SeatDeadline] = []
    waits_on_claims: bool = False  # the deal waits on a person's answer in a claim window
    connected: list[int] = []  # person seats with a live stream open now (not in the log)
