"""Fixed-wall scenarios: robbing the kong, replacement wins, last tile, fourth tile, head bump."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.game import SeedRevealed
from domain.mcr.messages import (
    AddedKong,
    Claim,
    ClaimWindowOpened,
    ClaimWindowResolved,
    ConcealedKong,
    DeclareWin,
    FlowerReplaced,
    HandWon,
    Pass,
    TileDrawn,
    WallExhausted,
)
from domain.mcr.tiles import code

T19 = [f"T{i}" for i in range(1, 10)]
B19 = [f"B{i}" for i in range(1, 10)]

# Seat 3 waits on W2/W5 with a pure straight; seat 2 will pung W5 from the dealer.
ROB_HANDS = {
    0: ["W5", "W1", "W9", "B1", "B9", "B7", "F4", "J2", "J3", "W2", "T2", "T5", "T8", "B6"],
    1: ["W8", "B2", "B8", "T3", "T7", "W1", "W9", "F4", "J2", "J3", "B3", "T4", "W6"],
    2: ["W5", "W5", "J1", "B4", "T6", "T9", "W7", "B3", "F4", "J2", "J3", "B2", "W3"],
    3: [*T19, "W3", "W4", "B5", "B5"],
}


def _names(won: HandWon) -> set[str]:
    return {f.name_zh for f in won.fans}


def _rob_setup(table, front):
    t = table(ROB_HANDS, front=front)
    new = t.discard(0, "W5")
    opened = new[-1]
    assert isinstance(opened, ClaimWindowOpened) and opened.eligible == [2, 3]
    w = opened.window
    pung = [a for a in t.actions(2) if isinstance(a, Claim) and a.claim == "pung"][0]
    t.do(pung)
    assert t.state.phase == "claim"  # seat 3 could still win: the window waits (MC-3.2)
    t.do(Pass(seat=3, window=w))
    res = [e for e in t.events if isinstance(e, ClaimWindowResolved)][-1]
    assert (res.seat, res.claim, res.rule_id) == (2, "pung", "MC-3.2")
    t.discard(2, "J1")
    t.discard(3, "F1")
    return t


def test_mc_3_4_robbing_the_kong(table):
    t = _rob_setup(table, ["F1", "F2", "F3", "W5"])
    t.discard(0, "F2")
    t.discard(1, "F3")
    assert t.state.turn == 2 and code(t.state.last_tile) == "W5"
    added = [a for a in t.actions(2) if isinstance(a, AddedKong)]
    assert len(added) == 1
    new = t.do(added[0])
    opened = new[-1]
    assert isinstance(opened, ClaimWindowOpened)
    assert opened.source == "added_kong" and opened.eligible == [3]
    # only a win may rob (MC-3.4)
    assert {a.claim for a in t.actions(3) if isinstance(a, Claim)} == {"win"}
    new = t.do(Claim(seat=3, window=opened.window, claim="win"))
    res, won, last = new[1:]
    assert isinstance(res, ClaimWindowResolved) and res.rule_id == "MC-3.4" and res.seat == 3
    assert isinstance(won, HandWon) and won.robbing_kong and won.from_seat == 2
    assert won.about_kong and not won.self_drawn
    assert "抢杠和" in _names(won)
    assert won.payments[2] == -(8 + won.total) and won.payments[0] == won.payments[1] == -8
    assert sum(won.payments) == 0
    assert isinstance(last, SeedRevealed)
    # the robbed kong is a pung again; the tile is in the winner's hand
    meld = t.state.melds[2][0]
    assert meld.kind == "pung" and len(meld.tiles) == 3 and won.tile in t.state.hands[3]


def test_mc_3_4_added_kong_not_robbed_draws_replacement(table):
    t = _rob_setup(table, ["F1", "F2", "F3", "W5"])
    t.discard(0, "F2")
    t.discard(1, "F3")
    added = [a for a in t.actions(2) if isinstance(a, AddedKong)][0]
    w = t.do(added)[-1].window
    new = t.do(Pass(seat=3, window=w))
    assert isinstance(new[1], ClaimWindowResolved) and new[1].seat is None
    assert isinstance(new[2], TileDrawn) and new[2].replacement and new[2].seat == 2
    assert t.state.melds[2][0].kind == "kong"


def test_mc_4_2_fourth_tile(table):
    t = _rob_setup(table, ["F1", "W5"])
    new = t.discard(0, "W5")
    opened = new[-1]
    assert isinstance(opened, ClaimWindowOpened) and opened.eligible == [3]
    new = t.do(Claim(seat=3, window=opened.window, claim="win"))
    won = new[2]
    assert isinstance(won, HandWon) and won.fourth_tile and not won.robbing_kong
    assert "和绝张" in _names(won)
    assert won.payments[0] == -(8 + won.total)


def test_mc_4_2_out_with_replacement_tile(table):
    t = table({0: ["W1"] * 4 + T19 + ["B5"]}, back=["B5"])
    kong = [a for a in t.actions(0) if isinstance(a, ConcealedKong)]
    assert len(kong) == 1
    new = t.do(kong[0])
    drawn = new[-1]
    assert isinstance(drawn, TileDrawn) and drawn.replacement and code(drawn.tile) == "B5"
    assert DeclareWin(seat=0) in t.actions(0)
    new = t.do(DeclareWin(seat=0))
    won = new[0]
    assert won.self_drawn and won.about_kong and won.from_seat is None
    assert "杠上开花" in _names(won)
    assert won.payments == [3 * (8 + won.total), -(8 + won.total), -(8 + won.total), -(8 + won.total)]


def test_mc_2_4_flower_drawn_as_kong_replacement(table):
    """Under mcr/1 the win on the flower's replacement still counted Out with Replacement Tile."""
    t = table({0: ["W1"] * 4 + T19 + ["B5"]}, back=["H1", "B5"], ruleset="mcr/1")
    kong = [a for a in t.actions(0) if isinstance(a, ConcealedKong)][0]
    new = t.do(kong)
    drawn, flower = new[-2], new[-1]
    assert isinstance(drawn, TileDrawn) and code(drawn.tile) == "H1"
    assert isinstance(flower, FlowerReplaced) and code(flower.replacement) == "B5"
    won = t.do(DeclareWin(seat=0))[0]
    assert won.flower_points == 1 and won.total == won.fan_points + 1
    assert "杠上开花" in _names(won)


def test_mc_4_6_mcr2_a_flower_as_kong_replacement_gives_no_out_with_replacement_tile(table):
    """mcr/2: the tile that wins replaced a flower, not the kong: self-drawn, no 杠上开花."""
    t = table({0: ["W1"] * 4 + T19 + ["B5"]}, back=["H1", "B5"], ruleset="mcr/2")
    t.do([a for a in t.actions(0) if isinstance(a, ConcealedKong)][0])
    won = t.do(DeclareWin(seat=0))[0]
    names = _names(won)
    assert "杠上开花" not in names and won.self_drawn
    assert "自摸" in names or "不求人" in names  # scored as self-drawn
    assert won.flower_points == 1


def test_mc_4_6_mcr2_the_kongs_own_replacement_still_counts(table):
    t = table({0: ["W1"] * 4 + T19 + ["B5"]}, back=["B5"], ruleset="mcr/2")
    t.do([a for a in t.actions(0) if isinstance(a, ConcealedKong)][0])
    won = t.do(DeclareWin(seat=0))[0]
    assert "杠上开花" in _names(won)  # the winning tile is the kong's own replacement


def test_mc_3_4_concealed_kong_cannot_be_robbed(table):
    # seat 1 waits on W1 with a pure straight; the dealer declares a concealed kong of W1
    t = table(
        {0: ["W1"] * 4 + ["J1"] * 3 + ["J2"] * 3 + ["F1"] * 3 + ["F2"], 1: [*T19, "W2", "W3", "B5", "B5"]}
    )
    new = t.do([a for a in t.actions(0) if isinstance(a, ConcealedKong)][0])
    assert not any(isinstance(e, ClaimWindowOpened) for e in new)
    assert isinstance(new[-1], TileDrawn) and new[-1].replacement


HEAD = {
    0: ["W5", "W1", "W9", "T1", "F2", "F3", "J2", "J3", "W2", "T2", "F4", "J1", "T9", "B1"],
    1: [*T19, "W3", "W4", "B5", "B5"],
    2: ["W1", "W9", "F2", "F3", "F4", "J1", "J2", "J3", "W8", "B2", "B8", "T3", "B6"],
    3: [*B19, "W6", "W7", "F1", "F1"],
}


def test_mc_3_2_head_bump_nearest_after_discarder_wins(table):
    t = table(HEAD)
    opened = t.discard(0, "W5")[-1]
    assert opened.eligible == [1, 3]
    new = t.do(Claim(seat=3, window=opened.window, claim="win"))
    assert t.state.phase == "claim" and len(new) == 1  # seat 1 is nearer: wait for it
    new = t.do(Claim(seat=1, window=opened.window, claim="win"))
    res, won = new[1], new[2]
    assert (res.seat, res.claim, res.rule_id) == (1, "win", "MC-3.2")
    assert won.seat == 1 and won.from_seat == 0
    assert won.payments[0] == -(8 + won.total) and won.payments[2] == won.payments[3] == -8


def test_mc_3_2_nearest_winner_resolves_at_once(table):
    t = table(HEAD)
    opened = t.discard(0, "W5")[-1]
    new = t.do(Claim(seat=1, window=opened.window, claim="win"))
    assert isinstance(new[1], ClaimWindowResolved) and new[1].seat == 1
    assert t.state.phase == "over"


def test_mc_3_2_win_beats_chow(table):
    t = table(HEAD)
    opened = t.discard(0, "W5")[-1]
    chow = [a for a in t.actions(1) if isinstance(a, Claim) and a.claim == "chow"]
    assert chow
    t.do(chow[0])
    assert t.state.phase == "claim"
    new = t.do(Claim(seat=3, window=opened.window, claim="win"))
    assert new[1].seat == 3 and new[1].claim == "win" and new[2].seat == 3


def test_mc_3_2_answers_stay_secret_until_resolved(table):
    from projections.mcr import redact_event, seat_view

    t = table(HEAD)
    opened = t.discard(0, "W5")[-1]
    t.do(Claim(seat=3, window=opened.window, claim="win"))
    answered = t.events[-1]
    assert redact_event(answered, 1) is None and redact_event(answered, None) is None
    assert redact_event(answered, 3)["answer"] == "win"
    assert seat_view(t.events, 1).window.answer is None
    assert seat_view(t.events, 3).window.answer == "win"


def _last_tile_table(table, seat0, seat3, last, hands_extra=None, ruleset=None):
    """All 8 flowers go to seat 1 at the deal (replaced from the back), so the 83rd front draw,
    by seat 3, takes the 9th tile from the back: ``last``."""
    hands = {0: seat0, 1: [f"H{i}" for i in range(1, 9)], 3: seat3}
    hands.update(hands_extra or {})
    back = ["W1", "W1", "W9", "W9", "T1", "T9", "B9", "B1", last]
    return table(hands, back=back, ruleset=ruleset)


def test_mc_3_6_last_tile_self_drawn(table, auto):
    t = _last_tile_table(
        table,
        ["J3"] * 3 + ["F4"] * 3 + ["B2", "B3", "B4", "B6", "B7", "B8"] + ["J1", "J2"],
        [*T19, "W3", "W4", "B5", "B5"],
        "W5",
    )
    auto(t, lambda s: s.front == s.back)
    assert t.state.turn == 3 and code(t.state.last_tile) == "W5"
    won = t.do(DeclareWin(seat=3))[0]
    assert won.wall_last and won.self_drawn
    assert "妙手回春" in _names(won)


def test_mc_3_6_last_discard_win_and_exhaustion(table, auto):
    seat0 = [*B19, "W6", "W7", "F1", "F1", "J3"]
    t = _last_tile_table(table, seat0, ["J1"] * 3 + ["J2"] * 3 + ["F2", "F3", "F4"] * 2 + ["W2"], "W8")
    auto(t, lambda s: s.front == s.back)
    assert t.state.turn == 3 and code(t.state.last_tile) == "W8"
    opened = t.discard(3, "W8")[-1]
    assert isinstance(opened, ClaimWindowOpened) and 0 in opened.eligible
    # no exposed kong on the last discard: there is no replacement tile (MC-3.3)
    for a in t.actions(0):
        assert not (isinstance(a, Claim) and a.claim == "kong")
    new = t.do(Claim(seat=0, window=opened.window, claim="win"))
    won = [e for e in new if isinstance(e, HandWon)][0]
    assert won.wall_last and not won.self_drawn
    assert "海底捞月" in _names(won)

    t2 = _last_tile_table(table, seat0, ["J1"] * 3 + ["J2"] * 3 + ["F2", "F3", "F4"] * 2 + ["W2"], "W8")
    auto(t2, lambda s: s.front == s.back)
    t2.discard(3, "W8")
    new = t2.pass_all()
    assert isinstance(new[-2], WallExhausted) and new[-2].seat == 0
    assert isinstance(new[-1], SeedRevealed) and t2.state.phase == "over"
    assert t2.state.result is None and t2.state.exhausted


def test_mc_3_3_kong_refused_with_empty_wall(table, auto):
    t = _last_tile_table(
        table,
        ["J3"] * 3 + ["F4"] * 3 + ["B2", "B3", "B4", "B6", "B7", "B8"] + ["J1", "W2"],
        ["J2"] * 3 + [*T19, "W3"],
        "J2",
    )
    auto(t, lambda s: s.front == s.back)
    assert t.state.turn == 3 and code(t.state.last_tile) == "J2"
    assert not any(isinstance(a, ConcealedKong) for a in t.actions(3))
    tiles = sorted(x for x in t.state.hands[3] if code(x) == "J2")
    with pytest.raises(RuleViolation) as err:
        t.do(ConcealedKong(seat=3, tiles=tiles))
    assert err.value.rule_id == "MC-3.3"


def test_mc_3_7_mcr2_the_last_discard_can_only_be_won(table, auto):
    """Seat 0 holds a pair of the last discard's kind but no win on it: mcr/1 offers the pung,
    mcr/2 opens no window (Last Tile Claim: a win or nothing)."""
    seat0 = ["W8", "W8", "J1", "J1", "J2", "J2", "J3", "F1", "F2", "F3", "B3", "B5", "T7"]
    offered = {}
    for ruleset in ("mcr/1", "mcr/2"):
        t = _last_tile_table(table, seat0, [*T19, "W3", "W4", "B5", "B5"], "W8", ruleset=ruleset)
        auto(t, lambda s: s.front == s.back)
        assert t.state.turn == 3 and code(t.state.last_tile) == "W8"
        new = t.discard(3, "W8")
        opened = [e for e in new if isinstance(e, ClaimWindowOpened)]
        offered[ruleset] = [a.claim for a in t.actions(0) if isinstance(a, Claim)] if opened else []
        if ruleset == "mcr/2":
            assert not opened and t.state.phase == "over" and t.state.exhausted
    assert offered["mcr/1"] == ["pung"] and offered["mcr/2"] == []
