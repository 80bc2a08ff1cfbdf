"""The ``random`` and ``greedy`` MCR bots. They read one seat view (never the state) and return
one of its legal actions.

greedy: always takes a legal win; otherwise minimises shanten (over all MCR forms) and, among
equal shanten, maximises the unseen copies of the tiles that improve the hand. A ready hand
counts as ready only if some wait scores 8 points (MC-4.3); its value is then the unseen
winning tiles that score. Sets are claimed only when they lower the shanten.

They live apart from the level table (``bots``), as in every game: the strong bot may play
them in its rollouts without importing the table."""

from __future__ import annotations

import random

from domain.mcr import scoring
from domain.mcr.messages import AddedKong, Claim, Command, ConcealedKong, DeclareWin, Discard, Pass
from domain.mcr.tiles import KIND_CODES
from domain.mcr.view import SeatView


class RandomBot:
    """Any legal command, uniformly."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Command:
        return self.rng.choice(view.legal_actions)


def _unseen(view: SeatView) -> list[int]:
    """Copies of each kind this seat has not seen (own hand, all discards, all open sets)."""
    seen = [0] * 34
    for t in view.hand:
        seen[t >> 2] += 1
    for p in view.seats:
        for t in p.discards:
            seen[t >> 2] += 1
        for m in p.melds:
            for t in m.tiles:
                seen[t >> 2] += 1
    return [4 - n if n < 4 else 0 for n in seen]


_fan_cache: dict[tuple, float] = {}


def _connectivity(k: int, kinds: list[int]) -> float:
    """How much tile kind ``k`` works with the rest of the hand (lower: better discard)."""
    score = 0.0
    for j in kinds:
        if j == k:
            score += 2.0
        elif k < 27 and j < 27 and j // 9 == k // 9:
            d = abs(j - k)
            if d == 1:
                score += 1.5
            elif d == 2:
                score += 1.0
    return score - 2.0  # the tile itself


class GreedyBot:
    """Shanten + useful tiles, 8-point-aware waits, claims only when they help."""

    max_candidates = 3

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # -- evaluation of a concealed hand of 13 - 3n tiles -------------------------------------
    def _wait_value(self, view: SeatView, packs: tuple, kinds: tuple[int, ...], k: int) -> float:
        """1 if winning on kind ``k`` from a discard scores 8, 1/3 if only self-drawn does."""
        seat = view.seat
        key = (packs, kinds, k, len(view.seats[seat].flowers), view.seats[seat].wind)
        v = _fan_cache.get(key)
        if v is None:
            if len(_fan_cache) > 200_000:
                _fan_cache.clear()
            hand = tuple([KIND_CODES[x] for x in kinds])
            wind = view.seats[seat].wind
            v = 0.0
            for self_drawn, value in ((False, 1.0), (True, 1 / 3)):
                try:
                    sc = scoring.score(
                        packs,
                        hand,
                        KIND_CODES[k],
                        0,
                        self_drawn,
                        False,
                        False,
                        False,
                        wind,
                        view.prevailing_wind,
                    )
                except Exception:  # noqa: BLE001 - a wait the calculator rejects is worthless
                    break
                if sc.meets_minimum:
                    v = value
                    break
            _fan_cache[key] = v
        return v

    def _evaluate(
        self, view: SeatView, packs: tuple, kinds: tuple[int, ...], unseen: list[int]
    ) -> tuple[int, float]:
        s, use = scoring.useful(kinds)
        if s == 0:
            good = 0.0
            for k in use:
                if unseen[k]:
                    good += unseen[k] * self._wait_value(view, packs, kinds, k)
            if good > 0:
                return 0, good
            return 1, sum(unseen[k] for k in use) * 0.1
        return s, float(sum(unseen[k] for k in use))

    def _best_discard(
        self, view: SeatView, packs: tuple, tiles: list[int], unseen: list[int]
    ) -> tuple[tuple[int, float, int], int]:
        """(key, tile) of the best discard from ``tiles`` (14 - 3n)."""
        by_kind: dict[int, int] = {}
        for t in tiles:
            by_kind.setdefault(t >> 2, t)
        kinds_all = sorted([t >> 2 for t in tiles])
        shanten = scoring.shanten
        cands = []
        for k, t in by_kind.items():
            i = kinds_all.index(k)  # the hand without one copy of ``k``, still sorted
            rest_t = tuple(kinds_all[:i] + kinds_all[i + 1 :])
            cands.append((shanten(rest_t), k, t, rest_t))
        low = min(c[0] for c in cands)
        cands = [c for c in cands if c[0] == low]
        if len(cands) == 1 and low > 0:
            return (low, 0.0, 0), cands[0][2]
        if len(cands) > self.max_candidates:
            # exact useful-tile counts are costly: keep the least connected tiles only
            cands.sort(key=lambda c: _connectivity(c[1], kinds_all))
            cands = cands[: self.max_candidates]
        best = None
        for _s0, k, t, rest_t in cands:
            s, v = self._evaluate(view, packs, rest_t, unseen)
            # honours and terminals go first on ties: they help others less
            key = (s, -v, 0 if k >= 27 else 1 if k % 9 in (0, 8) else 2)
            if best is None or key < best[0]:
                best = (key, t)
        return best

    def choose(self, view: SeatView) -> Command:
        acts = view.legal_actions
        for a in acts:
            if type(a) is DeclareWin or (type(a) is Claim and a.claim == "win"):
                return a
        unseen = _unseen(view)
        packs = scoring.packs(view.seats[view.seat].melds, view.seat)
        if type(acts[0]) is Pass:
            return self._claim(view, acts, packs, unseen)
        discards = [a for a in acts if type(a) is Discard]
        best_key, tile = self._best_discard(view, packs, view.hand, unseen)
        for a in acts:
            if type(a) is ConcealedKong:
                rest = list(view.hand)
                for t in a.tiles:
                    rest.remove(t)
                if scoring.shanten(tuple(sorted(t >> 2 for t in rest))) <= best_key[0]:
                    return a
            elif type(a) is AddedKong:
                rest = list(view.hand)
                rest.remove(a.tile)
                if scoring.shanten(tuple(sorted(t >> 2 for t in rest))) <= best_key[0]:
                    return a
        for a in discards:
            if a.tile == tile:
                return a
        return discards[0]

    def _claim(self, view: SeatView, acts: list[Command], packs: tuple, unseen: list[int]) -> Command:
        kinds = tuple(sorted(t >> 2 for t in view.hand))
        s_now = scoring.shanten(kinds)
        if s_now == 0:
            s_now = self._evaluate(view, packs, kinds, unseen)[0]
        best = (s_now, 0.0)
        choice = acts[0]
        card = view.window.card
        for a in acts[1:]:
            if type(a) is not Claim:
                continue
            rest = list(view.hand)
            for t in a.tiles:
                rest.remove(t)
            used = sorted([*a.tiles, card])
            if a.claim == "chow":
                pack = ("CHI", KIND_CODES[(used[0] >> 2) + 1], (card >> 2) - (used[0] >> 2) + 1)
            else:
                pack = (
                    "PENG" if a.claim == "pung" else "GANG",
                    KIND_CODES[card >> 2],
                    (view.seat - view.window.source_seat) % 4,
                )
            npacks = (*packs, pack)
            rest_k = sorted(t >> 2 for t in rest)
            if a.claim == "kong":
                s = scoring.shanten(tuple(rest_k))
                if s == 0:
                    s = self._evaluate(view, npacks, tuple(rest_k), unseen)[0]
            else:
                s = 99
                for k in set(rest_k):  # the best discard after the set, by shanten
                    r = list(rest_k)
                    r.remove(k)
                    s = min(s, scoring.shanten(tuple(r)))
                if s == 0:
                    (s, _negv, _), _t = self._best_discard(view, npacks, rest, unseen)
            key = (s, 0.0)
            if key[0] < best[0]:
                best = key
                choice = a
        return choice
