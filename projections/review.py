"""The review of a finished deal for one seat: every decision it made, against the strong
evaluator's value of each legal option at that moment, from that seat's view at that version.

A decision is a command the seat sent with at least two legal options that play differently (a
forced move is no choice, nor is a choice between two copies of one card). Its view is rebuilt
from the log as the seat saw it then (``view_from_state`` of the state before the command), so a
review never reads a card hidden from the seat at that moment;
the evaluator sees that view and nothing else. The value of an option is the game evaluator's
(``projections/<game>/review.py``): the seat's expected net payment from there on, in the game's
score unit. For each decision: the values, the option chosen and its rank, the value lost
against the best option, and a verdict:

* ``even``: every distinct play is within the inaccuracy floor of the best, by value: any play
  was as good, so there was nothing to agree or disagree about (like a forced move, which an
  accuracy figure leaves out). It is counted apart and left out of the agreement share (until
  method m8 it was an ``agrees``, so a seat that played at random was credited with every such
  decision);
* ``agrees``: what the review can vouch for. Either the evaluator shows it: every other play it
  measured is at most the inaccuracy floor ahead of the choice even after about two noises of
  that gap are added (``AGREE_P``, one comparison) — for a choice behind the best its loss plus
  two noises within the floor, for the best its lead over the runner-up no smaller than two noises
  less the floor. Or the evaluator measured nothing and its own ranking (the strong bot's model,
  ``model_noise`` on every option) puts the choice first: the bot plays it. Until method m9 a
  choice the best or within the floor *by value* agreed whatever its noise, so a seat that played
  at random agreed whenever the rollouts could not tell its play from the bot's (a random
  discard came out first among three near plays about one time in three);
* ``mistake``: behind by more than the mistake floor and by more than about three times the
  noise of the gap (the gap is clearly real and large);
* ``inaccuracy``: behind by more than the inaccuracy floor and by more than about twice the
  noise of the gap (real, but not surely a mistake);
* ``unclear``: the evaluator cannot tell: the best or within the inaccuracy floor by value but
  not surely so (m9), or beyond the floor but not by twice the noise of the gap (m7). It is not
  an agreement (until method m7 it was called one, so a seat that played at random could be told
  it agreed with the bot on every decision, its worst-ranked plays included), and it is counted
  apart.

"About" because the best option is itself picked by the noisy values: among k options that are
all as good, the luckiest looks better than the chosen one by two noises far more often than
one time in forty (with 13 discards, up to one time in four). So the two multiples are the
one-sided normal quantiles for 2.5 % and 0.135 % (1.96 and 3.0 for a choice between two)
shared among the k - 1 options the choice is compared with (Bonferroni): 2.87 and 3.69 for 13.
Without this a play as good as the best was called an inaccuracy by the luck of the samples, the
more often the more options it had. Options that play the same (two copies of a card) are one
option: they are valued on the same deals and score the same.

The floors are per game (its adapter says how they were chosen). The same log, seat and review
seed give the same review, byte for byte: the evaluator's seed for each decision is derived from
the review seed and the decision's version only.

Pure: the work is split into chunks (``points`` then ``evaluate_chunk``) so the service can run
them in worker processes and report progress, and the CLI can run them in a loop.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from functools import cache
from statistics import NormalDist
from typing import Any, Literal

import msgspec

from domain.game import StartDeal
from domain.table.absence import AWAY_COMMAND_PREFIX
from domain.table.clock import Back, Expire
from domain.table.seating import SeatCommand


class OptionScore(msgspec.Struct, frozen=True):
    action: dict[str, Any]
    value: float
    noise: float  # standard error of ``value`` (0.0: exact under the evaluator's model)


class Decision(msgspec.Struct, frozen=True):
    version: int  # the decision was taken on the deal after this many events
    kind: str  # the chosen command's type (Discard, Claim, Pass, Chi, ...)
    options: list[OptionScore]
    chosen: int  # index into options
    best: int
    rank: int  # 1 = the best option; among the distinct plays (copies of a card are one)
    loss: float  # value of the best option minus the chosen one's (>= 0)
    loss_noise: float  # standard error of that gap
    verdict: str  # even | agrees | inaccuracy | mistake | unclear
    choices: int = 0  # distinct plays among the options: what the rank is out of


class TableMove(msgspec.Struct, frozen=True):
    """A move the table made for the seat's person, which a review marks and never judges as
    theirs: ``clock``, the default move when its time ran out (TB-2.5; ``action`` is the
    table's ``Expire`` command), ``away``, the greedy bot's move while the seat was away (TB-2.6)."""

    version: int  # the move was made on the deal after this many events
    by: Literal["clock", "away"]
    action: dict[str, Any]


class ReviewSummary(msgspec.Struct, frozen=True):
    decisions: int
    agreements: int
    agreement: float  # share of the decisions that are not ``even`` that agree
    inaccuracies: int
    mistakes: int
    total_loss: float
    mean_loss: float
    unclear: int = 0  # decisions behind by more than the inaccuracy floor that the evaluator cannot judge
    even: int = 0  # decisions where every play was within the inaccuracy floor of the best


class Review(msgspec.Struct, frozen=True):
    deal_id: str
    seat: int
    seed: int
    ruleset: str
    unit: str  # points (MCR) | tun (Paohuzi)
    inaccuracy_floor: float
    mistake_floor: float
    decisions: list[Decision]
    summary: ReviewSummary
    table_moves: list[TableMove] = []  # the table's moves for the seat, not counted above
    status: Literal["done"] = "done"  # beside a running review's progress, which says "running"


class Point(msgspec.Struct, frozen=True):
    """One decision to evaluate: the seat's view then (as JSON) and the command it chose."""

    version: int
    view: msgspec.Raw
    chosen: msgspec.Raw


def _seat_commands(game: Any, records: list[Any], seat: int) -> Iterable[tuple[int, Any, Any]]:
    """(index, record, command) of every stored command the seat's person is answerable for or
    the table made in its name, the seat's own table commands (``Back``) aside."""
    decoder = msgspec.json.Decoder(game.command_type | SeatCommand)
    for i, record in enumerate(records):
        if not record.command:
            continue
        command = decoder.decode(record.command)
        if getattr(command, "seat", None) == seat and not isinstance(command, (StartDeal, Back)):
            yield i, record, command


def _by_table(record: Any, command: Any) -> Literal["clock", "away"] | None:
    if isinstance(command, Expire):
        return "clock"
    if (record.command_id or "").startswith(AWAY_COMMAND_PREFIX):
        return "away"
    return None


def points(game: Any, view_from_state: Callable[[Any, int], Any], records: list[Any], events: list[Any],
           seat: int, same_play: Callable[[Any], Any] = repr) -> list[Point]:  # fmt: skip
    """The seat's decisions in a log (records decoded, events typed), in order. ``same_play``
    names what an action plays (the game adapter's: two copies of a card play the same), so a
    command whose legal options all play the same is no decision. A move the table made for
    the seat (``table_moves``) is not one of its person's decisions."""
    state = game.initial_state()
    out: list[Point] = []
    done = 0
    for i, record, command in _seat_commands(game, records, seat):
        for event in events[done:i]:
            state = game.evolve(state, event)
        done = i
        if _by_table(record, command) is not None:
            continue
        view = view_from_state(state, seat)
        choices = {same_play(a) for a in view.legal_actions}
        if len(choices) >= 2 and command in view.legal_actions:
            out.append(
                Point(
                    record.version - 1,
                    msgspec.Raw(msgspec.json.encode(view)),
                    msgspec.Raw(msgspec.json.encode(command)),
                )  # fmt: skip
            )
    return out


def table_moves(game: Any, records: list[Any], seat: int) -> list[TableMove]:
    """The moves the table made for the seat's person (TB-2.5, TB-2.6), in order."""
    out = []
    for _i, record, command in _seat_commands(game, records, seat):
        by = _by_table(record, command)
        if by is not None:
            out.append(TableMove(record.version - 1, by, msgspec.to_builtins(command)))
    return out


# The review method: the evaluators, their deal counts and early stops, the floors and the verdict
# rules. A stored review is kept under it (``service.app.analysis.reviews``), so a review made by another
# method is never served as this one's: bump it with any change that can change a review.
# m9: ``agrees`` only where the evaluator shows the choice within the inaccuracy floor of every
# other play it measured, two noises of the gap included, or measured nothing and its model ranks
# the choice first (it was: the best or within the floor by value); the rest of those are
# ``unclear``; every other verdict, value and loss unchanged
# m8: a decision where every distinct play is within the inaccuracy floor of the best is ``even``
# (it was ``agrees``), counted apart and left out of the agreement share; values unchanged
# m7: ``agrees`` only within the inaccuracy floor by value; a larger gap the evaluator cannot tell
# from its noise is ``unclear`` (it was ``agrees``), counted apart; values and mistakes unchanged
# m6: a Paohuzi mistake is at least 0.5 tun behind (it was 0.25: the smaller ones did not hold in
# play, ``projections/paohuzi/review.py``)
# m5: MCR plays out only the decisions its model finds a loss in, twice as long, and an
# agreement's loss carries the noise of its gap to the nearest other play
# m4: MCR options played out; m3: the table's moves for a person are marked, not judged
METHOD = "m9"

AGREE_P = 0.025  # one-sided: about 2 noises for one comparison
MISTAKE_P = 0.00135  # one-sided: 3 noises for one comparison


@cache
def noise_multiple(p: float, others: int) -> float:
    """How many noises a gap must exceed to be real at level ``p``, shared among ``others``
    comparisons (module doc)."""
    return NormalDist().inv_cdf(1 - p / max(1, others))


def decision_seed(review_seed: int, version: int) -> int:
    return int.from_bytes(hashlib.sha256(f"review:{review_seed}:{version}".encode()).digest()[:8], "big")


def evaluate_chunk(
    chunk: Iterable[Point],
    view_type: Any,
    command_type: Any,
    evaluate: Callable[[Any, int, Any], list[tuple[Any, float, float]]],
    review_seed: int,
) -> list[list[tuple[float, float]]]:
    """(value, noise) of every legal option of each point, in legal-action order. The evaluator
    is told the option chosen too, so it may stop early once the verdict is sure."""
    out = []
    for point in chunk:
        view = msgspec.json.decode(point.view, type=view_type)
        chosen = msgspec.json.decode(point.chosen, type=command_type)
        scored = evaluate(view, decision_seed(review_seed, point.version), chosen)
        out.append([(float(value), float(noise)) for _action, value, noise in scored])
    return out


def decide(
    point: Point, scores: list[tuple[float, float]], view_type: Any, command_type: Any,
    inaccuracy_floor: float, mistake_floor: float, same_play: Callable[[Any], Any] = repr,
    model_noise: float | None = None,
) -> Decision:  # fmt: skip
    """The verdict on one decision from its options' values."""
    view = msgspec.json.decode(point.view, type=view_type)
    chosen = msgspec.json.decode(point.chosen, type=command_type)
    actions = list(view.legal_actions)
    return judge(
        point.version, actions, actions.index(chosen), scores, inaccuracy_floor, mistake_floor, same_play,
        model_noise,
    )  # fmt: skip


def judge(
    version: int, actions: list[Any], chosen: int, scores: list[tuple[float, float]],
    inaccuracy_floor: float, mistake_floor: float, same_play: Callable[[Any], Any] = repr,
    model_noise: float | None = None,
) -> Decision:  # fmt: skip
    """The verdict on choosing ``actions[chosen]`` when the options score ``scores``; the rank
    is among the distinct plays (``same_play``, as for ``points``). ``model_noise``: the noise
    the game's evaluator gives an option it valued by its model instead of measuring it (None:
    it measures every option)."""
    best = max(range(len(actions)), key=lambda i: (scores[i][0], -i))
    if scores[chosen][0] >= scores[best][0]:
        best = chosen  # a tie with the best is the best
    value_chosen, noise_chosen = scores[chosen]
    value_best, noise_best = scores[best]
    loss = max(0.0, value_best - value_chosen)
    if chosen != best:
        loss_noise = math.hypot(noise_best, noise_chosen)
    else:  # no loss, but as sure as the gap to the nearest other play: never a bare ±0
        mine = same_play(actions[chosen])
        rivals = [(v, n) for a, (v, n) in zip(actions, scores, strict=True) if same_play(a) != mine]
        loss_noise = math.hypot(noise_chosen, max(rivals)[1]) if rivals else 0.0
    plays: dict[Any, float] = {}
    for a, (v, _n) in zip(actions, scores, strict=True):
        key = same_play(a)
        plays[key] = max(v, plays.get(key, v))
    rank = 1 + sum(1 for v in plays.values() if v > value_chosen + 1e-9)
    others = len({(v, n) for v, n in scores}) - 1  # options that score the same play the same
    if max(plays.values()) - min(plays.values()) <= inaccuracy_floor:
        verdict = "even"  # any play was as good: no choice to agree or disagree with
    elif _vouched(actions, chosen, scores, inaccuracy_floor, same_play, model_noise):
        verdict = "agrees"
    elif loss <= inaccuracy_floor:  # the best or near it by value, but not surely: the noise may hide a loss
        verdict = "unclear"
    elif loss > max(mistake_floor, noise_multiple(MISTAKE_P, others) * loss_noise):
        verdict = "mistake"
    elif loss > noise_multiple(AGREE_P, others) * loss_noise:
        verdict = "inaccuracy"
    else:  # a gap the evaluator cannot tell from its noise: not vouched for, not blamed
        verdict = "unclear"
    return Decision(
        version=version,
        kind=type(actions[chosen]).__name__,
        options=[
            OptionScore(msgspec.to_builtins(a), round(v, 4), round(n, 4))
            for a, (v, n) in zip(actions, scores, strict=True)
        ],
        chosen=chosen,
        best=best,
        rank=rank,
        loss=round(loss, 4),
        loss_noise=round(loss_noise, 4),
        verdict=verdict,
        choices=len(plays),
    )


def _vouched(
    actions: list[Any], chosen: int, scores: list[tuple[float, float]], floor: float,
    same_play: Callable[[Any], Any], model_noise: float | None,
) -> bool:  # fmt: skip
    """Whether the review can say the choice agrees (module doc, method m9): the evaluator shows
    every other play it measured at most ``floor`` ahead, two noises of each gap included, or it
    measured nothing and ranks the choice first."""
    mine = same_play(actions[chosen])
    value, noise = scores[chosen]
    rivals = [(v, n) for a, (v, n) in zip(actions, scores, strict=True) if same_play(a) != mine]
    if not rivals:
        return True
    if model_noise is not None and noise == model_noise and all(n == model_noise for _v, n in rivals):
        return all(v <= value for v, _n in rivals)  # the bot's own ranking: its first play
    measured = [(v, n) for v, n in rivals if n != model_noise] or rivals
    z = noise_multiple(AGREE_P, 1)
    return all(v - value + z * math.hypot(n, noise) <= floor for v, n in measured)


def summarize(decisions: list[Decision]) -> ReviewSummary:
    n = len(decisions)
    agree = sum(1 for d in decisions if d.verdict == "agrees")
    even = sum(1 for d in decisions if d.verdict == "even")
    judged = n - even  # an even decision had no choice to agree with
    total = round(sum(d.loss for d in decisions), 4)
    return ReviewSummary(
        decisions=n,
        agreements=agree,
        agreement=round(agree / judged, 4) if judged else 1.0,
        inaccuracies=sum(1 for d in decisions if d.verdict == "inaccuracy"),
        mistakes=sum(1 for d in decisions if d.verdict == "mistake"),
        total_loss=total,
        mean_loss=round(total / n, 4) if n else 0.0,
        unclear=sum(1 for d in decisions if d.verdict == "unclear"),
        even=even,
    )
