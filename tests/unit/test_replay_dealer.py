"""Before ``DealStarted`` no dealer is known: the seat views and the full view of a replay's first
frames name none (a rematch's DealCreated names its dealer, seat 1 here, but the deal has not
dealt yet), and once dealt they name the real one, in both games."""

from __future__ import annotations

import pytest

from domain.game import DealCreated, StartDeal
from service.app.games import kit


@pytest.mark.parametrize("game", ["mcr", "paohuzi"])
def test_no_dealer_is_shown_before_the_deal_starts(game):
    k = kit(game)
    seats = 4 if game == "mcr" else 3
    events = list(
        k.game.create(
            deal_id="d", seats=["bot:greedy"] * seats, server_seed=b"s" * 32, fixed_dealer=1, rematch_of="b"
        )
    )
    assert isinstance(events[0], DealCreated)
    projections = k.projections
    for seat in (None, *range(seats)):
        assert projections.seat_view(events, seat).dealer is None, (game, seat)
    full = projections.full_view(events)
    assert full["dealer"] in (None, -1), full["dealer"]  # -1: Paohuzi's "none yet", read as none by the page
    started = events + k.game.decide(k.game.fold(events), StartDeal(seat=0, client_seed="c"))
    assert projections.seat_view(started, 0).dealer == 1
    assert projections.full_view(started)["dealer"] == 1
