"""A stream that lags behind the fold gets the state at its batch's version folded forward from the
nearest state the fold keeps, equal to folding the deal from its first event, and never changed
afterwards by anyone."""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest

from domain.selfplay import play_deal
from service.app.games import kit
from service.app.state.folds import PAST_STATES, Folded, Folds

SEATS = {"paohuzi": 3, "mcr": 4}


def _deal(game: str) -> Folded:
    k = kit(game)
    bots = [k.make_bot("greedy", s) for s in range(SEATS[game])]
    seed = hashlib.sha256(f"forward-{game}".encode()).digest()
    events, _ = play_deal(k.game, k.projections.view_from_state, bots, deal_id="d", server_seed=seed)
    return Folded(k, k.game.fold(events), version=len(events), events=list(events))


def _seen(folded: Folded, state) -> list[bytes]:
    """The state as every seat and a spectator see it (what a stream part is made of)."""
    view = folded.kit.projections.view_from_state
    return [msgspec.json.encode(view(state, seat)) for seat in [None, *range(SEATS[folded.kit.name])]]


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
def test_states_folded_forward_equal_the_fold_from_the_first_event(game):
    folded = _deal(game)
    game_ = folded.kit.game
    rng = random.Random(game)
    versions = sorted(rng.sample(range(1, folded.version), 12)) + rng.sample(range(1, folded.version), 12)
    handed = []
    for version in versions:
        state = Folds.state_at(folded, version)
        assert _seen(folded, state) == _seen(folded, game_.fold(folded.events[:version]))
        assert len(folded.past) <= PAST_STATES
        handed.append((version, state, _seen(folded, state)))
    # what was handed out stayed as it was while later states were folded forward from it
    for _version, state, seen in handed:
        assert _seen(folded, state) == seen
    # the fold's own state at its version is handed out as it is, and the fold evolves a copy now
    assert Folds.state_at(folded, folded.version) is folded.state and folded.state_shared
