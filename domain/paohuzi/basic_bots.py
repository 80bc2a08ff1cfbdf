"""The ``random`` and ``greedy`` Paohuzi bots. They read one seat view (never the state) and
return one of its legal actions.

They live apart from the level table (``bots``) because the strong bot plays the greedy one in
its rollouts: ``strong`` imports this module and ``bots`` imports both, so no import goes round
in a circle."""

from __future__ import annotations

import random
from typing import Any

from domain.paohuzi.cards import CHI_WITH, chi_huxi, kind_from_name
from domain.paohuzi.messages import Chi, Discard, Pao, Pass, Peng, Win
from domain.paohuzi.view import SeatView, pao_kills_hand
from domain.paohuzi.wins import PARTNERS


class RandomBot:
    """Uniform over the legal actions, from a seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Any:
        return self.rng.choice(view.legal_actions)


def _counts(cards: list[int]) -> list[int]:
    c = [0] * 20
    for x in cards:
        c[x >> 2] += 1
    return c


# the chi patterns each kind sits in, sorted out once: a pattern with a kind twice (the
# two-of-a-kind chi, PH-3.1) needs two of that kind and one of the other; a run needs one of each
# and is worth 3 plus its huxi
_MIXED: list[list[tuple[int, int]]] = [[] for _ in range(20)]
_RUN: list[list[tuple[int, int, int, int]]] = [[] for _ in range(20)]
for _k in range(20):
    for _a, _b, _d in CHI_WITH[_k]:
        if _a == _b:
            _MIXED[_k].append((_a, _d))
        elif _b == _d:
            _MIXED[_k].append((_b, _a))
        else:
            _RUN[_k].append((_a, _b, _d, 3 + chi_huxi((_a, _b, _d))))


def keep_scores(c: list[int]) -> list[int]:
    """How much each kind in hand contributes to the hand's partial split: a pair 5, each
    complete chi it sits in 3 (+ its huxi), each partner card of a two-card chi start 1. The
    greedy bot and the strong bot's rollouts (which play it) both score with this one function."""
    sc = [0] * 20
    for k in range(20):
        if not c[k]:
            continue
        v = 5 if c[k] >= 2 else 0
        for t, o in _MIXED[k]:
            if c[t] >= 2 and c[o]:
                v += 3
        for a, b, d, w in _RUN[k]:
            if c[a] and c[b] and c[d]:
                v += w
        for j in PARTNERS[k]:
            if c[j]:
                v += 1
        sc[k] = v
    return sc


def hand_value(c: list[int]) -> int:
    """Sum of the keep scores: a cheap stand-in for the best partial split."""
    return sum(keep_scores(c))


class GreedyBot:
    """Wins whenever it can; takes pao (never one that kills the hand, PH-6.6) and peng; takes
    a chi only when the hand after the chi and its discard is worth more than keeping it;
    discards the card whose loss hurts the best partial split least (pairs and near-chi stay;
    kan are never discardable)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Any:
        acts = view.legal_actions
        if len(acts) == 1:
            return acts[0]
        by_type: dict[type, list[Any]] = {}
        for a in acts:
            by_type.setdefault(type(a), []).append(a)
        if Win in by_type:
            return by_type[Win][0]
        if Discard in by_type:
            return self._discard(view, by_type[Discard])
        if Pao in by_type and not pao_kills_hand(view):  # PH-6.6: never the pao that kills the hand
            return by_type[Pao][0]
        if Peng in by_type:
            return by_type[Peng][0]
        if Chi in by_type:
            best = self._chi(view, by_type[Chi])
            if best is not None:
                return best
        return by_type.get(Pass, acts)[0]

    def _discard(self, view: SeatView, options: list[Discard]) -> Discard:
        sc = keep_scores(_counts(view.hand))
        return min(options, key=lambda d: (sc[d.card >> 2], -(d.card >> 2)))

    def _chi(self, view: SeatView, options: list[Chi]) -> Chi | None:
        c = _counts(view.hand)
        claimed = view.table.card >> 2 if view.table is not None else -1
        best = None
        best_v = 0
        for ch in options:
            used = [0] * 20
            huxi = 0
            for g in ch.groups:
                kinds = sorted(kind_from_name(x) for x in g)
                huxi += chi_huxi(tuple(kinds))
                for k in kinds:
                    used[k] += 1
            used[claimed] -= 1
            # a pair broken for a zero chi is a loss; a scoring chi is worth taking
            broken = sum(1 for k in range(20) if used[k] and c[k] >= 2 and used[k] < c[k])
            v = 2 + 2 * huxi - 4 * broken - 2 * (len(ch.groups) - 1)
            if v > best_v:
                best, best_v = ch, v
        return best
