"""The MCR evaluator a review uses: the decisions that can matter, played out.

Which decisions (method m5): the strong bot's closed-form model
(``domain.mcr.strong.option_values``) ranks the options first, for almost nothing. Where it puts
the chosen play within ``CANDIDATE_GAP`` of its best and the seat passed no win, the decision is
valued by the model alone, each option shown with ``MODEL_NOISE`` (the model is never exact, and
gaps that small did not hold in play). Only the other decisions are played out (on the
eight seeded deals of ``bench.review_calibration``: 102 of the random seat's 139, none of the
strong seat's 161, which plays the model's best), with twice the deals method m4 spent on every
decision (``SAMPLES``, ``MAX_MOVES``): a gap's noise shrinks by the square root of two, so a
smaller loss can be told from the luck of the deals, and a review stays within about 20 s of one
core (three times, measured first, took 23 s on average and 53 s for a random seat).

Each option a decision plays out is played from the seat's view on paired deals: the hidden tiles
dealt again consistently with what the seat saw (``domain.mcr.strong.sample``), every seat then
played by the ``greedy`` bot to the end of the deal (``domain.mcr.strong.rollout``), the same
deals and the same continuation bots for every option, so the luck of the deal cancels in the
gaps. The value is the seat's mean net payment in points; up to ``SAMPLES`` deals, fewer for an
option surely behind and none beyond ``MAX_MOVES`` engine commands per decision (counts,
so one view and one seed give one answer anywhere). The noise given for a measured option is its
share of the standard error of its paired gap to the leader (that error over the square root of
two; the leader's is that of its nearest rival), so the noise of a gap between the leader and a
rival, which is what a verdict compares a loss with (``projections.review``), is the measured
standard error of that gap.

Which options are measured: the one chosen, every win, and the strong bot's model's best
``SHORTLIST`` distinct plays (``domain.mcr.strong.option_values``, a closed form: a model's
ranking is cheap, its values are not to be trusted). The other options are not played out:
each is shown at the model's gap below the model's best play, taken below the best measured value
(at least 0.01 below it, so it is never the best), with ``MODEL_NOISE`` as its noise: on the
random seat's decisions of two ``bench.review`` deals (66 measured gaps) the model's gap differed
from the measured one by 3.6 points (standard deviation; mean -3.2, the measured gaps larger,
much of it the rollouts' own noise and the luck of the leader they pick), so 3 points. The best
option, the chosen one and the verdict of a decision played out therefore always rest on measured
values.

Why not the model alone: it agreed with the strong bot by construction and showed no noise; played
out from outside (48 seeded deals, every seat strong), the mistakes it marked claimed 1.82 points
on average and measured 0.73, and where it claimed under 2 points its best option did worse in
play than the one chosen. Why greedy in the rollouts: a strong continuation costs some 45 times a
greedy one, and the review must stay within about 20 s of one core per deal;
``python -m bench.review_calibration`` measures the verdicts against strong continuations.

Floors: within ``INACCURACY_FLOOR`` = 0.5 points of the best counts as the best, more than
``MISTAKE_FLOOR`` = 2 points behind (and surely, ``projections.review``) is a mistake. The model's
claims held from 2 points on, and 2 points is about a third of the 6.5 points a deal
that the strong bot gains on greedy; half a point is about the noise of a gap on the deals a
review can afford, below which a difference is not worth a word.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.mcr import GAME
from domain.mcr.basic_bots import GreedyBot
from domain.mcr.messages import Claim, DeclareWin
from domain.mcr.strong import rollout
from domain.mcr.strong.bot import option_values
from domain.mcr.tiles import kind
from projections.mcr import view_from_state

UNIT = "points"
INACCURACY_FLOOR = 0.5
MISTAKE_FLOOR = 2.0
SAMPLES = 96  # paired deals per measured option at most
MAX_MOVES = 2 * rollout.MAX_MOVES  # engine commands per decision played out at most
SHORTLIST = 2  # the model's best distinct plays measured beside the one chosen
MODEL_FLOORS = (0.1, 0.3)  # inaccuracy, mistake: method m3's floors, for evaluate_model's verdicts
CANDIDATE_GAP = MODEL_FLOORS[0]  # a model gap from which a decision is played out (method m5)
MODEL_NOISE = 3.0  # points: about the spread of the model's gaps around measured ones (module doc)
RULESET = GAME.ruleset  # a view does not name its deal's ruleset; the rulesets differ at the wall's end


def same_play(action: Any) -> Any:
    """What an action plays: tiles count by kind (two copies of a tile are one discard)."""
    fields = msgspec.structs.asdict(action)
    if "tile" in fields:
        fields["tile"] = kind(fields["tile"])
    if "tiles" in fields:
        fields["tiles"] = sorted(kind(t) for t in fields["tiles"])
    return (type(action).__name__, repr(sorted(fields.items())))


def _greedy(bot_seed: int) -> GreedyBot:
    return GreedyBot(bot_seed)


def _is_win(a: Any) -> bool:
    return type(a) is DeclareWin or (type(a) is Claim and a.claim == "win")


def evaluate_model(view: Any, seed: int, chosen: Any) -> list[tuple[Any, float, float]]:
    """The strong bot's model alone (the review of method m3 and before): kept to compare with."""
    return [(o.action, o.value, o.noise) for o in option_values(view, seed)]


def _model_sees_a_loss(model_gap: float, win_passed: bool) -> bool:
    """Whether a decision is worth playing out: the model puts the chosen play at least its
    inaccuracy floor below its best, or the seat passed a win (module doc, method m5)."""
    return win_passed or model_gap >= CANDIDATE_GAP


def evaluate(
    view: Any,
    seed: int,
    chosen: Any,
    samples: int = SAMPLES,
    policy: rollout.Policy | None = None,
    max_moves: int = MAX_MOVES,
    play_out_all: bool = False,
) -> list[tuple[Any, float, float]]:
    """Every option's (action, value, noise) in legal-action order (module doc). With
    ``play_out_all`` no decision is valued by the model alone (``bench.review_playout``: what
    that would give and cost; not a review's method)."""
    acts = list(view.legal_actions)
    model = option_values(view, seed)
    reps: dict[Any, Any] = {}
    best_model: dict[Any, float] = {}
    for a, o in zip(acts, model, strict=True):
        k = same_play(a)
        reps.setdefault(k, a)
        best_model[k] = max(o.value, best_model.get(k, o.value))
    mine = same_play(chosen)
    top = max(best_model.values())
    win_passed = any(_is_win(a) for k, a in reps.items() if k != mine)
    if not play_out_all and not _model_sees_a_loss(top - best_model[mine], win_passed):
        # nothing to learn by the model's reckoning: its values, with its honest noise
        return [(a, o.value, MODEL_NOISE) for a, o in zip(acts, model, strict=True)]
    ranked = sorted(reps, key=lambda k: -best_model[k])
    listed = [mine] + [k for k in ranked if k != mine and _is_win(reps[k])]
    for k in ranked:
        if len(listed) >= 1 + SHORTLIST + sum(_is_win(reps[x]) for x in listed if x != mine):
            break
        if k not in listed:
            listed.append(k)
    options = {k: reps[k] for k in sorted(listed, key=lambda k: list(reps).index(k))}
    if policy is None:
        policy = rollout.seeded_policy(_greedy, seed)
    results, _ro = rollout.review_values(
        view, seed, mine, options, policy, view_from_state, samples, RULESET, max_moves
    )
    means = {k: rollout.stats(v)[0] for k, v in results.items()}
    most = max(len(v) for v in results.values())
    lead = max((k for k, v in results.items() if len(v) == most), key=lambda k: means[k])
    noise: dict[Any, float] = {}
    for k, v in results.items():
        if k != lead:
            noise[k] = rollout.paired(results[lead], v)[1] / 2**0.5
    rivals = [k for k in results if k != lead]
    if rivals:
        nearest = min(rivals, key=lambda k: means[lead] - means[k])
        noise[lead] = noise[nearest]
    else:
        noise[lead] = rollout.stats(results[lead])[1]
    top_model = max(best_model[k] for k in results)
    values: dict[Any, tuple[float, float]] = {k: (means[k], noise[k]) for k in results}
    for k in reps:
        if k not in values:
            values[k] = (means[lead] - max(0.01, top_model - best_model[k]), MODEL_NOISE)
    return [(a, *values[same_play(a)]) for a in acts]
