"""Kongs declared on a seat's own turn (MC-3.3): a concealed kong draws its replacement at
once; an added kong may first be robbed by a seat that wins on its tile (MC-3.4)."""

from __future__ import annotations

from domain.mcr.claims import open_window
from domain.mcr.draws import kong_replacement
from domain.mcr.messages import AddedKongDeclared, ConcealedKongDeclared
from domain.mcr.run import Run
from domain.mcr.seats import seats_after
from domain.mcr.wins import evaluate_win


def declare_concealed_kong(run: Run, seat: int, tiles: list[int]) -> None:
    run.emit(ConcealedKongDeclared(seat=seat, tiles=list(tiles)))
    kong_replacement(run, seat)


def declare_added_kong(run: Run, seat: int, tile: int) -> None:
    run.emit(AddedKongDeclared(seat=seat, tile=tile))
    s = run.s
    robbers = [p for p in seats_after(seat) if evaluate_win(s, p, tile, False, True) is not None]
    if robbers:
        open_window(run, tile, seat, "added_kong", robbers)
    else:
        kong_replacement(run, seat)
