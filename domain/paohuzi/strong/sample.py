"""Determinization: a full aggregate ``State`` consistent with one seat view (PH-7).

The seat's own cards, every exposed meld, every row and the table card are known. The rest (the
other seats' concealed cards and the stock order) are dealt at random from the unseen pool, under
the constraints the rules make certain:

- the dealer's face-up 21st card (PH-2.4) is still in the dealer's hand unless it has been seen;
- a concealed hand never holds four of a kind (they would have become a ti at the opening, PH-2.5,
  and no card ever enters a concealed hand after the deal), and three of a kind is a kan;
- a seat holds at most one card of a kind in its own row: its reveal would have made a wei or a
  ti (PH-6.1), and a discard leaves at most one (free cards never exceed two of a kind);
- softly (dropped when it cannot be met): at most one, and no kan, of a kind another seat let
  pass, as a seat that always takes its peng and pao would.

Other seats' chou (PH-6.7) is private; every kind in a seat's row is taken as chou, since a row
card is either its own discard or a reveal it let pass.
"""

from __future__ import annotations

import random

from domain.game import DealCreated
from domain.paohuzi.cards import SEATS, kind_from_name
from domain.paohuzi.options import compute_options
from domain.paohuzi.state import State
from domain.paohuzi.view import SeatView, visible_cards

Deal = tuple[dict[int, list[int]], list[int]]  # concealed cards per other seat, the stock top first

_CREATED = DealCreated(
    deal_id="sample",
    ruleset="paohuzi/1",
    seats=["bot"] * SEATS,
    commitment="",
    server_seed="00" * 32,
)


def unseen_cards(view: SeatView) -> list[int]:
    """Card ids this seat cannot see: the other concealed hands and the stock, sorted."""
    seen = visible_cards(view)
    return [c for c in range(80) if c not in seen]


class Sampler:
    """Deals the unseen cards of one view again and again, each time a consistent ``State``."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        me = view.seat
        self.others = [(me + 1) % SEATS, (me + 2) % SEATS]
        pool = unseen_cards(view)
        self.fixed: dict[int, list[int]] = {s: [] for s in self.others}
        fu = view.face_up
        if fu is not None and view.dealer is not None and view.dealer != me and fu in pool:
            pool.remove(fu)
            self.fixed[view.dealer].append(fu)
        self.pool = pool
        # caps[seat][kind]: most free cards of the kind the seat may hold (3 means a kan)
        self.hard: dict[int, list[int]] = {}
        self.soft: dict[int, list[int]] = {}
        t = view.table
        for x in self.others:
            hard = [3] * 20
            for c in view.rows[x]:  # its own reveal left a pair as a wei; its discard came from a pair
                hard[c >> 2] = 1
            if t is not None and t.seat == x:  # its reveal on the table, or its discard
                hard[t.card >> 2] = 1
            soft = hard[:]
            for y in range(SEATS):  # it let another seat's card pass: no pair to peng, no kan to pao
                if y != x:
                    for c in view.rows[y]:
                        soft[c >> 2] = 1
            self.hard[x] = hard
            self.soft[x] = soft
        self.row_kinds = [{c >> 2 for c in row} for row in view.rows]

    def _fill(self, rng: random.Random, caps: dict[int, list[int]]) -> Deal | None:
        cards = self.pool[:]
        rng.shuffle(cards)
        hands: dict[int, list[int]] = {}
        for x in self.others:
            need = self.view.concealed[x] - len(self.fixed[x])
            cap = caps[x]
            have = [0] * 20
            h = self.fixed[x][:]
            for c in h:
                have[c >> 2] += 1
            rest: list[int] = []
            for c in cards:
                k = c >> 2
                if need and have[k] < cap[k]:
                    h.append(c)
                    have[k] += 1
                    need -= 1
                else:
                    rest.append(c)
            if need:
                return None
            hands[x] = h
            cards = rest
        return hands, cards

    def deal(self, rng: random.Random) -> Deal:
        """Concealed cards of the two other seats and the stock, top first. Each seat takes the
        first cards of a shuffled pool that its caps allow; when the soft caps (what a seat that
        always pengs and paos would hold) cannot be met, only the rules' caps remain."""
        for caps in (self.soft, self.hard):
            got = self._fill(rng, caps)
            if got is not None:
                return got
        cards = self.pool[:]
        rng.shuffle(cards)
        hands = {}
        for x in self.others:
            n = self.view.concealed[x] - len(self.fixed[x])
            hands[x] = self.fixed[x] + cards[:n]
            cards = cards[n:]
        return hands, cards

    def state(self, rng: random.Random) -> State:
        v = self.view
        hands, stock = self.deal(rng)
        s = State()
        s.version = v.version
        s.created = _CREATED
        s.dealer = v.dealer if v.dealer is not None else 0
        s.face_up = v.face_up if v.face_up is not None else -1
        s.stock = stock
        s.stock_pos = 0
        me = v.seat
        hands[me] = list(v.hand)
        for seat in range(SEATS):
            free: list[int] = []
            byk: dict[int, list[int]] = {}
            for x in hands[seat]:
                byk.setdefault(x >> 2, []).append(x)
            kans: list[tuple[int, ...]] = []
            if seat == me:
                free = list(v.hand)
                kans = [tuple(k) for k in v.kans]
            else:
                for k in sorted(byk):
                    if len(byk[k]) == 3:
                        kans.append(tuple(byk[k]))
                    else:
                        free += byk[k]
            s.hands[seat] = free
            c = [0] * 20
            for x in free:
                c[x >> 2] += 1
            s.counts[seat] = c
            s.kans[seat] = kans
            s.melds[seat] = [(m.meld, tuple(m.cards)) for m in v.melds[seat]]
            s.rows[seat] = list(v.rows[seat])
            s.chou[seat] = set(self.row_kinds[seat])
        s.chou[me] = {kind_from_name(n) for n in v.chou}
        s.dead = list(v.dead)
        if v.table is not None:
            s.table = v.table.card
            s.table_source = v.table.source
            s.table_seat = v.table.seat
        if v.phase == "claim":
            s.phase = "claim"
            s.window = v.window or 0
            s.turn = v.table.seat if v.table is not None else me
            if v.table is None:
                s.eligible = [me]
            else:
                src, who = v.table.source, v.table.seat
                start = who if src == "reveal" else (who + 1) % SEATS
                order = [(start + i) % SEATS for i in range(SEATS)]
                seats = order if src == "reveal" else [x for x in order if x != who]
                opts = {x: compute_options(s, x) for x in seats}
                s.eligible = [x for x in seats if x == me or opts[x].any()]
                s._cache = {"opts": (s.window, {x: opts[x] for x in s.eligible})}
        else:
            s.phase = "discard"
            s.turn = me
        return s
