"""The match plan (TB-5, MC-6, PH-9): who deals deal k, each hand's round, the end, the standings."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.match import (
    MAX_DEALS,
    MatchCreated,
    MatchDealEnded,
    MatchDealStarted,
    MatchEnded,
    MatchEvent,
    after_deal,
    check_length,
    fold,
    plan,
    rules_for,
    standings,
)


def _play(game: str, seats: int, length: int, results, first_dealer: int, target=None):
    """Fold a match whose deals end with ``results`` (winner, payments); the events and state."""
    events = [MatchCreated("m1", game, f"{game}/1", ["bot:random"] * seats, length, target=target)]
    state = fold(events)
    nxt = plan(state)
    events.append(MatchDealStarted(0, "d0", nxt.dealer, nxt.round))
    state = fold(events)
    for winner, payments in results:
        entry = state.current
        dealer = entry.dealer if entry.dealer is not None else first_dealer
        ended = MatchDealEnded(entry.index, entry.deal_id, dealer, winner, payments)
        events += after_deal(state, ended, f"d{entry.index + 1}")
        state = fold(events)
        if state.over:
            break
    return events, state


def test_mcr_round_passes_the_deal_on_after_every_hand_won_or_drawn():
    results = [(2, [-8, -8, 24, -8]), (None, [0, 0, 0, 0]), (0, [30, -10, -10, -10]), (3, [-9, -8, -8, 25])]
    events, state = _play("mcr", 4, 4, results, first_dealer=1)
    assert [d.dealer for d in state.deals] == [1, 2, 3, 0]  # MC-6.3: from the seed's dealer on
    assert [d.round for d in state.deals] == [0, 0, 0, 0]  # MC-6.2: all East
    assert state.over and state.scores == [13, -26, 6, 7]
    assert isinstance(events[-1], MatchEnded)
    assert [s.seat for s in events[-1].standings] == [0, 3, 2, 1]


def test_mcr_game_has_four_rounds_of_four_hands_east_south_west_north():
    rules = rules_for("mcr")
    assert check_length(rules, "game", None) == (16, "game")
    assert check_length(rules, "round", None) == (4, "round")
    assert [rules.round_of(k) for k in range(16)] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    events, state = _play("mcr", 4, 16, [(None, [0] * 4)] * 16, first_dealer=3)
    assert len(state.deals) == 16 and state.over
    assert [d.dealer for d in state.deals] == [(3 + k) % 4 for k in range(16)]
    assert [d.round for d in state.deals] == [k // 4 for k in range(16)]


@pytest.mark.parametrize(
    ("game", "length", "target", "rule"),
    [
        ("mcr", "match", None, "MC-6.1"),
        ("mcr", 0, None, "MC-6.1"),
        ("mcr", -3, None, "MC-6.1"),
        ("mcr", MAX_DEALS + 1, None, "MC-6.1"),
        ("mcr", 4, 10, "MC-6.1"),
        ("mcr", True, None, "MC-6.1"),
        ("paohuzi", "round", None, "PH-9.1"),
        ("paohuzi", "game", None, "PH-9.1"),
        ("paohuzi", 0, None, "PH-9.1"),
        ("paohuzi", 3, 0, "PH-9.1"),
        ("paohuzi", 2.5, None, "PH-9.1"),
    ],
)
def test_lengths_a_game_does_not_take_are_refused_with_its_rule(game, length, target, rule):
    with pytest.raises(RuleViolation) as refused:
        check_length(rules_for(game), length, target)
    assert refused.value.rule_id == rule


def test_paohuzi_winner_deals_next_and_a_drawn_deal_passes_it_on():
    results = [(1, [-2, 4, -2]), (None, [0, 0, 0]), (0, [6, -3, -3]), (0, [2, -1, -1])]
    _events, state = _play("paohuzi", 3, 4, results, first_dealer=2)
    # PH-9.2: seed's dealer 2; winner 1 deals; drawn: the seat after 1; winner 0 deals twice
    assert [d.dealer for d in state.deals] == [2, 1, 2, 0]
    assert state.over and state.scores == [6, 0, -6]


def test_paohuzi_target_ends_the_match_early():
    results = [(1, [-3, 6, -3]), (1, [-5, 10, -5]), (0, [4, -2, -2])]
    events, state = _play("paohuzi", 3, 10, results, first_dealer=0, target=15)
    assert len(state.deals) == 2 and state.over  # seat 1 reached 16 >= 15 after two deals
    assert events[-1].standings[0].seat == 1 and events[-1].standings[0].score == 16


def test_an_abandoned_deal_ends_the_match():
    events = [MatchCreated("m1", "paohuzi", "paohuzi/1", ["human"] * 3, 5)]
    events.append(MatchDealStarted(0, "d0"))
    state = fold(events)
    events += after_deal(state, MatchDealEnded(0, "d0", 1, None, [0, 0, 0], abandoned=True), "d1")
    assert fold(events).over and len(fold(events).deals) == 1  # TB-5.3


def test_equal_scores_share_a_rank():
    assert [(s.seat, s.rank) for s in standings([3, -6, 3])] == [(0, 1), (2, 1), (1, 3)]
    assert [s.rank for s in standings([0, 0, 0, 0])] == [1, 1, 1, 1]
    assert [(s.seat, s.rank) for s in standings([-1, 5, 5, -9])] == [(1, 1), (2, 1), (0, 3), (3, 4)]


def test_match_events_round_trip_as_json():
    events, _state = _play("mcr", 4, 4, [(None, [0] * 4)] * 4, first_dealer=0)
    raw = [msgspec.json.encode(e) for e in events]
    assert [msgspec.json.decode(r, type=MatchEvent) for r in raw] == events
    assert b'"type":"MatchCreated"' in raw[0]
