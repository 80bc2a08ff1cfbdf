"""Each game's projections package satisfies ``domain.game.Projections``, as its kit uses it."""

from __future__ import annotations

import inspect

import pytest

from domain.game import GAMES, Projections
from service.app.games import kit

MEMBERS = [name for name in vars(Projections) if not name.startswith("_")]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_projections_of_every_game_satisfy_the_protocol(game):
    projections = kit(game).projections
    assert isinstance(projections, Projections)
    for name in MEMBERS:
        wanted = len(inspect.signature(getattr(Projections, name)).parameters) - 1  # without self
        given = inspect.signature(getattr(projections, name)).parameters.values()
        required = [p for p in given if p.default is inspect.Parameter.empty]
        assert len(required) == wanted, f"{game}: {name}{inspect.signature(getattr(projections, name))}"


def test_the_protocol_lists_what_the_service_reads():
    read = ["claim_audit", "dealer_of", "full_view", "public_turn", "redact_event", "seat_view"]
    assert sorted(MEMBERS) == sorted([*read, "view_from_state"])
