"""The PyMahjongGB adapter and every trap listed at the end of rules/mcr.md."""

from __future__ import annotations

import MahjongGB
import pytest

from domain.errors import RuleViolation
from domain.mcr import scoring
from domain.mcr.messages import Claim
from domain.mcr.tiles import ids_of
from domain.mcr.wins import packs_of as _packs
from domain.mcr.wins import win_facts

HAND = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B5")


def test_adapter_returns_value_count_and_both_names():
    sc = scoring.score((("PENG", "T1", 1),), HAND, "B5", 2, True, False, False, False, 0, 0)
    by_zh = {f.name_zh: f for f in sc.fans}
    assert by_zh["清龙"].points == 16 and by_zh["清龙"].name_en == "Pure Straight"
    assert by_zh["花牌"].count == 2 and sc.flower_points == 2
    assert sc.total == sc.fan_points + 2
    assert sc.fan_points == sum(f.points * f.count for f in sc.fans if f.name_zh != "花牌")


def test_trap_no_eight_point_minimum_in_calculator():
    # seven points before flowers + three flowers: the calculator happily scores it
    hand = ("W1", "W2", "W3", "T4", "T5", "T6", "B6", "B7", "B8", "W5", "W6", "B2", "B2")
    raw = MahjongGB.MahjongFanCalculator((), hand, "W4", 3, False, False, False, False, 0, 0)
    assert raw  # no error from the calculator
    sc = scoring.score((), hand, "W4", 3, False, False, False, False, 0, 0)
    assert sc.fan_points < 8 and not sc.meets_minimum  # MC-4.3 is the domain's check
    assert sc.total >= sc.fan_points + 3


def test_trap_offer_zero_means_concealed():
    hand = ("W2", "W3", "W4", "T5", "T6", "T7", "B2", "B3", "B4", "J1")
    packs_claimed = (("PENG", "F1", 2),)
    packs_wrong = (("PENG", "F1", 0),)
    right = scoring.score(packs_claimed, hand, "J1", 0, False, False, False, False, 1, 0)
    wrong = scoring.score(packs_wrong, hand, "J1", 0, False, False, False, False, 1, 0)
    assert wrong.fan_points > right.fan_points  # offer 0 adds concealed-hand fans


def test_trap_claimed_sets_get_relative_offer(table):
    hands = {
        0: ["W5", "W1", "W9", "T1", "F2", "F3", "F1", "J3", "W2", "T2", "F4", "J1", "T9", "B2"],
        1: ["W6", "W7", "B2", "B4", "B6", "B8", "T3", "T5", "T7", "F1", "J1", "F2", "F3"],
        2: ["W5", "W5", "J2", "J2", "J2", "B9", "B1", "B4", "B7", "T3", "T6", "W8", "F4"],
    }
    t = table(hands)
    w = t.discard(0, "W5")[-1].window
    t.do([a for a in t.actions(2) if isinstance(a, Claim) and a.claim == "pung"][0])
    t.pass_all()
    assert _packs(t.state, 2) == (("PENG", "W5", 2),)  # seat 0 is two seats before seat 2
    assert w == 0
    # a chow: the pack names the middle tile; the offer is the claimed tile's place in the run
    chow_hands = {
        0: ["W5", "W1", "W9", "T1", "F2", "F3", "J2", "J3", "W2", "T2", "F4", "J1", "T9", "B1"],
        1: ["W6", "W7", "B2", "B4", "B6", "B8", "T3", "T5", "T7", "F1", "J1", "F2", "F3"],
    }
    t = table(chow_hands)
    t.discard(0, "W5")
    t.do([a for a in t.actions(1) if isinstance(a, Claim) and a.claim == "chow"][0])
    t.pass_all()
    assert _packs(t.state, 1) == (("CHI", "W6", 1),)


def test_trap_flowers_are_rejected_as_tiles_and_passed_as_a_count(table):
    with pytest.raises(TypeError):
        MahjongGB.MahjongFanCalculator(
            (), HAND[:-1] + ("H1", "B5", "B5", "B5"), "B5", 0, False, False, False, False, 0, 0
        )
    with pytest.raises(RuleViolation) as err:
        scoring.score((), ("H1",) + HAND[1:] + ("B5", "B5", "B5"), "B5", 0, False, False, False, False, 0, 0)
    assert err.value.rule_id == "MC-1.1"
    t = table({0: ["H1", "H2", *[f"T{i}" for i in range(1, 10)], "W2", "W3", "W4"]}, back=["B5", "B5"])
    facts = win_facts(t.state, 0, t.state.last_tile, True, False)
    assert all(not c.startswith("H") for c in facts[1]) and facts[3] == 2


def test_trap_type_errors_are_translated():
    with pytest.raises(TypeError, match="ERROR_NOT_WIN"):
        MahjongGB.MahjongFanCalculator(
            (("PENG", "T1", 1),), HAND[:-1] + ("B6",), "B5", 0, False, False, False, False, 0, 0
        )
    with pytest.raises(RuleViolation) as err:
        scoring.score((("PENG", "T1", 1),), HAND[:-1] + ("B6",), "B5", 0, False, False, False, False, 0, 0)
    assert err.value.rule_id == "MC-4.1" and "ERROR_NOT_WIN" in err.value.message
    rv = scoring.translate(TypeError("SOMETHING_NEW"))
    assert isinstance(rv, RuleViolation) and rv.rule_id == "MC-4.2"


def test_trap_shanten_takes_13_minus_3n_tiles():
    fourteen = HAND + ("B5", "T1", "T1", "T1")
    with pytest.raises(TypeError):
        MahjongGB.MahjongShanten((), fourteen)
    kinds13 = tuple(sorted(ids_of(c)[0] >> 2 for c in HAND + ("T1", "T1", "T1")))
    assert scoring.shanten(kinds13) == 0
    assert scoring.waits(kinds13) == frozenset({ids_of("B5")[0] >> 2})
    kinds10 = tuple(sorted(ids_of(c)[0] >> 2 for c in HAND))
    assert scoring.shanten(kinds10) == 0 and scoring.useful(kinds10)[0] == 0


def test_wall_last_flag_matches_wall_count(table):
    t = table({0: ["W1"] * 4 + [f"T{i}" for i in range(1, 10)] + ["B5"]}, back=["B5"])
    facts = win_facts(t.state, 0, t.state.last_tile, True, False)
    assert facts[7] is (t.state.back == t.state.front) is False
