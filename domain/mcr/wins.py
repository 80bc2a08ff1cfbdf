"""Wins and their score (MC-4): the facts a win is scored on, whether a win is legal now, and
who pays whom."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.mcr import scoring
from domain.mcr.hands import kinds_of
from domain.mcr.seats import SEATS
from domain.mcr.state import State
from domain.mcr.tiles import KIND_CODES


def packs_of(s: State, seat: int) -> tuple:
    """The calculator's packs of the seat's sets (``scoring.packs``; the state knows every tile)."""
    packs = scoring.packs(s.melds[seat], seat)
    assert packs is not None
    return packs


def visible_copies(s: State, tile: int) -> int:
    """Other copies of ``tile``'s kind face up on the table (discards and exposed sets)."""
    k = tile >> 2
    n = 0
    for pile in s.discards:
        for t in pile:
            if t >> 2 == k and t != tile:
                n += 1
    for ms in s.melds:
        for m in ms:
            if m.kind != "concealed_kong":
                for t in m.tiles:
                    if t >> 2 == k and t != tile:
                        n += 1
    return n


def win_facts(s: State, seat: int, tile: int, self_drawn: bool, robbing: bool) -> scoring.WinFacts:
    """What decides ``seat`` winning on ``tile`` (MC-4.2), for the calculator."""
    hand = list(s.hands[seat])
    if self_drawn:
        hand.remove(tile)
    hand.sort()
    return scoring.WinFacts(
        packs=packs_of(s, seat),
        hand=tuple([KIND_CODES[t >> 2] for t in hand]),
        win=KIND_CODES[tile >> 2],
        flowers=len(s.flowers[seat]),
        self_drawn=self_drawn,
        fourth=visible_copies(s, tile) == 3,
        about_kong=robbing or (self_drawn and s.after_kong),
        wall_last=s.front == s.back,
        seat_wind=s.seat_winds[seat],
        prevailing=s.prevailing_wind,
    )


def evaluate_win(
    s: State, seat: int, tile: int, self_drawn: bool, robbing: bool, kinds: tuple[int, ...] | None = None
) -> scoring.WinScore | None:
    """The WinScore if ``seat`` can legally win on ``tile`` now, else None (MC-4.1, MC-4.3).

    ``kinds``: the sorted kinds of the concealed hand without ``tile``, if the caller has them."""
    if kinds is None:
        hand = s.hands[seat]
        if self_drawn:
            rest = list(hand)
            rest.remove(tile)
            kinds = kinds_of(rest)
        else:
            kinds = kinds_of(hand)
    if (tile >> 2) not in scoring.waits(kinds):
        return None
    try:
        sc = scoring.score_facts(win_facts(s, seat, tile, self_drawn, robbing))
    except RuleViolation:
        return None
    return sc if sc.meets_minimum else None


def payments(winner: int, from_seat: int | None, total: int) -> list[int]:
    """MC-4.4: self-drawn: everyone pays 8 + total; else the discarder 8 + total, others 8."""
    pay = [0] * SEATS
    for p in range(SEATS):
        if p == winner:
            continue
        amount = 8 + total if (from_seat is None or p == from_seat) else 8
        pay[p] -= amount
        pay[winner] += amount
    return pay
