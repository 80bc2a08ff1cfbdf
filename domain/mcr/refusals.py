"""Why an MCR command is not legal now: the ``RuleViolation`` that names the rule.

``decide`` only comes here for a command it found outside ``legal_actions``, so nothing here
decides legality; it finds the most precise rule id for the refusal and raises it.
"""

from __future__ import annotations

from typing import Any, NoReturn

from domain.errors import RuleViolation
from domain.mcr import scoring
from domain.mcr.messages import AddedKong, Claim, ConcealedKong, DeclareWin, Discard, Pass
from domain.mcr.seats import SEATS
from domain.mcr.state import State
from domain.mcr.wins import win_facts


def refuse(s: State, cmd: Any) -> NoReturn:  # noqa: C901 - one message per rule
    """Raise the refusal of ``cmd``, a command of a valid seat that is not legal now."""
    seat = cmd.seat
    t = type(cmd)
    if t is Claim or t is Pass:
        w = s.window
        if s.phase != "claim" or w is None or cmd.window != w.window:
            raise RuleViolation("MC-3.2", f"no open claim window {cmd.window}")
        if seat not in w.eligible:
            raise RuleViolation("DS-3", f"seat {seat} has no claim on window {w.window}")
        if seat in w.answers:
            raise RuleViolation("MC-3.2", "this seat has already answered")
        if t is Claim:
            if cmd.claim == "win":
                refuse_win(s, seat, w.card, False, w.source == "added_kong")
            if w.source == "added_kong":
                raise RuleViolation("MC-3.4", "an added kong can only be robbed for a win")
            if cmd.claim == "chow" and seat != (w.source_seat + 1) % SEATS:
                raise RuleViolation("MC-3.2", "only the next seat may chow")
            if cmd.claim == "kong" and s.front == s.back:
                raise RuleViolation("MC-3.3", "no kong without a replacement tile in the wall")
            raise RuleViolation("MC-3.2", f"{cmd.claim} with tiles {cmd.tiles} is not possible")
        raise RuleViolation("MC-3.2", "not a valid answer")
    if s.phase == "claim":
        raise RuleViolation("DS-3", "a claim window is open; only its answers are accepted")
    if seat != s.turn or s.phase != "turn":
        raise RuleViolation("DS-3", f"it is not seat {seat}'s move")
    if t is Discard:
        raise RuleViolation("MC-3.1", f"tile {cmd.tile} is not in the hand")
    if t is DeclareWin:
        if s.must_discard or s.last_tile is None:
            raise RuleViolation("MC-3.5", "after a chow or pung the seat must discard")
        refuse_win(s, seat, s.last_tile, True, False)
    if t is ConcealedKong or t is AddedKong:
        if s.must_discard:
            raise RuleViolation("MC-3.5", "discard before declaring a kong after a chow or pung")
        if s.front == s.back:
            raise RuleViolation("MC-3.3", "no kong without a replacement tile in the wall")
        raise RuleViolation("MC-3.3", "those tiles do not make a kong")
    raise RuleViolation("DS-3", f"command not accepted now: {type(cmd).__name__}")


def refuse_win(s: State, seat: int, tile: int, self_drawn: bool, robbing: bool) -> NoReturn:
    """Raise the precise reason a claimed win is false (MC-4.5 / MC-4.1 / MC-4.3)."""
    sc = scoring.score_facts(win_facts(s, seat, tile, self_drawn, robbing))  # raises MC-4.1
    if not sc.meets_minimum:
        raise RuleViolation("MC-4.3", f"the hand scores {sc.fan_points} points before flowers; 8 are needed")
    raise RuleViolation("MC-4.5", "not a legal win now")
