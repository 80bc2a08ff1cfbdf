"""The Paohuzi coach: what one seat's hand is worth now, read from its ``SeatView`` alone (PH-7).

``coach(view)`` shows the current best layout of the hand and its huxi (PH-3, PH-8.1), the cards
that would win now with the tun each brings (PH-4, PH-8.3), and beside every claim the seat is
offered, the huxi it adds and the kinds it makes chou (PH-6.7). Wins are checked by the engine's
own ``evaluate_win`` on a state that holds only this seat's cards, so the coach and the rules
cannot disagree on what wins; nothing hidden from the seat (other hands, other kan, the stock) is
in that state, so two deals that differ only in hidden cards get the same advice.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.paohuzi.cards import (
    FOUR_CARD,
    N_KINDS,
    SEATS,
    group_huxi,
    kind_from_name,
    kind_name,
    needs_discard,
)
from domain.paohuzi.messages import Chi, Pao, Pass, Peng, Win
from domain.paohuzi.state import State
from domain.paohuzi.view import SeatView, visible_cards
from domain.paohuzi.wins import WinEval, best_partial_split, evaluate_win, meld_huxi, tun_for


class Group(msgspec.Struct, frozen=True):
    """One group of the layout.

    - ``group``: ``ti``, ``pao``, ``wei``, ``peng``, ``chi`` (exposed melds), ``kan`` (concealed,
      PH-2.5), or ``chi`` / ``pair`` laid out from the free cards.
    - ``kinds``: the kinds of its cards, ``"s1"`` .. ``"b10"``; ``huxi``: its huxi (PH-3).
    - ``exposed``: an exposed meld (True) or cards still in the hand (False).
    """

    group: str
    kinds: list[str]
    huxi: int
    exposed: bool


class Layout(msgspec.Struct, frozen=True):
    """The hand's best split now: exposed melds and kan as they are, the free cards laid out for
    the most huxi, then the most cards in chi, then the most pairs (a hand between turns need not
    split completely).

    - ``huxi``: the sum of the groups' huxi. ``groups``: melds, kan, then the free cards' groups.
    - ``loose``: the free cards in no group, by kind.
    """

    huxi: int
    groups: list[Group]
    loose: list[str]


class WinHuxi(msgspec.Struct, frozen=True):
    """A win's best split total (PH-4.5) and the tun it is paid (PH-8.3)."""

    huxi: int
    tun: int


class WinCard(msgspec.Struct, frozen=True):
    """A kind that would win if it were revealed now (PH-4.6: wins come only from reveals).

    - ``kind``: ``"s1"`` .. ``"b10"``; ``unseen``: its copies this seat has not seen (not in its
      hand, its kan, any meld, any row, the table or the dealer's face-up card).
    - ``other_reveal``: the win when another seat reveals it; ``own_reveal``: when this seat
      reveals it itself (a pair or kan of the kind then melds first as wei or ti, PH-6.1).
      ``None`` where that way does not win.
    """

    kind: str
    unseen: int
    other_reveal: WinHuxi | None
    own_reveal: WinHuxi | None


class ActionAdvice(msgspec.Struct, frozen=True):
    """What one answer in the open window is worth.

    - ``index``: its position in the view's ``legal_actions``; ``action``: ``win``, ``pao``,
      ``peng``, ``chi`` or ``pass``; ``groups``: a chi's groups as in the command (the claimed one
      first, then the bi groups, PH-6.5), else empty.
    - ``meld_huxi``: huxi of the melds this answer exposes (a pao: the pao's own huxi).
    - ``huxi_after``: the best layout's huxi after it (a win: the win's huxi);
      ``huxi_added``: ``huxi_after`` minus the layout's huxi now (a pao replaces a kan, wei or peng;
      a chi may take cards from groups the layout had).
    - ``tun``: a win's tun (PH-8.3), else None.
    - ``chou``: kinds this answer makes chou (PH-6.7): passing a chi or peng on the card's kind.
      Claims make none by themselves; the card discarded after one does (``must_discard``).
    - ``pairs_broken``: kinds the hand held a pair of that this answer splits (no wei or peng on
      them any more from the hand).
    - ``must_discard``: the seat must discard after it (PH-5.2); the kind it discards is then chou.
    """

    index: int
    action: Literal["win", "pao", "peng", "chi", "pass"]
    groups: list[list[str]]
    meld_huxi: int
    huxi_after: int
    huxi_added: int
    tun: int | None
    chou: list[str]
    pairs_broken: list[str]
    must_discard: bool


class DiscardAdvice(msgspec.Struct, frozen=True):
    """One discard of a seat that must discard (each distinct kind of its free cards).

    - ``kind``: the kind discarded (it becomes chou, PH-6.7); ``huxi_after``: the best layout's
      huxi after it; ``wins``: the cards that would then win, as in ``PaohuziAdvice.wins``.
    """

    kind: str
    huxi_after: int
    wins: list[WinCard]


class PaohuziAdvice(msgspec.Struct, frozen=True):
    """The coach's answer for one seat view (``GET /deals/{id}/coach``).

    - ``game``: ``"paohuzi"``; ``version``/``seat``: the view it was computed from.
    - ``layout``: the hand's best split now and its huxi.
    - ``wins``: kinds that would win now, by kind order (empty when the hand holds the wrong count,
      e.g. while it must discard, or is dead, PH-4.7).
    - ``actions``: one entry per claim answer in ``legal_actions`` (discards are in ``discards``).
    - ``discards``: for a seat that must discard, one entry per distinct kind; else empty.
    - ``chou``: kinds already chou for this seat (PH-6.7); ``dead``: the hand is dead (PH-6.6).
    """

    game: Literal["paohuzi"]
    version: int
    seat: int | None
    layout: Layout
    wins: list[WinCard]
    actions: list[ActionAdvice]
    discards: list[DiscardAdvice]
    chou: list[str]
    dead: bool


Advice = PaohuziAdvice  # the name every game's coach answers with


# ---- the seat's cards -------------------------------------------------------------------------


class _Hand:
    """This seat's cards: free cards (ids), kan and exposed melds (as the state keeps them)."""

    __slots__ = ("seat", "free", "kans", "melds", "dead")

    def __init__(self, seat: int, free: list[int], kans: list[tuple[int, ...]], melds: list, dead: bool):
        self.seat = seat
        self.free = free
        self.kans = kans
        self.melds = melds
        self.dead = dead

    def counts(self) -> list[int]:
        c = [0] * N_KINDS
        for x in self.free:
            c[x >> 2] += 1
        return c

    def state(self, table_seat: int) -> State:
        """A state holding only these cards: the engine's win check reads nothing else."""
        s = State()
        me = self.seat
        s.hands[me] = list(self.free)
        s.counts[me] = self.counts()
        s.kans[me] = list(self.kans)
        s.melds[me] = list(self.melds)
        s.dead[me] = self.dead
        s.table_seat = table_seat
        return s

    def holding(self) -> int:
        return len(self.free) + 3 * len(self.kans) + sum(len(m[1]) for m in self.melds)

    def fours(self) -> int:
        return sum(1 for m in self.melds if m[0] in FOUR_CARD)

    def without(self, cards: list[int]) -> list[int]:
        out = list(self.free)
        for x in cards:
            out.remove(x)
        return out


def _fixed_huxi(h: _Hand) -> int:
    return sum(meld_huxi(m) for m in h.melds) + sum(group_huxi("kan", [k[0] >> 2]) for k in h.kans)


def _layout(h: _Hand) -> Layout:
    groups = [Group(m[0], [kind_name(x >> 2) for x in m[1]], meld_huxi(m), True) for m in h.melds] + [
        Group("kan", [kind_name(k[0] >> 2)] * 3, group_huxi("kan", [k[0] >> 2]), False) for k in h.kans
    ]
    counts = h.counts()
    huxi, _n, _p, split = best_partial_split(counts)
    for gtype, kinds in split:
        groups.append(Group(gtype, [kind_name(x) for x in kinds], group_huxi(gtype, kinds), False))
        for x in kinds:
            counts[x] -= 1
    loose = [kind_name(k) for k in range(N_KINDS) for _ in range(counts[k])]
    return Layout(_fixed_huxi(h) + huxi, groups, loose)


def _layout_huxi(h: _Hand) -> int:
    return _fixed_huxi(h) + best_partial_split(h.counts())[0]


def _seen(view: SeatView) -> list[int]:
    """Copies of each kind this seat has seen: its own cards and everything face up."""
    me = view.seat
    ids = visible_cards(view)
    if view.face_up is not None and me is not None:
        ids.add(view.face_up)  # public, and it stays in the dealer's hand until shown again
    seen = [0] * N_KINDS
    for x in ids:
        seen[x >> 2] += 1
    return seen


def _value(w: WinEval | None) -> WinHuxi | None:
    return None if w is None else WinHuxi(w.huxi, tun_for(w.huxi))


def _wins(h: _Hand, seen: list[int]) -> list[WinCard]:
    """Every kind that would win if revealed now, by another seat or by this one."""
    if h.dead:
        return []
    held = {x for x in h.free} | {x for k in h.kans for x in k} | {x for m in h.melds for x in m[1]}
    me = h.seat
    other = h.state((me + 1) % SEATS)
    own = h.state(me)
    counts = own.counts[me]
    out = []
    for k in range(N_KINDS):
        card = next((4 * k + c for c in range(4) if 4 * k + c not in held), None)
        if card is None:
            continue
        by_other = _value(evaluate_win(other, me, card))
        kan = next((i for i, kn in enumerate(h.kans) if kn[0] >> 2 == k), None)
        if kan is not None:  # PH-6.1: the own card onto a kan melds as ti first
            kans = h.kans[:kan] + h.kans[kan + 1 :]
            ti = _Hand(me, h.free, kans, [*h.melds, ("ti", (*h.kans[kan], card))], False)
            by_own = _value(evaluate_win(ti.state(me), me, None))
        elif counts[k] == 2:  # PH-6.1: onto a pair, as wei
            pair = [x for x in h.free if x >> 2 == k]
            wei = _Hand(me, h.without(pair), h.kans, [*h.melds, ("wei", (*pair, card))], False)
            by_own = _value(evaluate_win(wei.state(me), me, None))
        else:
            by_own = _value(evaluate_win(own, me, card))
        if by_other is not None or by_own is not None:
            out.append(WinCard(kind_name(k), max(0, 4 - seen[k]), by_other, by_own))
    return out


# ---- the answers in the open window -------------------------------------------------------------


def _after(h: _Hand, used: list[int], meld: list) -> tuple[_Hand, int]:
    """The hand after a claim moves ``used`` free cards into ``meld`` melds, and its layout huxi."""
    after = _Hand(h.seat, h.without(used), h.kans, [*h.melds, *meld], h.dead)
    return after, _layout_huxi(after)


def _pairs_broken(before: list[int], after: list[int]) -> list[str]:
    return [kind_name(k) for k in range(N_KINDS) if before[k] >= 2 and after[k] < 2]


def _take(free: list[int], kinds: list[int]) -> list[int]:
    """Ids for ``kinds`` from the free cards, lowest id first (as the engine picks them)."""
    pool = sorted(free)
    out = []
    for k in kinds:
        x = next(c for c in pool if c >> 2 == k)
        pool.remove(x)
        out.append(x)
    return out


def _actions(view: SeatView, h: _Hand, now: int) -> list[ActionAdvice]:
    acts = view.legal_actions
    table = view.table
    offers_chou = any(type(a) in (Chi, Peng) for a in acts)
    before = h.counts()
    holding = h.holding()
    out = []
    for i, a in enumerate(acts):
        t = type(a)
        if t is Pass:
            chou = [kind_name(table.card >> 2)] if offers_chou and table is not None else []
            out.append(ActionAdvice(i, "pass", [], 0, now, 0, None, chou, [], False))
        elif t is Win:
            card = table.card if table is not None else None
            w = evaluate_win(h.state(table.seat if table is not None else h.seat), h.seat, card)
            huxi = w.huxi if w is not None else 0
            tun = tun_for(huxi) if w is not None else None
            out.append(ActionAdvice(i, "win", [], 0, huxi, huxi - now, tun, [], [], False))
        elif table is None:
            continue  # only a win or a pass after a mandatory ti/wei (PH-6.1)
        elif t is Peng:
            card = table.card
            k = card >> 2
            pair = _take(h.free, [k, k])
            after, huxi = _after(h, pair, [("peng", (*pair, card))])
            must = needs_discard(holding + 1, h.fours())
            meld = group_huxi("peng", [k])
            broken = _pairs_broken(before, after.counts())
            broken.remove(kind_name(k))  # the pair is what a peng is made of
            out.append(ActionAdvice(i, "peng", [], meld, huxi, huxi - now, None, [], broken, must))
        elif t is Pao:
            out.append(_pao(i, view, h, now))
        elif t is Chi:
            card = table.card
            groups = [[kind_from_name(x) for x in g] for g in a.groups]
            first = list(groups[0])
            first.remove(card >> 2)
            used = _take(h.free, first + [x for g in groups[1:] for x in g])
            melds = [("chi", (card, *used[:2]))]
            melds += [("chi", tuple(used[j : j + 3])) for j in range(2, len(used), 3)]
            after, huxi = _after(h, used, melds)
            meld = sum(meld_huxi(m) for m in melds)
            must = needs_discard(holding + 1, h.fours())
            out.append(
                ActionAdvice(
                    i,
                    "chi",
                    [list(g) for g in a.groups],
                    meld,
                    huxi,
                    huxi - now,
                    None,
                    [],
                    _pairs_broken(before, after.counts()),
                    must,
                )
            )
    return out


def _pao(i: int, view: SeatView, h: _Hand, now: int) -> ActionAdvice:
    """A pao onto a kan in hand, or onto an exposed wei or peng (PH-6.2, PH-6.3), as the engine
    picks it: another seat's card onto a kan first, else the exposed meld."""
    table = view.table
    card = table.card
    k = card >> 2
    me = h.seat
    kans = list(h.kans)
    melds = list(h.melds)
    kan = next((j for j, kn in enumerate(kans) if kn[0] >> 2 == k), None) if table.seat != me else None
    if kan is not None:
        melds.append(("pao", (*kans.pop(kan), card)))
    else:
        j = next(j for j, m in enumerate(melds) if m[0] in ("wei", "peng") and m[1][0] >> 2 == k)
        melds[j] = ("pao", (*melds[j][1], card))
    after = _Hand(me, h.free, kans, melds, h.dead)
    huxi = _layout_huxi(after)
    must = needs_discard(h.holding() + 1, h.fours() + 1)  # the pao adds a card and a four
    return ActionAdvice(i, "pao", [], group_huxi("pao", [k]), huxi, huxi - now, None, [], [], must)


# ---- the advice -----------------------------------------------------------------------------------


def _hand(view: SeatView) -> _Hand:
    me = view.seat
    return _Hand(
        me,
        list(view.hand),
        [tuple(k) for k in view.kans],
        [(m.meld, tuple(m.cards)) for m in view.melds[me]],
        view.dead[me],
    )


def coach(view: SeatView) -> PaohuziAdvice:
    """The coach's advice for the seat of ``view``, from that view alone (deterministic)."""
    if view.seat is None or view.dealer is None:
        return PaohuziAdvice("paohuzi", view.version, view.seat, Layout(0, [], []), [], [], [], [], False)
    me = view.seat
    h = _hand(view)
    layout = _layout(h)
    seen = _seen(view)
    wins = _wins(h, seen)  # the engine's count check (PH-4.3) rules out a hand about to discard
    discards = []
    if view.phase == "discard" and view.turn == me:
        for k in sorted({x >> 2 for x in h.free}):
            card = min(x for x in h.free if x >> 2 == k)
            after = _Hand(me, h.without([card]), h.kans, h.melds, h.dead)
            discards.append(
                DiscardAdvice(
                    kind_name(k),
                    _layout_huxi(after),
                    _wins(after, seen),
                )
            )
    return PaohuziAdvice(
        "paohuzi",
        view.version,
        me,
        layout,
        wins,
        _actions(view, h, layout.huxi),
        discards,
        list(view.chou),
        h.dead,
    )
