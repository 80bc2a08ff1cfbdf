"""The MCR evaluator a review uses: the strong bot's ``option_values`` (expected net points).

The values are a model's (draws averaged exactly, opponents sampled only when they show two sets
or more), so their noise is mostly 0 and the floors decide (``projections.review``). They were
chosen from the losses this evaluator gives (``python -m bench.review`` prints them): over 10
seeded deals of strong, random, greedy, greedy, a loss above 0.3 points came in 60 % of the
random seat's decisions, 29 % of a greedy seat's and none of the strong seat's; and the strong
bot gains about 6.5 points per deal on greedy over some 19 decisions, about 0.34 a decision. So
within 0.1 points of the best counts as the best (the model's rounding between equivalent
discards), more than 0.3 points behind, about that whole average gap in one decision, is a
mistake.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.mcr.strong.bot import option_values
from domain.mcr.tiles import kind

UNIT = "points"
INACCURACY_FLOOR = 0.1
MISTAKE_FLOOR = 0.3


def same_play(action: Any) -> Any:
    """What an action plays: tiles count by kind (two copies of a tile are one discard)."""
    fields = msgspec.structs.asdict(action)
    if "tile" in fields:
        fields["tile"] = kind(fields["tile"])
    if "tiles" in fields:
        fields["tiles"] = sorted(kind(t) for t in fields["tiles"])
    return (type(action).__name__, repr(sorted(fields.items())))


def evaluate(view: Any, seed: int, chosen: Any) -> list[tuple[Any, float, float]]:
    """Every option's (action, value, noise); ``chosen`` is not needed: the model is exact."""
    return [(o.action, o.value, o.noise) for o in option_values(view, seed)]
