"""Reviews of whole deals: how long one takes on one core, and whether the verdicts are sane.

For each game, ``--deals`` seeded deals of strong, random and greedy bots are played in memory;
the strong seat and the random seat of each are reviewed in this process (one core), as the
service's workers would. The games are ``domain.game.GAMES`` (``--games``: all of them, in name
order). Printed per game: seconds per review (mean and max; the target is the game's own,
``REVIEW_TARGET_S`` in ``bench/<game>.py``), decisions per review, the strong seat's agreement with
its own evaluator (target >= 95 %), the random seat's share of mistakes (target: most), and the
loss quantiles of each seat's decisions that the floors in ``projections/<game>/review.py`` were
chosen from.

Also per seat: the share of its decisions that were *decisive* (some option clearly a mistake
against the best: behind by more than the mistake floor and the mistake multiple of the noise of
that gap, ``projections.review``) and, for the random seat, its mistakes among those. A random
choice among options that are all about as good is no mistake, so these tell a lenient review
from a game where many choices do not matter. And the share of decisions whose verdict is the
same when the seat is reviewed again with another review seed (1 instead of 0; the times are of
the first review only): a verdict that a reseeded review overturns was noise.

And what tells the two seats apart however many of the random seat's choices do not matter: each
seat's share of mistakes, its mean loss per decision with a 95 % confidence interval (over its
decisions), and the share of its decisions that lose more than the inaccuracy floor by the
values alone. That last share is a ceiling: no verdict rule that keeps the floor, whatever it
makes of the noise, could mark more (and it is itself high, since the best option is picked by
noisy values).

Whether a verdict is honest (methods m7, m8, m9): each seat's share of every verdict (``even``,
``agrees``, ``unclear``, ``inaccuracy``, ``mistake``) with a 95 % interval from a bootstrap over the deals
(a deal's decisions are not independent of each other), against the targets: the random seat
agrees on at most 40 % of its decisions, the strong seat's mistakes are at most 5 % of its own,
and no decision ranked last of three or more plays, more than the mistake floor behind, is
``agrees`` (``last_far_behind``: how many there were, by verdict). Beside each seat's ``agrees``
share, ``chance_agrees_share``: what a uniformly random choice among the distinct plays of the
same decisions would get by the same values and noises (the mean over decisions of the share of
plays the review would vouch for if chosen, method m9): a review is lenient if
the random seat agrees more often than that, and where it is high the decisions themselves
leave little to get wrong. From m8 a
decision where every play is within the inaccuracy floor is ``even``, not ``agrees``; beside the
shares of all decisions, ``agrees_of_not_even`` is the agreement among the others (what a review's
summary shows), and ``chance_agrees_share_of_not_even`` the chance figure on those. For a game
whose evaluator values some options by a model, ``chosen_valued_by_model_alone`` counts by
verdict the decisions whose chosen play was valued by the model alone, not played out (its noise
is the model's). ``--no-reseed`` skips the second review of each seat (half the time; no
``verdicts_equal_across_review_seeds`` then).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from typing import Any

from bench.common import by_name, emit, own, parser
from domain.envelope import StoredEvent
from domain.selfplay import play_stored
from projections import review as rv
from service.app.analysis.reviews import build
from service.app.games import kit


def lineup(game: str) -> list[str]:
    """Seat 0 strong and seat 1 random, reviewed; greedy in every other seat."""
    return ["strong", "random"] + ["greedy"] * (kit(game).game.seat_count - 2)


def _log(game: str, levels: list[str], seed: bytes) -> tuple[list[StoredEvent], list[Any]]:
    """A bot deal as stored records: each batch's first record carries its command."""
    k = kit(game)
    bots = [k.make_bot(level, i) for i, level in enumerate(levels)]
    return play_stored(k.game, k.projections.view_from_state, bots, deal_id="b", server_seed=seed)


def _quantiles(values: list[float]) -> dict[str, float]:
    v = sorted(values) or [0.0]
    return {f"p{q}": round(v[min(len(v) - 1, int(q / 100 * len(v)))], 3) for q in (50, 75, 90)}


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _mean_ci(values: list[float]) -> list[float] | None:
    """Mean and its 95 % normal interval over the decisions."""
    n = len(values)
    if n < 2:
        return None
    m = sum(values) / n
    half = 1.96 * math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1) / n)
    return [round(m, 3), round(m - half, 3), round(m + half, 3)]


def _decisive(d: rv.Decision, mistake_floor: float) -> bool:
    """Some option is clearly a mistake against the best one."""
    best = d.options[d.best]
    z = rv.noise_multiple(rv.MISTAKE_P, len({(o.value, o.noise) for o in d.options}) - 1)
    return any(
        best.value - o.value > max(mistake_floor, z * math.hypot(o.noise, best.noise)) for o in d.options
    )


VERDICTS = ("even", "agrees", "unclear", "inaccuracy", "mistake")
TARGETS = {"random_agrees_share_max": 0.4, "strong_mistake_share_max": 0.05, "last_far_behind_agrees": 0}
BOOTSTRAP = 2000
JUDGED = "agrees_of_not_even"  # the summary's agreement: agrees among the decisions not even


def _verdict_shares(per_deal: list[dict[str, int]]) -> dict[str, Any]:
    """Each verdict's share of a seat's decisions, with a 95 % interval from resampling the
    deals (each deal's counts, ``total`` its decisions)."""
    total = sum(d["total"] for d in per_deal)
    rng = random.Random("bench.review")
    judged = total - sum(d["even"] for d in per_deal)
    boots: dict[str, list[float]] = {v: [] for v in (*VERDICTS, JUDGED)}
    for _ in range(BOOTSTRAP):
        sample = [per_deal[rng.randrange(len(per_deal))] for _ in per_deal]
        n = sum(d["total"] for d in sample)
        for v in VERDICTS:
            if n:
                boots[v].append(sum(d[v] for d in sample) / n)
        if n > sum(d["even"] for d in sample):
            boots[JUDGED].append(sum(d["agrees"] for d in sample) / (n - sum(d["even"] for d in sample)))
    out: dict[str, Any] = {}
    for v in (*VERDICTS, JUDGED):
        b = sorted(boots[v])
        count = sum(d["agrees" if v == JUDGED else v] for d in per_deal)
        out[v] = {
            "count": count,
            "share": _share(count, judged if v == JUDGED else total),
            "ci95": [round(b[int(0.025 * len(b))], 4), round(b[min(len(b) - 1, int(0.975 * len(b)))], 4)]
            if len(per_deal) > 1 and b
            else None,
        }
    return out


def _chance_agrees(d: rv.Decision, inaccuracy_floor: float, model_noise: float | None) -> float:
    """The share of the decision's options that would be ``agrees`` by its values and noises if
    chosen, options told apart by their values (copies of a card score the same: one option), by
    the rule of method m9 (``projections.review``). Options the evaluator did not play out carry
    the model's noise and could not be vouched for: a guide, since a choice is always played out
    where the model sees a loss."""
    options = sorted({(o.value, o.noise) for o in d.options}, reverse=True)
    z = rv.noise_multiple(rv.AGREE_P, 1)
    model_only = model_noise is not None and all(n == model_noise for _v, n in options)

    def vouched(i: int) -> bool:
        value, noise = options[i]
        rivals = [(v, n) for j, (v, n) in enumerate(options) if j != i]
        if model_only:
            return i == 0
        measured = [(v, n) for v, n in rivals if n != model_noise] or rivals
        return all(v - value + z * math.hypot(n, noise) <= inaccuracy_floor for v, n in measured)

    return sum(vouched(i) for i in range(len(options))) / len(options)


def _even(d: rv.Decision) -> bool:
    return d.verdict == "even"


def _last_far_behind(d: rv.Decision, mistake_floor: float) -> bool:
    """Ranked last of three or more distinct plays, more than the mistake floor behind the best."""
    return d.choices >= 3 and d.rank == d.choices and d.loss > mistake_floor


def measure(game: str, deals: int, reseed: bool = True) -> dict[str, Any]:
    k = kit(game)
    times, decisions, losses = [], [], {"strong": [], "random": []}
    per_deal: dict[str, list[dict[str, int]]] = {"strong": [], "random": []}
    last_far: dict[str, dict[str, int]] = {level: dict.fromkeys(VERDICTS, 0) for level in per_deal}
    chance: dict[str, list[float]] = {level: [] for level in per_deal}
    chance_judged: dict[str, list[float]] = {level: [] for level in per_deal}
    # a game whose evaluator values some options by its model alone
    model_noise = getattr(k.review, "MODEL_NOISE", None)
    by_model: dict[str, dict[str, int]] = {level: dict.fromkeys(VERDICTS, 0) for level in per_deal}
    agree = mistakes = total_random = total_strong = 0
    decisive = {"strong": 0, "random": 0}
    decisive_mistakes = stable = 0
    marked = {"strong": 0, "random": 0}
    for i in range(deals):
        records, events = _log(
            game, lineup(game), hashlib.sha256(f"bench-review:{game}:{i}".encode()).digest()
        )
        for seat, level in ((0, "strong"), (1, "random")):
            started = time.process_time()
            points = rv.points(
                k.game, k.projections.view_from_state, records, events, seat, k.review.same_play
            )
            scores = rv.evaluate_chunk(points, k.view_type, k.game.command_type, k.review.evaluate, 0)
            review = build(k.game.ruleset, "b", seat, 0, points, scores)
            times.append(time.process_time() - started)
            if reseed:
                again = rv.evaluate_chunk(points, k.view_type, k.game.command_type, k.review.evaluate, 1)
                reseeded = build(k.game.ruleset, "b", seat, 1, points, again)
                pairs = zip(review.decisions, reseeded.decisions, strict=True)
                stable += sum(a.verdict == b.verdict for a, b in pairs)
            counts = {v: sum(d.verdict == v for d in review.decisions) for v in VERDICTS}
            per_deal[level].append({"total": len(review.decisions), **counts})
            for d in review.decisions:
                chance[level].append(_chance_agrees(d, review.inaccuracy_floor, model_noise))
                if not _even(d):
                    chance_judged[level].append(_chance_agrees(d, review.inaccuracy_floor, model_noise))
                if model_noise is not None and d.options[d.chosen].noise == model_noise:
                    by_model[level][d.verdict] += 1  # the choice itself was not played out
                if _last_far_behind(d, review.mistake_floor):
                    last_far[level][d.verdict] += 1
            decisions.append(review.summary.decisions)
            losses[level] += [d.loss for d in review.decisions]
            marked[level] += review.summary.mistakes
            for d in review.decisions:
                if _decisive(d, review.mistake_floor):
                    decisive[level] += 1
                    decisive_mistakes += level == "random" and d.verdict == "mistake"
            if level == "strong":
                agree += review.summary.agreements
                total_strong += review.summary.decisions
            else:
                mistakes += review.summary.mistakes
                total_random += review.summary.decisions
    return {
        "deals": deals,
        "review_cpu_s_mean": round(sum(times) / len(times), 2),
        "review_cpu_s_max": round(max(times), 2),
        "target_s": own(game).REVIEW_TARGET_S,
        "decisions_per_review_mean": round(sum(decisions) / len(decisions), 1),
        "strong_agreement": round(agree / total_strong, 4) if total_strong else None,
        "random_mistake_share": round(mistakes / total_random, 4) if total_random else None,
        "decisive_share": {
            "strong": round(decisive["strong"] / total_strong, 4) if total_strong else None,
            "random": round(decisive["random"] / total_random, 4) if total_random else None,
        },
        "random_mistake_share_of_decisive": (
            round(decisive_mistakes / decisive["random"], 4) if decisive["random"] else None
        ),
        "verdicts_equal_across_review_seeds": (
            round(stable / (total_strong + total_random), 4)
            if reseed and total_strong + total_random
            else None
        ),
        "verdicts": {level: _verdict_shares(v) for level, v in per_deal.items()},
        "chance_agrees_share": {level: _share(sum(v), len(v)) for level, v in chance.items()},
        "chance_agrees_share_of_not_even": {
            level: _share(sum(v), len(v)) for level, v in chance_judged.items()
        },
        "last_far_behind": last_far,
        "chosen_valued_by_model_alone": by_model if model_noise is not None else None,
        "targets": TARGETS,
        "mistake_share": {level: _share(marked[level], len(v)) for level, v in losses.items()},
        "mean_loss_ci95": {level: _mean_ci(v) for level, v in losses.items()},
        "loss_above_inaccuracy_floor_share": {
            level: _share(sum(x > k.review.INACCURACY_FLOOR for x in v), len(v))
            for level, v in losses.items()
        },
        "loss_quantiles": {level: _quantiles(v) for level, v in losses.items()},
        "floors": {
            "inaccuracy": k.review.INACCURACY_FLOOR,
            "mistake": k.review.MISTAKE_FLOOR,
            "unit": k.review.UNIT,
        },
    }


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=6)
    p.add_argument("--quick", action="store_true", help="two deals per game")
    p.add_argument("--games", default=",".join(by_name()), help="comma-separated (default all)")
    p.add_argument("--no-reseed", action="store_true", help="review each seat once (half the time)")
    args = p.parse_args(argv)
    deals = 2 if args.quick else args.deals
    figures = {game: measure(game, deals, not args.no_reseed) for game in args.games.split(",")}
    emit({"method": rv.METHOD, **figures}, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
