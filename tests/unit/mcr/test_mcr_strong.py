"""The strong MCR bot: fixed positions with a clearly best move, legality, view-only determinism."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.game import StartDeal
from domain.mcr import GAME, scoring
from domain.mcr.basic_bots import GreedyBot, RandomBot
from domain.mcr.bots import BOTS, make_bot
from domain.mcr.messages import Claim, Discard, Pass
from domain.mcr.strong import Params, StrongBot, hand, option_values
from domain.mcr.tiles import FIRST_FLOWER, KIND_CODES, code
from projections.mcr import view_from_state


def _claim(t, seat: int, kind: str) -> None:
    for a in t.actions(seat):
        if type(a) is Claim and a.claim == kind:
            t.do(a)
            t.pass_all(except_seats=(seat,))
            return
    raise AssertionError(f"seat {seat} has no {kind}: {t.actions(seat)}")


def _values(view) -> dict[str, float]:
    """Best value per move name (D<tile> for discards, the claim kind, Pass)."""
    out: dict[str, float] = {}
    for ov in option_values(view, 0):
        a = ov.action
        name = "D" + code(a.tile) if type(a) is Discard else a.claim if type(a) is Claim else type(a).__name__
        out[name] = max(out.get(name, float("-inf")), ov.value)
    return out


def test_registered_beside_random_and_greedy():
    assert BOTS["random"] is RandomBot and BOTS["greedy"] is GreedyBot
    bot = make_bot("strong", 5)
    assert isinstance(bot, StrongBot) and bot.seed == 5


def test_takes_the_only_discard_that_leaves_a_scoring_wait(table):
    # W1-W9 T2 T3 B5 B5 + J1: only the J1 discard is ready (pure straight, 16 points on T1 or T4)
    t = table({0: ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T2", "T3", "B5", "B5", "J1"]})
    view = view_from_state(t.state, 0)
    cmd = StrongBot(0).choose(view)
    assert type(cmd) is Discard and code(cmd.tile) == "J1"
    values = _values(view)
    assert values["DJ1"] > max(v for k, v in values.items() if k != "DJ1") + 5


def test_claims_the_winning_discard(table):
    t = table({1: ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T2", "T3", "B5", "B5"], 0: ["T4"]})
    t.discard(0, "T4")
    view = view_from_state(t.state, 1)
    cmd = StrongBot(0).choose(view)
    assert type(cmd) is Claim and cmd.claim == "win"
    values = _values(view)
    assert values["win"] > values["chow"]


def test_refuses_a_chow_that_breaks_an_8_point_wait(table):
    # ready on T2 for 9 points on a discard; chowing W5 (W3 W4 W5) leaves a T2 wait worth 6
    tiles = ["W2", "W3", "W4", "T2", "T6", "T7", "T8", "B2", "B3", "B4", "B6", "B7", "B8"]
    t = table({1: tiles, 0: ["W5"]})
    t.discard(0, "W5")
    view = view_from_state(t.state, 1)
    assert {a.claim for a in view.legal_actions if type(a) is Claim} == {"chow"}
    wind = view.seats[1].wind
    kinds = tuple(sorted(t >> 2 for t in view.hand))
    assert dict((k, d) for k, d, _s in hand.wait_values((), kinds, wind, 0))[KIND_CODES.index("T2")] >= 8
    assert isinstance(StrongBot(0).choose(view), Pass)
    values = _values(view)
    assert values["Pass"] > values["chow"] + 5


def test_discards_the_safe_tile_against_three_exposed_pungs(table):
    # seat 1 pungs T2, T5 and T8 from seat 0 and shows four tiles; its last discard (W5) is safe
    hands = {
        0: "T2 T5 T8 W2 W3 W4 W5 W8 B2 B3 B4 B6 B7 J1".split(),
        1: "T2 T2 T5 T5 T8 T8 T6 T7 B5 B5 W5 F3 F4".split(),
        2: "W1 W4 W7 B1 B4 B8 F1 F1 J1 J2 J3 T9 F2".split(),
        3: "W1 W4 W7 B1 B4 B8 T1 T3 F2 F3 F4 J1 J2".split(),
    }
    t = table(hands, front="J3 W9 J1 B9 B1 W9 J2 B1 T3".split())
    for mine, theirs in (("T2", "F3"), ("T5", "F4"), ("T8", "W5")):
        t.discard(0, mine)
        _claim(t, 1, "pung")
        t.discard(1, theirs)
        t.pass_all()
        for seat in (2, 3):  # they discard what they draw
            t.do(Discard(seat=seat, tile=t.state.last_tile))
            t.pass_all()
    view = view_from_state(t.state, 0)
    assert view.turn == 0 and view.seats[1].hand_count == 4
    assert sorted(code(x) for x in view.hand) == sorted("W2 W3 W4 W5 W8 W9 T3 B2 B3 B4 B6 B7 J1 J1".split())
    cmd = StrongBot(0).choose(view)
    assert type(cmd) is Discard and code(cmd.tile) == "W5"
    risk = {code(ov.action.tile): ov.deal_in for ov in option_values(view, 0)}
    assert risk["T3"] > 5 * risk["W5"]
    # without the defence the bamboo tile is at least as good a discard (the choice is defensive)
    off = {code(ov.action.tile): ov.value for ov in option_values(view, 0, Params(defend=False))}
    assert off["T3"] >= off["W5"]


def test_no_wait_on_a_fifth_copy_and_no_live_copies_in_a_new_set(table):
    # W8 W8 W8 W8 in hand: after the concealed kong W8 is no wait (the calculator would score it)
    kinds = tuple(sorted(KIND_CODES.index(c) for c in "W2 W3 W4 W6 W7 B8 B8 F1 F1 F1".split()))
    waits = {k for k, _d, _s in hand.wait_values((("GANG", "W8", 0),), kinds, 0, 0)}
    assert KIND_CODES.index("W8") not in waits and KIND_CODES.index("W5") in waits
    t = table({0: "W2 W3 W4 W7 W8 W8 W8 W8 T2 B4 B8 B8 F1 F1".split()})
    view = view_from_state(t.state, 0)
    values = _values(view)
    # the kong is worth about what the best discard is, not the fifty-odd points a phantom wait gave
    assert abs(values["ConcealedKong"] - max(v for k, v in values.items() if k.startswith("D"))) < 10


# --- every view of seeded deals: legal, complete, decided by the view alone --------------------
def _position(seed: int, steps: int):
    """(state, seat) after ``steps`` greedy commands of a seeded deal (or at its last decision)."""
    server_seed = hashlib.sha256(f"strong-prop:{seed}".encode()).digest()
    events = GAME.create(deal_id="p", seats=["bot:greedy"] * 4, server_seed=server_seed)
    state = GAME.fold(events)
    for e in GAME.decide(state, StartDeal(seat=0, client_seed="")):
        GAME.evolve(state, e)
    greedy = GreedyBot(0)
    for _ in range(steps):
        seat = GAME.seats_to_act(state)[0]
        new = GAME.decide(state, greedy.choose(view_from_state(state, seat)))
        after = state.clone()
        for e in new:
            GAME.evolve(after, e)
        if GAME.is_over(after):
            break
        state = after
    return state, GAME.seats_to_act(state)[0]


def _reshuffle_hidden(state, seat: int, salt: int):
    """The same deal as ``seat`` sees it, with the tiles it cannot see dealt differently: other
    concealed hands and the live wall swap plain tiles (flowers and sizes stay where they are)."""
    import random

    s = state.clone()
    s.wall = list(state.wall)
    s.hands = [list(h) for h in state.hands]
    slots = [("w", i) for i in range(s.front, s.back) if s.wall[i] < FIRST_FLOWER]
    for p in range(4):
        if p != seat:
            slots += [("h", p, i) for i in range(len(s.hands[p]))]
    tiles = [s.wall[x[1]] if x[0] == "w" else s.hands[x[1]][x[2]] for x in slots]
    random.Random(salt).shuffle(tiles)
    for x, tile in zip(slots, tiles, strict=True):
        if x[0] == "w":
            s.wall[x[1]] = tile
        else:
            s.hands[x[1]][x[2]] = tile
    return s


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 140), salt=st.integers(0, 1000))
def test_choice_is_legal_and_depends_on_the_view_alone(seed, steps, salt):
    state, seat = _position(seed, steps)
    view = view_from_state(state, seat)
    bot_seed = seed * 31 + steps
    cmd = StrongBot(bot_seed).choose(view)
    assert cmd in view.legal_actions
    ovs = option_values(view, bot_seed)
    assert [ov.action for ov in ovs] == list(view.legal_actions)
    assert all(ov.noise >= 0 and 0 <= ov.deal_in <= 1 for ov in ovs)
    other = _reshuffle_hidden(state, seat, salt)
    assert view_from_state(other, seat) == view
    assert StrongBot(bot_seed).choose(view_from_state(other, seat)) == cmd
    # the caches only save time: a cold process decides the same
    hand._WAITS.clear()
    hand._STEPS.clear()
    scoring._useful_cache.clear()
    assert make_bot("strong", bot_seed).choose(view) == cmd
