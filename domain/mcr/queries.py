"""MCR queries on a state: a seat's legal commands, who the deal waits on, its end, and the
move the table plays for a seat whose time ran out.

``legal_actions`` is the one legality: ``decide`` accepts a command exactly when it is in this
list (a discard and a pass are checked directly, as they are always in it when allowed).
"""

from __future__ import annotations

from domain.game import StartDeal
from domain.mcr.hands import tiles_of_kind
from domain.mcr.messages import AddedKong, Command, ConcealedKong, DeclareWin, Discard, Pass
from domain.mcr.options import window_options
from domain.mcr.seats import SEATS
from domain.mcr.state import State
from domain.mcr.tiles import FIRST_FLOWER
from domain.mcr.wins import evaluate_win


def legal_actions(s: State, seat: int) -> list[Command]:
    """Every command ``seat`` may give now, in a fixed order (the bots' choices depend on it)."""
    if s.phase == "new":
        return [StartDeal(seat=seat)] if s.created and 0 <= seat < SEATS and s.seating.may_start(seat) else []
    if s.phase == "claim":
        w = s.window
        if seat not in w.eligible or seat in w.answers:
            return []
        return [Pass(seat=seat, window=w.window), *window_options(s, seat)]
    if s.phase != "turn" or seat != s.turn:
        return []
    hand = s.hands[seat]
    if any(t >= FIRST_FLOWER for t in hand):
        return []  # mid-batch (a replay step): a flower still awaits its replacement, nobody acts
    acts: list[Command] = [Discard(seat=seat, tile=t) for t in sorted(hand)]
    if s.must_discard:
        return acts
    if s.last_tile is not None and evaluate_win(s, seat, s.last_tile, True, False) is not None:
        acts.append(DeclareWin(seat=seat))
    if s.front < s.back:  # MC-3.3: a kong needs a replacement tile
        counts: dict[int, int] = {}
        for t in hand:
            counts[t >> 2] = counts.get(t >> 2, 0) + 1
        for k in sorted(counts):
            if counts[k] == 4:
                acts.append(ConcealedKong(seat=seat, tiles=tiles_of_kind(hand, k)))
        pungs = {m.tiles[0] >> 2 for m in s.melds[seat] if m.kind == "pung"}
        if pungs:
            for t in sorted(hand):
                if t >> 2 in pungs:
                    acts.append(AddedKong(seat=seat, tile=t))
    return acts


def seats_to_act(s: State) -> list[int]:
    """The seats the deal waits on: the unanswered ones of a claim window, else the seat on turn."""
    if s.phase == "claim":
        return [p for p in s.window.eligible if p not in s.window.answers]
    if s.phase == "turn":
        return [s.turn]
    return []


def is_over(s: State) -> bool:
    return s.phase == "over"


def default_move(s: State, seat: int) -> Pass | Discard | None:
    """TB-2.5: what the table plays for a seat whose time ran out: a pass in a claim window; on
    its own turn no win and no kong but a discard, the tile just drawn or else the concealed
    tile with the highest id; None when the deal does not wait on the seat."""
    if s.phase == "claim" and s.window is not None:
        w = s.window
        return Pass(seat=seat, window=w.window) if seat in w.eligible and seat not in w.answers else None
    if s.phase == "turn" and seat == s.turn and s.hands[seat]:
        hand = s.hands[seat]
        drawn = s.last_tile if not s.must_discard and s.last_tile in hand else None
        return Discard(seat=seat, tile=drawn if drawn is not None else max(hand))
    return None
