"""TN-3.6: the gate reads a finished duplicate board whose round still plays elsewhere as the
deal stood just before it ended: no other seat's hand, no wall, no seed, for any viewer, in a
view, a replay frame, a stream's events or the audit; a board of a round that is over, or a deal
that is no board, reads as any finished deal."""

from __future__ import annotations

import hashlib
import json

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.selfplay import play_deal
from service.app import visibility
from service.app.games import kit
from service.app.reads import gate
from service.app.state.folds import Folded
from service.app.viewer import NOBODY, Viewer

SEATS = {"paohuzi": 3, "mcr": 4}


def _finished(game: str) -> Folded:
    k = kit(game)
    bots = [k.make_bot("greedy", s) for s in range(SEATS[game])]
    seed = hashlib.sha256(f"sealed-{game}".encode()).digest()
    events, _ = play_deal(k.game, k.projections.view_from_state, bots, deal_id="d", server_seed=seed)
    return Folded(k, k.game.fold(events), version=len(events), events=list(events))


def test_only_a_finished_board_of_a_round_still_played_is_sealed():
    folded = _finished("mcr")
    assert visibility.sealed(folded.over, False)
    assert not visibility.sealed(folded.over, True) and not visibility.sealed(folded.over, None)
    live = Folded(folded.kit, folded.kit.game.fold(folded.events[:20]), 20, folded.events[:20])
    assert not visibility.sealed(live.over, False)  # a live deal is kept by the live rules already
    with pytest.raises(RuleViolation) as refused:
        gate.may_open_board(True)
    assert refused.value.rule_id == "DS-47"
    gate.may_open_board(False)


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
def test_a_sealed_board_shows_no_hidden_card_to_anyone(game):
    folded = _finished(game)
    sealed = visibility.sealed_fold(folded)
    assert not sealed.over and sealed.version < folded.version
    seed = folded.events[0].server_seed
    for viewer in [NOBODY, *(Viewer.of_seat(s) for s in range(SEATS[game]))]:
        shown = msgspec.to_builtins(visibility.sealed_view(sealed, viewer))
        assert shown["result"] is None and shown["legal_actions"] == [] and shown["prompt"] is None
        if viewer.seat is None:
            assert not shown["hand"]
        pairs = list(enumerate(folded.events, 1))
        events = gate.sealed_stream_events(sealed, pairs, viewer)
        assert [v for v, _ in events][-1] == folded.version  # the end is told, by kind and seat
        assert all(e.get("hidden") for v, e in events if v > sealed.version)
        text = json.dumps([shown, events])
        assert seed not in text and '"fixed_deck": [' not in text
    with pytest.raises(RuleViolation):  # a spectator replays nothing of a live deal
        gate.replay_frame(sealed, NOBODY, None, "all")
    frame = gate.replay_frame(sealed, Viewer.of_seat(0), None, None)
    assert frame.total == sealed.version and seed not in json.dumps(msgspec.to_builtins(frame))
