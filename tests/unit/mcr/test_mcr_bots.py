"""Bots: legal moves from a seat view only; greedy wins; a small seeded sample completes."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.mcr.basic_bots import GreedyBot
from domain.mcr.bots import BOTS, make_bot
from domain.mcr.messages import Claim, Pass
from projections.mcr import claim_audit, full_view
from projections.mcr.selfplay import play_deal


def test_bot_registry():
    assert set(BOTS) >= {"random", "greedy"}
    assert isinstance(make_bot("greedy", 3), GreedyBot)
    with pytest.raises(RuleViolation) as err:
        make_bot("godlike", 1)
    assert err.value.rule_id == "DS-1"


def test_small_seeded_greedy_sample_completes_and_mostly_wins():
    wins = 0
    for i in range(12):
        events, state = play_deal(i.to_bytes(32, "big"))
        assert state.phase == "over"
        wins += state.result is not None
        assert all(w["consistent"] for w in claim_audit(events))
    assert wins >= 8  # the 1,000-deal tournament lives in bench/mcr.py


def test_greedy_beats_random():
    greedy = random_ = 0
    for i in range(10):
        _, state = play_deal((1000 + i).to_bytes(32, "big"), ("greedy", "random") * 2, bot_seed=i)
        if state.result is not None:
            if state.result.seat % 2 == 0:
                greedy += 1
            else:
                random_ += 1
    assert greedy > random_


def test_greedy_claims_only_when_closer(table):
    from projections.mcr import view_from_state

    # seat 1 is ready with a pure straight; chowing W5 would break nothing useful
    hands = {
        0: ["W5", "W1", "W9", "T1", "F2", "F3", "J2", "J3", "W2", "T2", "F4", "J1", "T9", "B1"],
        1: [f"T{i}" for i in range(1, 10)] + ["W3", "W4", "B5", "B5"],
    }
    t = table(hands)
    t.discard(0, "W5")
    view = view_from_state(t.state, 1)
    cmd = GreedyBot(0).choose(view)
    assert isinstance(cmd, Claim) and cmd.claim == "win"
    # a pung that would break two runs of a ready hand is passed
    hands = {0: hands[0], 2: ["W3", "W4", "W5", "W5", "W6", "W7", "T1", "T2", "T3", "B4", "B5", "B6", "F1"]}
    t = table(hands)
    t.discard(0, "W5")
    view = view_from_state(t.state, 2)
    assert [type(a) for a in view.legal_actions] == [Pass, Claim]
    assert isinstance(GreedyBot(0).choose(view), Pass)
    # one that turns a 2-shanten hand into a 1-shanten hand is taken
    hands[2] = ["W5", "W5", "T1", "T2", "T3", "B4", "B5", "B6", "B7", "B8", "J1", "F1", "W9"]
    t = table(hands)
    t.discard(0, "W5")
    cmd = GreedyBot(0).choose(view_from_state(t.state, 2))
    assert isinstance(cmd, Claim) and cmd.claim == "pung"


def test_full_view_after_the_end():
    events, state = play_deal(b"\x01" * 32)
    fv = full_view(events)
    assert fv["phase"] == "over" and len(fv["hands"]) == 4 and fv["seed"]


def test_deal_summary_for_the_service():
    from projections.mcr.summary import SCORE_UNIT, deal_summary

    assert SCORE_UNIT == "points"
    for i in range(6):
        _, state = play_deal((300 + i).to_bytes(32, "big"))
        summary = deal_summary(state)
        assert sum(summary.payments) == 0 and len(summary.payments) == 4 and summary.unit == "points"
        if state.result is None:
            assert summary.winner is None and summary.score == 0
        else:
            assert summary.winner == state.result.seat
            assert summary.score == state.result.total >= summary.details["fan_points"] >= 8
