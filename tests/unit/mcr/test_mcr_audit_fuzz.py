"""Claim audit, tampering, and fuzzed commands: legal ones apply, every other one is a rule id."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.game import StartDeal
from domain.mcr import GAME
from domain.mcr.messages import (
    AddedKong,
    Claim,
    ClaimWindowResolved,
    ConcealedKong,
    DeclareWin,
    Discard,
    Pass,
)
from projections.mcr import claim_audit, public_view, seat_view
from projections.mcr.selfplay import play_deal

T19 = [f"T{i}" for i in range(1, 10)]
B19 = [f"B{i}" for i in range(1, 10)]
HEAD = {
    0: ["W5", "W1", "W9", "T1", "F2", "F3", "J2", "J3", "W2", "T2", "F4", "J1", "T9", "B1"],
    1: [*T19, "W3", "W4", "B5", "B5"],
    2: ["W1", "W9", "F2", "F3", "F4", "J1", "J2", "J3", "W8", "B2", "B8", "T3", "B6"],
    3: [*B19, "W6", "W7", "F1", "F1"],
}


def test_claim_audit_head_bump_and_tampering(table):
    t = table(HEAD)
    w = t.discard(0, "W5")[-1].window
    t.do(Claim(seat=3, window=w, claim="win"))
    t.do(Claim(seat=1, window=w, claim="win"))
    audit = claim_audit(t.events)
    assert len(audit) == 1
    a = audit[0]
    assert a["source"] == "discard" and a["source_seat"] == 0 and a["kind"] == a["card"] >> 2
    assert {o["claim"] for o in a["options"]["1"][1:]} == {"win", "chow"}
    assert [x["seat"] for x in a["answers"]] == [3, 1]
    assert a["resolution"]["seat"] == 1 and a["resolution"]["rule_id"] == "MC-3.2"
    assert a["expected"] == {"seat": 1, "claim": "win"} and a["consistent"]
    # a log that gave the tile to the farther seat is flagged
    forged = [
        ClaimWindowResolved(window=e.window, seat=3, claim="win", rule_id=e.rule_id)
        if isinstance(e, ClaimWindowResolved)
        else e
        for e in t.events
    ]
    assert not claim_audit(forged)[0]["consistent"]


def test_fixed_deck_without_dealer_takes_the_seeded_dealer():
    from domain.shuffle import combine_seeds, dealer_and_deck

    deck = list(range(144))
    events = GAME.create(deal_id="f", seats=["h"] * 4, server_seed=b"z" * 32, fixed_deck=deck)
    state = GAME.fold(events)
    new = GAME.decide(state, StartDeal(seat=0, client_seed="q"))
    assert new[0].dealer == dealer_and_deck(combine_seeds(b"z" * 32, "q"), 144, 4)[0]
    assert new[1].tiles == deck[:14]


def test_spectator_view_has_no_hand():
    events, _ = play_deal(b"\x03" * 32)
    mid = events[: len(events) // 2]
    v = seat_view(mid, None)
    assert public_view(mid) == v
    assert v.hand == [] and v.drawn is None and v.legal_actions == []
    assert sum(p.hand_count for p in v.seats) > 0


def _states():
    """Snapshots of one greedy deal at every decide boundary (a mix of turn and claim states)."""
    events, _ = play_deal(b"\x09" * 32)
    snaps = []
    for i in range(2, len(events), 7):
        s = GAME.fold(events[:i])
        if s.phase in ("turn", "claim"):
            snaps.append(s)
    return snaps


SNAPS = _states()
commands = st.one_of(
    st.builds(Discard, seat=st.integers(-1, 4), tile=st.integers(-2, 145)),
    st.builds(DeclareWin, seat=st.integers(0, 3)),
    st.builds(
        ConcealedKong, seat=st.integers(0, 3), tiles=st.lists(st.integers(0, 143), min_size=0, max_size=5)
    ),
    st.builds(AddedKong, seat=st.integers(0, 3), tile=st.integers(0, 143)),
    st.builds(
        Claim,
        seat=st.integers(0, 3),
        window=st.integers(0, 40),
        claim=st.sampled_from(["win", "kong", "pung", "chow"]),
        tiles=st.lists(st.integers(0, 143), max_size=3),
    ),
    st.builds(Pass, seat=st.integers(0, 3), window=st.integers(0, 40)),
    st.builds(StartDeal, seat=st.integers(0, 3)),
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(index=st.integers(0, len(SNAPS) - 1), cmd=commands)
def test_fuzzed_commands_apply_only_if_legal(index, cmd):
    s = SNAPS[index]
    before = msgspec.json.encode(s)
    legal = 0 <= cmd.seat < 4 and cmd in GAME.legal_actions(s, cmd.seat)
    if legal:
        assert GAME.decide(s, cmd)
    else:
        with pytest.raises(RuleViolation) as err:
            GAME.decide(s, cmd)
        rule = err.value.rule_id
        assert rule.startswith("MC-") or rule in {"DS-2", "DS-3", "DS-6"}
    assert msgspec.json.encode(s) == before


def test_every_listed_action_is_accepted():
    for s in SNAPS:
        for seat in range(4):
            for cmd in GAME.legal_actions(s, seat):
                assert GAME.decide(s, cmd), cmd
