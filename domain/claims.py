"""The one claim-window resolver both games use, and their claim audits (PH-6.4, MC-3.2).

A window waits on the seats that were asked and have not answered. It closes as soon as none of
them could still beat the best answer given: a higher claim level, or the same level from a seat
earlier in the window's order (the order breaks ties: Paohuzi turn order from the revealer or
after the discarder, MCR the seat nearest after the discarder). The rules, not arrival order,
pick the winner, which is what makes a claim dispute checkable from the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple


class Verdict(NamedTuple):
    closed: bool  # no seat still to answer could beat the best answer
    seat: int | None  # the winning seat, None when every answer so far is a pass
    level: int  # the winning claim's level (0: nobody claims)


def resolve(order: Sequence[int], answered: Mapping[int, int], pending: Mapping[int, int]) -> Verdict:
    """``answered``: seat -> level of its answer (0 for a pass); ``pending``: seat -> the
    highest level it could still claim. Seats not in ``order`` rank last."""
    rank = {seat: i for i, seat in enumerate(order)}
    last = len(order)
    best_seat, best_level = None, 0
    for seat in sorted(answered, key=lambda s: rank.get(s, last)):
        level = answered[seat]
        if level > best_level:
            best_seat, best_level = seat, level
    if best_seat is None:
        return Verdict(not pending, None, 0)
    best_rank = rank.get(best_seat, last)
    for seat, level in pending.items():
        if level > best_level or (level == best_level and rank.get(seat, last) < best_rank):
            return Verdict(False, best_seat, best_level)
    return Verdict(True, best_seat, best_level)
