"""Shared helpers for the MCR tests: a scripted table over fixed decks."""

from __future__ import annotations

import pytest

from domain.game import StartDeal
from domain.mcr import GAME, RULESETS
from domain.mcr.fixtures import build_deck
from domain.mcr.messages import Discard, Pass
from domain.mcr.tiles import ids_of, kind


class Table:
    """A deal driven command by command; ``events`` is the whole log so far."""

    def __init__(self, hands, *, front=(), back=(), dealer=0, seed=b"\x07" * 32, ruleset=None):
        deck = build_deck(hands, dealer=dealer, front=list(front), back=list(back))
        game = RULESETS[ruleset] if ruleset else GAME  # the rules are the log's own (its DealCreated)
        self.events = game.create(
            deal_id="t", seats=["human"] * 4, server_seed=seed, fixed_deck=deck, fixed_dealer=dealer
        )
        self.state = GAME.fold(self.events)
        self.do(StartDeal(seat=0, client_seed="c"))

    def do(self, cmd):
        new = GAME.decide(self.state, cmd)
        for e in new:
            GAME.evolve(self.state, e)
        self.events.extend(new)
        return new

    def tile(self, seat: int, code: str) -> int:
        """The id of a ``code`` tile in ``seat``'s hand."""
        for t in sorted(self.state.hands[seat]):
            if t < 136 and kind(t) == ids_of(code)[0] >> 2:
                return t
        raise AssertionError(f"seat {seat} holds no {code}")

    def discard(self, seat: int, code: str):
        return self.do(Discard(seat=seat, tile=self.tile(seat, code)))

    def pass_all(self, except_seats=()):
        out = []
        while self.state.phase == "claim":
            w = self.state.window
            todo = [p for p in w.eligible if p not in w.answers and p not in except_seats]
            if not todo:
                break
            out += self.do(Pass(seat=todo[0], window=w.window))
        return out

    def actions(self, seat: int):
        return GAME.legal_actions(self.state, seat)

    def types(self, events=None):
        return [type(e).__name__ for e in (self.events if events is None else events)]


@pytest.fixture
def table():
    return Table


def autoplay(t: Table, until, max_steps: int = 1000) -> None:
    """Everyone passes every claim and discards the tile just drawn, until ``until(state)``."""
    from domain.mcr.queries import is_over

    for _ in range(max_steps):
        s = t.state
        if until(s) or is_over(s):
            return
        if s.phase == "claim":
            t.pass_all()
            continue
        tile = s.last_tile if s.last_tile is not None else max(s.hands[s.turn])
        t.do(Discard(seat=s.turn, tile=tile))
    raise AssertionError("autoplay did not reach its goal")


@pytest.fixture
def auto():
    return autoplay
