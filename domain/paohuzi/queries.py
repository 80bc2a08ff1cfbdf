"""Paohuzi queries on a state: the legal commands of a seat, who the deal waits on, the end.

``legal_actions`` is the one legality: ``decide`` accepts a command exactly when it is in this
list (a chi compared in the order written here), and refuses anything else with the rule that
forbids it (``refusals``). ``is_legal`` answers that membership without building the list, as
``decide`` asks it for every command; a property test holds the two together
(``test_decide_accepts_exactly_the_legal_actions``).
"""

from __future__ import annotations

from typing import Any

from domain.game import StartDeal
from domain.paohuzi.cards import kind_from_name, kind_name
from domain.paohuzi.messages import Chi, Discard, Pao, Pass, Peng, Win
from domain.paohuzi.options import window_options
from domain.paohuzi.state import State


def legal_actions(state: State, seat: int) -> list[Any]:
    """Every command ``seat`` may give now: each chi with its bi groups as its own command,
    the claimed kind's group first, each group's kinds in order, the bi groups in order."""
    s = state
    if s.phase == "new":
        return [StartDeal(seat=seat)] if s.created is not None and s.seating.may_start(seat) else []
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


def chi_choice(command: Chi) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
    """A chi command as its kinds, in the order ``legal_actions`` writes them: the first group
    (with the claimed card) and the bi groups, each group's kinds in order, the bi groups in
    order. ``None`` when it names no kind or an unknown one."""
    try:
        kinds = [tuple(sorted(kind_from_name(x) for x in g)) for g in command.groups]
    except KeyError:
        return None
    if not kinds:
        return None
    return kinds[0], tuple(sorted(kinds[1:]))


def is_legal(state: State, command: Any) -> bool:
    """``command in legal_actions(state, command.seat)``, without building the list (a chi
    compared as ``legal_actions`` writes it, so the order of its kinds and bi groups is free)."""
    s = state
    t = type(command)
    seat = command.seat
    if t is Discard:
        return s.phase == "discard" and s.turn == seat and command.card in s.hands[seat]
    if t is Pass or t is Win or t is Pao or t is Peng or t is Chi:
        if s.phase != "claim" or command.window != s.window or seat not in s.eligible or seat in s.answers:
            return False
        if t is Pass:
            return True
        o = window_options(s)[seat]
        if t is Win:
            return o.win is not None
        if t is Pao:
            return o.pao is not None
        if t is Peng:
            return o.peng
        return chi_choice(command) in o.chi
    return command in legal_actions(s, seat)


def seats_to_act(state: State) -> list[int]:
    if state.phase == "discard":
        return [state.turn]
    if state.phase == "claim":
        return [seat for seat in state.eligible if seat not in state.answers]
    return []


def is_over(state: State) -> bool:
    return state.phase == "over"


def default_move(state: State, seat: int) -> Any:
    """TB-2.5: what the table plays for a seat whose time ran out: a pass in a claim window, the
    highest card id it may discard when a discard is due; None when the deal does not wait on it."""
    if state.phase == "claim" and seat in state.eligible and seat not in state.answers:
        return Pass(seat=seat, window=state.window)
    if state.phase == "discard" and seat == state.turn:
        discards = [a for a in legal_actions(state, seat) if type(a) is Discard]
        return max(discards, key=lambda a: a.card) if discards else None
    return None
