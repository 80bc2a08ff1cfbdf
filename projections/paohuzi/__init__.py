"""Paohuzi projections: seat views (PH-7), full view, redacted events and the claim audit."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import msgspec

from domain.claims import resolve
from domain.game import DealCreated, SeedRevealed
from domain.paohuzi.cards import SEATS, kind_name
from domain.paohuzi.changes import evolve, fold
from domain.paohuzi.messages import (
    ChouMarked,
    ClaimAnswered,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealStarted,
    DealWon,
    KanFormed,
)
from domain.paohuzi.options import LEVEL, claim_order, compute_options
from domain.paohuzi.queries import legal_actions
from domain.paohuzi.state import State
from domain.paohuzi.view import DealResult, MeldView, Resolution, SeatView, TableCard
from domain.table.clock import DealAbandoned
from domain.table.seating import SEATING_EVENTS
from projections.seating import public_seating_event

__all__ = [
    "seat_view",
    "view_from_state",
    "full_view",
    "redact_event",
    "claim_audit",
    "public_turn",
    "dealer_of",
]


@lru_cache(maxsize=16384)
def _meld_view(m: tuple[str, tuple[int, ...]]) -> MeldView:
    """Melds in the state are immutable tuples, so one frozen view of each serves every view."""
    return MeldView(meld=m[0], kind=kind_name(min(m[1]) >> 2), cards=list(m[1]))


def _result(s: State) -> DealResult | None:
    r = s.result
    if r is None or s.phase != "over":
        return None
    seed = s.created.server_seed if s.seed_revealed else None
    client = s.client_seed if s.seed_revealed else None
    # the deal has ended: nothing is hidden any more (PH-7.3), so every seat's cards are shown
    hands = [sorted(h) for h in s.hands]
    kans = [[list(k) for k in ks] for ks in s.kans]
    if isinstance(r, DealWon):
        return DealResult(
            outcome="won",
            rule_id=r.rule_id,
            winner=r.seat,
            card=r.card,
            from_seat=r.from_seat,
            huxi=r.huxi,
            tun=r.tun,
            payments=list(r.payments),
            heavenly=r.heavenly,
            groups=list(r.groups),
            server_seed=seed,
            client_seed=client,
            hands=hands,
            kans=kans,
        )
    return DealResult(
        outcome="abandoned" if isinstance(r, DealAbandoned) else "drawn",  # TB-2.7 / PH-8
        rule_id=r.rule_id,
        payments=[0] * SEATS,
        server_seed=seed,
        client_seed=client,
        hands=hands,
        kans=kans,
    )


def dealer_of(state: State) -> int:
    """The deal's dealer once dealt (the seat after it deals the next deal of a rematch)."""
    return state.dealer


def public_turn(state: State) -> list[int]:
    """The seats everyone may know the deal waits on: the seat that must discard. Who may
    claim in an open window stays hidden from the others (PH-7), so it is never listed."""
    return [state.turn] if state.phase == "discard" else []


def view_from_state(state: State, seat: int | None) -> SeatView:
    """The view of ``seat``, or of a spectator (``None``): the public table, no hand."""
    s = state
    phase = s.phase
    if phase not in ("new", "discard", "claim", "over"):
        phase = "over" if s.result is not None else phase
    legal = legal_actions(s, seat) if seat is not None else []
    prompt = None
    if legal:
        prompt = {"new": "start", "discard": "discard", "claim": "claim"}.get(s.phase)
    window = s.window if s.phase == "claim" else None
    my_answer = None
    if window is not None and seat is not None and seat in s.answers:
        my_answer = s.answers[seat][0]
    last = None
    if s.resolutions:
        w = max(s.resolutions)
        r = s.resolutions[w]
        last = Resolution(window=w, seat=r[0], claim=r[1], rule_id=r[2])
    table = None
    if s.table is not None:
        table = TableCard(card=s.table, source=s.table_source, seat=s.table_seat)
    return SeatView(
        version=s.version,
        seat=seat,
        phase=phase,
        dealer=s.dealer if s.dealer >= 0 else None,
        face_up=s.face_up if s.face_up >= 0 else None,
        hand=sorted(s.hands[seat]) if seat is not None else [],
        kans=[list(k) for k in s.kans[seat]] if seat is not None else [],
        chou=[kind_name(k) for k in sorted(s.chou[seat])] if seat is not None else [],
        melds=[[_meld_view(m) for m in s.melds[i]] for i in range(SEATS)],
        rows=[list(r) for r in s.rows],
        concealed=[len(s.hands[i]) + 3 * len(s.kans[i]) for i in range(SEATS)],
        dead=list(s.dead),
        stock_left=s.stock_left() if s.dealer >= 0 else 0,
        table=table,
        turn=s.turn if s.phase == "discard" else None,
        window=window,
        my_answer=my_answer,
        last_resolution=last,
        legal_actions=legal,
        prompt=prompt,
        result=_result(s),
    )


def seat_view(events: Iterable[Any], seat: int | None) -> SeatView:
    return view_from_state(fold(events), seat)


def full_view(events: Iterable[Any]) -> dict:
    """Everything, for the replay perspective ``all`` once the deal is over."""
    s = fold(events)
    return {
        "version": s.version,
        "phase": s.phase,
        "dealer": s.dealer,
        "face_up": s.face_up,
        "hands": [sorted(h) for h in s.hands],
        "kans": [[list(k) for k in ks] for ks in s.kans],
        "melds": [[msgspec.to_builtins(_meld_view(m)) for m in ms] for ms in s.melds],
        "rows": [list(r) for r in s.rows],
        "chou": [[kind_name(k) for k in sorted(c)] for c in s.chou],
        "dead": list(s.dead),
        "stock": list(s.stock[s.stock_pos :]),
        "table": s.table,
        "result": msgspec.to_builtins(_result(s)),
        "server_seed": s.created.server_seed if s.created is not None else None,
    }


def redact_event(event: Any, seat: int | None) -> dict | None:
    """The event as ``seat`` may see it live (None = spectator); None if it must not know."""
    if isinstance(event, SEATING_EVENTS):
        return public_seating_event(event)
    d = msgspec.to_builtins(event)
    if isinstance(event, DealCreated):
        d.pop("server_seed", None)
        d.pop("fixed_deck", None)
        return d
    if isinstance(event, DealStarted):
        d["hands"] = [h if i == seat else len(h) for i, h in enumerate(event.hands)]
        d["stock"] = len(event.stock)
        return d
    if isinstance(event, (KanFormed, ChouMarked, ClaimAnswered)):
        return d if event.seat == seat else None
    if isinstance(event, ClaimWindowOpened):
        d["eligible"] = [seat] if seat in event.eligible else []
        return d
    return d


_LEVEL = LEVEL


def claim_audit(events: Iterable[Any]) -> list[dict]:
    """Per claim window: card, source, each eligible seat's options, answers, resolution,
    the resolution the rules give (PH-6.4) and whether both agree."""
    s = State()
    out: list[dict] = []
    cur: dict | None = None
    order: list[int] = []
    for e in events:
        evolve(s, e)
        if isinstance(e, ClaimWindowOpened):
            order = claim_order(s)
            opts = {}
            levels = {}
            for seat in e.eligible:
                o = compute_options(s, seat)
                levels[seat] = o.level
                opts[seat] = [msgspec.to_builtins(c) for c in legal_actions(s, seat)]
            cur = {
                "window": e.window,
                "card": e.card,
                "kind": kind_name(e.card >> 2),
                "source": e.source,
                "source_seat": e.source_seat,
                "opened_at_version": s.version,
                "options": opts,
                "answers": [],
                "unanswered": [],
                "resolution": None,
                "expected": None,
                "consistent": False,
                "_levels": levels,
            }
            out.append(cur)
        elif isinstance(e, ClaimAnswered) and cur is not None:
            cur["answers"].append({"seat": e.seat, "answer": e.answer, "version": s.version})
        elif isinstance(e, ClaimWindowResolved) and cur is not None:
            cur["resolution"] = {
                "seat": e.seat,
                "claim": e.claim,
                "rule_id": e.rule_id,
                "version": s.version,
            }
            # the rules' resolution, by the same resolver the engine uses (domain.claims)
            given = {a["seat"]: a["answer"] for a in cur["answers"]}
            answered = set(given)
            verdict = resolve(
                order,
                {seat: _LEVEL[answer] for seat, answer in given.items()},
                {x: cur["_levels"][x] for x in cur["_levels"] if x not in answered},
            )
            can_stop = verdict.closed
            cur["expected"] = {
                "seat": verdict.seat,
                "claim": given[verdict.seat] if verdict.seat is not None else None,
            }
            # asked, but the window closed before they answered: not the same as a pass
            cur["unanswered"] = sorted(x for x in cur["_levels"] if x not in answered)
            cur["consistent"] = (
                can_stop and cur["expected"]["seat"] == e.seat and cur["expected"]["claim"] == e.claim
            )
            del cur["_levels"]
            cur = None
        elif isinstance(e, SeedRevealed):
            pass
    for c in out:
        c.pop("_levels", None)
    return out
