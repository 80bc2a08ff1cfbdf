"""MCR ``decide``: a command checked against ``legal_actions``, then its events.

A command is accepted exactly when it is one of the seat's ``legal_actions`` (a discard and a
pass are checked directly); anything else is refused with the rule that forbids it
(``refusals``). ``StartDeal`` and the table's commands (clocks, seating) are outside that list.
``decide`` never changes its input: it works on a clone and applies each event as it is emitted
(``run``), and ``execute`` hands that clone back.
"""

from __future__ import annotations

from typing import Any

from domain.errors import RuleViolation
from domain.game import StartDeal, Watch
from domain.mcr.changes import evolve
from domain.mcr.claims import after_discard, maybe_resolve
from domain.mcr.dealing import start
from domain.mcr.kongs import declare_added_kong, declare_concealed_kong
from domain.mcr.messages import (
    AddedKong,
    Claim,
    ClaimAnswered,
    ConcealedKong,
    DeclareWin,
    Discard,
    Event,
    Pass,
    TileDiscarded,
)
from domain.mcr.queries import default_move, legal_actions
from domain.mcr.refusals import refuse
from domain.mcr.run import Run, reveal_seed
from domain.mcr.seats import SEATS
from domain.mcr.state import State
from domain.mcr.winning import declare_win
from domain.table.absence import decide_back, decide_expiry
from domain.table.clock import Abandon, Back, DealAbandoned, Expire
from domain.table.seating import SEATING_COMMANDS, FillSeat, dealt_after_fill, decide_seating, start_plan


def decide(state: State, cmd: Any) -> list[Event]:
    return execute(state, cmd)[0]


def execute(state: State, cmd: Any, watch: Watch | None = None) -> tuple[list[Event], State]:  # noqa: C901
    """``decide``, plus the clone the events were applied to as they were emitted: the state
    that folding them onto ``state`` gives, without folding again."""
    if not state.created:
        raise RuleViolation("DS-2", "the deal has not been created")
    if type(cmd) is Abandon:  # TB-2.7: the table ends an untimed deal nobody moved in
        if state.phase == "over":
            raise RuleViolation("DS-6", "the deal is over")
        run = Run(state.clone(), watch)
        run.emit(DealAbandoned(cmd.idle_since_ms, cmd.idle_ms))
        reveal_seed(run)
        return run.events, run.s
    seat = getattr(cmd, "seat", None)
    if not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleViolation("DS-3", f"unknown seat {seat!r}")
    if state.phase == "over":
        raise RuleViolation("DS-6", "the deal is over")
    if type(cmd) is StartDeal:
        if state.phase != "new":
            raise RuleViolation("DS-2", "the deal has already started")
        run = Run(state.clone(), watch)
        plan = start_plan(state.seating, cmd)
        if plan and not isinstance(plan[0], str):
            for event in plan:  # TB-3.1: this person's seed, kept until every person has sent one
                run.emit(event)
        elif plan:
            start(run, "", plan)  # type: ignore[arg-type]
        else:
            start(run, cmd.client_seed, None)
        return run.events, run.s
    if type(cmd) is Expire:  # TB-2.5: the table plays the default move for the seat
        return decide_expiry(execute, evolve, State.clone, state, cmd, default_move(state, seat), watch)
    if type(cmd) is Back:
        run = Run(state.clone(), watch)
        for event in decide_back(state.seating, cmd):
            run.emit(event)
        return run.events, run.s
    if type(cmd) in SEATING_COMMANDS:
        run = Run(state.clone(), watch)
        for event in decide_seating(state.seating, cmd, state.phase != "new"):
            run.emit(event)
        seeds = dealt_after_fill(run.s.seating) if type(cmd) is FillSeat else None
        if seeds is not None:  # TB-1.4: the bot took the last seat anyone waited for: deal
            start(run, *seeds)
        return run.events, run.s
    if state.phase == "new":
        raise RuleViolation("DS-2", "the deal has not started")
    t = type(cmd)
    if t is Discard and state.phase == "turn" and seat == state.turn:
        ok = cmd.tile in state.hands[seat]  # MC-3.1: any tile of the hand, always
    elif t is Pass and state.phase == "claim":
        w = state.window
        ok = cmd.window == w.window and seat in w.eligible and seat not in w.answers
    else:
        ok = cmd in legal_actions(state, seat)
    if not ok:
        refuse(state, cmd)
    run = Run(state.clone(), watch)
    s = run.s
    if t is Discard:
        run.emit(TileDiscarded(seat=seat, tile=cmd.tile))
        after_discard(run, seat, cmd.tile)
    elif t is DeclareWin:
        declare_win(run, seat, s.last_tile, None, True, False)
    elif t is ConcealedKong:
        declare_concealed_kong(run, seat, cmd.tiles)
    elif t is AddedKong:
        declare_added_kong(run, seat, cmd.tile)
    elif t is Claim or t is Pass:
        answer = "pass" if t is Pass else cmd.claim
        tiles = [] if t is Pass else list(cmd.tiles)
        run.emit(ClaimAnswered(window=cmd.window, seat=seat, answer=answer, tiles=tiles))
        maybe_resolve(run)
    else:  # pragma: no cover - legal_actions only lists known commands
        raise RuleViolation("DS-3", f"unknown command {cmd!r}")
    return run.events, run.s
