"""The decisions written in docs/rules/paohuzi.md under PH-4.3, PH-6.6 and PH-6.7, each
checked against the engine, and decide's one legality (it accepts exactly ``legal_actions``)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.paohuzi import GAME
from domain.paohuzi.basic_bots import GreedyBot
from domain.paohuzi.cards import kind_from_name as K
from domain.paohuzi.decide import canonical, decide
from domain.paohuzi.messages import (
    CardRevealed,
    CardUnclaimed,
    Chi,
    ChouMarked,
    ClaimWindowResolved,
    DiscardRequired,
    HandDead,
    MeldMade,
    Pao,
    Pass,
)
from domain.paohuzi.options import compute_options
from domain.paohuzi.queries import legal_actions
from domain.paohuzi.strong import StrongBot
from domain.paohuzi.view import pao_kills_hand
from domain.paohuzi.wins import evaluate_win
from projections.paohuzi import view_from_state


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def claim_state(crafted, eligible: list[int], **kw):
    """A crafted state with claim window 1 open on the table card for ``eligible``."""
    s = crafted(phase="claim", **kw)
    s.window, s.eligible = 1, eligible
    return s


# ---- PH-4.3: holding 20 + max(0, q-1) between turns, and a win with one more --------------


def test_PH_4_3_non_dealer_dealt_two_ti_plays_one_card_short(table):
    """Decided: a non-dealer dealt two opening ti holds 20, one below its target of 21; its next
    meld that adds a card needs no discard (PH-5.2 as written), so the seat after it reveals."""
    rest = ["s8", "s10", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b10"]  # no kan, no other s4
    t = table(0, {0: ["s4"], 1: ["s1"] * 4 + ["b9"] * 4 + ["s5", "s6", *rest]})
    s = t.state
    assert [m[0] for m in s.melds[1]] == ["ti", "ti"]
    assert (s.holding(1), s.target(1)) == (20, 21)
    t.discard(0, "s4")
    chi = next(a for a in t.actions(1) if isinstance(a, Chi) and a.groups == [["s4", "s5", "s6"]])
    t.pass_all(keep=(1,))
    new = t.do(chi)
    assert of(new, MeldMade)[0].meld == "chi"
    assert not of(new, DiscardRequired)  # PH-5.2: 21 is not above the target
    assert (t.state.holding(1), t.state.target(1)) == (21, 21)
    assert of(new, CardRevealed)[0].seat == 2  # PH-5.4: the seat after the melder


def test_PH_4_3_dealer_dealt_two_ti_holds_its_target(table):
    """Decided: a dealer dealt two ti holds 21, its target, so it does not discard (PH-2.7)."""
    t = table(0, {0: ["s1"] * 4 + ["b9"] * 4})
    assert (t.state.holding(0), t.state.target(0)) == (21, 21)
    assert not of(t.started, DiscardRequired)
    assert of(t.started, CardRevealed)[0].seat == 1


def test_PH_4_3_a_seat_wins_with_one_card_more_than_its_target(crafted):
    two_ti = [("ti", ["b5"] * 4), ("ti", ["b6"] * 4)]  # q = 2: target 21, 24 huxi already
    chis = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "b1", "b2", "b3"]
    # at the target (21 held): with the card it holds 22, four chi and a pair
    at_target = crafted(hands={0: [*chis, "b10"]}, melds={0: two_ti}, table="b10", table_seat=1)
    assert (at_target.holding(0), at_target.target(0)) == (21, 21)
    assert evaluate_win(at_target, 0, at_target.table) is not None
    # one short (20 held): with the card it holds 21, one short of a win
    short = crafted(hands={0: chis}, melds={0: two_ti}, table="b10", table_seat=1)
    assert (short.holding(0), short.target(0)) == (20, 21)
    assert evaluate_win(short, 0, short.table) is None


# ---- PH-6.6: an optional pao that leaves no legal discard -----------------------------------

FIVE_CHI = [
    ("chi", ["b1", "b2", "b3"]),
    ("chi", ["b4", "b5", "b6"]),
    ("chi", ["b7", "b8", "b9"]),
    ("chi", ["s1", "s2", "s3"]),
    ("chi", ["b1", "b2", "b3"]),
]


def test_PH_6_6_a_pao_that_kills_the_hand_is_offered_and_taking_it_makes_the_hand_dead(crafted):
    """Decided: a pao after which PH-5.2 calls for a discard the hand cannot make (every
    concealed card in a kan) is offered like any pao, and taking it makes the hand dead.

    No deal reaches this position, so it is built by hand: a pao adds one card and one four-card
    group, so a live hand at or under its target 20 + max(0, q-1) needs a discard after it only
    when q = 0 and it holds 20, and 20 cards in threes (kans, wei, peng, chi) always leave a
    free card."""
    s = claim_state(
        crafted, [2], hands={2: []}, kans={2: ["s5", "s7"]}, melds={2: FIVE_CHI}, table="s5", table_seat=1
    )
    assert compute_options(s, 2).pao == ("kan", 0)
    assert legal_actions(s, 2) == [Pao(seat=2, window=1), Pass(seat=2, window=1)]
    out = decide(s, Pao(seat=2, window=1))
    pao = of(out, MeldMade)[0]
    assert pao.seat == 2 and pao.meld == "pao" and pao.rule_id == "PH-6.2"
    assert [(e.seat, e.rule_id) for e in of(out, HandDead)] == [(2, "PH-6.6")]
    assert not of(out, DiscardRequired)
    assert of(out, CardRevealed)[0].seat == 0  # the dead hand discards nothing: the next seat reveals


def test_PH_6_6_the_bots_never_take_a_pao_that_kills_the_hand(crafted):
    s = claim_state(
        crafted, [2], hands={2: []}, kans={2: ["s5", "s7"]}, melds={2: FIVE_CHI}, table="s5", table_seat=1
    )
    view = view_from_state(s, 2)
    assert pao_kills_hand(view)
    assert GreedyBot(0).choose(view) == Pass(seat=2, window=1)
    assert StrongBot(0).choose(view) == Pass(seat=2, window=1)
    # with a free card the pao calls for a discard it can make: a pao like any other
    s = claim_state(
        crafted,
        [2],
        hands={2: ["b10"]},
        kans={2: ["s5", "s7"]},
        melds={2: FIVE_CHI},
        table="s5",
        table_seat=1,
    )
    view = view_from_state(s, 2)
    assert not pao_kills_hand(view)
    assert GreedyBot(0).choose(view) == Pao(seat=2, window=1)
    assert of(decide(s, Pao(seat=2, window=1)), DiscardRequired)[0].seat == 2


# ---- PH-6.7: chou, and what an own reveal nobody took does ----------------------------------


def test_PH_6_7_an_own_reveal_nobody_took_goes_to_the_row_without_chou(crafted):
    """Decided: the revealer's card that nobody took goes to its row (PH-5.1) but is no discard
    (PH-5.3): no chou for the revealer. The seat that passed a peng on it gets chou."""
    s = claim_state(crafted, [2], hands={1: ["s1", "b8"], 2: ["s5", "s5", "b2"]}, table="s5", table_seat=1)
    assert not compute_options(s, 1).any()  # the revealer had nothing to claim on it
    out = decide(s, Pass(seat=2, window=1))
    assert [(e.seat, e.kind) for e in of(out, ChouMarked)] == [(2, "s5")]
    (row,) = [e for e in of(out, CardUnclaimed) if e.card == s.table]
    assert (row.seat, row.rule_id) == (1, "PH-5.1")
    after = s.copy()
    for e in out:
        GAME.evolve(after, e)
    assert s.table in after.rows[1]
    assert K("s5") not in after.chou[1] and K("s5") in after.chou[2]


def test_PH_6_7_the_revealer_that_passes_a_chi_on_its_own_card_gets_chou(crafted):
    """Decided: a chi the revealer could have made on its own card and passed causes chou (the
    rule's first sentence), though the card itself still goes to its row."""
    s = claim_state(crafted, [1], hands={1: ["s4", "s6", "b8"]}, table="s5", table_seat=1)
    assert compute_options(s, 1).chi
    out = decide(s, Pass(seat=1, window=1))
    assert [(e.seat, e.kind, e.rule_id) for e in of(out, ChouMarked)] == [(1, "s5", "PH-6.7")]
    assert [(e.seat, e.rule_id) for e in of(out, CardUnclaimed)][0] == (1, "PH-5.1")


def test_PH_6_7_wei_and_ti_on_a_chou_kind_stay_allowed(crafted):
    """Chou forbids chi and peng only: the mandatory wei and ti of PH-6.1 still happen."""
    for kind, hand, kans, meld in (("s5", ["s5", "s5", "s1"], {}, "wei"), ("s5", ["s1"], {1: ["s5"]}, "ti")):
        s = crafted(
            hands={0: ["b10", "b9"], 1: hand, 2: ["b2"]},
            kans=kans,
            chou={1: [kind]},
            stock=[kind],
            phase="discard",
            turn=0,
        )
        out = decide(s, GAME.legal_actions(s, 0)[-1])  # seat 0 discards b10: nobody takes it
        made = [e for e in of(out, MeldMade) if e.seat == 1]
        assert made and made[0].meld == meld and made[0].rule_id == "PH-6.1"
        assert made[0].claimed >> 2 == K(kind)


# ---- one legality: decide accepts exactly legal_actions ---------------------------------------


def test_decide_takes_a_chi_in_any_order_of_its_kinds_as_the_one_legal_action_it_is(crafted):
    """A chi's groups are sets of cards: a command whose kinds or bi groups are listed in
    another order is the same legal action (``canonical``) and decides to the same events;
    the first group, the one with the claimed card, stays the first."""
    s = claim_state(
        crafted, [0], hands={0: ["s5", "s6", "s7", "s3", "s4", "b1", "b9"]}, table="s5", table_seat=2
    )
    chis = [a for a in legal_actions(s, 0) if isinstance(a, Chi)]
    assert len(chis) == 2 and all(len(c.groups) == 2 for c in chis)
    for chi in chis:
        shuffled = Chi(seat=0, window=1, groups=[g[::-1] for g in reversed(chi.groups)])
        swapped_bi = Chi(seat=0, window=1, groups=[chi.groups[0][::-1], chi.groups[1][::-1]])
        assert canonical(swapped_bi) == chi
        assert decide(s, swapped_bi) == decide(s, chi)
        assert canonical(shuffled) != chi  # another first group: the other legal chi
        assert canonical(shuffled) in chis


@pytest.mark.parametrize(
    ("groups", "rule"),
    [
        ([["s5", "s6", "x9"]], "PH-1.2"),
        ([], "PH-3.1"),
        ([["s5", "s6", "s8"]], "PH-3.1"),
        ([["s3", "s4", "s5"]], "PH-6.5"),  # the other s5 in hand goes into no chi
        ([["s6", "s7", "s8"], ["s3", "s4", "s5"]], "PH-6.5"),  # the first group lacks the claimed card
    ],
)
def test_a_chi_outside_legal_actions_is_refused_with_its_rule(crafted, groups, rule):
    s = claim_state(
        crafted, [0], hands={0: ["s5", "s6", "s7", "s3", "s4", "b1", "b9"]}, table="s5", table_seat=2
    )
    cmd = Chi(seat=0, window=1, groups=groups)
    assert canonical(cmd) not in legal_actions(s, 0)
    with pytest.raises(RuleViolation) as exc:
        decide(s, cmd)
    assert exc.value.rule_id == rule


def test_refused_commands_leave_the_state_and_name_the_window_or_turn(crafted):
    s = claim_state(crafted, [0], hands={0: ["s4", "s6"]}, table="s5", table_seat=2)
    before = s.snapshot()
    for cmd, rule in (
        (Pass(seat=0, window=2), "DS-3"),  # no such window
        (Pass(seat=1, window=1), "DS-3"),  # not asked
        (Pao(seat=0, window=1), "PH-6.2"),  # nothing to make a pao with
    ):
        with pytest.raises(RuleViolation) as exc:
            decide(s, cmd)
        assert exc.value.rule_id == rule
    assert s.snapshot() == before
    chi = legal_actions(s, 0)[0]
    assert isinstance(chi, Chi)
    assert of(decide(s, chi), ClaimWindowResolved)[0].claim == "chi"
