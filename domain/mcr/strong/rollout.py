"""Rollouts: an MCR decision's options played out on deals of the hidden tiles dealt again
(``sample.Sampler``), every seat then played by a policy to the end of the deal.

The value of an option is the deciding seat's mean net payment (MC-4.4, in points) over the
sampled deals; every option is played on the same deals with the same continuation bots
(paired), so the luck of the deal cancels in the gap between two options, and the noise given
for a gap is the standard error of the per-deal differences.

Pure: the engine (``decide.execute``, ``queries``) plays every step, the bots see only their own
seat's view (``view``, passed in: ``projections.mcr.view_from_state``), and the deals and the
bots are seeded from the caller's seed and the deal's index, so one view and one seed give one
answer. The work is counted in engine commands (``moves``), never timed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from domain.mcr.decide import execute
from domain.mcr.queries import seats_to_act
from domain.mcr.seats import SEATS
from domain.mcr.state import State
from domain.mcr.strong.sample import Sampler
from domain.mcr.view import SeatView

ViewFn = Callable[[State, int], SeatView]
Policy = Callable[[int], Sequence[Any]]  # deal index -> one bot per seat (``choose(view)``)


def net(s: State, seat: int) -> int:
    """The seat's net payment at the end of a deal (0 for a wall exhausted)."""
    return s.result.payments[seat] if s.result is not None else 0


def play_out(s: State, seat: int, action: Any, bots: Sequence[Any], view: ViewFn,
             max_moves: int = 4000) -> tuple[int, int]:  # fmt: skip
    """(the seat's net payment, engine commands played) once ``seat`` plays ``action`` on ``s``
    and every seat then plays its bot to the end of the deal."""
    _events, s = execute(s, action)
    moves = 1
    while s.phase != "over":
        if moves >= max_moves:  # pragma: no cover - a deal ends in a few hundred commands
            raise RuntimeError("a rollout did not end")
        to_act = seats_to_act(s)
        p = to_act[0]
        _events, s = execute(s, bots[p].choose(view(s, p)))
        moves += 1
    return net(s, seat), moves


class Rollouts:
    """The sampled deals of one view, built on demand and shared by every option."""

    def __init__(
        self, view: SeatView, seed: int, policy: Policy, view_fn: ViewFn, ruleset: str = "mcr/2"
    ) -> None:
        self.view = view
        self.seed = seed
        self.policy = policy
        self.view_fn = view_fn
        self.sampler = Sampler(view, ruleset)
        self.bases: list[State] = []
        self.results: dict[Any, list[int]] = {}
        self.moves = 0  # engine commands played so far: the work done, counted

    def base(self, i: int) -> State:
        while len(self.bases) <= i:
            rng = random.Random((self.seed * 1_000_003 + len(self.bases)) & 0xFFFFFFFFFFFF)
            self.bases.append(self.sampler.state(rng))
        return self.bases[i]

    def run(self, key: Any, action: Any, n: int) -> list[int]:
        """Net payments of ``action`` on the first ``n`` sampled deals."""
        got = self.results.setdefault(key, [])
        for i in range(len(got), n):
            value, moves = play_out(self.base(i), self.view.seat, action, self.policy(i), self.view_fn)
            self.moves += moves
            got.append(value)
        return got


def stats(v: Sequence[float]) -> tuple[float, float]:
    """(mean, standard error of the mean)."""
    n = len(v)
    if n == 0:
        return 0.0, 0.0
    m = sum(v) / n
    if n == 1:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1) / n)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """(mean, standard error) of a - b on the deals both were played on."""
    n = min(len(a), len(b))
    return stats([x - y for x, y in zip(a[:n], b[:n], strict=True)])


def seeded_policy(make: Callable[[int], Any], seed: int) -> Policy:
    """A policy of one bot kind (``make(bot_seed)``), seeded per deal index and seat."""

    def policy(i: int) -> list[Any]:
        return [make((seed * 7919 + i * SEATS + p) & 0xFFFFFFFF) for p in range(SEATS)]

    return policy


# A review's rollouts (``review_values``) spend their deals where the verdict is still in doubt:
# every option played gets FIRST deals, then STEP more at a time up to the review's count; an
# option other than the one chosen stops once it is surely not the best (behind the leader by more
# than SURE_GAP points and SURE_Z standard errors of the paired gap, or behind on the deals so far
# with no spread at all), and the whole evaluation stops once the chosen option itself is that
# surely behind (a mistake whatever more deals show), is the only one left, or MAX_MOVES engine
# commands are spent (a count: the same answer on any machine).
FIRST = 16
STEP = 16
SURE_GAP = 3.0
SURE_Z = 4.0
MAX_MOVES = 9000


def review_values(
    view: SeatView,
    seed: int,
    chosen_key: Any,
    options: dict[Any, Any],
    policy: Policy,
    view_fn: ViewFn,
    samples: int,
    ruleset: str = "mcr/2",
    max_moves: int = MAX_MOVES,
) -> tuple[dict[Any, list[int]], Rollouts]:
    """The net payments of each option (``options``: key -> action, the chosen one's key among
    them) on paired deals, as many as the verdict needs (above), and the rollouts behind them."""
    ro = Rollouts(view, seed, policy, view_fn, ruleset)
    order = {k: i for i, k in enumerate(options)}
    alive = list(options)
    n = 0
    while n < samples and (n == 0 or (len(alive) > 1 and ro.moves < max_moves)):
        n = min(samples, FIRST if n == 0 else n + STEP)
        for k in alive:
            ro.run(k, options[k], n)
        mean = {k: stats(ro.results[k])[0] for k in alive}
        lead = max(alive, key=lambda k: (mean[k], -order[k]))
        kept = [lead]
        for k in alive:
            if k == lead:
                continue
            d, se = paired(ro.results[lead], ro.results[k])
            if (se == 0.0 and d > 0.0) or d > max(SURE_GAP, SURE_Z * se):
                if k == chosen_key:
                    return ro.results, ro  # surely a mistake: more deals would not change that
                continue
            kept.append(k)
        alive = kept
    return ro.results, ro
