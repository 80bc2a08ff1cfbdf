"""The ``strong`` Paohuzi bot: determinized rollouts on the seat view alone.

``option_values(view, seed)`` values every legal action (expected net tun for the seat, see
``evaluate``); ``StrongBot.choose`` takes a win at once and otherwise the action with the best
value after a race of sampled deals (``evaluate.ranked_values``). Pure: no I/O, no clock, a
seeded ``random.Random``.
"""

from __future__ import annotations

from typing import Any

from domain.paohuzi.basic_bots import GreedyBot
from domain.paohuzi.messages import Pao, Win
from domain.paohuzi.strong.evaluate import MAX_SAMPLES, OptionValue, action_key, option_values, ranked_values
from domain.paohuzi.view import SeatView, pao_kills_hand


class StrongBot:
    """Cheap to build (it keeps only the seed): the service makes one per decision."""

    def __init__(self, seed: int = 0, max_samples: int = MAX_SAMPLES) -> None:
        self.seed = seed
        self.max_samples = max_samples

    def choose(self, view: SeatView) -> Any:
        acts = view.legal_actions
        if len(acts) == 1:
            return acts[0]
        for a in acts:
            if isinstance(a, Win):
                return a  # bots never pass a win (PH-4.7)
        paos = [a for a in acts if isinstance(a, Pao)]
        if paos:
            if not pao_kills_hand(view):  # PH-6.6: bots never take a pao that kills the hand
                # long runs found no position where passing a pao paid: it adds huxi (PH-3)
                # and never costs a chou
                return paos[0]
            acts = [a for a in acts if not isinstance(a, Pao)]
            view = _with_actions(view, acts)
        if len({action_key(a) for a in acts}) == 1:
            return acts[0]
        greedy = action_key(GreedyBot(0).choose(view))
        order = {action_key(a): i for i, a in enumerate(acts)}

        def prefer(a: Any) -> int:
            k = action_key(a)
            return -1 if k == greedy else order[k]

        vals = ranked_values(view, self.seed, prefer, max_samples=self.max_samples)
        most = max(v.samples for v in vals)
        return min((v for v in vals if v.samples == most), key=lambda v: (-v.value, prefer(v.action))).action


def _with_actions(view: SeatView, acts: list[Any]) -> SeatView:
    import msgspec

    return msgspec.structs.replace(view, legal_actions=acts)


__all__ = ["OptionValue", "StrongBot", "option_values", "ranked_values"]
