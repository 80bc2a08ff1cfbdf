"""Why a Paohuzi command is not legal now: the ``RuleViolation`` that names the rule.

``decide`` accepts exactly ``legal_actions``; only a command outside that list comes here, so
this module never decides legality, it only finds the most precise rule id for a refusal
(a protocol error ``DS-…`` first, then the game rule that gives the seat no such claim).
"""

from __future__ import annotations

from typing import Any

from domain.errors import RuleViolation
from domain.paohuzi.cards import CHI_PATTERNS, SEATS, kind_from_name, kind_name
from domain.paohuzi.messages import Chi, Discard, Pao, Pass, Peng, Win
from domain.paohuzi.options import Options, compute_options, window_options
from domain.paohuzi.state import State

_CLAIMS = {Win: "win", Pao: "pao", Peng: "peng", Chi: "chi"}
_CHI_SET = frozenset(CHI_PATTERNS)


def refusal(s: State, cmd: Any) -> RuleViolation:
    """The error for ``cmd``, a command of a valid seat that is not in ``legal_actions``."""
    if isinstance(cmd, Discard):
        return _discard_refusal(s, cmd)
    if isinstance(cmd, (Win, Pao, Peng, Chi, Pass)):
        return _claim_refusal(s, cmd)
    return RuleViolation("DS-3", f"unknown command {type(cmd).__name__}")


def _discard_refusal(s: State, cmd: Discard) -> RuleViolation:
    seat = cmd.seat
    if s.phase != "discard" or s.turn != seat:
        return RuleViolation("DS-3", "it is not this seat's turn to discard")
    if any(cmd.card in kan for kan in s.kans[seat]):
        return RuleViolation("PH-5.3", "a kan cannot be split or discarded")
    return RuleViolation("PH-5.3", f"card {cmd.card} is not in the concealed hand")


def _claim_refusal(s: State, cmd: Any) -> RuleViolation:
    seat = cmd.seat
    if s.phase != "claim" or cmd.window != s.window:
        return RuleViolation("DS-3", "no open claim window with that id")
    if seat in s.answers or (seat not in s.eligible and isinstance(cmd, Pass)):
        return RuleViolation("DS-3", "this seat has no open question in this window")
    if seat not in s.eligible:  # name the rule that gives this seat no such claim
        return reject_claim(s, seat, compute_options(s, seat), _CLAIMS[type(cmd)])
    o = window_options(s)[seat]
    if isinstance(cmd, Chi):
        return _chi_refusal(s, seat, o, cmd)
    if isinstance(cmd, Pass):  # an asked seat may always pass: not reached
        return RuleViolation("DS-3", "this seat has no open question in this window")
    return reject_claim(s, seat, o, _CLAIMS[type(cmd)])


def reject_claim(s: State, seat: int, o: Options, claim: str) -> RuleViolation:
    """The rule that gives ``seat`` no ``claim`` on the table card."""
    src = s.table_source
    card = s.table
    if claim == "win":
        if s.dead[seat]:
            return RuleViolation("PH-4.7", "a dead hand cannot win")
        if card is not None and src == "discard":
            return RuleViolation("PH-4.6", "no win on a discarded card")
        return RuleViolation("PH-4.1", "no split into seven groups worth 15 huxi or more")
    k = card >> 2 if card is not None else -1
    name = kind_name(k) if k >= 0 else "?"
    if card is None:
        return RuleViolation("PH-6.1", "the card is already melded; only a win may be claimed")
    if claim == "pao":
        return RuleViolation(
            "PH-6.2" if src == "reveal" else "PH-6.3",
            f"no kan, exposed wei or peng of {name} to make a pao with",
        )
    if s.dead[seat]:
        return RuleViolation("PH-6.6", "a dead hand may not chi or peng")
    if k in s.chou[seat]:
        return RuleViolation("PH-6.7", f"chou: the seat may no longer chi or peng {name}")
    if claim == "peng":
        if seat == s.table_seat:
            return RuleViolation("PH-6.2", "the revealer cannot peng its own card")
        if s.counts[seat][k] != 2:
            return RuleViolation(
                "PH-6.2" if src == "reveal" else "PH-6.3",
                f"no pair of {name} in the concealed hand",
            )
        return RuleViolation("PH-6.6", "peng would leave no legal discard")
    # chi
    allowed = (seat == (s.table_seat + 1) % SEATS) or (src == "reveal" and seat == s.table_seat)
    if not allowed:
        return RuleViolation(
            "PH-6.2" if src == "reveal" else "PH-6.3",
            "only the revealer and the next seat (after a discard: the next seat) may chi",
        )
    return RuleViolation("PH-6.5", "no such chi with its bi groups")


def _chi_refusal(s: State, seat: int, o: Options, cmd: Chi) -> RuleViolation:
    try:
        kinds = [tuple(sorted(kind_from_name(x) for x in g)) for g in cmd.groups]
    except KeyError as exc:
        return RuleViolation("PH-1.2", f"unknown card kind {exc}")
    if not kinds:
        return RuleViolation("PH-3.1", "a chi needs a group")
    for g in kinds:
        if g not in _CHI_SET:
            return RuleViolation("PH-3.1", f"{[kind_name(x) for x in g]} is not a chi")
    if not o.chi:
        return reject_claim(s, seat, o, "chi")
    k = s.table >> 2
    if k not in kinds[0]:
        return RuleViolation("PH-6.5", "the first group must hold the claimed card")
    free = s.counts[seat]
    need = [0] * 20
    for g in kinds:
        for x in g:
            need[x] += 1
    need[k] -= 1
    if any(need[x] > free[x] for x in range(20)):
        return RuleViolation(
            "PH-6.5",
            "the groups use cards not in the concealed hand (kan cards cannot be split)",
        )
    if free[k] - need[k] > 0:
        return RuleViolation(
            "PH-6.5",
            f"bi: every copy of {kind_name(k)} in hand must go into a chi exposed at the same time",
        )
    return RuleViolation("PH-6.6", "this chi leaves no legal discard")
