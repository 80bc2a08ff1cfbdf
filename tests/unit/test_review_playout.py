"""The MCR evaluator's ``play_out_all`` (``bench.review_playout``): a decision the model alone
would value is played out instead; without it nothing changes."""

from __future__ import annotations

import hashlib

import msgspec

from domain.mcr.strong.bot import option_values
from domain.selfplay import play_stored
from projections import review as rv
from projections.mcr import review as mr
from service.app.games import kit


def test_a_decision_the_model_alone_would_value_is_played_out_when_asked():
    k = kit("mcr")
    bots = [k.make_bot(level, i) for i, level in enumerate(["greedy"] * 4)]
    records, events = play_stored(k.game, k.projections.view_from_state, bots, deal_id="p",
                                  server_seed=hashlib.sha256(b"playout").digest())  # fmt: skip
    points = rv.points(k.game, k.projections.view_from_state, records, events, 0, k.review.same_play)
    for point in points:
        view = msgspec.json.decode(point.view, type=k.view_type)
        plays = {mr.same_play(a) for a in view.legal_actions}
        if len(plays) < 2 or any(mr._is_win(a) for a in view.legal_actions):
            continue
        # the model's own best play: by method m5 valued by the model alone
        values = option_values(view, 7)
        chosen = max(zip(view.legal_actions, values, strict=True), key=lambda x: x[1].value)[0]
        alone = mr.evaluate(view, 7, chosen)
        assert {noise for _a, _v, noise in alone} == {mr.MODEL_NOISE}
        played = mr.evaluate(view, 7, chosen, samples=2, play_out_all=True)
        at = view.legal_actions.index(chosen)
        assert played[at][2] != mr.MODEL_NOISE  # measured, with the noise of its paired gap
        assert [a for a, _v, _n in played] == list(view.legal_actions)
        return
    raise AssertionError("no decision between two plays in this deal")
