"""The fold cache keeps every live deal and only the most recently used finished ones."""

from __future__ import annotations

import hashlib

from domain.selfplay import play_deal
from service.app.games import kit
from service.app.state.folds import Folded, Folds


def _folded(over: bool, i: int) -> Folded:
    k = kit("paohuzi")
    bots = [k.make_bot("greedy", s) for s in range(3)]
    seed = hashlib.sha256(f"folds-{i}".encode()).digest()
    events, _ = play_deal(k.game, k.projections.view_from_state, bots, deal_id=f"d{i}", server_seed=seed)
    events = events if over else events[:5]
    state = k.game.initial_state()
    for e in events:
        state = k.game.evolve(state, e)
    folded = Folded(k, state, version=len(events), events=list(events))
    assert folded.over is over
    return folded


def test_finished_folds_are_bounded_apart_from_the_live_ones():
    folds = Folds(store=None, cache_size=4, finished_size=2)  # type: ignore[arg-type]  # no loads here
    live = {f"live{i}": _folded(False, i) for i in range(4)}
    done = {f"done{i}": _folded(True, 10 + i) for i in range(3)}
    for deal_id, folded in live.items():
        folds.remember(deal_id, folded)
    for deal_id, folded in done.items():
        folds.remember(deal_id, folded)
    # three finished deals did not push a single live one out; the oldest finished one went
    assert all(folds.cached(d) is f for d, f in live.items())
    assert folds.cached("done0") is None
    assert folds.cached("done1") is done["done1"] and folds.cached("done2") is done["done2"]
    # a live deal that ends moves over: the live side no longer counts it
    ending = live["live0"]
    ending_done = _folded(True, 20)
    ending.state, ending.events, ending.version = ending_done.state, ending_done.events, ending_done.version
    folds.remember("live0", ending)
    assert folds.cached("live0") is ending
    assert folds.cached("done1") is None  # the finished side holds two: live0 and done2
    assert sorted(folds.deal_ids()) == ["done2", "live0", "live1", "live2", "live3"]
