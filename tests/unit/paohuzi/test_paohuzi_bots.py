"""Bots see only a seat view and return one of its legal actions (docs/design.md, Bots)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.paohuzi.basic_bots import GreedyBot, RandomBot
from domain.paohuzi.bots import BOTS, make_bot
from domain.paohuzi.messages import Chi, Discard, Pao, Pass, Peng
from projections.paohuzi import view_from_state


def test_make_bot_levels():
    assert set(BOTS) == {"random", "greedy", "strong"}
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    with pytest.raises(RuleViolation) as refused:
        make_bot("strong-ish", 1)
    assert refused.value.rule_id == "DS-1"


def test_random_bot_is_seeded_and_uniform(table):
    t = table(0, {})
    v = view_from_state(t.state, 0)
    a = [make_bot("random", 5).choose(v) for _ in range(3)]
    b = [make_bot("random", 5).choose(v) for _ in range(3)]
    assert a == b and all(x in v.legal_actions for x in a)
    bot = make_bot("random", 9)
    picks = {bot.choose(v).card for _ in range(600)}
    assert len(picks) == len(v.legal_actions)  # every legal discard gets chosen


def test_greedy_keeps_pairs_and_discards_a_lone_card(crafted):
    s = crafted(hands={0: ["s1", "s2", "s3", "b5", "b5", "s9", "b1"]}, phase="discard", turn=0)
    v = view_from_state(s, 0)
    cmd = make_bot("greedy", 0).choose(v)
    assert isinstance(cmd, Discard)
    assert cmd.card >> 2 not in (4 + 10, 0, 1, 2)  # never a pair card or the complete chi


def test_greedy_prefers_scoring_melds(crafted):
    s = crafted(hands={2: ["b1", "b7"]}, kans={2: ["s5"]}, table="s5", table_seat=1, phase="claim")
    s.window, s.eligible = 1, [2]
    assert isinstance(make_bot("greedy", 0).choose(view_from_state(s, 2)), Pao)
    s = crafted(hands={2: ["s5", "s5", "b1", "b9"]}, table="s5", table_seat=1, phase="claim")
    s.window, s.eligible = 1, [2]
    assert isinstance(make_bot("greedy", 0).choose(view_from_state(s, 2)), Peng)
    s = crafted(hands={2: ["b2", "b3", "s9", "b9"]}, table="b1", table_seat=1, phase="claim")
    s.window, s.eligible = 1, [2]
    cmd = make_bot("greedy", 0).choose(view_from_state(s, 2))
    assert isinstance(cmd, Chi) and cmd.groups == [["b1", "b2", "b3"]]
    # a zero-huxi chi that breaks a pair is declined
    s = crafted(hands={2: ["s3", "s3", "s4", "b9"]}, table="s5", table_seat=1, phase="claim")
    s.window, s.eligible = 1, [2]
    assert isinstance(make_bot("greedy", 0).choose(view_from_state(s, 2)), Pass)
