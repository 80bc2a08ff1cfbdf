"""The MCR review's rollouts (issue 24): the hidden tiles dealt again consistently with the
seat's view, the deal played on by the engine, and the options valued on paired deals."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from domain.mcr import GAME
from domain.mcr.basic_bots import GreedyBot
from domain.mcr.bots import make_bot
from domain.mcr.messages import Discard
from domain.mcr.strong.bot import option_values
from domain.mcr.strong.rollout import play_out, seeded_policy
from domain.mcr.strong.sample import Sampler, seen_tiles
from domain.mcr.tiles import DECK_SIZE
from domain.selfplay import play_deal
from projections.mcr import review, view_from_state

from .conftest import Table


def _positions(seed: bytes, levels=("strong", "random", "greedy", "greedy")):
    """(state, seat) of every decision with two options or more in one bot deal."""
    out = []

    def hook(step):
        if step.view is not None and len(step.view.legal_actions) >= 2:
            out.append((step.before, step.seat))

    bots = [make_bot(level, i) for i, level in enumerate(levels)]
    play_deal(GAME, view_from_state, bots, deal_id="r", server_seed=seed, on_step=hook)
    return out


@pytest.fixture(scope="module")
def positions():
    return _positions(hashlib.sha256(b"review-rollouts").digest())


def _tiles(s) -> Counter:
    c = Counter()
    for p in range(4):
        c.update(s.hands[p])
        c.update(s.flowers[p])
        c.update(s.discards[p])
        for m in s.melds[p]:
            c.update(m.tiles)
    c.update(s.wall[s.front : s.back])
    return c


def test_a_dealt_state_shows_the_seat_exactly_what_it_saw(positions):
    kinds = set()
    for state, seat in positions:
        view = view_from_state(state, seat)
        sampler = Sampler(view)
        kinds.add(view.phase)
        for i in range(3):
            s = sampler.state(random.Random(i))
            assert view_from_state(s, seat) == view  # hand, sets, discards, counts, legal actions
            assert _tiles(s) == Counter(range(DECK_SIZE))  # every tile once
            seen = seen_tiles(view)
            hidden = [t for p in range(4) if p != seat for t in s.hands[p]] + s.wall[s.front : s.back]
            assert not seen & set(hidden)  # nothing the seat saw is dealt again
    assert kinds == {"turn", "claim"}


def test_the_engine_plays_a_dealt_state_to_its_end(positions):
    state, seat = positions[len(positions) // 2]
    view = view_from_state(state, seat)
    sampler = Sampler(view)
    policy = seeded_policy(GreedyBot, 3)
    for i in range(4):
        for action in view.legal_actions[:3]:
            value, moves = play_out(sampler.state(random.Random(i)), seat, action, policy(i), view_from_state)
            assert moves >= 1
            assert isinstance(value, int)


def test_the_evaluator_is_deterministic_and_its_noise_is_not_zero(positions):
    state, seat = next((s, p) for s, p in positions if s.phase == "turn" and p == 1)
    view = view_from_state(state, seat)
    chosen = view.legal_actions[0]
    a = review.evaluate(view, 11, chosen, samples=16)
    b = review.evaluate(view, 11, chosen, samples=16)
    assert a == b
    assert [x[0] for x in a] == list(view.legal_actions)
    assert all(noise > 0 for _a, _v, noise in a)  # sampled or modelled, never exact


def test_breaking_a_ready_hand_is_worth_less_than_a_safe_discard():
    # the dealer holds a Pure Straight ready on T1/T4 once it lets the Red Dragon go; the W5
    # breaks the straight
    hand = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T2", "T3", "B5", "B5", "J1"]
    t = Table({0: hand})
    view = view_from_state(t.state, 0)
    good = Discard(seat=0, tile=t.tile(0, "J1"))
    bad = Discard(seat=0, tile=t.tile(0, "W5"))
    assert good in view.legal_actions and bad in view.legal_actions
    scored = {repr(a): (v, n) for a, v, n in review.evaluate(view, 5, bad, samples=32)}
    (v_good, n_good), (v_bad, n_bad) = scored[repr(good)], scored[repr(bad)]
    assert v_good > v_bad
    assert n_good > 0 and n_bad > 0
    assert n_bad != review.MODEL_NOISE  # the model sees the loss, so the options are played out


def test_a_decision_the_model_sees_no_loss_in_is_not_played_out(positions):
    # method m5: the model's best play chosen, the evaluation is the model's values with its noise
    state, seat = next((s, p) for s, p in positions if s.phase == "turn")
    view = view_from_state(state, seat)
    model = option_values(view, 3)
    best = max(model, key=lambda o: o.value).action
    scored = review.evaluate(view, 3, best)
    assert [(a, v) for a, v, _n in scored] == [(o.action, o.value) for o in model]
    assert {n for _a, _v, n in scored} == {review.MODEL_NOISE}


def test_an_unseen_tile_id_is_never_one_the_seat_holds():
    t = Table({0: ["W1", "W2", "W3", "T5", "T5", "T5", "B7", "B8", "B9", "F1", "F1", "J2", "J2", "J3"]})
    view = view_from_state(t.state, 1)
    s = Sampler(view).state(random.Random(0))
    assert set(s.hands[1]) == set(view.hand)
    # seat 0's tiles are hidden from seat 1: they are dealt again from the unseen pool
    assert len(s.hands[0]) == 14
    assert not set(s.hands[0]) & set(view.hand)
