"""One or more tests per rule id of rules/mcr.md (MC-1 .. MC-5) and the DS protocol errors."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.game import DealCreated, SeedRevealed, StartDeal
from domain.mcr import GAME
from domain.mcr.messages import (
    Claim,
    ClaimWindowOpened,
    ConcealedKong,
    DealStarted,
    DeclareWin,
    Discard,
    FlowerReplaced,
    Pass,
    TileDrawn,
    TilesDealt,
)
from domain.mcr.tiles import DECK_SIZE, KIND_CODES, code, ids_of, kind
from domain.mcr.wins import payments
from domain.shuffle import combine_seeds, dealer_and_deck
from projections.mcr import redact_event, seat_view

T19 = [f"T{i}" for i in range(1, 10)]
B19 = [f"B{i}" for i in range(1, 10)]


def _raises(rule: str, fn, *args, **kw):
    with pytest.raises(RuleViolation) as err:
        fn(*args, **kw)
    assert err.value.rule_id == rule, err.value
    return err.value


# ---- MC-1 tiles --------------------------------------------------------------------------
def test_mc_1_1_tile_set():
    codes = [code(t) for t in range(DECK_SIZE)]
    assert len(KIND_CODES) == 34
    for c in KIND_CODES:
        assert codes.count(c) == 4
    assert codes[136:] == [f"H{i}" for i in range(1, 9)]
    assert codes[:4] == ["W1"] * 4 and codes[35] == "W9" and codes[36] == "T1"
    assert codes[72] == "B1" and codes[108] == "F1" and codes[124] == "J1" and codes[135] == "J3"


def test_mc_1_2_copies_have_distinct_ids():
    assert ids_of("B5") == [88, 89, 90, 91] and {kind(t) for t in ids_of("B5")} == {22}
    _raises("MC-1.2", GAME.create, deal_id="d", seats=["h"] * 4, server_seed=b"x", fixed_deck=[0] * 144)


# ---- MC-2 setup --------------------------------------------------------------------------
def test_mc_2_1_four_seats():
    _raises("MC-2.1", GAME.create, deal_id="d", seats=["h"] * 3, server_seed=b"x")


def test_mc_2_2_shuffle_test_vector_and_seeded_dealer():
    dealer, deck = dealer_and_deck(bytes(range(32)), 144, 4)
    assert dealer == 1
    assert deck[:12] == [128, 41, 40, 110, 29, 34, 99, 63, 38, 48, 51, 43]
    assert deck[-3:] == [96, 4, 31]
    seed = b"\x05" * 32
    events = GAME.create(deal_id="d", seats=["bot"] * 4, server_seed=seed)
    created = events[0]
    assert isinstance(created, DealCreated) and created.ruleset == "mcr/2"  # new deals: the current ruleset
    state = GAME.fold(events)
    new = GAME.decide(state, StartDeal(seat=2, client_seed="abc"))
    exp_dealer, exp_deck = dealer_and_deck(combine_seeds(seed, "abc"), 144, 4)
    started = new[0]
    assert isinstance(started, DealStarted) and started.dealer == exp_dealer
    dealt = [e for e in new if isinstance(e, TilesDealt)]
    assert dealt[0].seat == exp_dealer and dealt[0].tiles == exp_deck[:14]
    # decide never mutates its input
    assert state == GAME.fold(events)


def test_mc_2_3_seat_winds(table):
    t = table({}, dealer=2)
    started = t.events[1]
    assert started.prevailing_wind == 0
    assert started.seat_winds == [2, 3, 0, 1]  # dealer East, then South, West, North


def test_mc_2_4_dealer_14_others_13_flowers_replaced_from_back(table):
    t = table({0: ["H1"], 1: ["H2"], 2: ["H3"]}, back=["H4", "W2", "W3", "W4"])
    dealt = [e for e in t.events if isinstance(e, TilesDealt)]
    assert [(e.seat, len(e.tiles)) for e in dealt] == [(0, 14), (1, 13), (2, 13), (3, 13)]
    flowers = [
        (e.seat, code(e.flower), code(e.replacement)) for e in t.events if isinstance(e, FlowerReplaced)
    ]
    assert flowers == [(0, "H1", "H4"), (0, "H4", "W2"), (1, "H2", "W3"), (2, "H3", "W4")]
    s = t.state
    assert [len(h) for h in s.hands] == [14, 13, 13, 13]
    assert s.back == 144 - 4 and s.front == 53
    assert [len(f) for f in s.flowers] == [2, 1, 1, 0]


def test_mc_2_5_flowers_add_one_point_each_after_the_minimum(table):
    t = table({0: ["H1", "H2", *T19, "W2", "W3", "W4"]}, back=["B5", "B5"])
    assert [code(f) for f in t.state.flowers[0]] == ["H1", "H2"]
    won = t.do(DeclareWin(seat=0))[0]
    assert won.flower_points == 2 and won.total == won.fan_points + 2
    assert won.fan_points >= 8
    assert [(f.points, f.count) for f in won.fans if f.name_zh == "花牌"] == [(1, 2)]


# ---- MC-3 turn ---------------------------------------------------------------------------
def test_mc_3_1_draw_from_front_then_discard(table):
    t = table(
        {0: ["J1", "J1", "J2", "J2", "J3", "J3", "F1", "F1", "F2", "F2", "F3", "F3", "F4", "W1"]},
        front=["B9"],
    )
    _raises("MC-3.1", t.do, Discard(seat=0, tile=ids_of("B1")[0]))
    _raises("DS-3", t.do, Discard(seat=1, tile=t.state.hands[1][0]))
    new = t.discard(0, "W1")
    t.pass_all()
    drawn = [e for e in t.events if isinstance(e, TileDrawn)][-1]
    assert drawn.seat == 1 and code(drawn.tile) == "B9" and not drawn.replacement
    assert t.state.turn == 1 and t.state.front == 54
    assert isinstance(new[0], msgspec.Struct)


def test_ds_protocol_errors(table):
    events = GAME.create(deal_id="d", seats=["bot"] * 4, server_seed=b"s")
    state = GAME.fold(events)
    _raises("DS-2", GAME.decide, state, Discard(seat=0, tile=1))
    _raises("DS-2", GAME.decide, GAME.initial_state(), StartDeal(seat=0))
    _raises("DS-3", GAME.decide, state, StartDeal(seat=7))
    t = table({0: ["W1"] * 4 + T19 + ["B5"]}, back=["B5"])
    _raises("DS-2", t.do, StartDeal(seat=0))
    t.do([a for a in t.actions(0) if isinstance(a, ConcealedKong)][0])
    t.do(DeclareWin(seat=0))
    assert GAME.is_over(t.state) and isinstance(t.events[-1], SeedRevealed)
    _raises("DS-6", t.do, Discard(seat=1, tile=t.state.hands[1][0]))
    assert GAME.seats_to_act(t.state) == [] and GAME.legal_actions(t.state, 0) == []


CHOW = {
    0: ["W5", "W1", "W9", "T1", "F2", "F3", "J2", "J3", "W2", "T2", "F4", "J1", "T9", "B1"],
    1: ["W6", "W7", "B2", "B4", "B6", "B8", "T3", "T5", "T7", "F1", "J1", "F2", "F3"],
    2: ["W3", "W4", "B2", "B4", "B6", "B8", "T3", "T5", "T7", "F1", "J2", "F4", "J3"],
    3: ["W5", "W5", "B1", "B3", "B5", "B7", "T2", "T4", "T6", "T8", "F1", "F4", "J3"],
}


def test_mc_3_2_chow_only_next_seat_pung_beats_chow(table):
    t = table(CHOW)
    opened = t.discard(0, "W5")[-1]
    assert isinstance(opened, ClaimWindowOpened) and opened.eligible == [1, 3]
    claims1 = {a.claim for a in t.actions(1) if isinstance(a, Claim)}
    assert claims1 == {"chow"}
    assert t.actions(2) == []  # seat 2 holds W3 W4 but is not next: no window for it
    w = opened.window
    _raises("DS-3", t.do, Claim(seat=2, window=w, claim="chow", tiles=[t.tile(2, "W3"), t.tile(2, "W4")]))
    chow = [a for a in t.actions(1) if isinstance(a, Claim)][0]
    t.do(chow)
    assert t.state.phase == "claim"  # seat 3's pung would beat the chow
    new = t.do(Claim(seat=3, window=w, claim="pung", tiles=[t.tile(3, "W5"), ids_of("W5")[2]]))
    assert new[1].seat == 3 and new[1].claim == "pung" and new[1].rule_id == "MC-3.2"
    claimed = new[2]
    assert claimed.meld == "pung" and claimed.from_seat == 0 and claimed.card == ids_of("W5")[0]
    assert t.state.turn == 3 and t.state.must_discard


def test_mc_3_2_chow_wins_when_pung_passes_and_window_only_with_options(table):
    t = table(CHOW)
    w = t.discard(0, "W5")[-1].window
    t.do(Pass(seat=3, window=w))
    chow = [a for a in t.actions(1) if isinstance(a, Claim)][0]
    new = t.do(chow)
    assert new[1].seat == 1 and new[1].claim == "chow"
    assert sorted(code(x) for x in new[2].tiles) == ["W5", "W6", "W7"]
    # a discard nobody can use opens no window
    new = t.discard(1, "B2")
    assert not any(isinstance(e, ClaimWindowOpened) for e in new) or new[-1].eligible


def test_mc_3_2_wrong_window_or_double_answer(table):
    t = table(CHOW)
    w = t.discard(0, "W5")[-1].window
    _raises("MC-3.2", t.do, Pass(seat=3, window=w + 5))
    t.do(Pass(seat=3, window=w))
    _raises("MC-3.2", t.do, Pass(seat=3, window=w))


def test_mc_3_3_exposed_kong_from_discard_draws_from_back(table):
    hands = dict(CHOW)
    hands[3] = ["W5", "W5", "W5", "B1", "B3", "B5", "B7", "T2", "T4", "T6", "T8", "F1", "F4"]
    hands[0] = ["W5", "W1", "W9", "T1", "F2", "F3", "J2", "J3", "W2", "T2", "F4", "J1", "T9", "B2"]
    t = table(hands, back=["J1"])
    w = t.discard(0, "W5")[-1].window
    kong = [a for a in t.actions(3) if isinstance(a, Claim) and a.claim == "kong"][0]
    t.do(kong)
    t.pass_all()
    drawn = [e for e in t.events if isinstance(e, TileDrawn)][-1]
    assert drawn.seat == 3 and drawn.replacement and code(drawn.tile) == "J1"
    assert t.state.melds[3][0].kind == "kong" and t.state.melds[3][0].from_seat == 0
    assert not t.state.must_discard and w == 0


def test_mc_3_5_discard_before_kong_after_pung(table, auto):
    hands = {
        0: ["W5", "W1", "W9", "T1", "F2", "F3", "F1", "J3", "W2", "T2", "F4", "J1", "T9", "B2"],
        2: ["W5", "W5", "J2", "J2", "J2", "J2", "B1", "B4", "B7", "T3", "T6", "W8", "F4"],
    }
    t = table(hands)
    w = t.discard(0, "W5")[-1].window
    pung = [a for a in t.actions(2) if isinstance(a, Claim) and a.claim == "pung"][0]
    t.do(pung)
    t.pass_all()
    assert t.state.turn == 2 and t.state.must_discard
    assert all(isinstance(a, Discard) for a in t.actions(2))
    _raises("MC-3.5", t.do, ConcealedKong(seat=2, tiles=ids_of("J2")))
    t.discard(2, "F4")
    auto(t, lambda s: s.turn == 2 and s.phase == "turn")
    assert ConcealedKong(seat=2, tiles=ids_of("J2")) in t.actions(2)
    assert w == 0


# ---- MC-4 winning ------------------------------------------------------------------------
def test_mc_4_1_thirteen_orphans_and_seven_pairs(table):
    orphans = ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", "J3", "J3"]
    t = table({0: orphans})
    assert DeclareWin(seat=0) in t.actions(0)
    won = t.do(DeclareWin(seat=0))[0]
    assert "十三幺" in {f.name_zh for f in won.fans}
    pairs = ["W1", "W1", "W3", "W3", "T5", "T5", "T7", "T7", "B2", "B2", "B8", "B8", "J1", "J1"]
    t = table({0: pairs})
    won = t.do(DeclareWin(seat=0))[0]
    assert "七对" in {f.name_zh for f in won.fans}


def test_mc_4_3_eight_points_before_flowers(table):
    # seat 1: a cheap complete-on-W4/W7 hand plus all eight flowers (8 flower points)
    cheap = ["W1", "W2", "W3", "T4", "T5", "T6", "B7", "B8", "B9", "W5", "W6", "B2", "B2"]
    hands = {
        0: ["W4", "W9", "T1", "F2", "F3", "F1", "J3", "W8", "T2", "F4", "J1", "T9", "B1", "J2"],
        1: [f"H{i}" for i in range(1, 9)] + ["W5", "W6", "B2", "B2", "B8"],
    }
    t = table(hands, back=["W1", "W2", "W3", "T4", "T5", "T6", "B6", "B7"])
    assert len(t.state.flowers[1]) == 8 and cheap  # the back refilled seat 1
    from domain.mcr import scoring
    from domain.mcr.wins import win_facts

    new = t.discard(0, "W4")
    opened = new[-1]
    sc = scoring.score(*win_facts(t.state, 1, ids_of("W4")[0], False, False))
    assert sc.fan_points < 8 <= sc.total  # the calculator itself does not enforce MC-4.3
    assert isinstance(opened, ClaimWindowOpened) and 1 in opened.eligible  # it may chow
    assert not any(a.claim == "win" for a in t.actions(1) if isinstance(a, Claim))
    before = len(t.events)
    err = _raises("MC-4.3", t.do, Claim(seat=1, window=opened.window, claim="win"))
    assert "before flowers" in err.message and len(t.events) == before


def test_mc_4_4_payments():
    assert payments(2, None, 10) == [-18, -18, 54, -18]
    assert payments(2, 0, 10) == [-18, -8, 34, -8]
    assert sum(payments(1, 3, 25)) == 0


def test_mc_4_5_false_win_rejected_without_event(table):
    t = table({0: ["W1", "W2", "W4", "T5", "T7", "T9", "B1", "B3", "B5", "F1", "F2", "F3", "J1", "J2"]})
    before = len(t.events)
    _raises("MC-4.1", t.do, DeclareWin(seat=0))
    assert len(t.events) == before and t.state.phase == "turn"


# ---- MC-5 information --------------------------------------------------------------------
def test_mc_5_concealed_kong_kind_hidden_and_hands_private(table):
    t = table({0: ["W1"] * 4 + T19 + ["F1"]}, back=["B5"])
    t.do([a for a in t.actions(0) if isinstance(a, ConcealedKong)][0])
    v1 = seat_view(t.events, 1)
    assert v1.seats[0].concealed_kongs == 1 and v1.seats[0].melds[0].tiles == []
    assert v1.hand == sorted(t.state.hands[1]) and v1.seats[0].hand_count == 11
    assert v1.drawn is None and v1.legal_actions == [] and v1.prompt is None
    v0 = seat_view(t.events, 0)
    assert sorted(v0.seats[0].melds[0].tiles) == ids_of("W1")
    assert v0.prompt is not None and v0.drawn == ids_of("B5")[0]
    kong_event = [e for e in t.events if type(e).__name__ == "ConcealedKongDeclared"][0]
    assert "tiles" not in redact_event(kong_event, 1)
    assert redact_event(kong_event, 0)["tiles"] == ids_of("W1")
    created = redact_event(t.events[0], 1)
    assert "server_seed" not in created and created["fixed_deck"] == "hidden"
    drawn = [e for e in t.events if isinstance(e, TileDrawn)][-1]
    assert "tile" not in redact_event(drawn, 2) and redact_event(drawn, 0)["tile"] == drawn.tile
    dealt = [e for e in t.events if isinstance(e, TilesDealt)][1]
    assert redact_event(dealt, 0) == {"type": "TilesDealt", "seat": 1, "count": 13}


def test_mc_3_1_flower_drawn_is_shown_and_replaced_from_back(table):
    t = table(
        {0: ["J1", "J1", "J2", "J2", "J3", "J3", "F1", "F1", "F2", "F2", "F3", "F3", "F4", "W1"]},
        front=["H5"],
        back=["B3"],
    )
    new = t.discard(0, "W1")
    new += t.pass_all()
    drawn, flower = [e for e in new if isinstance(e, (TileDrawn, FlowerReplaced))]
    assert drawn.seat == 1 and code(drawn.tile) == "H5"
    assert (flower.seat, code(flower.flower), code(flower.replacement)) == (1, "H5", "B3")
    assert code(t.state.last_tile) == "B3" and code(t.state.flowers[1][0]) == "H5"
    assert t.state.back == 143


def test_mc_3_2_quick_claim_check_agrees_with_the_claim_list():
    """Eligibility after a discard is decided by ``has_claim`` (a count before any win search);
    along bot deals it must agree with ``claim_options`` for every tile and every other seat."""
    from domain.mcr.bots import make_bot
    from domain.mcr.options import claim_options, has_claim
    from domain.selfplay import Step, play_deal
    from projections.mcr import view_from_state

    checked = claimable = 0

    def check(step: Step) -> None:
        nonlocal checked, claimable
        state = step.after
        if GAME.is_over(state) or state.phase != "turn":
            return
        source = state.turn
        for tile in set(state.hands[source]):
            for seat in range(4):
                for kind_of_source in ("discard", "added_kong"):
                    expected = bool(claim_options(state, seat, tile, kind_of_source, source))
                    assert has_claim(state, seat, tile, kind_of_source, source) == expected
                    claimable += expected
                    checked += 1

    for deal in range(6):
        bots = [make_bot("greedy", deal * 4 + i) for i in range(4)]
        play_deal(
            GAME,
            view_from_state,
            bots,
            deal_id="q",
            seats=["human"] * 4,
            server_seed=bytes([deal + 1]) * 32,
            client_seed=f"quick{deal}",
            on_step=check,
        )
    assert checked > 5000 and claimable > 100
