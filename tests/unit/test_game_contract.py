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


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_speaks_the_shared_vocabulary(game):
    """The claim window is one shape for every game (domain.game), a game's answer extends the
    shared one, and ``piece_field`` names the field its one-piece commands and events use."""
    import msgspec

    from domain import game as contract

    g = kit(game).game
    events = {cls.__name__: cls for cls in getattr(g.event_type, "__args__", ())}
    assert events["ClaimWindowOpened"] is contract.ClaimWindowOpened
    assert events["ClaimWindowResolved"] is contract.ClaimWindowResolved
    assert issubclass(events["ClaimAnswered"], contract.ClaimAnswer)
    commands = {cls.__name__: cls for cls in getattr(g.command_type, "__args__", ())}
    discard_fields = [f.encode_name for f in msgspec.structs.fields(commands["Discard"])]
    assert discard_fields == ["seat", g.piece_field]
    assert all(isinstance(x, str) and x for x in (g.name, g.ruleset, g.piece_field))
