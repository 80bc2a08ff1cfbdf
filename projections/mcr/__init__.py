"""MCR projections: seat views, full view, per-seat event redaction, claim audit (MC-5)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.game import DealCreated, StartDeal
from domain.mcr.changes import evolve, fold
from domain.mcr.messages import (
    AddedKong,
    ClaimAnswered,
    ClaimWindowOpened,
    ClaimWindowResolved,
    ConcealedKong,
    ConcealedKongDeclared,
    DeclareWin,
    FlowerReplaced,
    Pass,
    TileDrawn,
    TilesDealt,
)
from domain.mcr.options import claim_options, expected_resolution
from domain.mcr.queries import legal_actions
from domain.mcr.state import State
from domain.mcr.view import MeldView, ResultView, SeatPublic, SeatView, WindowView
from domain.table.seating import SEATING_EVENTS
from projections.seating import public_seating_event

__all__ = [
    "seat_view",
    "view_from_state",
    "public_view",
    "full_view",
    "redact_event",
    "claim_audit",
    "public_turn",
    "dealer_of",
]


def dealer_of(state: State) -> int:
    """The deal's dealer once dealt (the seat after it deals the next deal of a rematch)."""
    return state.dealer


def public_turn(s: State) -> list[int]:
    """The seats everyone may know the deal waits on: the seat whose turn it is. Who may claim
    in an open window stays hidden from the others (MC-5.2), so it is never listed."""
    return [s.turn] if s.phase == "turn" else []


def _prompt(acts: list) -> str | None:
    if not acts:
        return None
    t = type(acts[0])
    if t is Pass:
        return "claim"
    if t is StartDeal:
        return "start"
    if any(type(a) is DeclareWin for a in acts):
        return "win_or_discard"
    if any(type(a) in (ConcealedKong, AddedKong) for a in acts):
        return "kong_or_discard"
    return "discard"


def view_from_state(s: State, seat: int | None) -> SeatView:
    """The seat's view (``seat`` None: a spectator). Never holds an id hidden from that seat."""
    over = s.phase == "over"
    started = bool(s.hands)
    seats = []
    if started:
        for p in range(4):
            melds = []
            ck = 0
            for m in s.melds[p]:
                if m.kind == "concealed_kong":
                    ck += 1
                    melds.append(MeldView(m.kind, list(m.tiles) if (p == seat or over) else []))
                else:
                    melds.append(MeldView(m.kind, list(m.tiles), m.card, m.from_seat))
            seats.append(
                SeatPublic(
                    p, s.seat_winds[p], len(s.hands[p]), list(s.flowers[p]), melds, ck, list(s.discards[p])
                )
            )
    own = seat is not None and started
    hand = sorted(s.hands[seat]) if own else []
    drawn = s.last_tile if (own and s.turn == seat and s.phase == "turn") else None
    window = None
    if s.window is not None:
        w = s.window
        ans = w.answers.get(seat) if seat is not None else None
        window = WindowView(
            w.window,
            w.card,
            w.source,
            w.source_seat,
            seat is not None and seat in w.eligible,
            ans[0] if ans is not None else None,
        )
    acts = legal_actions(s, seat) if seat is not None else []
    result = None
    if over:
        result = ResultView(
            s.exhausted,
            s.result,
            [sorted(h) for h in s.hands],
            [[list(m.tiles) for m in ms if m.kind == "concealed_kong"] for ms in s.melds],
            s.server_seed,
            s.seed,
            s.abandoned,
        )
    return SeatView(
        version=s.version,
        seat=seat,
        phase=s.phase,
        dealer=s.dealer if s.seat_winds else None,  # DealStarted names the dealer: none before it
        prevailing_wind=s.prevailing_wind,
        turn=s.turn,
        wall_count=s.back - s.front,
        hand=hand,
        drawn=drawn,
        seats=seats,
        window=window,
        legal_actions=acts,
        prompt=_prompt(acts),
        result=result,
        drawn_replacement=drawn is not None and s.after_kong,
    )


def seat_view(events: Iterable, seat: int | None) -> SeatView:
    return view_from_state(fold(events), seat)


def public_view(events: Iterable) -> SeatView:
    """What a spectator sees (no hand, no legal actions)."""
    return view_from_state(fold(events), None)


def full_view(events: Iterable) -> dict:
    """Everything (hands, wall order, seeds): for replay perspective ``all`` after the end."""
    s = fold(events)
    d = msgspec.to_builtins(s)
    if not s.seat_winds:  # not dealt (no DealStarted): the state's default seat 0 is no dealer
        d["dealer"] = None
    d["wall_remaining"] = s.wall[s.front : s.back]
    d["wall_count"] = s.back - s.front
    return d


def redact_event(event: msgspec.Struct, seat: int | None) -> dict | None:
    """The event as ``seat`` may see it (None = spectator), or None if it must not learn of it."""
    t = type(event)
    if t in SEATING_EVENTS:
        return public_seating_event(event)
    d = msgspec.to_builtins(event)
    if t is DealCreated:
        d.pop("server_seed", None)
        d["fixed_deck"] = None if event.fixed_deck is None else "hidden"
        return d
    if t is TilesDealt:
        if event.seat != seat:
            return {"type": d["type"], "seat": event.seat, "count": len(event.tiles)}
        return d
    if t is TileDrawn:
        if event.seat != seat:
            d.pop("tile")
        return d
    if t is FlowerReplaced:
        if event.seat != seat:
            d["replacement"] = None
            d["replaced"] = event.replacement is not None
        return d
    if t is ConcealedKongDeclared:
        if event.seat != seat:
            return {"type": d["type"], "seat": event.seat, "count": len(event.tiles)}
        return d
    if t is ClaimAnswered:
        return d if event.seat == seat else None
    if t is ClaimWindowOpened:
        d["eligible"] = [seat] if seat in event.eligible else []
        return d
    return d


def claim_audit(events: Iterable) -> list[dict]:
    """Per claim window: options, answers, resolution, what the rules expect, consistency."""
    s = State()
    out: list[dict] = []
    current: dict | None = None
    for e in events:
        t = type(e)
        if t is ClaimWindowResolved and current is not None:
            exp = expected_resolution(s)
            evolve(s, e)
            current["resolution"] = {
                "seat": e.seat,
                "claim": e.claim,
                "rule_id": e.rule_id,
                "version": s.version,
            }
            if exp is False:
                current["expected"] = None
                current["consistent"] = False
            else:
                expected = {"seat": exp[0] if exp else None, "claim": exp[1] if exp else None}
                current["expected"] = expected
                current["consistent"] = expected["seat"] == e.seat and expected["claim"] == e.claim
            out.append(current)
            current = None
            continue
        evolve(s, e)
        if t is ClaimWindowOpened:
            options = {}
            for p in e.eligible:
                opts = claim_options(s, p, e.card, e.source, e.source_seat)
                options[str(p)] = ["pass"] + [{"claim": o.claim, "tiles": list(o.tiles)} for o in opts]
            current = {
                "window": e.window,
                "card": e.card,
                "kind": e.card >> 2,
                "source": e.source,
                "source_seat": e.source_seat,
                "opened_at_version": s.version,
                "options": options,
                "answers": [],
            }
        elif t is ClaimAnswered and current is not None:
            current["answers"].append(
                {"seat": e.seat, "answer": e.answer, "tiles": list(e.tiles), "version": s.version}
            )
    return out
