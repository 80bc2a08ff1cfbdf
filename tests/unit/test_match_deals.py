"""A deal of a match (TB-5.1): its DealCreated names the match; MCR deals it in its round's wind
(MC-6.2) with the planned dealer (MC-6.3); a deal on its own is recorded as it always was."""

from __future__ import annotations

import msgspec

from domain.game import MatchPlace, StartDeal, get_game


def _dealt(game: str, **extra):
    g = get_game(game)
    created = g.create(deal_id="d1", seats=["bot:random"] * g.seat_count, server_seed=bytes(32), **extra)
    events, _state = g.execute(g.fold(created), StartDeal(seat=0, client_seed="c"))
    return created[0], events[0]


def test_an_mcr_hand_of_a_match_is_dealt_in_its_rounds_wind_by_the_planned_dealer():
    created, started = _dealt("mcr", fixed_dealer=2, match=MatchPlace("m1", 5, 1))
    assert started.prevailing_wind == 1 and started.dealer == 2
    assert started.seat_winds == [(p - 2) % 4 for p in range(4)]  # MC-2.3: the dealer is East
    assert b'"match":{"match_id":"m1","index":5,"round":1}' in msgspec.json.encode(created)


def test_a_deal_on_its_own_keeps_east_and_its_bytes():
    created, started = _dealt("mcr")
    assert started.prevailing_wind == 0
    assert b"match" not in msgspec.json.encode(created)
    created, _ = _dealt("mcr", match=MatchPlace("m1", 0))
    assert b'"match":{"match_id":"m1","index":0}' in msgspec.json.encode(created)


def test_a_paohuzi_deal_of_a_match_has_the_planned_dealer():
    created, started = _dealt("paohuzi", fixed_dealer=1, match=MatchPlace("m1", 1))
    assert created.match == MatchPlace("m1", 1) and started.dealer == 1
