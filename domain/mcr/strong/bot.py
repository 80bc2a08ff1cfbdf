"""The strong MCR bot: every legal action valued in expected points, the best one played.

``option_values(view, seed)`` is the evaluator a review or coach feature can reuse. The value of
an action is the seat's expected net payment (MC-4.4) from this decision on, measured against a
seat that will not win this deal: what its own win would collect (each payment, plus the loss
the win saves it from), weighted by the chance of getting there before the wall ends or another
seat wins, minus the expected extra cost of dealing in with the discard the action makes. Only
differences between the options of one view mean something. ``StrongBot.choose`` plays the best
option, except that a legal win is always taken: the value of passing a win rests on the model's
extrapolated chance of a bigger one later, which self-play does not support.

Hidden tiles enter in two ways. Draws are averaged exactly: a kind is drawn with probability
(copies this seat cannot see) / (tiles it cannot see), which is what averaging over every deal of
the hidden tiles consistent with the view gives. Opponents that show two sets or more are also
determinised: their concealed tiles are dealt at random (seeded) from the unseen copies next to
their sets, and the ready deals' 8-point waits sharpen the danger of each kind; ``noise`` is the
standard error that sampling leaves in a value.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from domain.mcr import scoring
from domain.mcr.messages import AddedKong, Claim, Command, ConcealedKong, DeclareWin, Discard, Pass
from domain.mcr.strong.hand import Model
from domain.mcr.strong.table import Threat, own_draws, packs_of, threats, visible_counts
from domain.mcr.tiles import KIND_CODES
from domain.mcr.view import SeatView


@dataclass(frozen=True, slots=True)
class Params:
    """The model's constants (points and chances); the defaults are the measured ones."""

    feed: float = 0.7  # share of a live copy's chance that another seat's discard brings it
    ready_win: float = 0.13  # chance per go-around that a ready opponent wins
    loss_per_win: float = 12.0  # what another seat's win costs this seat on average (MC-4.4)
    # a deal-in pays the winner 8 + its points (MC-4.4); the 8 is counted in full, not netted
    # against the loss this seat expects anyway (netting half of it measured no better)
    deal_in_extra: float = 8.0
    budget: int = 240  # hands expanded per decision (beyond it: the self-play table's value)
    candidates: int = 6  # discards searched (the others get the short-chain value)
    defend: bool = True
    always_win: bool = True  # a legal win is taken, whatever the model says passing is worth
    samples: int = 48  # determinised deals of each opponent that shows two sets or more


DEFAULT = Params()


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One legal action and its value in points (see the module docstring).

    ``noise`` is the standard error of ``value`` when part of it was sampled (0.0: computed
    exactly under the model); ``deal_in`` the chance that the discard it makes is won on now."""

    action: Command
    value: float
    noise: float = 0.0
    deal_in: float = 0.0


class _Decision:
    """The facts of one view, and the search model they give."""

    def __init__(self, view: SeatView, params: Params, seed: int) -> None:
        self.view = view
        self.p = params
        me = view.seats[view.seat]
        self.seen = visible_counts(view)
        self.kinds = tuple(sorted(t >> 2 for t in view.hand))
        own = [0] * 34
        for k in self.kinds:
            own[k] += 1
        self.own = own
        self.packs = packs_of(view)
        self.threats: list[Threat] = threats(view, self.seen, own, random.Random(seed), params.samples)
        unseen = sum(4 - x for x in self.seen) - len(self.kinds)
        horizon = view.wall_count // 4 + 1
        survive, avoided = _pace(self.threats, horizon, params)
        self.model = Model(
            [4 - x for x in self.seen],
            unseen,
            horizon,
            survive=survive,
            feed=params.feed,
            avoided=avoided,
            flowers=len(me.flowers),
            seat_wind=me.wind,
            prevailing=view.prevailing_wind,
            budget=params.budget,
        )

    # -- the danger of discarding a kind now ---------------------------------------------------
    def danger(self, k: int) -> tuple[float, float, float]:
        """(chance someone wins on kind ``k`` now, its cost in points relative to not winning,
        the standard error of the chance where it was sampled)."""
        safe = 1.0
        cost = 0.0
        var = 0.0
        if not self.p.defend:
            return 0.0, 0.0, 0.0
        for t in self.threats:
            p = t.deal_in(k)
            if p > 0:
                safe *= 1 - p
                cost += p * (t.points + self.p.deal_in_extra)
                if t.error is not None:
                    var += (t.ready * t.error[k]) ** 2
        chance = 1 - safe
        return chance, (cost / chance if chance > 0 else 0.0), var**0.5

    def discard_values(self, packs: tuple, kinds14: tuple[int, ...], horizon: int) -> dict[int, tuple]:
        """{kind: (value, deal-in chance, noise)} of each discard from a hand of 14 - 3n kinds."""
        m = self.model
        distinct = sorted(set(kinds14))
        rest_of = {}
        shan = {}
        for d in distinct:
            i = kinds14.index(d)
            rest = kinds14[:i] + kinds14[i + 1 :]
            rest_of[d] = rest
            shan[d] = scoring.shanten(rest)
        low = min(shan.values())
        risk = {d: self.danger(d) for d in distinct}
        # the candidates worth a search: the lowest shanten, best by useful draws; the safest
        near = [d for d in distinct if shan[d] == low]
        if len(near) > 1:
            near.sort(key=lambda d: -self._useful_count(packs, rest_of[d]))
        near = near[: self.p.candidates]
        safest = sorted(distinct, key=lambda d: (risk[d][0], shan[d]))[:2]
        # searched in this order, so that a budget running out spares the likeliest choices
        search = near + [d for d in safest if shan[d] <= low + 1 and d not in near]
        found = {d: m.value(packs, rest_of[d])[horizon] for d in search}
        out = {}
        for d in distinct:
            if d in found:
                v = found[d]
            else:  # not searched: valued as a hand one step farther (below the searched ones)
                v = m.curve(shan[d] + 1, packs)[horizon]
            chance, cost, err = risk[d]
            out[d] = ((1 - chance) * v - chance * cost, chance, err * (v + cost))
        return out

    def _useful_count(self, packs: tuple, kinds: tuple[int, ...]) -> int:
        return sum(self.model.live(packs, kinds, k) for k in scoring.useful(kinds)[1])

    def moved(self, packs: tuple, tiles: Iterable[int]) -> tuple:
        """Register ``packs`` as an option that moves ``tiles`` of the hand into a set: their
        copies are no longer live for the search."""
        base = list(self.model.base)
        for t in tiles:
            base[t >> 2] -= 1
        self.model.bases[packs] = base
        return packs

    def win_value(self, tile_kind: int, self_drawn: bool) -> float:
        """What a win now pays this seat (MC-4.4), plus the loss it saves."""
        view = self.view
        me = view.seats[view.seat]
        kinds = list(self.kinds)
        if self_drawn:
            kinds.remove(tile_kind)
        pts = scoring.fan_points(
            self.packs,
            scoring.hand_codes(kinds),
            KIND_CODES[tile_kind],
            self_drawn,
            me.wind,
            view.prevailing_wind,
        )
        pts = max(pts, scoring.MIN_POINTS) + len(me.flowers)
        return (3 * (8 + pts) if self_drawn else 24 + pts) + self.model.avoided[self.model.horizon]


# Chance per go-around that one of the three other seats wins, by wall left // 8 (greedy
# self-play): the deal speeds up as the wall runs down.
_PACE = (0.25, 0.19, 0.125, 0.11, 0.108, 0.07, 0.05, 0.034, 0.013, 0.003)


def _pace(threats: list[Threat], horizon: int, params: Params) -> tuple[list[float], list[float]]:
    """(survive[t], avoided[t]) for t own draws left: the table's pace, or faster when the
    opponents already look ready; the loss a win saves is what the rest of the deal would cost."""
    now = sum(t.ready * params.ready_win for t in threats)
    survive = [1.0] * (horizon + 1)
    avoided = [0.0] * (horizon + 1)
    alive = 1.0
    for t in range(1, horizon + 1):
        h = max(now, _PACE[min(len(_PACE) - 1, (4 * t) // 8)])
        survive[t] = 1 - min(0.6, h)
        alive *= survive[t]
        avoided[t] = params.loss_per_win * (1 - alive)
    return survive, avoided


def _claim_pack(view: SeatView, a: Claim) -> tuple:
    card = view.window.card
    if a.claim == "chow":
        used = sorted([*a.tiles, card])
        lo = used[0] >> 2
        return ("CHI", KIND_CODES[lo + 1], (card >> 2) - lo + 1)
    return (
        "PENG" if a.claim == "pung" else "GANG",
        KIND_CODES[card >> 2],
        (view.seat - view.window.source_seat) % 4,
    )


def _without(kinds: tuple[int, ...], tiles: Iterable[int]) -> tuple[int, ...]:
    rest = list(kinds)
    for t in tiles:
        rest.remove(t >> 2)
    return tuple(rest)


def option_values(view: SeatView, seed: int = 0, params: Params = DEFAULT) -> list[OptionValue]:
    """Every legal action of ``view`` with its value (module docstring), in legal-action order."""
    acts = view.legal_actions
    if len(acts) <= 1:
        return [OptionValue(a, 0.0) for a in acts]
    dec = _Decision(view, params, seed)
    out: list[OptionValue] = []
    if type(acts[0]) is Pass:
        w = view.window
        t_pass = own_draws(view, (w.source_seat + 1) % 4)
        t_claim = own_draws(view, (view.seat + 1) % 4)
        for a in acts:
            if type(a) is Pass:
                out.append(OptionValue(a, dec.model.value(dec.packs, dec.kinds)[t_pass]))
            elif a.claim == "win":
                out.append(OptionValue(a, dec.win_value(w.card >> 2, False)))
            else:
                packs = dec.moved((*dec.packs, _claim_pack(view, a)), a.tiles)
                rest = _without(dec.kinds, a.tiles)
                if a.claim == "kong":
                    out.append(OptionValue(a, dec.model.value(packs, rest)[t_claim + 1]))
                else:
                    vals = dec.discard_values(packs, rest, t_claim)
                    best = max(vals.values())
                    out.append(OptionValue(a, best[0], best[2], best[1]))
        return out
    horizon = own_draws(view, (view.seat + 1) % 4)
    vals = dec.discard_values(dec.packs, dec.kinds, horizon)
    for a in acts:
        t = type(a)
        if t is Discard:
            v, chance, noise = vals[a.tile >> 2]
            out.append(OptionValue(a, v, noise, chance))
        elif t is DeclareWin:
            out.append(OptionValue(a, dec.win_value(view.drawn >> 2, True)))
        elif t is ConcealedKong:
            k = a.tiles[0] >> 2
            packs = dec.moved((*dec.packs, ("GANG", KIND_CODES[k], 0)), a.tiles)
            rest = _without(dec.kinds, a.tiles)
            out.append(OptionValue(a, dec.model.value(packs, rest)[horizon + 1]))
        elif t is AddedKong:
            k = a.tile >> 2
            code = KIND_CODES[k]
            packs = tuple(("GANG", code, p[2]) if p[0] == "PENG" and p[1] == code else p for p in dec.packs)
            packs = dec.moved(packs, [a.tile])
            rest = _without(dec.kinds, [a.tile])
            chance, cost, err = dec.danger(k)
            v = dec.model.value(packs, rest)[horizon + 1]
            out.append(OptionValue(a, (1 - chance) * v - chance * cost, err * (v + cost), chance))
        else:  # pragma: no cover - the turn's actions are the four above
            out.append(OptionValue(a, 0.0))
    return out


class StrongBot:
    """Plays the best of ``option_values``; the first such action on ties (deterministic)."""

    def __init__(self, seed: int = 0, params: Params = DEFAULT) -> None:
        self.seed = seed
        self.params = params

    def choose(self, view: SeatView) -> Command:
        acts = view.legal_actions
        if self.params.always_win:
            for a in acts:
                if type(a) is DeclareWin or (type(a) is Claim and a.claim == "win"):
                    return a
        if len(acts) == 1:
            return acts[0]
        best = None
        best_key = None
        for ov in option_values(view, self.seed, self.params):
            key = (round(ov.value, 9), _tie(ov.action))
            if best_key is None or key > best_key:
                best, best_key = ov, key
        return best.action


def _tie(a: Command) -> int:
    """Between equal values: discard honours, then terminals, first (they help others least)."""
    if type(a) is not Discard:
        return 0
    k = a.tile >> 2
    return 2 if k >= 27 else 1 if k % 9 in (0, 8) else 0
