"""Tiles from the wall: the turn's draw from the front, replacements from the back (flowers,
MC-2.4; kongs, MC-3.3), and the end of the wall (MC-3.6)."""

from __future__ import annotations

from domain.mcr.messages import FlowerReplaced, TileDrawn, WallExhausted
from domain.mcr.run import Run, reveal_seed
from domain.mcr.tiles import FIRST_FLOWER


def replace_flower(run: Run, seat: int, flower: int) -> bool:
    """Show ``flower`` and replace it from the back, repeating on flowers; False: wall exhausted."""
    s = run.s
    while True:
        if s.front == s.back:
            run.emit(FlowerReplaced(seat=seat, flower=flower, replacement=None))
            exhausted(run, seat)
            return False
        rep = s.wall[s.back - 1]
        run.emit(FlowerReplaced(seat=seat, flower=flower, replacement=rep))
        if rep < FIRST_FLOWER:
            return True
        flower = rep


def draw(run: Run, seat: int) -> None:
    """The seat's turn begins with a tile from the front of the wall, or the wall is exhausted."""
    s = run.s
    if s.front == s.back:
        exhausted(run, seat)
        return
    tile = s.wall[s.front]
    run.emit(TileDrawn(seat=seat, tile=tile))
    if tile >= FIRST_FLOWER:
        replace_flower(run, seat, tile)


def kong_replacement(run: Run, seat: int) -> None:
    """MC-3.3: a kong's replacement tile from the back (a kong is only allowed if there is one)."""
    s = run.s
    tile = s.wall[s.back - 1]
    run.emit(TileDrawn(seat=seat, tile=tile, replacement=True))
    if tile >= FIRST_FLOWER:
        replace_flower(run, seat, tile)


def exhausted(run: Run, seat: int) -> None:
    """MC-3.6: the seat on turn cannot draw; the deal is a draw."""
    run.emit(WallExhausted(seat=seat))
    reveal_seed(run)
