"""Paohuzi queries on a state: the legal commands of a seat, who the deal waits on, the end.

``legal_actions`` is the one legality: ``decide`` accepts a command exactly when it is in this
list (a chi compared in the order written here), and refuses anything else with the rule that
forbids it (``refusals``).
"""

from __future__ import annotations

from typing import Any

from domain.game import StartDeal

from .cards import kind_name
from .messages import Chi, Discard, Pao, Pass, Peng, Win
from .options import window_options
from .state import State


def legal_actions(state: State, seat: int) -> list[Any]:
    """Every command ``seat`` may give now: each chi with its bi groups as its own command,
    the claimed kind's group first, each group's kinds in order, the bi groups in order."""
    s = state
    if s.phase == "new":
        return [StartDeal(seat=seat)] if s.created is not None else []
    if s.phase == "discard":
        if seat != s.turn:
            return []
        return [Discard(seat=seat, card=c) for c in sorted(s.hands[seat])]
    if s.phase == "claim":
        if seat not in s.eligible or seat in s.answers:
            return []
        o = window_options(s)[seat]
        w = s.window
        out: list[Any] = []
        if o.win is not None:
            out.append(Win(seat=seat, window=w))
        if o.pao is not None:
            out.append(Pao(seat=seat, window=w))
        if o.peng:
            out.append(Peng(seat=seat, window=w))
        for main, bis in o.chi:
            out.append(Chi(seat=seat, window=w, groups=[[kind_name(x) for x in g] for g in (main, *bis)]))
        out.append(Pass(seat=seat, window=w))
        return out
    return []


def seats_to_act(state: State) -> list[int]:
    if state.phase == "discard":
        return [state.turn]
    if state.phase == "claim":
        return [seat for seat in state.eligible if seat not in state.answers]
    return []


def is_over(state: State) -> bool:
    return state.phase == "over"
