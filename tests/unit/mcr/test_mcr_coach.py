"""The MCR coach (issue 15): fixed positions with known answers, agreement with the engine on
self-play, hidden-tile independence and determinism."""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import selfplay
from domain.errors import RuleViolation
from domain.mcr import GAME, scoring
from domain.mcr import coach as coach_module
from domain.mcr.bots import make_bot
from domain.mcr.coach import Advice, NoWin, coach
from domain.mcr.messages import Claim, ConcealedKong, DeclareWin, HandWon
from domain.mcr.tiles import FIRST_FLOWER, KIND_CODES
from projections.mcr import view_from_state

# Ready on T6 (10 points on a discard: Mixed Shifted Chows W456 T678 B567) or T9 (4 points: a
# pung of terminals, concealed hand, no honours): the T9 wait falls under the 8-point minimum.
READY = ["W4", "W5", "W6", "T7", "T8", "T9", "T9", "B5", "B6", "B7", "B9", "B9", "B9"]
# Ready on W4 (5 points: concealed hand, all chows, mixed double chow W567 T567) or W7 (10: Mixed
# Shifted Chows W456 T567 B678, concealed hand, all chows).
KNOT = ["W4", "W5", "W6", "W7", "T1", "T2", "T3", "T5", "T6", "T7", "B6", "B7", "B8"]


def _names(value) -> set[str]:
    return {f.name_en for f in value.fans}


def _wait(advice: Advice, tile: str):
    return next(w for w in advice.waits if w.tile == tile)


def test_ready_hand_scores_the_8_point_wait_and_flags_the_other(table):
    t = table({1: READY, 0: ["T9"]})
    a = coach(view_from_state(t.state, 1))
    assert a.shanten == 0 and a.discards == [] and a.useful == []
    assert [w.tile for w in a.waits] == ["T6", "T9"]
    t6, t9 = _wait(a, "T6"), _wait(a, "T9")
    assert t6.unseen == 4
    assert t9.unseen == 2  # two in this hand; seat 0's T9 is not seen by seat 1
    assert t6.discard.points == 10 and not t6.discard.under_minimum
    assert _names(t6.discard) == {
        "Mixed Shifted Chows",
        "Concealed Hand",
        "Pung of Terminals or Honors",
        "No Honors",
    }
    # self-drawn: Fully Concealed Hand (4) replaces Concealed Hand (2)
    assert t6.self_drawn.points == 12 and "Fully Concealed Hand" in _names(t6.self_drawn)
    assert t9.discard.points == 4 and t9.discard.under_minimum  # MC-4.3
    assert t9.self_drawn.points == 6 and t9.self_drawn.under_minimum
    assert a.win is None and a.no_win is None


def test_an_under_8_discard_shows_why_there_is_no_win_button(table):
    t = table({1: READY, 0: ["T9"]})
    t.discard(0, "T9")
    view = view_from_state(t.state, 1)
    assert not any(type(x) is Claim and x.claim == "win" for x in view.legal_actions)
    a = coach(view)
    assert a.win is None
    assert a.no_win == NoWin("T9", "MC-4.3", "under_minimum", 4, _wait(coach(view), "T9").discard.fans)
    with pytest.raises(RuleViolation) as err:  # the engine gives the same reason
        GAME.decide(t.state, Claim(seat=1, window=view.window.window, claim="win"))
    assert err.value.rule_id == "MC-4.3"


def test_a_seat_with_no_claim_in_the_window_is_told_too(table):
    # seat 2 waits on W4 for 5 points; seat 1's pung option opens the window seat 2 cannot answer
    t = table({2: KNOT, 1: ["W4", "W4"], 0: ["W4"]})
    t.discard(0, "W4")
    view = view_from_state(t.state, 2)
    assert view.window is not None and not view.window.eligible and view.legal_actions == []
    a = coach(view)
    assert a.no_win.rule == "MC-4.3" and a.no_win.tile == "W4" and a.no_win.points == 5


def test_a_winning_discard_is_scored_like_the_engine_scores_it(table):
    t = table({2: KNOT, 1: ["W7", "W7"], 0: ["W7"]})
    t.discard(0, "W7")
    view = view_from_state(t.state, 2)
    a = coach(view)
    assert a.no_win is None
    assert a.win.tile == "W7" and not a.win.self_drawn and a.win.fan_points == 10
    claim = next(x for x in view.legal_actions if type(x) is Claim and x.claim == "win")
    t.do(claim)
    t.pass_all()
    won = next(e for e in t.events if type(e) is HandWon)
    assert (won.fans, won.fan_points, won.total) == (a.win.fans, a.win.fan_points, a.win.total)


def test_a_complete_hand_under_8_points_cannot_be_declared(table):
    t = table({0: [*READY, "T9"]})  # the dealer's 14th tile completes the 6-point hand
    view = view_from_state(t.state, 0)
    assert view.drawn is not None and not any(type(x) is DeclareWin for x in view.legal_actions)
    a = coach(view)
    assert a.shanten == -1 and a.win is None
    assert a.no_win.rule == "MC-4.3" and a.no_win.reason == "under_minimum"
    assert a.no_win.tile == "T9" and a.no_win.points == 6
    assert _names(a.no_win) == {"Fully Concealed Hand", "Pung of Terminals or Honors", "No Honors"}
    with pytest.raises(RuleViolation) as err:
        GAME.decide(t.state, DeclareWin(seat=0))
    assert err.value.rule_id == "MC-4.3" and "6 points" in err.value.message


def test_the_win_button_shows_the_fans_it_would_score(table):
    t = table({0: [*READY, "T6"]})
    view = view_from_state(t.state, 0)
    a = coach(view)
    assert a.shanten == -1 and a.no_win is None
    assert a.win.tile == "T6" and a.win.self_drawn
    assert (a.win.fan_points, a.win.flower_points, a.win.total) == (12, 0, 12)
    t.do(DeclareWin(seat=0))
    won = next(e for e in t.events if type(e) is HandWon)
    assert won.fans == a.win.fans and won.total == a.win.total


def test_a_complete_hand_after_a_chow_must_discard_first(table):
    t = table({1: READY, 0: ["T9"]})
    t.discard(0, "T9")
    chow = next(x for x in t.actions(1) if type(x) is Claim and x.claim == "chow")
    t.do(chow)
    t.pass_all()
    view = view_from_state(t.state, 1)
    assert view.drawn is None and view.prompt == "discard"
    a = coach(view)
    assert a.shanten == -1
    assert a.no_win == NoWin(None, "MC-3.5", "must_discard", None, [])


def test_each_discard_shows_what_it_leaves(table):
    hand = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T2", "T3", "B5", "B5", "J1"]
    t = table({0: hand})
    a = coach(view_from_state(t.state, 0))
    assert [d.tile for d in a.discards] == sorted(set(hand), key=KIND_CODES.index)
    best = next(d for d in a.discards if d.tile == "J1")
    assert best.shanten == 0 and a.shanten == 0
    assert [(u.tile, u.unseen) for u in best.useful] == [("T1", 4), ("T4", 4)] and best.useful_unseen == 8
    assert [w.tile for w in best.waits] == ["T1", "T4"]
    assert all(not w.discard.under_minimum and "Pure Straight" in _names(w.discard) for w in best.waits)
    others = [d for d in a.discards if d.tile != "J1"]
    assert all(d.shanten >= 1 and d.waits == [] for d in others)


def test_no_wait_on_a_fifth_copy(table):
    # after a concealed kong of W8 the calculator would let W8 complete W6 W7 (a fifth copy)
    hand = "W2 W3 W4 W6 W7 W8 W8 W8 W8 B8 B8 F1 F1 F1".split()
    t = table({0: hand}, back=["J3"])
    kong = next(x for x in t.actions(0) if type(x) is ConcealedKong)
    t.do(kong)
    a = coach(view_from_state(t.state, 0))
    j3 = next(d for d in a.discards if d.tile == "J3")
    assert j3.shanten == 0 and [u.tile for u in j3.useful] == ["W5"] and [w.tile for w in j3.waits] == ["W5"]
    assert scoring.waits(
        tuple(sorted(KIND_CODES.index(c) for c in "W2 W3 W4 W6 W7 B8 B8 F1 F1 F1".split()))
    ) >= {KIND_CODES.index("W8")}  # the calculator's own answer, which the coach corrects


def test_advice_is_json_with_a_schema(table):
    t = table({0: [*READY, "T6"]})
    a = coach(view_from_state(t.state, 0))
    raw = msgspec.json.encode(a)
    assert msgspec.json.decode(raw, type=Advice) == a
    schema = msgspec.json.schema(Advice)
    assert "McrAdvice" in schema["$defs"] and "WinNow" in schema["$defs"]


# ---- self-play: the coach against the engine ------------------------------------------------------


def _seed(i: int) -> bytes:
    return hashlib.sha256(b"mcr-coach" + i.to_bytes(4, "big")).digest()


def _play(i: int, on_step) -> None:
    bots = [make_bot("greedy", i * 4 + p) for p in range(4)]
    selfplay.play_deal(GAME, view_from_state, bots, deal_id=f"c{i}", server_seed=_seed(i), on_step=on_step)


def test_the_coach_agrees_with_the_engine_on_self_play():
    """A win offered <=> the coach scores it (>= 8 points); a completing tile with no win offered
    is explained; a declared win pays exactly what the coach said (a kong replacement's Out with
    Replacement Tile included: the view says when the drawn tile is one)."""
    seen = {"offered": 0, "won": 0, "under_minimum": 0}

    def check(step: selfplay.Step) -> None:
        if GAME.is_over(step.after):
            won = next((e for e in step.events if type(e) is HandWon), None)
            if won is not None and step.view is not None:
                a = coach(step.view)
                assert (a.win.fans, a.win.total) == (won.fans, won.total)
                seen["won"] += 1
            return
        for seat in range(4):
            view = view_from_state(step.after, seat)
            a = coach(view)
            offered = any(
                type(x) is DeclareWin or (type(x) is Claim and x.claim == "win") for x in view.legal_actions
            )
            assert (a.win is not None) == offered
            if offered:
                assert a.win.fan_points >= 8 and a.no_win is None
                seen["offered"] += 1
            if a.no_win is not None and a.no_win.rule == "MC-4.3":
                assert a.no_win.points < 8
                seen["under_minimum"] += 1
            w = view.window
            if w is not None and w.source_seat != seat and w.answer is None and a.shanten == 0:
                if any(x.tile == KIND_CODES[w.card >> 2] for x in a.waits):
                    assert offered or a.no_win.rule == "MC-4.3"

    for deal in range(8):
        _play(deal, check)
    assert all(seen.values()), seen  # each case came up


# ---- only the view counts --------------------------------------------------------------------------


def _position(deal: int, step: int):
    """The state after ``step`` commands of a seeded greedy deal (or its last before the end)."""
    found: list = []

    def keep(s: selfplay.Step) -> None:
        if not GAME.is_over(s.after) and len(found) <= step:
            found.append(s.after)

    _play(deal, keep)
    return found[min(step, len(found) - 1)]


def _reshuffle_hidden(state, seat: int, salt: int):
    """The same deal as ``seat`` sees it with the tiles it cannot see dealt differently: the other
    concealed hands and the live wall trade their plain tiles (flowers stay where they are)."""
    s = state.clone()
    s.wall = list(state.wall)
    slots = [("w", i) for i in range(s.front, s.back) if s.wall[i] < FIRST_FLOWER]
    for p in range(4):
        if p != seat:
            slots += [("h", p, i) for i in range(len(s.hands[p])) if s.hands[p][i] < FIRST_FLOWER]
    tiles = [s.wall[x[1]] if x[0] == "w" else s.hands[x[1]][x[2]] for x in slots]
    random.Random(salt).shuffle(tiles)
    for x, tile in zip(slots, tiles, strict=True):
        if x[0] == "w":
            s.wall[x[1]] = tile
        else:
            s.hands[x[1]][x[2]] = tile
    return s


def _clear_caches() -> None:
    coach_module._VALUES.clear()
    scoring._shanten_cache.clear()
    scoring._waits_cache.clear()
    scoring._useful_cache.clear()


@settings(max_examples=15, deadline=None, derandomize=True)
@given(
    deal=st.integers(0, 10_000), step=st.integers(0, 200), seat=st.integers(0, 3), salt=st.integers(0, 999)
)
def test_advice_depends_on_the_view_alone_and_repeats(deal, step, seat, salt):
    state = _position(deal, step)
    view = view_from_state(state, seat)
    advice = coach(view)
    other = _reshuffle_hidden(state, seat, salt)
    assert [sorted(h) for p, h in enumerate(other.hands) if p != seat] != [
        sorted(h) for p, h in enumerate(state.hands) if p != seat
    ] or other.wall != state.wall
    assert view_from_state(other, seat) == view
    assert coach(view_from_state(other, seat)) == advice
    # the caches only save time: a cold process gives the same answer, byte for byte
    raw = msgspec.json.encode(advice)
    _clear_caches()
    assert msgspec.json.encode(coach(view)) == raw
