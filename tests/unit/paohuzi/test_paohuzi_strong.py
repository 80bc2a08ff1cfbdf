"""The strong Paohuzi bot: its rollout engine, its sampler, and fixed positions with a clear best move.

The positions are built so the answer can be checked by hand: both other seats are dead with no
concealed card (PH-6.6) and only a card or a few stay unseen, so every sampled deal plays the same
way and the values are exact payments, not estimates.
"""

from __future__ import annotations

import hashlib
import math
import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.game import StartDeal
from domain.paohuzi import GAME
from domain.paohuzi.basic_bots import GreedyBot
from domain.paohuzi.bots import BOTS, make_bot
from domain.paohuzi.cards import kind_from_name, kind_name
from domain.paohuzi.changes import fold
from domain.paohuzi.decide import execute
from domain.paohuzi.messages import Chi, DealWon, Discard, Win
from domain.paohuzi.options import chi_choices, compute_options
from domain.paohuzi.queries import legal_actions, seats_to_act
from domain.paohuzi.state import State
from domain.paohuzi.strong import StrongBot, option_values
from domain.paohuzi.strong import evaluate as ev
from domain.paohuzi.strong.evaluate import action_key, ranked_values
from domain.paohuzi.strong.policy import greedy_command
from domain.paohuzi.strong.sample import Sampler, unseen_cards
from domain.paohuzi.strong.sim import DISCARD, REVEAL, Sim
from projections import review as rv
from projections.paohuzi import view_from_state

SEED = bytes(range(32))


def _position(
    *,
    hands: dict[int, str],
    melds: dict[int, list[tuple[str, str]]],
    unseen: str | None,
    stock: int = 0,
    table: str | None = None,
    table_seat: int = 0,
    table_source: str = "reveal",
    dead: tuple[int, ...] = (),
    kans: dict[int, str] | None = None,
    seat: int = 0,
) -> State:
    """A state by hand. ``unseen`` are the cards hidden from ``seat``: the first ``stock`` go to
    the stock, the rest to the other seats' hands (in seat order, up to 20 held). Every other card
    lies in the rows, so the seat sees it. ``unseen=None``: every card not placed is unseen."""
    pool = {k: [k * 4 + c for c in range(4)] for k in range(20)}

    def take(name: str) -> int:
        return pool[kind_from_name(name)].pop(0)

    s = State()
    s.created = GAME.create(deal_id="t", seats=["bot"] * 3, server_seed=SEED)[0]
    s.dealer = 0
    hidden = [take(n) for n in unseen.split()] if unseen is not None else []
    for x, names in hands.items():
        s.hands[x] = [take(n) for n in names.split()]
    for x, names in (kans or {}).items():
        s.kans[x] = [tuple(take(n) for _ in range(3)) for n in names.split()]
    for x, ms in melds.items():
        s.melds[x] = [(t, tuple(take(n) for n in g.split())) for t, g in ms]
    if table is not None:
        s.table, s.table_seat, s.table_source = take(table), table_seat, table_source
    avoid = {c >> 2 for c in hidden} | ({s.table >> 2} if s.table is not None else set())
    for x in dead:
        if x in melds:
            continue
        # a dead seat without concealed cards (PH-6.6): seven exposed pengs of cards left over,
        # none of a kind still to come, so it has no pao to make
        for _ in range(7):
            k = next(k for k in range(20) if k not in avoid and len(pool[k]) >= 3)
            s.melds[x].append(("peng", tuple(pool[k].pop(0) for _ in range(3))))
    if unseen is None:  # the other seats get their cards first, the stock the rest
        hidden = [c for k in range(20) for c in pool[k]]
        pool = {k: [] for k in range(20)}
        stock = len(hidden) - sum(20 - s.holding(x) for x in range(3) if x != seat and x not in dead)
    s.stock = hidden[:stock]
    rest = hidden[stock:]
    for x in range(3):
        while x != seat and x not in dead and s.holding(x) < 20 and rest:
            s.hands[x].append(rest.pop(0))
    assert not rest, "more unseen cards than room for them"
    left = [c for k in range(20) for c in pool[k]]
    for i, c in enumerate(left):
        s.rows[i % 3].append(c)
    for x in range(3):
        for c in s.hands[x]:
            s.counts[x][c >> 2] += 1
    for x in dead:
        s.dead[x] = True
    s.version = 40
    if table is None:
        s.phase, s.turn = "discard", seat
    else:
        s.phase, s.window, s.turn = "claim", 1, table_seat
        start = table_seat if table_source == "reveal" else (table_seat + 1) % 3
        order = [(start + i) % 3 for i in range(3)]
        asked = order if table_source == "reveal" else [x for x in order if x != table_seat]
        s.eligible = [x for x in asked if compute_options(s, x).any()]
    return s


def _values(view) -> dict:
    return {action_key(o.action): o.value for o in option_values(view, 3, samples=24)}


def test_registered_and_cheap_to_build():
    assert set(BOTS) == {"random", "greedy", "strong"} and BOTS["strong"] is StrongBot
    bot = make_bot("strong", 7)
    assert isinstance(bot, StrongBot) and bot.seed == 7


def test_takes_the_win():
    # 12 huxi exposed; the hand b2 b7 | s10 s10 b10 wins on b10 with 2-7-10 (6): 18 huxi, 2 tun
    s = _position(
        hands={0: "b2 b7 s10 s10 b10"},
        melds={
            0: [
                ("chi", "b1 b2 b3"),
                ("chi", "s1 s2 s3"),
                ("peng", "b5 b5 b5"),
                ("chi", "s4 s5 s6"),
                ("chi", "s7 s8 s9"),
            ]
        },
        unseen=None,
        table="b10",
        table_seat=1,
    )
    view = view_from_state(s, 0)
    assert Win(seat=0, window=1) in view.legal_actions
    assert StrongBot(1).choose(view) == Win(seat=0, window=1)
    vals = _values(view)
    assert vals[("win",)] == 4.0  # certain: nobody ahead of seat 0 in claim order can win this card


def _feeding_position() -> State:
    # seat 1 sits on 24 huxi in exposed wei. Its five concealed cards are five of b7 b8 b10 s4 s5
    # s6; the sixth is the last stock card. Discarding b9 lets it chi b7 b8 b9 or b8 b9 b10 and
    # keep two of s4 s5 s6, which wins when the last card is the third one; s1 is dead (every
    # other s1, s2 and three b1 are in sight), nobody can use it, and the deal is drawn
    return _position(
        hands={0: "s1 b9 s4 s5 s6 b2 b2 b4 b4 s8 s8 s10 s10 b5 s2"},
        melds={
            0: [("peng", "b5 b5 b5"), ("chi", "s2 s7 s10")],
            1: [
                ("wei", "b6 b6 b6"),
                ("wei", "b3 b3 b3"),
                ("wei", "b1 b1 b1"),
                ("wei", "b10 b10 b10"),
                ("chi", "s7 s8 s9"),
            ],
            2: [
                ("wei", "s3 s3 s3"),
                ("chi", "s4 s5 s6"),
                ("chi", "s4 s5 s6"),
                ("chi", "b7 b8 b9"),
                ("chi", "b7 b8 b9"),
                ("chi", "b7 b8 b9"),
                ("chi", "s1 s2 s3"),
            ],
        },
        unseen="s6 b7 b8 b10 s4 s5",
        stock=1,
        dead=(2,),
    )


def test_does_not_feed_the_next_seat_a_chi_that_makes_its_win():
    view = view_from_state(_feeding_position(), 0)
    assert sorted(kind_name(c >> 2) for c in unseen_cards(view)) == ["b10", "b7", "b8", "s4", "s5", "s6"]
    greedy = GreedyBot(0).choose(view)
    assert kind_name(greedy.card >> 2) == "b9"  # the lone card greedy lets go: the next seat's chi
    vals = _values(view)
    assert vals[("discard", kind_from_name("s1"))] == 0.0
    assert vals[("discard", kind_from_name("b9"))] <= -1.0  # seat 1 wins 4 tun about half the time
    for seed in (1, 2):
        card = StrongBot(seed).choose(view).card >> 2
        assert vals[("discard", card)] == 0.0 and kind_name(card) != "b9"


def _bi_position() -> State:
    return _position(
        hands={1: "b1 b2 b3 b4 b7 b10 s4 s6 b6 b7 b8 s10 s10 b10"},
        melds={1: [("peng", "b5 b5 b5"), ("chi", "s7 s8 s9")]},
        unseen="s5",
        stock=1,
        table="b2",
        table_seat=0,
        dead=(0, 2),
        seat=1,
    )


def test_chi_and_bi_choice_that_keeps_the_huxi_for_the_win():
    # b2 is revealed by seat 0 and seat 1 holds a b2 too, so both go into chi groups (bi, PH-6.5).
    # b1 b2 b3 + b2 b7 b10 brings 12 huxi: 15 with the exposed peng b5, and after the b4 discard
    # the hand waits on s5, the last card. b2 b3 b4 + b2 b7 b10 waits on s5 as well, with 9 huxi:
    # no win (PH-8.2). Twice b2 b7 b10 scores 12 at once but breaks b6 b7 b8 and leaves no wait on
    # s5. Passing leaves the hand one group short. Both other seats are dead: s5 decides it all
    view = view_from_state(_bi_position(), 1)
    best = ("chi", (("b1", "b2", "b3"), ("b2", "b7", "b10")))
    lower = ("chi", (("b2", "b3", "b4"), ("b2", "b7", "b10")))
    twice = ("chi", (("b2", "b7", "b10"), ("b2", "b7", "b10")))
    assert _values(view) == {best: 2.0, lower: 0.0, twice: 0.0, ("pass",): 0.0}
    assert action_key(GreedyBot(0).choose(view)) == twice  # the most huxi at once
    for seed in (1, 2):
        assert action_key(StrongBot(seed).choose(view)) == best


def test_no_chou_causing_pass_when_the_kind_comes_again():
    # s5 revealed by seat 0; the last two stock cards are the other s5 copies still unseen. The
    # chi s3 s4 s5 (then the s1 discard) leaves s6 s7 waiting, and the next s5 wins with the 15
    # huxi exposed. A pass marks s5 chou (PH-6.7): the seat may not chi the s5 it reveals next
    # either, and no s5 completes the hand it keeps: a draw
    s = _position(
        hands={1: "s1 s3 s4 s6 s7 b6 b7 b8 s10 s10 b10"},
        melds={1: [("wei", "b10 b10 b10"), ("peng", "b1 b1 b1"), ("chi", "b1 b2 b3")]},
        unseen="s5 s5",
        stock=2,
        table="s5",
        table_seat=0,
        dead=(0, 2),
        seat=1,
    )
    view = view_from_state(s, 1)
    vals = _values(view)
    assert vals[("pass",)] == 0.0
    assert max(vals.values()) == 2.0
    for seed in (1, 2):
        cmd = StrongBot(seed).choose(view)
        assert isinstance(cmd, Chi) and vals[action_key(cmd)] == 2.0


def test_the_race_drops_a_surely_worse_option_at_its_first_check():
    # exact position (module doc): every sampled deal plays the same, so the worse discards are
    # behind on every deal and go at the first check; the best one is left alone, and the race ends
    view = view_from_state(_feeding_position(), 0)
    vals = ranked_values(view, 4)
    exact = _values(view)
    best = max(exact.values())
    for o in vals:
        if exact[action_key(o.action)] < best:
            assert o.samples == ev.MIN_DROP, o
    assert max(o.samples for o in vals) == ev.MIN_DROP  # one class of best discards left: stop


def test_the_race_keeps_close_options_until_it_can_tell_them_apart():
    # an early discard of a real deal: many options, none surely behind after 16 deals; the
    # survivors get the most deals and the bot takes one of them, and the cap on simulator steps
    # ends the race after its first round when set that low
    def races():
        for deal in range(3):
            for s, x in _deal_states(deal):
                view = view_from_state(s, x)
                if s.phase == "discard" and len({action_key(a) for a in view.legal_actions}) >= 4:
                    yield view, ranked_values(view, 9)

    view, vals = next((v, r) for v, r in races() if max(o.samples for o in r) > ev.MIN_DROP)
    most = max(o.samples for o in vals)
    assert min(o.samples for o in vals) < most  # some were surely behind and dropped
    chosen = StrongBot(9).choose(view)
    assert next(o.samples for o in vals if o.action == chosen) == most
    assert ranked_values(view, 9) == vals  # counts only, no clock: the same answer every time
    capped = ranked_values(view, 9, max_moves=1)
    assert {o.samples for o in capped} == {ev.STEP}


def _verdict(view, chosen, vals) -> rv.Decision:
    acts = list(view.legal_actions)
    return rv.judge(5, acts, acts.index(chosen), [(o.value, o.loss_stderr) for o in vals], 0.05, 0.25)


def test_a_review_stops_where_its_verdict_is_sure():
    # exact position (the bi choice above): every option but the best is 2 tun behind on every
    # deal, so after the first deals the review knows both verdicts; they are the full count's
    view = view_from_state(_bi_position(), 1)
    full = option_values(view, 1, samples=256)
    best = next(o.action for o in full if o.value == 2.0)
    passing = next(a for a in view.legal_actions if action_key(a) == ("pass",))
    for chosen in (best, passing):
        vals = ev.review_values(view, 1, chosen, 256)
        assert {o.samples for o in vals} == {ev.REVIEW_FIRST}
        assert _verdict(view, chosen, vals) == _verdict(view, chosen, full)
    assert _verdict(view, passing, vals).verdict == "mistake" and _verdict(view, passing, vals).loss == 2.0
    # a real early discard: the chosen option always has the most deals (it stops last)
    s, seat = next((s, x) for s, x in _deal_states(1) if s.phase == "discard")
    view = view_from_state(s, seat)
    chosen = GreedyBot(0).choose(view)
    vals = ev.review_values(view, 2, chosen, 256)
    assert next(o.samples for o in vals if o.action == chosen) == max(o.samples for o in vals)
    assert ev.review_values(view, 2, chosen, 256) == vals
    # two copies of one card are one option: still valued (one round), and alike
    pair = next(k for k in set(c >> 2 for c in view.hand) if sum(c >> 2 == k for c in view.hand) >= 2)
    copies = [a for a in view.legal_actions if isinstance(a, Discard) and a.card >> 2 == pair][:2]
    one = msgspec.structs.replace(view, legal_actions=copies)
    vals = ev.review_values(one, 2, copies[1], 256)
    assert len(vals) == 2 and vals[0].value == vals[1].value and vals[0].samples == ev.REVIEW_FIRST
    assert {o.samples for o in ranked_values(one, 2)} == {ev.STEP}


# ---- the rollout engine, the sampler and the policy copy ---------------------------------------


def _deal_states(deal: int, seats: tuple[str, str, str] = ("greedy", "greedy", "greedy")):
    """Every state a seeded deal passes through where some seat must act, with that seat."""
    seed = hashlib.sha256(b"strong-test" + deal.to_bytes(4, "big")).digest()
    s = fold(GAME.create(deal_id="d", seats=list(seats), server_seed=seed))
    bots = [make_bot(level, deal * 3 + i) for i, level in enumerate(seats)]
    cmd = StartDeal(seat=0, client_seed="c")
    while True:
        _, s = execute(s, cmd)
        if s.phase == "over":
            return
        seat = seats_to_act(s)[0]
        yield s, seat
        cmd = bots[seat].choose(view_from_state(s, seat))


def _entry(s: State) -> tuple:
    if s.phase == "discard":
        return ("discard", s.turn)
    return ("window", s.table >> 2, REVEAL if s.table_source == "reveal" else DISCARD, s.table_seat)


@pytest.mark.parametrize("deal", range(40))
def test_simulator_plays_greedy_deals_like_the_aggregate(deal):
    first = next(_deal_states(deal))[0]
    s = first
    while s.phase != "over":
        seat = seats_to_act(s)[0]
        assert greedy_command(s, seat) == GreedyBot(0).choose(view_from_state(s, seat))
        _, s = execute(s, greedy_command(s, seat))
    end = s.result
    expected = (end.seat, end.tun) if isinstance(end, DealWon) else (-1, 0)
    assert Sim.from_state(first).run(_entry(first)) == expected


@pytest.mark.parametrize("deal", range(6))
def test_sampled_deals_agree_with_the_view(deal):
    rng = random.Random(deal)
    for s, seat in _deal_states(deal):
        view = view_from_state(s, seat)
        sample = Sampler(view).state(rng)
        assert legal_actions(sample, seat) == view.legal_actions
        assert view_from_state(sample, seat).concealed == view.concealed
        assert sample.stock_left() == view.stock_left
        assert sorted(sample.hands[seat]) == view.hand
        for x in range(3):
            held = [c for c in sample.hands[x]] + [c for k in sample.kans[x] for c in k]
            assert max([sum(1 for c in held if c >> 2 == k) for k in range(20)]) <= 3


def test_option_values_cover_every_legal_action_and_repeat():
    s, seat = next((s, x) for s, x in _deal_states(1) if s.phase == "discard")
    view = view_from_state(s, seat)
    a = option_values(view, 11, samples=16)
    b = option_values(view, 11, samples=16)
    assert a == b
    assert [o.action for o in a] == view.legal_actions
    best = max(o.value for o in a)
    for o in a:
        assert math.isfinite(o.value) and o.stderr >= 0 and o.samples == 16
        assert all(p.value == o.value for p in a if action_key(p.action) == action_key(o.action))
        assert o.loss == pytest.approx(best - o.value) and o.loss_stderr >= 0


def test_same_view_and_seed_same_move():
    for s, seat in list(_deal_states(2))[:12]:
        view = view_from_state(s, seat)
        twice = msgspec.json.decode(msgspec.json.encode(view), type=type(view))
        assert StrongBot(5).choose(view) == StrongBot(5).choose(twice)


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
    return t


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, 10_000), step=st.integers(0, 60), shuffle=st.integers(0, 2**32 - 1))
def test_choice_is_legal_and_ignores_hidden_cards(deal, step, shuffle):
    states = list(_deal_states(deal, ("greedy", "strong", "greedy")))
    s, seat = states[min(step, len(states) - 1)]
    view = view_from_state(s, seat)
    moved = _shuffle_hidden(s, seat, random.Random(shuffle))
    assert moved.hands != s.hands or moved.stock != s.stock or not moved.stock[moved.stock_pos :]
    other = view_from_state(moved, seat)
    assert other == view  # nothing of the other hands or the stock shows in the seat's view
    cmd = StrongBot(deal).choose(view)
    assert cmd in view.legal_actions
    assert StrongBot(deal).choose(other) == cmd


def _keep_scores_as_described(c: list[int]) -> list[int]:
    """The keep score as its docstring states it, pattern by pattern (the reference)."""
    from domain.paohuzi.cards import CHI_WITH, chi_huxi
    from domain.paohuzi.wins import PARTNERS

    sc = [0] * 20
    for k in range(20):
        if not c[k]:
            continue
        v = 5 if c[k] >= 2 else 0
        for a, b, d in CHI_WITH[k]:
            if a == b or b == d:
                twice = a if a == b else b
                if c[twice] >= 2 and c[a] and c[d]:
                    v += 3
            elif c[a] and c[b] and c[d]:
                v += 3 + chi_huxi((a, b, d))
        v += sum(1 for j in PARTNERS[k] if c[j])
        sc[k] = v
    return sc


def test_keep_scores_are_one_function_and_as_described():
    from domain.paohuzi import basic_bots
    from domain.paohuzi.strong import policy

    assert policy.keep_scores is basic_bots.keep_scores  # the rollouts score with the greedy bot's function
    rng = random.Random(3)
    for _ in range(3000):
        c = [0] * 20
        for card in rng.sample(range(80), rng.randint(1, 21)):
            c[card >> 2] = min(2, c[card >> 2] + 1)
        assert basic_bots.keep_scores(c) == _keep_scores_as_described(c)


def test_the_rollouts_use_the_rules_own_chi_search():
    """One chi search (PH-3.1, PH-6.5) for the rules and the strong bot's simulator."""
    from domain.paohuzi.strong.sim import chi_options

    assert chi_options is chi_choices


def test_the_rollouts_close_windows_with_the_rules_own_resolver(monkeypatch):
    """One claim resolver (PH-6.4) for the engine and the simulator: every window of a rollout
    is decided by ``domain.claims.resolve`` (that it decides them as the engine does is
    ``test_simulator_plays_greedy_deals_like_the_aggregate``)."""
    import domain.claims
    from domain.paohuzi.strong import sim

    assert sim.resolve is domain.claims.resolve
    first = next(_deal_states(3))[0]
    calls = []

    def nobody_takes(order, answered, pending):
        calls.append(1)
        return domain.claims.Verdict(True, None, 0)

    monkeypatch.setattr(sim, "resolve", nobody_takes)
    Sim.from_state(first).run(_entry(first))
    assert calls  # the rollout's windows asked the resolver
