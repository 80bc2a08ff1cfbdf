"""What one seat view says about the table: live copies, the horizon, and each opponent's threat.

Everything here is read from the ``SeatView`` alone (MC-5): discards, exposed sets, hand counts
and the wall count. The opponent model is deliberately small: a chance that the seat is ready,
read from a table of its exposed sets and the wall left (measured on ``greedy`` self-play, where
readiness is known), and a chance per kind that a ready seat waits on it, from the kind's
category and what the table shows (the seat's own discards, tiles it let pass, dead kinds). A
seat showing two sets or more is also determinised: its concealed tiles are dealt at random from
the copies this view cannot see, and the ready deals' 8-point waits sharpen that chance.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain.mcr import scoring
from domain.mcr.strong.hand import waits_of
from domain.mcr.view import SeatView

# P(ready with an 8-point wait) by exposed sets (0..3) and wall left // 12 (0..7), greedy play.
_READY = (
    (0.46, 0.32, 0.26, 0.19, 0.10, 0.03, 0.01, 0.0),
    (0.23, 0.21, 0.14, 0.13, 0.07, 0.03, 0.01, 0.0),
    (0.27, 0.30, 0.19, 0.20, 0.18, 0.11, 0.02, 0.0),
    (0.75, 0.75, 0.80, 0.80, 0.60, 0.50, 0.30, 0.2),
)


def packs_of(view: SeatView) -> tuple:
    """This seat's sets as PyMahjongGB packs (claimed sets carry the discarder's relative seat)."""
    return seat_packs(view, view.seat)


def visible_counts(view: SeatView) -> list[int]:
    """Copies of each kind face up: all discards and all sets this seat can see (own included)."""
    seen = [0] * 34
    for p in view.seats:
        for t in p.discards:
            seen[t >> 2] += 1
        for m in p.melds:
            for t in m.tiles:
                seen[t >> 2] += 1
    return seen


@dataclass(frozen=True, slots=True)
class Threat:
    """One opponent: ``ready`` its chance to be ready now, ``wait[k]`` the chance that a ready
    hand waits on kind ``k`` (``error[k]`` its standard error when sampled), ``points`` the
    points it would score on average."""

    seat: int
    ready: float
    wait: tuple[float, ...]
    points: float
    error: tuple[float, ...] | None = None

    def deal_in(self, k: int) -> float:
        return self.ready * self.wait[k]


def seat_packs(view: SeatView, seat: int) -> tuple | None:
    """Another seat's shown sets as PyMahjongGB packs, None when a concealed kong hides a kind."""
    return scoring.packs(view.seats[seat].melds, seat)


def sampled_waits(
    view: SeatView, seat: int, pool: list[int], rng: random.Random, samples: int
) -> tuple[int, list[int]] | None:
    """Determinised waits of ``seat``: deal its concealed tiles at random from ``pool`` (the
    copies this view cannot see) ``samples`` times, next to its shown sets, and count the kinds
    each ready deal wins on for 8 points on a discard (MC-4.3). (ready deals, count per kind), or
    None when its sets hide a kind."""
    pub = view.seats[seat]
    packs = seat_packs(view, seat)
    n = pub.hand_count
    if packs is None or n % 3 != 1:
        return None
    tiles = [k for k in range(34) for _ in range(pool[k])]
    if len(tiles) < n:
        return None
    counts = [0] * 34
    ready = 0
    for _ in range(samples):
        hand = tuple(sorted(rng.sample(tiles, n)))
        if scoring.shanten_once(hand) != 0:
            continue
        won = False
        for k, d, _s in waits_of(packs, hand, pub.wind, view.prevailing_wind, self_drawn=False):
            if d >= scoring.MIN_POINTS:
                counts[k] += 1
                won = True
        ready += won
    return ready, counts


def _wait_weights(
    view: SeatView, seat: int, seen: list[int], own: list[int], passed: set[int]
) -> list[float]:
    """Relative chance that ``seat``'s wait is each kind, normalised to ~1.25 waits over the
    kinds it can still wait on (8-point waits are few: a ready greedy hand has 1.25 on average).

    A kind it let pass, or its own last discard, is not a wait (a seat takes a legal win, and a
    drawn tile that wins is declared). A suit it has thrown often is less likely, one its sets
    are made of more likely; honours and terminals complete fewer shapes."""
    pub = view.seats[seat]
    pile = pub.discards
    mine = {pile[-1] >> 2} if pile else set()
    discarded = {t >> 2 for t in pile}
    by_suit = [0, 0, 0]
    for t in pile:
        if t >> 2 < 27:
            by_suit[(t >> 2) // 9] += 1
    thrown = sum(by_suit)
    suit_f = [1.0, 1.0, 1.0]
    if thrown >= 6:
        suit_f = [min(1.3, max(0.3, 1.3 - 1.6 * n / thrown)) for n in by_suit]
    meld_suits = {(m.tiles[0] >> 2) // 9 for m in pub.melds if m.tiles and m.tiles[0] >> 2 < 27}
    if len(meld_suits) == 1 and len(pub.melds) >= 2:
        # sets in one suit: a flush is likely (it scores 6 or 24), its waits in that suit
        (only,) = meld_suits
        same, other = (1.5, 0.6) if len(pub.melds) == 2 else (2.5, 0.25)
        suit_f = [f * (same if i == only else other) for i, f in enumerate(suit_f)]
    w = [0.0] * 34
    for k in range(34):
        if k in passed or k in mine:
            continue
        other = seen[k] + own[k]  # copies this seat cannot hold
        if k >= 27:
            # an honour completes only a pair or a pung: it needs a copy in that hand
            if other >= 3:
                continue
            x = 0.3 if other == 2 else 0.5
        else:
            r = k % 9
            x = 0.75 if r in (0, 8) else 0.9 if r in (1, 7) else 1.0
            x *= suit_f[k // 9]
        if k in discarded:
            x *= 0.35
        w[k] = x
    total = sum(w)
    if total > 0:
        scale = 1.25 / total
        w = [x * scale if x * scale < 0.5 else 0.5 for x in w]
    return w


def threats(
    view: SeatView, seen: list[int], own: list[int], rng: random.Random | None = None, samples: int = 0
) -> list[Threat]:
    """The three opponents, as seen from ``view``. With ``samples``, a seat showing two sets or
    more also gets determinised waits (``sampled_waits``), blended with the table's by how many
    of the deals were ready."""
    me = view.seat
    pool = [max(0, 4 - seen[k] - own[k]) for k in range(34)]
    wall_bucket = min(7, view.wall_count // 12)
    out = []
    for r in (1, 2, 3):
        j = (me + r) % 4
        pub = view.seats[j]
        sets = min(3, len(pub.melds))
        ready = _READY[sets][wall_bucket]
        if pub.hand_count <= 4:  # three or four sets shown: a few tiles are often a wait already
            ready = max(ready, 0.55 if pub.hand_count == 4 else 0.7)
        # tiles discarded after this seat's last discard, which it let pass (it would have won):
        # the latest discard of each seat between it and this one in turn order
        passed: set[int] = set()
        for r2 in range(r + 1, 4):
            d = view.seats[(me + r2) % 4].discards
            if d:
                passed.add(d[-1] >> 2)
        wait = _wait_weights(view, j, seen, own, passed)
        error = None
        found = sampled_waits(view, j, pool, rng, samples) if samples and len(pub.melds) >= 2 else None
        if found is not None and found[0]:
            n, counts = found
            pile = pub.discards
            mine = {pile[-1] >> 2} if pile else set()
            weight = n / (n + 8)
            err = [0.0] * 34
            for k in range(34):
                if k in passed or k in mine:
                    continue
                p = counts[k] / n
                wait[k] = (1 - weight) * wait[k] + weight * p
                err[k] = weight * (p * (1 - p) / n) ** 0.5
            error = tuple(err)
        points = 12.0 + 2.0 * len(pub.flowers) / 2 + (2.0 if len(pub.melds) >= 3 else 0.0)
        out.append(Threat(j, ready, tuple(wait), points, error))
    return out


def own_draws(view: SeatView, next_drawer: int) -> int:
    """Draws this seat still gets if the wall is drawn from ``next_drawer`` on, in turn order."""
    pos = (view.seat - next_drawer) % 4 + 1  # the first own draw is the pos-th tile
    w = view.wall_count
    return 0 if w < pos else (w - pos) // 4 + 1
