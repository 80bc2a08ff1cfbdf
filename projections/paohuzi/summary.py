"""The outcome of a finished Paohuzi deal in the shape the service's tournaments and CLI read."""

from __future__ import annotations

from typing import Any

from domain.game import DealOutcome
from domain.paohuzi.messages import CardDiscarded, CardRevealed, DealWon, MeldMade

SCORE_UNIT = "tun"
# the arena's names for the share of deals a seat's card made another's win, and for the
# discards the next seat took per deal
FED_NAME = "feeding_rate"
TAKEN_NAME: str | None = "discards_taken_by_next_per_deal"


def deal_summary(state: Any) -> DealOutcome:
    """The winner (None for a draw or an unfinished deal), net payments per seat (PH-8.4), the
    winner's tun (PH-8.3); ``details``: the ``huxi`` of the winning split."""
    r = state.result
    if not isinstance(r, DealWon):
        return DealOutcome(None, [0, 0, 0], 0, SCORE_UNIT, {"huxi": 0})
    return DealOutcome(r.seat, list(r.payments), r.tun, SCORE_UNIT, {"huxi": r.huxi})


def seat_faults(events: list[Any], seats: int) -> tuple[list[int], list[int]]:
    """Feeding: another seat won holding a meld it made with a card this seat discarded (nobody
    wins on a discard itself, PH-6.3, so that meld is how a discard feeds a win); and how many of
    this seat's discards the next seat took for a chi, pao or peng."""
    fed = [0] * seats
    taken = [0] * seats
    fed_by: list[set[int]] = [set() for _ in range(seats)]  # per claimant: whose discards it took
    source, owner = "", -1  # where the card on the table came from
    for e in events:
        t = type(e)
        if t is CardDiscarded:
            source, owner = "discard", e.seat
        elif t is CardRevealed:
            source, owner = "reveal", e.seat
        elif t is MeldMade and source == "discard" and e.claimed is not None and e.from_seat == owner:
            fed_by[e.seat].add(owner)
            if e.seat == (owner + 1) % seats and e.meld in ("chi", "pao", "peng"):
                taken[owner] += 1
        elif t is DealWon:
            for s in fed_by[e.seat] - {e.seat}:
                fed[s] = 1
    return fed, taken
