"""The Paohuzi evaluator a review uses: the strong bot's rollouts (expected net tun), every
option on the same sampled deals, up to 256 (``review_values``: an option surely not the best
stops early, and so does the whole evaluation once the choice is surely a mistake).

The noise given for an option is the standard error of its gap to the best option, measured on
the deals both were played on (paired: the same cards cancel out), so a verdict rests on how
sure the gap is, not on how noisy each value is alone (``projections.review``: a mistake must be
more than three times that noise behind). Floors: within 0.05 tun of the best counts as the best
(a twentieth of the tun a win is worth at least); more than 0.5 tun behind, and surely so, is a
mistake. The floor was 0.25 tun (about the edge the strong bot holds over greedy per
decision-rich deal) until method m6: checked against strong play (``python -m
bench.review_calibration``), the marked mistakes claiming under half a tun did not hold (two of
them measured -0.23 and 0.19 tun on 192 and 48 continuations), where the larger ones did. The
rollouts behind a value play the greedy policy to the end, strong play does better, and on a
small gap between two near plays (which chi group to meld) the difference between the two
continuations is as large as the gap. Why 256 deals: with 64
the noise of a gap is about 0.3 tun, so hardly any loss could be told apart from it (a random
seat's decisions: 11 % mistakes); with 256 about a third of them are surely mistakes, and a review
still takes about 5 s of one core.
"""

from __future__ import annotations

from typing import Any

from domain.paohuzi.strong.evaluate import action_key, review_values

UNIT = "tun"
INACCURACY_FLOOR = 0.05
MISTAKE_FLOOR = 0.5
SAMPLES = 256


def same_play(action: Any) -> Any:
    """What an action plays: copies of a card, or chi groups that meld the same cards, are one."""
    return action_key(action)


def evaluate(view: Any, seed: int, chosen: Any) -> list[tuple[Any, float, float]]:
    return [(o.action, o.value, o.loss_stderr) for o in review_values(view, seed, chosen, SAMPLES)]
