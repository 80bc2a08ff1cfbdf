"""The four seats of an MCR table and the order the rules go round them."""

from __future__ import annotations

SEATS = 4
PREVAILING_WIND = 0  # MC-2.3: East


def seats_after(seat: int) -> list[int]:
    """The other seats in turn order after ``seat``, nearest first (MC-3.2 claim ties, robbers)."""
    return [(seat + i) % SEATS for i in range(1, SEATS)]
