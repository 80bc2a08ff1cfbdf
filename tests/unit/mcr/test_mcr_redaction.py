"""MC-5.2: a seat's claim options are its own. What another seat (or a spectator) sees of an open
claim window must not depend on who else may claim, nor on how many may."""

from __future__ import annotations

from domain.mcr.messages import ClaimWindowOpened
from projections.mcr import redact_event


def test_MC_5_2_an_open_window_shows_no_one_how_many_others_may_claim() -> None:
    one = ClaimWindowOpened(window=3, card=40, source_seat=0, source="discard", eligible=[2])
    three = ClaimWindowOpened(window=3, card=40, source_seat=0, source="discard", eligible=[1, 2, 3])
    for viewer in (None, 0):  # a spectator, and the discarder (never eligible)
        assert redact_event(one, viewer) == redact_event(three, viewer)
    # an eligible seat sees itself only, whoever else may claim
    assert redact_event(one, 2) == redact_event(three, 2)
    assert redact_event(three, 2)["eligible"] == [2]
