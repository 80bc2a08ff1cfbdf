"""Shared helpers for the Paohuzi rule tests: a table driven by fixed decks."""

from __future__ import annotations

from typing import Any

import pytest

from domain.game import StartDeal
from domain.paohuzi import GAME
from domain.paohuzi.cards import kind_from_name
from domain.paohuzi.changes import evolve, fold
from domain.paohuzi.messages import Discard, Pass
from domain.paohuzi.scenario import deck_for

SEED = bytes(range(32))


class Table:
    """A deal built from a fixed deck; ``do`` decides and applies, keeping the whole log."""

    def __init__(self, dealer: int, hands: dict[int, list[str]], stock: list[str] = ()) -> None:
        self.deck = deck_for(dealer, hands, list(stock))
        self.events: list[Any] = GAME.create(
            deal_id="t",
            seats=["human"] * 3,
            server_seed=SEED,
            fixed_deck=self.deck,
            fixed_dealer=dealer,
        )
        self.state = fold(self.events)
        self.started = self.do(StartDeal(seat=0, client_seed="c"))

    def do(self, cmd: Any) -> list[Any]:
        new = GAME.decide(self.state, cmd)
        for e in new:
            evolve(self.state, e)
        self.events += new
        return new

    def card(self, seat: int, kind: str) -> int:
        k = kind_from_name(kind)
        return min(c for c in self.state.hands[seat] if c >> 2 == k)

    def discard(self, seat: int, kind: str) -> list[Any]:
        return self.do(Discard(seat=seat, card=self.card(seat, kind)))

    def pass_all(self, *, keep: tuple[int, ...] = ()) -> list[Any]:
        """Every seat still asked in the open window passes, except ``keep`` (this window only)."""
        out: list[Any] = []
        w = self.state.window
        while self.state.phase == "claim" and self.state.window == w:
            todo = [s for s in GAME.seats_to_act(self.state) if s not in keep]
            if not todo:
                break
            out += self.do(Pass(seat=todo[0], window=self.state.window))
        return out

    def actions(self, seat: int) -> list[Any]:
        return GAME.legal_actions(self.state, seat)

    def types(self, events: list[Any] | None = None) -> list[str]:
        return [type(e).__name__ for e in (self.events if events is None else events)]


@pytest.fixture
def table():
    return Table


def craft(
    *,
    hands: dict[int, list[str]],
    kans: dict[int, list[str]] | None = None,
    melds: dict[int, list[tuple[str, list[str]]]] | None = None,
    table: str | None = None,
    table_seat: int = 0,
    table_source: str = "reveal",
    stock: list[str] = (),
    dead: tuple[int, ...] = (),
    chou: dict[int, list[str]] | None = None,
    phase: str = "reveal",
    turn: int = 0,
):
    """A State built by hand (every card placed once: the rest go to the stock's bottom)."""
    from domain.paohuzi.state import State

    pool = {k: [k * 4 + c for c in range(4)] for k in range(20)}

    def take(name: str) -> int:
        return pool[kind_from_name(name)].pop(0)

    s = State()
    s.created = GAME.create(deal_id="c", seats=["x"] * 3, server_seed=SEED)[0]
    s.dealer = 0
    s.face_up = -1
    for seat, names in hands.items():
        s.hands[seat] = [take(n) for n in names]
        for c in s.hands[seat]:
            s.counts[seat][c >> 2] += 1
    for seat, names in (kans or {}).items():
        s.kans[seat] = [tuple(take(n) for _ in range(3)) for n in names]
    for seat, ms in (melds or {}).items():
        s.melds[seat] = [(t, tuple(take(n) for n in names)) for t, names in ms]
    if table is not None:
        s.table = take(table)
        s.table_seat = table_seat
        s.table_source = table_source
    top = [take(n) for n in stock]
    s.stock = top + [c for k in range(20) for c in pool[k]]
    for seat in dead:
        s.dead[seat] = True
    for seat, names in (chou or {}).items():
        s.chou[seat] = {kind_from_name(n) for n in names}
    s.phase = phase
    s.turn = turn
    s.version = 3
    return s


@pytest.fixture
def crafted():
    return craft
