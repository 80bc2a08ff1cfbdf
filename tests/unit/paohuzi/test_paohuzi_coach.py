"""The Paohuzi coach (issue 15): fixed positions with known answers, agreement with the engine on
self-play, hidden-card independence and determinism."""

from __future__ import annotations

import hashlib
import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import selfplay
from domain.paohuzi import GAME, wins
from domain.paohuzi.bots import make_bot
from domain.paohuzi.cards import kind_name
from domain.paohuzi.coach import Advice, Group, WinCard, WinHuxi, coach
from domain.paohuzi.messages import Chi, ClaimWindowResolved, DealWon, Pao, Pass, Peng, Win
from domain.paohuzi.options import _CHI_MEMO
from domain.paohuzi.state import State
from projections.paohuzi import view_from_state

# PH worked check: s1s2s3 (3), b2b7b10 (6), wei b5 (6), peng s9 (1), kan s4 (3) and zero chi: 19 huxi.
WORKED = {
    "hands": {0: ["s1", "s2", "s3", "b2", "b7", "b10", "s5", "s6", "b3", "b4", "b5"]},
    "kans": {0: ["s4"]},
    "melds": {0: [("wei", ["b5", "b5", "b5"]), ("peng", ["s9", "s9", "s9"])]},
}


def _window(s: State, seat: int) -> State:
    """Open claim window 1 on the crafted table card, asking ``seat`` only."""
    s.phase = "claim"
    s.window = 1
    s.eligible = [seat]
    s.answers = {}
    return s


def test_the_best_layout_and_its_huxi(crafted):
    s = crafted(**WORKED, phase="discard", turn=1)
    a = coach(view_from_state(s, 0))
    assert a.layout.huxi == 19
    assert a.layout.groups == [
        Group("wei", ["b5"] * 3, 6, True),
        Group("peng", ["s9"] * 3, 1, True),
        Group("kan", ["s4"] * 3, 3, False),
        Group("chi", ["s1", "s2", "s3"], 3, False),
        Group("chi", ["b2", "b7", "b10"], 6, False),
        Group("chi", ["b3", "b4", "b5"], 0, False),
    ]
    assert a.layout.loose == ["s5", "s6"]
    # s7 wins from anyone's reveal; the fourth s4 only from another's (an own s4 melds the kan as a
    # ti first, PH-6.1, and a hand with a ti needs a pair it does not have, PH-4.2)
    assert a.wins == [
        WinCard("s4", 1, WinHuxi(19, 2), None),
        WinCard("s7", 4, WinHuxi(19, 2), WinHuxi(19, 2)),
    ]


def test_a_win_offered_on_the_table_is_the_one_the_engine_pays(crafted):
    s = _window(crafted(**WORKED, table="s4", table_seat=1, phase="claim"), 0)
    view = view_from_state(s, 0)
    a = coach(view)
    # the last s4 lies on the table: none is left to come, the kind still wins
    assert a.wins == [
        WinCard("s4", 0, WinHuxi(19, 2), None),
        WinCard("s7", 4, WinHuxi(19, 2), WinHuxi(19, 2)),
    ]
    win = next(x for x in a.actions if x.action == "win")
    assert (win.huxi_after, win.tun) == (19, 2) and type(view.legal_actions[win.index]) is Win
    events, _ = GAME.execute(s, view.legal_actions[win.index])
    won = next(e for e in events if type(e) is DealWon)
    assert (won.huxi, won.tun) == (19, 2)


def test_own_reveal_onto_a_pair_melds_a_wei_before_the_win(crafted):
    # the hand of the worked check with s6 s6 for s5 s6: the third s6 makes seven groups
    s = crafted(
        hands={0: ["s1", "s2", "s3", "b2", "b7", "b10", "s6", "s6", "b3", "b4", "b5"]},
        kans={0: ["s4"]},
        melds={0: [("wei", ["b5", "b5", "b5"]), ("peng", ["s9", "s9", "s9"])]},
        phase="discard",
        turn=1,
    )
    a = coach(view_from_state(s, 0))
    by = {w.kind: w for w in a.wins}
    # another seat's s6 pengs the pair (1): 3+6+0 + 6+1+3 + 1 = 20 huxi, 2 tun; an own s6 melds
    # the pair as a wei first (3, PH-6.1): 22 huxi, 3 tun (PH-8.3)
    assert by["s6"] == WinCard("s6", 2, WinHuxi(20, 2), WinHuxi(22, 3))
    assert a.layout.huxi == 19 and a.layout.loose == []


CHI_HAND = ["s1", "s2", "s3", "s4", "s7", "s10", "b2", "b2", "b5", "b5"]
CHI_HAND += ["b7", "b7", "b9", "b9", "s6", "s6", "s8", "s8", "b1", "b1"]


def test_each_chi_and_bi_choice_shows_its_huxi_and_the_pass_its_chou(crafted):
    # seat 0 is next after the revealer: it may chi the s2, and its own s2 must go into a bi
    s = _window(crafted(hands={0: CHI_HAND}, table="s2", table_seat=2, phase="claim"), 0)
    view = view_from_state(s, 0)
    a = coach(view)
    assert a.layout.huxi == 3  # s1 s2 s3 in hand
    chis = {tuple(tuple(g) for g in x.groups): x for x in a.actions if x.action == "chi"}
    assert len(chis) == sum(1 for x in view.legal_actions if type(x) is Chi) == 11
    assert all(view.legal_actions[x.index].groups == x.groups for x in chis.values())
    # 1-2-3 (3) + 2-7-10 (3): the hand keeps nothing else that scores: 6 in all, 3 more than now
    best = chis[(("s1", "s2", "s3"), ("s2", "s7", "s10"))]
    assert (best.meld_huxi, best.huxi_after, best.huxi_added) == (6, 6, 3)
    assert best.pairs_broken == [] and best.chou == [] and best.must_discard
    # s2 s2 b2 takes the hand's s2 and one b2: no group scores any more, and the b2 pair is split
    mixed = chis[(("s2", "s2", "b2"),)]
    assert (mixed.meld_huxi, mixed.huxi_after, mixed.huxi_added) == (0, 0, -3)
    assert mixed.pairs_broken == ["b2"]
    # 2-3-4 with 2-7-10 as bi: 3, and the 1-2-3 of the hand is gone
    low = chis[(("s2", "s3", "s4"), ("s2", "s7", "s10"))]
    assert (low.meld_huxi, low.huxi_after, low.huxi_added) == (3, 3, 0)
    passing = next(x for x in a.actions if x.action == "pass")
    assert passing.chou == ["s2"] and passing.huxi_added == 0 and not passing.must_discard
    # the engine marks exactly that chou when the seat passes (PH-6.7)
    events, after = GAME.execute(s, Pass(seat=0, window=1))
    assert view_from_state(after, 0).chou == ["s2"]
    assert all(not x.chou for x in a.actions if x.action != "pass")


def test_peng_and_pao_show_what_they_add(crafted):
    # seat 0 holds a pair of b3 and a kan of s8 (20 cards, its target); seat 2 reveals b3, then s8
    hand = "b3 b3 s1 s2 s3 b6 b7 b8 s5 b1 b9 s10 s10 b10 s4 b4 b5".split()
    s = _window(crafted(hands={0: hand}, kans={0: ["s8"]}, table="b3", table_seat=2, phase="claim"), 0)
    a = coach(view_from_state(s, 0))
    peng = next(x for x in a.actions if x.action == "peng")
    assert (peng.meld_huxi, peng.huxi_added, peng.pairs_broken, peng.chou) == (3, 3, [], [])
    passing = next(x for x in a.actions if x.action == "pass")
    assert passing.chou == ["b3"]  # a peng passed is chou too
    s = _window(crafted(hands={0: hand}, kans={0: ["s8"]}, table="s8", table_seat=2, phase="claim"), 0)
    a = coach(view_from_state(s, 0))
    pao = next(x for x in a.actions if x.action == "pao")
    assert (pao.meld_huxi, pao.huxi_added) == (6, 3)  # the kan's 3 become the pao's 6
    assert pao.must_discard  # the first four-card group still calls for a discard (PH-5.2)
    assert next(x for x in a.actions if x.action == "pass").chou == []  # no chi or peng offered


def test_each_discard_shows_the_wins_it_leaves(crafted):
    s = crafted(
        hands={0: [*WORKED["hands"][0], "s7"]},
        kans=WORKED["kans"],
        melds=WORKED["melds"],
        phase="discard",
        turn=0,
    )
    a = coach(view_from_state(s, 0))
    assert a.wins == []  # one card over the count: nothing wins before the discard
    by = {d.kind: d for d in a.discards}
    assert sorted(by) == sorted({kind_name(c >> 2) for c in s.hands[0]})
    assert by["s5"].huxi_after == 19 and {w.kind for w in by["s5"].wins} >= {"s5"}
    assert by["s7"].wins == [
        WinCard("s4", 1, WinHuxi(19, 2), None),
        WinCard("s7", 3, WinHuxi(19, 2), WinHuxi(19, 2)),
    ]


def test_advice_is_json_with_a_schema(crafted):
    a = coach(view_from_state(crafted(**WORKED, phase="discard", turn=1), 0))
    assert msgspec.json.decode(msgspec.json.encode(a), type=Advice) == a
    assert "PaohuziAdvice" in msgspec.json.schema(Advice)["$defs"]


# ---- self-play: the coach against the engine ------------------------------------------------------


def _play(i: int, on_step) -> None:
    seed = hashlib.sha256(b"paohuzi-coach" + i.to_bytes(4, "big")).digest()
    bots = [make_bot("greedy", i * 3 + p) for p in range(3)]
    selfplay.play_deal(GAME, view_from_state, bots, deal_id=f"c{i}", server_seed=seed, on_step=on_step)


def test_the_coach_agrees_with_the_engine_on_self_play():
    """On a revealed card, a seat is offered a win <=> the coach listed the card's kind, with the
    same huxi; after a claim the seat's layout is the one the coach foresaw beside it."""
    seen = {"win": 0, "no_win": 0, "claim": 0}
    foreseen: dict[tuple[int, int], object] = {}

    def check(step: selfplay.Step) -> None:
        s = step.after
        if step.view is not None and type(step.command) in (Chi, Peng, Pao):
            a = coach(step.view)
            foreseen[(step.view.window, step.seat)] = next(
                x for x in a.actions if step.view.legal_actions[x.index] == step.command
            )
        for e in step.events:
            if type(e) is ClaimWindowResolved and (e.window, e.seat) in foreseen and not GAME.is_over(s):
                x = foreseen[(e.window, e.seat)]
                after = coach(view_from_state(s, e.seat))
                assert after.layout.huxi == x.huxi_after
                assert (s.phase == "discard" and s.turn == e.seat) == x.must_discard
                seen["claim"] += 1
        if GAME.is_over(s):
            return
        for seat in range(3):
            view = view_from_state(s, seat)
            if view.table is None or view.table.source != "reveal" or view.my_answer is not None:
                continue
            a = coach(view)
            w = next((x for x in a.wins if x.kind == kind_name(view.table.card >> 2)), None)
            value = None if w is None else (w.own_reveal if view.table.seat == seat else w.other_reveal)
            offered = [x for x in a.actions if x.action == "win"]
            assert (value is not None) == bool(offered)
            if offered:
                assert (offered[0].huxi_after, offered[0].tun) == (value.huxi, value.tun)
            seen["win" if offered else "no_win"] += 1

    for deal in range(25):
        _play(deal, check)
    assert all(seen.values()), seen


# ---- only the view counts --------------------------------------------------------------------------


def _position(deal: int, step: int) -> State:
    found: list[State] = []

    def keep(s: selfplay.Step) -> None:
        if not GAME.is_over(s.after) and len(found) <= step:
            found.append(s.after)

    _play(deal, keep)
    return found[min(step, len(found) - 1)]


def _shuffle_hidden(s: State, seat: int, rng: random.Random) -> State:
    """The same state with the cards ``seat`` cannot see dealt again (hand sizes kept)."""
    t = s.copy()
    others = [x for x in range(3) if x != seat]
    hidden = [c for x in others for c in t.hands[x]] + list(t.stock[t.stock_pos :])
    rng.shuffle(hidden)
    for x in others:
        n = len(t.hands[x])
        t.hands[x], hidden = hidden[:n], hidden[n:]
        t.counts[x] = [sum(1 for c in t.hands[x] if c >> 2 == k) for k in range(20)]
    t.stock = list(t.stock[: t.stock_pos]) + hidden
    t._cache = {}
    return t


@settings(max_examples=15, deadline=None, derandomize=True)
@given(deal=st.integers(0, 10_000), step=st.integers(0, 60), seat=st.integers(0, 2), salt=st.integers(0, 999))
def test_advice_depends_on_the_view_alone_and_repeats(deal, step, seat, salt):
    s = _position(deal, step)
    view = view_from_state(s, seat)
    advice = coach(view)
    moved = _shuffle_hidden(s, seat, random.Random(salt))
    assert moved.hands != s.hands or moved.stock != s.stock or not s.stock[s.stock_pos :]
    assert view_from_state(moved, seat) == view
    assert coach(view_from_state(moved, seat)) == advice
    raw = msgspec.json.encode(advice)
    wins._MEMO.clear()
    wins._PARTIAL.clear()
    _CHI_MEMO.clear()
    assert msgspec.json.encode(coach(view)) == raw
