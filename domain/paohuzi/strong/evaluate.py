"""Option values: every legal action of a seat view, valued by determinized rollouts.

The value of an action is the **expected net payment to this seat, in tun, for the rest of the
deal** (PH-8.4: +2 x tun when it wins, -tun when another seat wins, 0 for a draw), if it takes
the action now and every seat, itself included, then plays like the ``greedy`` bot. It is the
mean over ``samples`` deals of the hidden cards consistent with the view (``sample.Sampler``),
each played to the end by ``sim.Sim``; the same deals serve every action, so differences between
actions are measured on the same cards. ``stderr`` is the standard error of that mean.

Everything a good player weighs shows up in these numbers because the rollouts play it out:
the huxi and tun of the splits the hand can still reach (PH-4, PH-8), the bi groups a chi takes
with it (PH-6.5) and the chou a pass or a discard causes (PH-6.7), the share of reveals the seat
sees, and what a discard feeds the next seat (a chi, a peng or a pao that brings its win).

The search is bounded by counts only (samples, stages), so one view and one seed give one
answer on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import msgspec

from domain.paohuzi.cards import kind_from_name
from domain.paohuzi.messages import Chi, Discard, Pao, Pass, Peng, Win
from domain.paohuzi.strong.sample import Sampler
from domain.paohuzi.strong.sim import CHI_A, DISCARD, PAO_A, PASS, PENG_A, REVEAL, WIN, Sim
from domain.paohuzi.view import SeatView
from domain.paohuzi.wins import payment, tun_for


class OptionValue(msgspec.Struct, frozen=True):
    """One legal action with its value (expected net tun for the seat, see the module doc), the
    standard error of that estimate and the number of sampled deals behind it. ``loss`` is how
    far it falls behind the best action and ``loss_stderr`` the standard error of that gap,
    measured on the deals both were played on (much smaller than ``stderr``: the same cards
    cancel out), which is what a review compares a loss against."""

    action: Any
    value: float
    stderr: float
    samples: int
    loss: float = 0.0
    loss_stderr: float = 0.0


def action_key(a: Any) -> Any:
    """Actions that play the same: discards of the same kind are one choice."""
    if isinstance(a, Discard):
        return ("discard", a.card >> 2)
    if isinstance(a, Chi):
        # the same groups with another one holding the claimed card meld the same cards
        return ("chi", tuple(sorted(tuple(g) for g in a.groups)))
    return (type(a).__name__.lower(),)


def _forced(a: Any) -> Any:
    """The action as the simulator's first move: a discard kind or a claim answer."""
    if isinstance(a, Discard):
        return a.card >> 2
    if isinstance(a, Win):
        return (WIN, None)
    if isinstance(a, Pao):
        return (PAO_A, None)
    if isinstance(a, Peng):
        return (PENG_A, None)
    if isinstance(a, Pass):
        return (PASS, None)
    kinds = [tuple(sorted(kind_from_name(x) for x in g)) for g in a.groups]
    return (CHI_A, (kinds[0], tuple(sorted(kinds[1:]))))


def _entry(view: SeatView) -> tuple:
    if view.phase == "discard":
        return ("discard", view.seat)
    t = view.table
    if t is None:  # the window after a mandatory ti/wei: only this seat's win is open
        return ("mandatory", view.seat)
    return ("window", t.card >> 2, REVEAL if t.source == "reveal" else DISCARD, t.seat)


class Rollouts:
    """The sampled deals of one view, built on demand and shared by every action."""

    def __init__(self, view: SeatView, seed: int) -> None:
        self.view = view
        self.seed = seed
        self.sampler = Sampler(view)
        self.entry = _entry(view)
        self.bases: list[Sim] = []
        self.results: dict[Any, list[int]] = {}
        self.moves = 0  # simulator steps so far: the work done, counted (never timed)

    def _base(self, i: int) -> Sim:
        while len(self.bases) <= i:
            rng = random.Random((self.seed * 1_000_003 + len(self.bases)) & 0xFFFFFFFFFFFF)
            self.bases.append(Sim.from_state(self.sampler.state(rng)))
        return self.bases[i]

    def run(self, key: Any, action: Any, n: int) -> list[int]:
        """Net payments of ``action`` on the first ``n`` sampled deals."""
        got = self.results.setdefault(key, [])
        me = self.view.seat
        forced = (me, _forced(action))
        entry = self.entry
        for i in range(len(got), n):
            m = self._base(i).copy()
            if entry[0] == "mandatory":
                got.append(_mandatory(m, me, action))
                continue
            w, t = m.run(entry, forced)
            self.moves += m.moves
            got.append(payment(me, w, t))
        return got


def _mandatory(m: Sim, me: int, action: Any) -> int:
    """After a mandatory ti/wei the seat either wins now or goes on (discard or next reveal)."""
    if isinstance(action, Win):
        return 2 * _tun(m.win_huxi(me, -1, True))
    w, t = m.run(m._after_meld(me))
    return payment(me, w, t)


def _tun(huxi: int) -> int:
    return tun_for(huxi) if huxi >= 0 else 0


def _stats(v: list[int]) -> tuple[float, float]:
    n = len(v)
    if n == 0:
        return 0.0, 0.0
    m = sum(v) / n
    if n == 1:
        return m, 0.0
    var = sum((x - m) ** 2 for x in v) / (n - 1)
    return m, math.sqrt(var / n)


def _classes(view: SeatView) -> dict[Any, Any]:
    reps: dict[Any, Any] = {}
    for a in view.legal_actions:
        reps.setdefault(action_key(a), a)
    return reps


def _values(view: SeatView, ro: Rollouts) -> list[OptionValue]:
    res = ro.results
    most = max(len(v) for v in res.values())
    best = max((k for k, v in res.items() if len(v) == most), key=lambda k: _stats(res[k])[0])
    top = res[best]
    out = []
    for a in view.legal_actions:
        v = res.get(action_key(a), [])
        m, se = _stats(v)
        n = min(len(v), len(top))
        gap, gap_se = _stats([x - y for x, y in zip(top[:n], v[:n], strict=True)])
        out.append(OptionValue(a, m, se, len(v), gap, gap_se))
    return out


def option_values(view: SeatView, seed: int, samples: int = 64) -> list[OptionValue]:
    """Every legal action of ``view`` with its value (module doc), each from the same
    ``samples`` sampled deals. Pure: the view and the seed decide the answer."""
    ro = Rollouts(view, seed)
    for key, a in _classes(view).items():
        ro.run(key, a, samples)
    return _values(view, ro)


# A review's evaluation spends its deals where the verdict is still in doubt: every option gets
# REVIEW_FIRST deals, then REVIEW_STEP more at a time up to the review's count, and an option
# other than the one chosen stops once it is surely not the best (behind the leader by more than
# REVIEW_SURE_GAP tun and REVIEW_SURE_Z standard errors of the paired gap). The evaluation ends
# when the chosen option itself is that surely behind (a mistake whatever the rest show) or is
# the only one left (the best). Sized on the 241 strong-seat decisions of ``bench.review``: at
# 4 standard errors and 0.5 tun one verdict changed (a choice stopped as a mistake after 64 deals
# was 0.26 tun behind after 256: the leader of many options after 64 deals is itself lucky); at
# 5 and 0.75 none did, and a sixth of the rollouts were saved (more on a random seat's, whose
# clear mistakes stop after the first deals).
REVIEW_FIRST = 64
REVIEW_STEP = 64
REVIEW_SURE_GAP = 0.75
REVIEW_SURE_Z = 5.0


def review_values(view: SeatView, seed: int, chosen: Any, samples: int) -> list[OptionValue]:
    """Every legal action's value for a review of choosing ``chosen`` (above): the leader and
    the chosen option on the most deals, options surely behind on fewer (their noise says so)."""
    ro = Rollouts(view, seed)
    reps = _classes(view)
    order = {k: i for i, k in enumerate(reps)}
    mine = action_key(chosen)
    alive = list(reps)
    n = 0
    while n < samples and (n == 0 or len(alive) > 1):  # one round even when one option is left
        n = min(samples, REVIEW_FIRST if n == 0 else n + REVIEW_STEP)
        for k in alive:
            ro.run(k, reps[k], n)
        mean = {k: _stats(ro.results[k])[0] for k in alive}
        lead = max(alive, key=lambda k: (mean[k], -order[k]))
        kept = [lead]
        for k in alive:
            if k == lead:
                continue
            d, se = _stats([a - b for a, b in zip(ro.results[lead], ro.results[k], strict=True)])
            if d > max(REVIEW_SURE_GAP, REVIEW_SURE_Z * se):
                if k == mine:
                    return _values(view, ro)  # surely a mistake: more deals would not change that
                continue
            kept.append(k)
        alive = kept
    return _values(view, ro)


# The strong bot's search is a race: every distinct action is played on the same sampled deals,
# STEP more at a time; from MIN_DROP deals on, an action whose paired gap to the leader is more
# than DROP_Z standard errors is dropped. The race ends when one action is left; when every
# survivor is surely within CLOSE_ENOUGH tun of the leader (from 2 x MIN_DROP deals on, the gap
# plus two standard errors below it: no longer worth telling apart); after MAX_SAMPLES deals; or
# once MAX_MOVES simulator steps are spent (a count, so still deterministic: early-deal decisions
# with many choices stop there instead of taking several times the typical time).
# It replaced a successive halving (8, 24, 48 deals, a fixed number of survivors per stage) that
# dropped the option a 256-deal review found best after its first 8 deals on 8 of 241 decisions;
# the race only drops what is surely behind. On those 241 decisions (``bench.review``'s deals as
# the halving played them) the review agrees with the race's choices on 97 % (with the halving's
# on 91 %) for about twice the CPU time.
STEP = 8
MAX_SAMPLES = 128
MIN_DROP = 16
DROP_Z = 2.0
CLOSE_ENOUGH = 0.15
MAX_MOVES = 6000


def ranked_values(
    view: SeatView,
    seed: int,
    prefer: Callable[[Any], int] | None = None,
    max_moves: int | None = None,
    max_samples: int = MAX_SAMPLES,
) -> list[OptionValue]:
    """The values the strong bot decides by (the race above). Actions dropped early carry their
    early, noisier values; the survivors have the most deals. ``prefer`` ranks equal values
    (lower first)."""
    if max_moves is None:
        max_moves = MAX_MOVES
    ro = Rollouts(view, seed)
    reps = _classes(view)
    alive = list(reps)
    order = {k: i for i, k in enumerate(alive)}
    tie = (lambda k: prefer(reps[k])) if prefer is not None else (lambda k: order[k])
    n = 0
    while n < max_samples and (n == 0 or (len(alive) > 1 and ro.moves < max_moves)):
        n = min(max_samples, n + STEP)
        for k in alive:
            ro.run(k, reps[k], n)
        mean = {k: _stats(ro.results[k])[0] for k in alive}
        alive.sort(key=lambda k: (-mean[k], tie(k)))
        if n < MIN_DROP:
            continue
        lead = ro.results[alive[0]]
        kept, close = [alive[0]], True
        for k in alive[1:]:
            d, se = _stats([a - b for a, b in zip(lead, ro.results[k], strict=True)])
            if (se == 0.0 and d >= 0.0) or d > DROP_Z * se:
                continue  # surely behind, or the same as the leader (or behind) on every deal so far
            kept.append(k)
            close = close and d + 2 * se < CLOSE_ENOUGH
        alive = kept
        if close and n >= 2 * MIN_DROP:
            break
    return _values(view, ro)
