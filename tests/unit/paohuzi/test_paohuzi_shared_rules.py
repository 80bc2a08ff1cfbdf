"""The claim rules exist once (``options``) and the rollout simulator reads them from there."""

from __future__ import annotations

from domain.paohuzi import options
from domain.paohuzi.strong import sim


def test_simulator_uses_the_rules_priority_table() -> None:
    assert sim.LEVEL is options.LEVEL
    answers = (sim.WIN, sim.PAO_A, sim.PENG_A, sim.CHI_A, sim.PASS)
    assert [options.LEVEL[a] for a in answers] == [3, 2, 2, 1, 0]


def test_claim_rights_by_place() -> None:
    # (pao onto a kan, onto a wei, onto a peng, peng, chi) -- PH-6.1 to PH-6.5
    assert options.claim_rights(0, 0, reveal=True) == (False, True, True, False, True)  # own reveal
    assert options.claim_rights(1, 0, reveal=True) == (True, True, True, True, True)  # next seat
    assert options.claim_rights(2, 0, reveal=True) == (True, True, True, True, False)
    assert options.claim_rights(1, 0, reveal=False) == (True, True, False, True, True)  # after a discard
    assert options.claim_rights(2, 0, reveal=False) == (True, True, False, True, False)


def test_asked_in_claim_order() -> None:
    assert options.ASKED[True][1] == (1, 2, 0)
    assert options.ASKED[False][1] == (2, 0)  # the discarder is not asked (PH-6.3)


def test_after_meld_steps() -> None:
    assert options.step_after_meld(False, 21, 0, 3) == "discard"
    assert options.step_after_meld(False, 21, 0, 0) == "dead"  # PH-6.6
    assert options.step_after_meld(False, 21, 2, 0) == "reveal"  # target 21 with two fours
    assert options.step_after_meld(True, 25, 0, 3) == "reveal"
