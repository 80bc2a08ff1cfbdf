"""One or more tests per rule id of docs/rules/paohuzi.md, named after the rule."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.game import StartDeal
from domain.paohuzi import GAME
from domain.paohuzi.cards import (
    CHI_PATTERNS,
    card_id,
    group_huxi,
    is_chi,
    kind_from_name,
    kind_name,
)
from domain.paohuzi.changes import fold
from domain.paohuzi.messages import (
    CardRevealed,
    CardUnclaimed,
    Chi,
    ChouMarked,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealDrawn,
    DealStarted,
    DealWon,
    Discard,
    DiscardRequired,
    HandDead,
    KanFormed,
    MeldMade,
    Pao,
    Pass,
    Peng,
    Win,
)
from domain.paohuzi.options import compute_options
from domain.paohuzi.wins import best_split, evaluate_win, tun_for
from domain.shuffle import combine_seeds, dealer_and_deck

K = kind_from_name


def kinds(*names: str) -> list[int]:
    c = [0] * 20
    for n in names:
        c[K(n)] += 1
    return c


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


# ---- PH-1 cards ---------------------------------------------------------------------------


def test_PH_1_1_eighty_cards_four_copies_of_each_kind(table):
    t = table(0, {})
    ids = sorted(t.deck)
    assert ids == list(range(80))
    assert all(sum(1 for c in ids if c >> 2 == k) == 4 for k in range(20))


def test_PH_1_2_kind_names_small_and_big():
    assert [kind_name(k) for k in (0, 9, 10, 19)] == ["s1", "s10", "b1", "b10"]
    assert all(K(kind_name(k)) == k for k in range(20))
    with pytest.raises(KeyError):
        K("s11")


def test_PH_1_3_card_id_formula():
    assert card_id(False, 1, 0) == 0
    assert card_id(True, 10, 3) == 79
    assert card_id(True, 1, 2) == 42
    assert all(card_id(c >= 40, (c // 4) % 10 + 1, c % 4) == c for c in range(80))


# ---- PH-2 setup ---------------------------------------------------------------------------


def test_PH_2_1_three_seats_and_turn_order(table):
    with pytest.raises(RuleViolation) as exc:
        GAME.create(deal_id="x", seats=["a", "b"], server_seed=b"1" * 32)
    assert exc.value.rule_id == "PH-2.1"
    t = table(0, {})
    _run_passive(t)  # nobody claims: the turn goes 0 -> 1 -> 2 -> 0 ...
    revealers = [e.seat for e in of(t.events, CardRevealed)]
    assert len(revealers) == 19
    assert revealers == [(1 + i) % 3 for i in range(19)]


def test_PH_2_2_dealer_and_deck_from_the_seed():
    dealer, deck = dealer_and_deck(bytes(range(32)), 80, 3)  # docs/design.md test vector
    assert dealer == 1
    assert deck[:12] == [55, 48, 53, 42, 65, 73, 78, 19, 71, 6, 57, 77]
    assert deck[-3:] == [10, 79, 63]
    ev = GAME.create(deal_id="x", seats=["a"] * 3, server_seed=b"\x07" * 32)
    started = GAME.decide(fold(ev), StartDeal(seat=0, client_seed="hello"))
    d, deck2 = dealer_and_deck(combine_seeds(b"\x07" * 32, "hello"), 80, 3)
    assert started[0].dealer == d
    assert started[0].hands[d] == deck2[:21]


def test_PH_2_3_dealing_order(table):
    t = table(2, {})
    ds = t.started[0]
    assert isinstance(ds, DealStarted)
    assert ds.hands[2] == t.deck[0:21]
    assert ds.hands[0] == t.deck[21:41]
    assert ds.hands[1] == t.deck[41:61]
    assert ds.stock == t.deck[61:80]


def test_PH_2_4_dealer_21st_card_is_public(table):
    from projections.paohuzi import seat_view

    t = table(1, {})
    assert t.started[0].face_up == t.deck[20]
    for seat in range(3):
        assert seat_view(t.events, seat).face_up == t.deck[20]
    assert t.deck[20] in t.state.hands[1] or any(t.deck[20] in k for k in t.state.kans[1])


def test_PH_2_5_opening_ti_and_kan(table):
    t = table(0, {0: ["s1"] * 4 + ["b2"] * 3, 1: ["s3"] * 3})
    melds = of(t.started, MeldMade)
    assert [(m.seat, m.meld, m.rule_id) for m in melds] == [(0, "ti", "PH-2.5")]
    assert sorted(melds[0].cards) == [0, 1, 2, 3]
    kans = of(t.started, KanFormed)
    assert [(k.seat, k.cards[0] >> 2) for k in kans] == [(0, K("b2")), (1, K("s3"))]
    assert all(c >> 2 != K("b2") for c in t.state.hands[0])


def test_PH_2_6_worked_check_three_opening_ti_heavenly_win(table):
    t = table(0, {0: ["s1"] * 4 + ["s2"] * 4 + ["b3"] * 4})
    won = of(t.started, DealWon)[0]
    assert won.heavenly and won.rule_id == "PH-2.6" and won.seat == 0
    assert won.huxi == 9 + 9 + 12 == 30
    assert won.tun == 6
    assert won.payments == [12, -6, -6]
    assert t.types()[-1] == "SeedRevealed"


def test_PH_2_6_five_kan_heavenly_win_counts_only_kan(table):
    t = table(1, {2: ["s1"] * 3 + ["s2"] * 3 + ["s3"] * 3 + ["s4"] * 3 + ["s5"] * 3})
    won = of(t.started, DealWon)[0]
    assert won.seat == 2 and won.heavenly
    assert won.huxi == 15 and won.tun == 1
    assert {g.group for g in won.groups} == {"kan"}


def test_PH_2_6_several_heavenly_seats_first_in_turn_order_from_dealer(table):
    three_ti_a = ["s1"] * 4 + ["s2"] * 4 + ["s3"] * 4
    three_ti_b = ["b1"] * 4 + ["b2"] * 4 + ["b3"] * 4
    t = table(1, {0: three_ti_a, 2: three_ti_b})
    won = of(t.started, DealWon)
    assert len(won) == 1 and won[0].seat == 2  # order 1, 2, 0


def test_PH_2_7_dealer_discards_first(table):
    t = table(0, {})
    assert isinstance(t.started[-1], DiscardRequired)
    assert t.started[-1].seat == 0 and t.started[-1].rule_id == "PH-2.7"


def test_PH_2_7_dealer_with_two_opening_ti_does_not_discard(table):
    t = table(0, {0: ["s1"] * 4 + ["b9"] * 4})
    assert not of(t.started, DiscardRequired) or of(t.started, DiscardRequired)[0].seat != 0
    revealed = of(t.started, CardRevealed)
    assert revealed and revealed[0].seat == 1


# ---- PH-3 groups --------------------------------------------------------------------------


def test_PH_3_huxi_table():
    expected = {"ti": (9, 12), "pao": (6, 9), "wei": (3, 6), "kan": (3, 6), "peng": (1, 3)}
    for g, (small, big) in expected.items():
        assert group_huxi(g, [K("s4")]) == small
        assert group_huxi(g, [K("b4")]) == big
    assert group_huxi("chi", [K("s1"), K("s2"), K("s3")]) == 3
    assert group_huxi("chi", [K("b2"), K("b7"), K("b10")]) == 6
    assert group_huxi("chi", [K("s4"), K("s5"), K("s6")]) == 0
    assert group_huxi("chi", [K("s4"), K("s4"), K("b4")]) == 0
    assert group_huxi("pair", [K("b4"), K("b4")]) == 0


def test_PH_3_1_chi_patterns():
    assert len(CHI_PATTERNS) == 16 + 2 + 20
    good = [
        ("s1", "s2", "s3"),
        ("b8", "b9", "b10"),
        ("s2", "s7", "s10"),
        ("b5", "b5", "s5"),
        ("s5", "s5", "b5"),
    ]
    bad = [
        ("s1", "s2", "b3"),
        ("s9", "s10", "s1"),
        ("s5", "s5", "s5"),
        ("s2", "s7", "b10"),
        ("s1", "s3", "s5"),
    ]
    assert all(is_chi([K(x) for x in g]) for g in good)
    assert not any(is_chi([K(x) for x in g]) for g in bad)


# ---- PH-4 winning hand --------------------------------------------------------------------


def test_PH_4_1_worked_check_19_huxi_is_two_tun(crafted):
    s = crafted(
        hands={0: ["s1", "s2", "s3", "b2", "b7", "b10", "s6", "s7", "b7", "b8", "b9"]},
        kans={0: ["s4"]},
        melds={0: [("wei", ["b5"] * 3), ("peng", ["s9"] * 3)]},
        table="s8",
        table_seat=1,
    )
    w = evaluate_win(s, 0, s.table)
    assert w is not None and w.huxi == 19 and tun_for(w.huxi) == 2
    assert len(w.groups) == 7
    assert sorted(g.group for g in w.groups) == ["chi", "chi", "chi", "chi", "kan", "peng", "wei"]
    assert sum(g.huxi for g in w.groups) == 19


def test_PH_8_1_exposed_chi_1_2_3_and_2_7_10_keep_their_huxi(crafted):
    """The 19-huxi worked check with its two scoring chi exposed (claimed earlier) instead of
    concealed: still 3 + 6 huxi for them (PH-3, PH-8.1), still 19 and two tun."""
    s = crafted(
        hands={0: ["s6", "s7", "b7", "b8", "b9"]},
        kans={0: ["s4"]},
        melds={
            0: [
                ("wei", ["b5"] * 3),
                ("peng", ["s9"] * 3),
                ("chi", ["s1", "s2", "s3"]),
                ("chi", ["b2", "b7", "b10"]),
            ]
        },
        table="s8",
        table_seat=1,
    )
    w = evaluate_win(s, 0, s.table)
    assert w is not None and w.huxi == 19 and tun_for(w.huxi) == 2
    exposed = {tuple(sorted(c >> 2 for c in g.cards)): g.huxi for g in w.groups if g.exposed}
    assert exposed[(K("s1"), K("s2"), K("s3"))] == 3
    assert exposed[(K("b2"), K("b7"), K("b10"))] == 6
    assert sum(g.huxi for g in w.groups) == 19


def test_PH_4_1_worked_check_14_huxi_is_no_win(crafted):
    s = crafted(
        hands={0: ["s1", "s2", "s3", "s6", "s7", "s8", "b6", "b7"]},
        kans={0: ["b4"]},
        melds={0: [("wei", ["s5"] * 3), ("peng", ["s9"] * 3), ("peng", ["s10"] * 3)]},
        table="b8",
        table_seat=1,
    )
    assert evaluate_win(s, 0, s.table) is None
    # the same seven groups with one more huxi do win
    s2 = crafted(
        hands={0: ["s1", "s2", "s3", "s6", "s7", "s8", "b6", "b7"]},
        kans={0: ["b4"]},
        melds={0: [("wei", ["s5"] * 3), ("peng", ["b9"] * 3), ("peng", ["s10"] * 3)]},
        table="b8",
        table_seat=1,
    )
    w = evaluate_win(s2, 0, s2.table)
    assert w is not None and w.huxi == 16


def test_PH_4_2_pair_only_with_a_four_card_group(crafted):
    assert best_split(kinds("s1", "s2", "s3", "s9", "s9"), False) is None
    assert best_split(kinds("s1", "s2", "s3", "s9", "s9"), True)[0] == 3
    # with a ti, exactly one group is a pair
    s = crafted(
        hands={
            0: [
                "b1",
                "b2",
                "b3",
                "s1",
                "s2",
                "s3",
                "s9",
                "s9",
                "s4",
                "s5",
                "s6",
                "b4",
                "b5",
                "b6",
                "s7",
                "s8",
            ]
        },
        melds={0: [("ti", ["b10"] * 4)]},
        table="s6",
        table_seat=2,
    )
    w = evaluate_win(s, 0, s.table)
    assert w is not None
    assert [g.group for g in w.groups].count("pair") == 1
    assert w.huxi == 12 + 6 + 3


def test_PH_4_3_holding_count_target(crafted):
    s = crafted(hands={0: ["s1"] * 2}, melds={0: [("ti", ["b1"] * 4), ("pao", ["b2"] * 4)]})
    assert s.target(0) == 21
    s = crafted(hands={0: ["s1"] * 2}, melds={0: [("ti", ["b1"] * 4)]})
    assert s.target(0) == 20
    s = crafted(hands={0: ["s1"] * 2})
    assert s.target(0) == 20


def test_PH_4_4_win_by_peng_with_a_hand_pair_on_another_seats_reveal(crafted):
    hand = [
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "b9",
        "b9",
    ]
    s = crafted(hands={0: hand}, table="b9", table_seat=1)
    w = evaluate_win(s, 0, s.table)
    assert w is not None
    assert ("peng", 3) in [(g.group, g.huxi) for g in w.groups]
    # on its own reveal the same card is a mandatory wei, never a peng at the win
    s_own = crafted(hands={0: hand}, table="b9", table_seat=0)
    w_own = evaluate_win(s_own, 0, s_own.table)
    assert w_own is None or "peng" not in [g.group for g in w_own.groups]


def test_PH_4_4_win_by_pao_onto_a_concealed_kan(crafted):
    hand = [
        "b1",
        "b2",
        "b3",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "s10",
        "s10",
    ]
    s = crafted(hands={0: hand}, kans={0: ["b9"]}, table="b9", table_seat=2)
    w = evaluate_win(s, 0, s.table)
    assert w is not None
    assert ("pao", 9) in [(g.group, g.huxi) for g in w.groups]
    assert [g.group for g in w.groups].count("pair") == 1


def test_PH_4_4_win_by_pao_onto_an_exposed_wei(crafted):
    hand = [
        "b1",
        "b2",
        "b3",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "s10",
        "s10",
    ]
    s = crafted(hands={0: hand}, melds={0: [("wei", ["b9"] * 3)]}, table="b9", table_seat=0)
    w = evaluate_win(s, 0, s.table)
    assert w is not None
    pao = [g for g in w.groups if g.group == "pao"]
    assert len(pao) == 1 and s.table in pao[0].cards and pao[0].exposed


def test_PH_4_4_win_right_after_a_mandatory_wei(table):
    hand1 = [
        "b5",
        "b5",
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "s2",
        "s7",
        "s10",
    ]
    t = table(0, {0: ["s4"] * 2 + ["b9"] * 2, 1: hand1}, ["b5"])
    t.discard(0, "s4")  # seat 1 has chi options on it: pass
    t.do(Pass(seat=1, window=1))
    assert t.state.phase == "claim" and t.state.eligible == [1]
    wei = [m for m in of(t.events, MeldMade) if m.meld == "wei"]
    assert wei and wei[0].seat == 1 and wei[0].rule_id == "PH-6.1"
    assert t.actions(1) == [Win(seat=1, window=t.state.window), Pass(seat=1, window=t.state.window)]
    new = t.do(Win(seat=1, window=t.state.window))
    won = of(new, DealWon)[0]
    assert won.huxi == 24 and won.tun == 4 and won.card == wei[0].claimed
    assert any(g.group == "wei" for g in won.groups)


def test_PH_4_5_the_split_with_most_huxi_counts():
    import itertools

    def all_splits(c, need_pair):
        i = next((k for k in range(20) if c[k]), None)
        if i is None:
            return [] if need_pair else [0]
        out = []
        if need_pair and c[i] >= 2:
            c[i] -= 2
            out += all_splits(c, False)
            c[i] += 2
        for p in CHI_PATTERNS:
            if i not in p or p[0] != i:
                continue
            c2 = c[:]
            ok = True
            for x in p:
                c2[x] -= 1
                ok &= c2[x] >= 0
            if ok:
                out += [h + group_huxi("chi", p) for h in all_splits(c2, need_pair)]
        return out

    # s2-b2-b2, s7-b7-b7, s10-b10-b10 (0 huxi) or s2-s7-s10 + 2 x b2-b7-b10 (15 huxi)
    hand = kinds("s2", "s7", "s10", "b2", "b2", "b7", "b7", "b10", "b10")
    splits = all_splits(hand[:], False)
    assert set(splits) == {0, 15}
    assert best_split(hand, False)[0] == 15
    for combo in itertools.islice(itertools.combinations(range(20), 6), 0, 400, 7):
        c = [0] * 20
        for k in combo:
            c[k] += 1
        for k in combo[:3]:
            c[k] += 1
        sp = all_splits(c[:], True)
        got = best_split(c, True)
        assert (got is None) == (not sp)
        if sp:
            assert got[0] == max(sp)


def test_PH_4_6_no_win_on_a_discard(crafted, table):
    hand = [
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "b9",
        "b9",
    ]
    s = crafted(hands={0: hand}, table="b9", table_seat=1, table_source="discard")
    assert compute_options(s, 0).win is None
    assert compute_options(s, 0).peng
    t = table(0, {0: ["s4"], 2: ["s4", "s4"]})
    t.discard(0, "s4")
    assert 2 in t.state.eligible
    with pytest.raises(RuleViolation) as exc:
        t.do(Win(seat=2, window=t.state.window))
    assert exc.value.rule_id == "PH-4.6"


def test_PH_4_7_a_dead_hand_cannot_win(crafted):
    hand = [
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "b9",
        "b9",
    ]
    s = crafted(hands={0: hand}, table="b9", table_seat=1)
    assert evaluate_win(s, 0, s.table) is not None
    s.dead[0] = True
    assert evaluate_win(s, 0, s.table) is None
    assert compute_options(s, 0).win is None


def test_PH_4_7_greedy_bot_never_passes_a_win(table):
    from domain.paohuzi.bots import make_bot
    from projections.paohuzi import view_from_state

    hand1 = [
        "b5",
        "b5",
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "s2",
        "s7",
        "s10",
    ]
    t = table(0, {0: ["s4"] * 2 + ["b9"] * 2, 1: hand1}, ["b5"])
    t.discard(0, "s4")
    t.do(Pass(seat=1, window=1))
    cmd = make_bot("greedy", 1).choose(view_from_state(t.state, 1))
    assert isinstance(cmd, Win)


# ---- PH-5 turn, reveal, discard -----------------------------------------------------------


def _idx(events, cls, **match):
    for i, e in enumerate(events):
        if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {cls.__name__} {match}")


def test_PH_5_1_an_untaken_reveal_goes_to_the_revealers_row(table):
    t = table(0, {0: ["b10"]}, ["s5"])
    t.discard(0, "b10")
    t.pass_all()
    t.pass_all()
    i = _idx(t.events, CardRevealed, seat=1)
    card = t.events[i].card
    j = _idx(t.events, CardUnclaimed, seat=1)
    assert t.events[j].card == card and t.events[j].rule_id == "PH-5.1"
    assert card in t.state.rows[1]
    assert isinstance(t.events[j + 1], CardRevealed) and t.events[j + 1].seat == 2


def test_PH_5_2_chi_needs_a_discard(table):
    t = table(0, {0: ["s4"], 1: ["s5", "s6"]}, ["b10"])
    t.discard(0, "s4")
    chi = [a for a in t.actions(1) if isinstance(a, Chi) and a.groups[0] == ["s4", "s5", "s6"]]
    assert chi
    new = t.do(chi[0])
    assert t.types(new)[-2:] == ["MeldMade", "DiscardRequired"]
    assert new[-1].seat == 1 and new[-1].rule_id == "PH-5.2"


def test_PH_5_2_first_ti_needs_a_discard_second_does_not(table):
    t = table(0, {0: ["b10"], 1: ["s5"] * 3}, ["s5"])
    t.discard(0, "b10")
    t.pass_all()
    ti = [e for e in t.events if isinstance(e, MeldMade) and e.meld == "ti"]
    assert ti and ti[0].seat == 1 and ti[0].rule_id == "PH-6.1"
    assert t.state.phase == "discard" and t.state.turn == 1

    t2 = table(0, {0: ["b10"], 1: ["s5"] * 3 + ["s9"] * 4}, ["s5"])
    t2.discard(0, "b10")
    t2.pass_all()
    i = _idx(t2.events, MeldMade, meld="ti", seat=1, rule_id="PH-6.1")
    assert not any(isinstance(e, DiscardRequired) and e.seat == 1 for e in t2.events[i:])
    nxt = next(e for e in t2.events[i:] if isinstance(e, CardRevealed))
    assert nxt.seat == 2
    assert t2.state.holding(1) == 21 == t2.state.target(1)


def test_PH_5_3_no_discard_from_a_kan_or_from_outside_the_hand(table):
    t = table(0, {0: ["s7"] * 3})
    kan_card = t.state.kans[0][0][0]
    with pytest.raises(RuleViolation) as exc:
        t.do(Discard(seat=0, card=kan_card))
    assert exc.value.rule_id == "PH-5.3"
    with pytest.raises(RuleViolation) as exc:
        t.do(Discard(seat=0, card=t.state.hands[1][0]))
    assert exc.value.rule_id == "PH-5.3"
    with pytest.raises(RuleViolation) as exc:
        t.do(Discard(seat=1, card=t.state.hands[1][0]))
    assert exc.value.rule_id == "DS-3"


def test_PH_5_4_a_claim_skips_the_seats_between(table):
    t = table(0, {0: ["s4", "b10"], 2: ["s4", "s4"]}, ["b1"])
    t.discard(0, "s4")
    assert Peng(seat=2, window=t.state.window) in t.actions(2)
    t.pass_all(keep=(2,))
    t.do(Peng(seat=2, window=t.state.window))
    assert t.state.phase == "discard" and t.state.turn == 2
    t.discard(2, kind_name(t.state.hands[2][0] >> 2))
    t.pass_all()
    revealed = of(t.events, CardRevealed)
    assert revealed[0].seat == 0  # the seat after the discarder; seat 1 was skipped


def _run_passive(t):
    steps = 0
    while not GAME.is_over(t.state):
        steps += 1
        assert steps < 500
        if t.state.phase == "discard":
            seat = t.state.turn
            t.do(Discard(seat=seat, card=min(t.state.hands[seat])))
        else:
            t.pass_all()


def test_PH_5_5_draw_when_the_stock_runs_out(table):
    t = table(0, {})
    _run_passive(t)
    assert t.state.stock_left() == 0
    assert t.types()[-2:] == ["DealDrawn", "SeedRevealed"]
    assert t.events[-2].rule_id == "PH-5.5"
    assert t.events[-1].server_seed == bytes(range(32)).hex()


# ---- PH-6 claims --------------------------------------------------------------------------


def test_PH_6_1_mandatory_wei_leaves_no_window_for_others(table):
    t = table(0, {0: ["b10"], 1: ["b5", "b5"]}, ["b5"])
    t.discard(0, "b10")
    t.pass_all()
    i = _idx(t.events, CardRevealed, seat=1)
    wei = t.events[i + 1]
    assert isinstance(wei, MeldMade) and wei.meld == "wei" and wei.rule_id == "PH-6.1"
    assert wei.claimed == t.events[i].card
    assert not any(
        isinstance(e, ClaimWindowOpened) and e.card == wei.claimed and e.eligible != [1] for e in t.events
    )


def test_PH_6_2_pao_onto_an_exposed_peng_with_a_stock_card(table):
    t = table(0, {0: ["s4", "b10"], 2: ["s4", "s4"]}, ["s4"])
    t.discard(0, "s4")
    t.pass_all(keep=(2,))
    t.do(Peng(seat=2, window=t.state.window))
    t.discard(2, kind_name(min(c for c in t.state.hands[2] if c >> 2 != K("s4")) >> 2))
    t.pass_all()
    assert t.state.phase == "claim" and t.state.table >> 2 == K("s4")
    assert Pao(seat=2, window=t.state.window) in t.actions(2)
    t.pass_all(keep=(2,))
    new = t.do(Pao(seat=2, window=t.state.window))
    pao = of(new, MeldMade)[0]
    assert pao.meld == "pao" and pao.upgrades == 0 and pao.rule_id == "PH-6.2"
    assert t.state.melds[2][0][0] == "pao" and len(t.state.melds[2][0][1]) == 4
    assert isinstance(new[-1], DiscardRequired)  # the first pao needs a discard (PH-5.2)


def test_PH_6_2_chi_on_a_reveal_only_revealer_and_next_seat(crafted):
    s = crafted(hands={0: ["s4", "s6"], 1: ["s4", "s6"], 2: ["s4", "s6"]}, table="s5", table_seat=1)
    assert not compute_options(s, 0).chi
    assert compute_options(s, 1).chi and compute_options(s, 2).chi


def test_PH_6_3_claims_on_a_discard(crafted):
    s = crafted(
        hands={0: ["s4", "s6", "b1"], 2: ["s4", "s6", "b1"]}, table="s5", table_seat=1, table_source="discard"
    )
    assert compute_options(s, 2).chi and not compute_options(s, 0).chi
    s = crafted(
        hands={0: ["b1", "b2"]},
        melds={0: [("peng", ["s5"] * 3)]},
        table="s5",
        table_seat=1,
        table_source="discard",
    )
    assert compute_options(s, 0).pao is None  # a peng takes a pao only from the stock
    s = crafted(
        hands={0: ["b1", "b2"]},
        melds={0: [("wei", ["s5"] * 3)]},
        table="s5",
        table_seat=1,
        table_source="discard",
    )
    assert compute_options(s, 0).pao == ("meld", 0)
    s = crafted(hands={0: ["b1", "b2"]}, kans={0: ["s5"]}, table="s5", table_seat=1, table_source="discard")
    assert compute_options(s, 0).pao == ("kan", 0)


def _priority_table(table):
    # seat 1 reveals s5: seat 1 (revealer) and seat 2 can chi it, seat 0 can peng it
    return table(0, {0: ["s5", "s5", "b10"], 1: ["s4", "s6"], 2: ["s6", "s7"]}, ["s5", "s5"])


def _to_the_s5_window(t):
    t.discard(0, "b10")
    t.pass_all()
    assert t.state.phase == "claim" and t.state.table >> 2 == K("s5")
    assert t.state.eligible == [1, 2, 0]


def test_PH_6_4_peng_beats_chi_whoever_answers_first(table):
    from projections.paohuzi import redact_event, seat_view

    t = _priority_table(table)
    _to_the_s5_window(t)
    w = t.state.window
    chi1 = next(a for a in t.actions(1) if isinstance(a, Chi))
    new = t.do(chi1)
    assert t.types(new) == ["ClaimAnswered"]  # seat 0 could still peng
    assert seat_view(t.events, 2).my_answer is None  # answers stay secret (PH-7.2)
    assert redact_event(new[0], 2) is None and redact_event(new[0], 1) is not None
    t.do(next(a for a in t.actions(2) if isinstance(a, Chi)))
    new = t.do(Peng(seat=0, window=w))
    res = of(new, ClaimWindowResolved)[0]
    assert (res.seat, res.claim, res.rule_id) == (0, "peng", "PH-6.4")


def test_PH_6_4_ties_go_by_turn_order_from_the_revealer(table):
    t = _priority_table(table)
    _to_the_s5_window(t)
    w = t.state.window
    t.do(next(a for a in t.actions(2) if isinstance(a, Chi)))
    t.do(Pass(seat=0, window=w))
    assert t.state.phase == "claim"  # seat 1 comes first and has not answered
    new = t.do(next(a for a in t.actions(1) if isinstance(a, Chi)))
    res = of(new, ClaimWindowResolved)[0]
    assert (res.seat, res.claim, res.rule_id) == (1, "chi", "PH-6.4")


def test_PH_6_4_window_resolves_as_soon_as_nobody_can_beat_the_best(table):
    t = _priority_table(table)
    _to_the_s5_window(t)
    new = t.do(Peng(seat=0, window=t.state.window))
    res = of(new, ClaimWindowResolved)[0]
    assert (res.seat, res.claim, res.rule_id) == (0, "peng", "PH-6.4")
    answered = {e.seat for e in t.events if type(e).__name__ == "ClaimAnswered" and e.window == res.window}
    assert answered == {0}


def test_PH_6_4_win_beats_peng(crafted):
    from domain.paohuzi.changes import evolve
    from domain.paohuzi.decide import decide

    hand0 = [
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "b8",
        "b9",
    ]
    s = crafted(hands={0: hand0, 2: ["b10", "b10", "s10"]}, table="b10", table_seat=1, phase="claim")
    s.window = 1
    s.eligible = [2, 0]
    for e in decide(s, Peng(seat=2, window=1)):
        evolve(s, e)
    assert s.phase == "claim"
    out = decide(s, Win(seat=0, window=1))
    res = of(out, ClaimWindowResolved)[0]
    assert (res.seat, res.claim, res.rule_id) == (0, "win", "PH-6.4")
    won = of(out, DealWon)[0]
    assert won.huxi == 15 and won.payments == [2, -1, -1]


def test_PH_6_5_bi_every_copy_in_hand_goes_into_a_chi(crafted):
    from domain.paohuzi.decide import decide

    opts = compute_options(
        crafted(
            hands={0: ["s5", "s6", "s7", "s3", "s4", "b1", "b9"]},
            table="s5",
            table_seat=2,
            table_source="discard",
        ),
        0,
    ).chi
    named = sorted(([kind_name(k) for k in m], [[kind_name(k) for k in g] for g in b]) for m, b in opts)
    assert named == [(["s3", "s4", "s5"], [["s5", "s6", "s7"]]), (["s5", "s6", "s7"], [["s3", "s4", "s5"]])]
    # one chi may hold both copies: s5 s5 b5 with s5 claimed
    opts = compute_options(
        crafted(hands={0: ["s5", "b5", "b9"]}, table="s5", table_seat=2, table_source="discard"), 0
    ).chi
    assert [(list(m), list(b)) for m, b in opts] == [([K("s5"), K("s5"), K("b5")], [])]
    # a copy that cannot be grouped forbids the chi
    s = crafted(
        hands={0: ["s5", "s6", "s7", "b9"]}, table="s5", table_seat=2, table_source="discard", phase="claim"
    )
    assert compute_options(s, 0).chi == []
    s.window, s.eligible = 1, [0]
    with pytest.raises(RuleViolation) as exc:
        decide(s, Chi(seat=0, window=1, groups=[["s5", "s6", "s7"]]))
    assert exc.value.rule_id == "PH-6.5"


def test_PH_6_6_no_chi_or_peng_without_a_legal_discard(crafted):
    six = [
        ("chi", ["b1", "b2", "b3"]),
        ("chi", ["b4", "b5", "b6"]),
        ("chi", ["b7", "b8", "b9"]),
        ("chi", ["s1", "s2", "s3"]),
        ("chi", ["b1", "b2", "b3"]),
        ("chi", ["b4", "b5", "b6"]),
    ]
    s = crafted(hands={0: ["s4", "s6"]}, melds={0: six}, table="s5", table_seat=2, table_source="discard")
    assert s.holding(0) == 20
    assert compute_options(s, 0).chi == []
    s = crafted(hands={0: ["s5", "s5"]}, melds={0: six}, table="s5", table_seat=2, table_source="discard")
    assert not compute_options(s, 0).peng


def test_PH_6_6_mandatory_meld_without_a_discard_makes_the_hand_dead(crafted):
    from domain.paohuzi.changes import evolve
    from domain.paohuzi.decide import decide

    six = [
        ("chi", ["b1", "b2", "b3"]),
        ("chi", ["b4", "b5", "b6"]),
        ("chi", ["b7", "b8", "b9"]),
        ("chi", ["s1", "s2", "s3"]),
        ("chi", ["b1", "b2", "b3"]),
        ("chi", ["b4", "b5", "b6"]),
    ]
    s = crafted(hands={0: ["b10"], 1: ["s9", "s9"]}, melds={1: six}, stock=["s9"], phase="discard", turn=0)
    events = []
    for e in decide(s, Discard(seat=0, card=s.hands[0][0])):
        evolve(s, e)
        events.append(e)
    while s.phase == "claim":
        seat = [x for x in s.eligible if x not in s.answers][0]
        for e in decide(s, Pass(seat=seat, window=s.window)):
            evolve(s, e)
            events.append(e)
    assert [(e.seat, e.rule_id) for e in events if isinstance(e, HandDead)] == [(1, "PH-6.6")]
    assert s.dead[1]
    # a dead hand makes no chi, peng or win, but may still make a pao
    d = crafted(
        hands={1: ["s4", "s6", "b8", "b8"]},
        melds={1: [("wei", ["s5"] * 3)]},
        table="s5",
        table_seat=1,
        dead=(1,),
    )
    o = compute_options(d, 1)
    assert not o.chi and o.win is None and o.pao == ("meld", 0)
    d = crafted(hands={1: ["b8", "b8"]}, table="b8", table_seat=0, dead=(1,))
    assert not compute_options(d, 1).peng


def test_PH_6_7_chou_after_passing_or_discarding_a_kind(table, crafted):
    t = table(0, {0: ["s4", "b10"], 1: ["s5", "s6"]}, ["b1"])
    t.discard(0, "s4")
    new = t.do(Pass(seat=1, window=t.state.window))
    assert [(e.seat, e.kind) for e in of(new, ChouMarked)] == [(1, "s4")]
    assert K("s4") in t.state.chou[0]  # seat 0 discarded s4 itself
    s = crafted(hands={1: ["s5", "s6"]}, table="s4", table_seat=1, chou={1: ["s4"]})
    assert compute_options(s, 1).chi == []
    s = crafted(hands={2: ["s4", "s4"]}, table="s4", table_seat=1, chou={2: ["s4"]})
    assert not compute_options(s, 2).peng
    # pao (and win) stay allowed
    s = crafted(
        hands={2: ["b1"]}, melds={2: [("wei", ["s4"] * 3)]}, table="s4", table_seat=1, chou={2: ["s4"]}
    )
    assert compute_options(s, 2).pao == ("meld", 0)


# ---- PH-7 information ---------------------------------------------------------------------


def view_card_ids(view) -> set[int]:
    """Every card id a seat view shows (hand, kan, melds, rows, table, actions, result)."""
    ids = set(view.hand)
    for k in view.kans:
        ids |= set(k)
    for ms in view.melds:
        for m in ms:
            ids |= set(m.cards)
    for r in view.rows:
        ids |= set(r)
    if view.table is not None:
        ids.add(view.table.card)
    if view.face_up is not None:
        ids.add(view.face_up)
    for a in view.legal_actions:
        if isinstance(a, Discard):
            ids.add(a.card)
    if view.result is not None:
        for g in view.result.groups:
            ids |= set(g.cards)
    return ids


def test_PH_7_1_public_table_in_every_seat_view(table):
    from projections.paohuzi import seat_view

    t = table(0, {0: ["s1"] * 4, 2: ["b3"] * 3})
    v = seat_view(t.events, 1)
    assert [m.meld for m in v.melds[0]] == ["ti"] and v.melds[0][0].kind == "s1"
    assert v.concealed == [17, 20, 20]
    assert v.stock_left == 19 and v.face_up == t.deck[20] and v.turn == 0
    assert v.prompt is None and v.legal_actions == []
    v0 = seat_view(t.events, 0)
    assert v0.prompt == "discard" and len(v0.legal_actions) == len(v0.hand)


def test_PH_7_2_own_hand_and_kan_are_private(table):
    from projections.paohuzi import redact_event, seat_view

    t = table(0, {2: ["b3"] * 3})
    kan_ev = of(t.events, KanFormed)[0]
    assert redact_event(kan_ev, 2) is not None
    assert redact_event(kan_ev, 0) is None and redact_event(kan_ev, None) is None
    v2 = seat_view(t.events, 2)
    assert len(v2.kans) == 1 and sorted(v2.kans[0]) == sorted(kan_ev.cards)
    v1 = seat_view(t.events, 1)
    assert not (set(kan_ev.cards) & view_card_ids(v1))
    dealt = redact_event(t.events[1], 1)
    assert dealt["hands"][1] == t.started[0].hands[1]
    assert dealt["hands"][0] == 21 and dealt["hands"][2] == 20 and dealt["stock"] == 19


def test_PH_7_3_stock_other_hands_and_seed_hidden_until_the_end(table):
    import msgspec

    from projections.paohuzi import redact_event, seat_view

    t = table(0, {})
    seed_hex = bytes(range(32)).hex()
    assert "server_seed" not in redact_event(t.events[0], 0)
    for seat in range(3):
        v = seat_view(t.events, seat)
        hidden = set(t.state.stock[t.state.stock_pos :])
        for other in range(3):
            if other != seat:
                hidden |= set(t.state.hands[other])
        hidden.discard(t.deck[20])
        assert not (view_card_ids(v) & hidden)
        assert seed_hex.encode() not in msgspec.json.encode(v)
    _run_passive(t)
    end = seat_view(t.events, 1)
    assert end.result is not None and end.result.server_seed == seed_hex


# ---- PH-8 scoring -------------------------------------------------------------------------


def test_PH_8_1_huxi_per_group_in_the_win_event(crafted):
    s = crafted(
        hands={0: ["s1", "s2", "s3", "b2", "b7", "b10", "s6", "s7", "b7", "b8", "b9"]},
        kans={0: ["s4"]},
        melds={0: [("wei", ["b5"] * 3), ("peng", ["s9"] * 3)]},
        table="s8",
        table_seat=1,
    )
    w = evaluate_win(s, 0, s.table)
    by = sorted((g.group, g.huxi) for g in w.groups)
    assert by == [("chi", 0), ("chi", 0), ("chi", 3), ("chi", 6), ("kan", 3), ("peng", 1), ("wei", 6)]


def test_PH_8_2_below_15_huxi_is_not_a_win(crafted):
    def seat_with(peng_kind: str):
        return crafted(
            hands={0: ["s1", "s2", "s3", "s6", "s7", "s8", "b6", "b7"]},
            kans={0: ["b4"]},
            melds={0: [("wei", ["s5"] * 3), (("peng"), [peng_kind] * 3), ("peng", ["s10"] * 3)]},
            table="b8",
            table_seat=1,
        )

    s = seat_with("s9")  # kan 6 + wei 3 + peng 1 + peng 1 + chi 3 + two zero chi = 14
    assert s.holding(0) == 20
    assert evaluate_win(s, 0, s.table) is None
    assert not compute_options(s, 0).win
    s = seat_with("b9")  # the big peng scores 3: 16 huxi
    w = evaluate_win(s, 0, s.table)
    assert w is not None and w.huxi == 16 and tun_for(w.huxi) == 1


def test_PH_8_3_tun_from_huxi():
    assert [tun_for(h) for h in (15, 16, 17, 18, 20, 21, 24, 30)] == [1, 1, 1, 2, 2, 3, 4, 6]


def test_PH_8_4_each_opponent_pays_the_winner_and_a_draw_pays_nothing(table):
    from projections.paohuzi import seat_view

    t = table(0, {0: ["s1"] * 4 + ["s2"] * 4 + ["b3"] * 4})
    won = of(t.events, DealWon)[0]
    assert sum(won.payments) == 0 and won.payments[0] == 2 * won.tun
    assert all(p == -won.tun for i, p in enumerate(won.payments) if i != 0)
    d = table(0, {})
    _run_passive(d)
    assert isinstance(d.events[-2], DealDrawn)
    assert seat_view(d.events, 0).result.payments == [0, 0, 0]


def test_PH_6_4_two_wins_on_one_reveal_first_in_turn_order_from_the_revealer(crafted):
    from domain.paohuzi.changes import evolve
    from domain.paohuzi.decide import decide

    hand = [
        "b1",
        "b2",
        "b3",
        "b2",
        "b7",
        "b10",
        "s1",
        "s2",
        "s3",
        "s4",
        "s5",
        "s6",
        "s7",
        "s8",
        "s9",
        "b5",
        "b6",
        "b7",
        "b8",
        "b9",
    ]
    s = crafted(hands={0: hand, 2: hand}, table="b10", table_seat=1, phase="claim")
    s.window, s.eligible = 1, [2, 0]
    assert compute_options(s, 0).win and compute_options(s, 2).win
    for e in decide(s, Win(seat=0, window=1)):
        evolve(s, e)
    assert s.phase == "claim"  # seat 2 comes first from the revealer and may still win
    out = decide(s, Win(seat=2, window=1))
    res = of(out, ClaimWindowResolved)[0]
    assert (res.seat, res.claim, res.rule_id) == (2, "win", "PH-6.4")
    assert of(out, DealWon)[0].seat == 2


def test_PH_6_4_claim_audit_flags_a_resolution_the_rules_do_not_give(table):
    from projections.paohuzi import claim_audit, redact_event

    t = _priority_table(table)
    _to_the_s5_window(t)
    opened = t.events[-1] if isinstance(t.events[-1], ClaimWindowOpened) else None
    assert opened is not None
    assert redact_event(opened, 1)["eligible"] == [1]
    assert redact_event(opened, None)["eligible"] == []
    t.do(next(a for a in t.actions(1) if isinstance(a, Chi)))
    t.do(Peng(seat=0, window=t.state.window))
    audit = claim_audit(t.events)
    w = [x for x in audit if x["window"] == opened.window][0]
    assert w["consistent"] and w["resolution"]["seat"] == 0 and w["resolution"]["claim"] == "peng"
    assert {s for s in w["options"]} == {0, 1, 2}
    # a log whose resolution gave the card to the chi would be caught
    forged = [
        ClaimWindowResolved(window=e.window, seat=1, claim="chi", rule_id="PH-6.4")
        if isinstance(e, ClaimWindowResolved) and e.window == opened.window
        else e
        for e in t.events
    ]
    bad = [x for x in claim_audit(forged) if x["window"] == opened.window][0]
    assert not bad["consistent"] and bad["expected"] == {"seat": 0, "claim": "peng"}


def test_PH_8_4_deal_summary_for_the_service(table):
    from domain.game import DealOutcome
    from projections.paohuzi.summary import SCORE_UNIT, deal_summary

    t = table(0, {0: ["s1"] * 4 + ["s2"] * 4 + ["b3"] * 4})
    assert SCORE_UNIT == "tun"
    assert deal_summary(t.state) == DealOutcome(0, [12, -6, -6], 6, "tun", {"huxi": 30})
    d = table(0, {})
    _run_passive(d)
    assert deal_summary(d.state).winner is None and deal_summary(d.state).payments == [0] * 3
