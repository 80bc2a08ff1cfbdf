"""Claim windows (MC-3.2, MC-3.4): opened after a discard someone can claim, resolved once the
answers decide it, and what the winning claim does (a set and the claimer's turn, a kong's
replacement, or a win); nobody claiming gives the next draw."""

from __future__ import annotations

from domain.mcr.draws import draw, kong_replacement
from domain.mcr.messages import ClaimWindowOpened, ClaimWindowResolved, SetClaimed
from domain.mcr.options import expected_resolution, has_claim
from domain.mcr.run import Run
from domain.mcr.seats import SEATS, seats_after
from domain.mcr.winning import declare_win


def after_discard(run: Run, seat: int, tile: int) -> None:
    """A window for the seats with a claim on the discard, else the next seat draws."""
    s = run.s
    eligible = [p for p in seats_after(seat) if has_claim(s, p, tile, "discard", seat)]
    if eligible:
        open_window(run, tile, seat, "discard", eligible)
    else:
        draw(run, (seat + 1) % SEATS)


def open_window(run: Run, card: int, source_seat: int, source: str, eligible: list[int]) -> None:
    s = run.s
    run.emit(
        ClaimWindowOpened(
            window=s.windows, card=card, source_seat=source_seat, source=source, eligible=eligible
        )
    )


def maybe_resolve(run: Run) -> None:
    """Resolve the open window if its answers so far decide it, and play what follows."""
    s = run.s
    w = s.window
    res = expected_resolution(s)
    if res is False:
        return
    rule = "MC-3.4" if w.source == "added_kong" else "MC-3.2"
    if res is None:
        run.emit(ClaimWindowResolved(window=w.window, seat=None, claim=None, rule_id=rule))
        if w.source == "added_kong":
            kong_replacement(run, w.source_seat)
        else:
            draw(run, (w.source_seat + 1) % SEATS)
        return
    seat, claim = res
    tiles = w.answers[seat][1]
    run.emit(ClaimWindowResolved(window=w.window, seat=seat, claim=claim, rule_id=rule))
    if claim == "win":
        declare_win(run, seat, w.card, w.source_seat, False, w.source == "added_kong")
        return
    all_tiles = sorted([*tiles, w.card])
    run.emit(SetClaimed(seat=seat, meld=claim, tiles=all_tiles, card=w.card, from_seat=w.source_seat))
    if claim == "kong":
        kong_replacement(run, seat)
