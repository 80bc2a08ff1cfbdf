"""Determinization: a full engine ``State`` consistent with one MCR seat view (MC-5).

What the seat saw is kept exactly: its own hand (and the tile just drawn), every seat's shown
sets, flowers and discards, the hand counts, the wall's count, the dealer, the winds, whose turn
it is and the open claim window. The rest is dealt again at random (seeded) from the tiles the
seat cannot see, the *unseen pool*: the other seats' concealed tiles (and the tiles of their
concealed kongs, a kind with all four copies unseen), then the live wall in a random order. At
a decision no concealed hand holds a flower (each is replaced as soon as it is drawn), so the
unseen flowers all go into the wall.

Two things the view does not say are worked out again on the dealt state: which other seats
may answer the open window (MC-5.2 hides it; they are the seats the engine's ``has_claim``
finds for the dealt hands), and their answers (taken as not given yet: they answer after this
seat, as the policy that continues the deal chooses).

The live wall is laid out as ``wall[0:wall_count]`` (``front`` 0, ``back`` the count): the
engine reads only the next draw at ``front``, the next replacement at ``back - 1`` and the end
of the wall at ``front == back``, so the tiles already drawn need no place. Pure: a view and a
``random.Random`` decide the state.
"""

from __future__ import annotations

import random

from domain.mcr.options import has_claim
from domain.mcr.seats import SEATS, seats_after
from domain.mcr.state import Meld, State, Window
from domain.mcr.tiles import DECK_SIZE, FIRST_FLOWER
from domain.mcr.view import SeatView
from domain.table.seating import Seating


def seen_tiles(view: SeatView) -> set[int]:
    """Every tile id the seat can see: its hand, all shown sets, flowers and discards, and the
    card of the open window (already among the discards or the kong it was added to)."""
    seen = set(view.hand)
    for p in view.seats:
        seen.update(p.flowers)
        seen.update(p.discards)
        for m in p.melds:
            seen.update(m.tiles)
    if view.window is not None:
        seen.add(view.window.card)
    return seen


def unseen_pool(view: SeatView) -> list[int]:
    """The tile ids the seat cannot see, in id order."""
    seen = seen_tiles(view)
    return [t for t in range(DECK_SIZE) if t not in seen]


class Sampler:
    """Deals the hidden tiles of one view again, as often as asked (``state(rng)``)."""

    def __init__(self, view: SeatView, ruleset: str = "mcr/2") -> None:
        if view.seat is None or not view.seats:
            raise ValueError("a determinization needs a seat's view of a started deal")
        self.view = view
        self.ruleset = ruleset
        self.pool = unseen_pool(view)
        need = view.wall_count
        for p in view.seats:
            if p.seat != view.seat:
                need += p.hand_count + 4 * sum(
                    1 for m in p.melds if m.kind == "concealed_kong" and not m.tiles
                )
        if need != len(self.pool):  # pragma: no cover - a view always accounts for every tile
            raise ValueError(f"the view leaves {len(self.pool)} tiles unseen but accounts for {need}")

    def state(self, rng: random.Random) -> State:
        """One full state consistent with the view (module doc)."""
        v = self.view
        me = v.seat
        plain = [t for t in self.pool if t < FIRST_FLOWER]
        flowers = [t for t in self.pool if t >= FIRST_FLOWER]
        rng.shuffle(plain)
        hands: list[list[int]] = [[] for _ in range(SEATS)]
        melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        robbing = v.window is not None and v.window.source == "added_kong"
        for p in v.seats:
            for m in p.melds:
                if m.kind == "concealed_kong" and not m.tiles:
                    melds[p.seat].append(Meld("concealed_kong", _hidden_kong(plain, rng)))
                else:
                    added = (
                        robbing
                        and m.kind == "kong"
                        and p.seat == v.window.source_seat
                        and v.window.card in m.tiles
                    )
                    melds[p.seat].append(Meld(m.kind, list(m.tiles), m.card, m.from_seat, added))
        for p in v.seats:
            if p.seat == me:
                hands[me] = list(v.hand)
            else:
                hands[p.seat] = [plain.pop() for _ in range(p.hand_count)]
        wall = plain + flowers
        rng.shuffle(wall)
        s = State(
            deal_id="sample",
            seat_kinds=["bot"] * SEATS,
            server_seed="00",
            created=True,
            version=v.version,
            phase=v.phase,
            dealer=v.dealer,
            prevailing_wind=v.prevailing_wind,
            seat_winds=[p.wind for p in v.seats],
            wall=wall,
            front=0,
            back=len(wall),
            hands=hands,
            flowers=[list(p.flowers) for p in v.seats],
            melds=melds,
            discards=[list(p.discards) for p in v.seats],
            turn=v.turn,
            ruleset=self.ruleset,
            seating=Seating.of(["bot"] * SEATS),
        )
        if v.phase == "turn" and v.turn == me:
            s.last_tile = v.drawn
            s.must_discard = v.drawn is None
            s.after_kong = v.drawn_replacement
        w = v.window
        if w is not None:
            eligible = [
                q
                for q in seats_after(w.source_seat)
                if q == me or (q != me and has_claim(s, q, w.card, w.source, w.source_seat))
            ]
            if not w.eligible:
                eligible.remove(me)
            s.window = Window(w.window, w.card, w.source_seat, w.source, eligible, {})
            s.windows = w.window + 1
        return s


def _hidden_kong(plain: list[int], rng: random.Random) -> list[int]:
    """Four copies of a kind all unseen, taken out of ``plain`` (another seat's concealed kong)."""
    by_kind: dict[int, list[int]] = {}
    for t in plain:
        by_kind.setdefault(t >> 2, []).append(t)
    full = sorted(k for k, ts in by_kind.items() if len(ts) == 4)
    if not full:  # pragma: no cover - the kong's own four copies are always unseen
        raise ValueError("no kind has all four copies unseen for a concealed kong")
    k = rng.choice(full)
    for t in by_kind[k]:
        plain.remove(t)
    return sorted(by_kind[k])
