"""The seating rules both games share (TB-1.1 to TB-1.4, TB-3.1), on the pure domain: the same
commands give the same events in Paohuzi and MCR, and a log from before the table rules is
decided exactly as it always was."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.game import StartDeal
from domain.mcr import GAME as MCR
from domain.paohuzi import GAME as PAOHUZI
from domain.table.seating import TABLE_RULES, FillSeat, JoinSeat, Seating, SeatReady, start_plan
from domain.table.seeds import combine_people_seeds

SERVER_SEED = bytes(range(32))
GAMES = [pytest.param(PAOHUZI, id="paohuzi"), pytest.param(MCR, id="mcr")]


def _table(game, seats, table=TABLE_RULES):
    events = game.create(deal_id="t", seats=seats, server_seed=SERVER_SEED, table=table)
    return events, game.fold(events)


def _do(game, events, state, command):
    new, state = game.execute(state, command)
    return events + new, state, new


def _seats(game, first, *rest):
    return [first, *rest, *["bot:greedy"] * (game.seat_count - 1 - len(rest))]


def _refused(rule, call, *args):
    with pytest.raises(RuleViolation) as info:
        call(*args)
    assert info.value.rule_id == rule, info.value
    return info.value.message


@pytest.mark.parametrize("game", GAMES)
def test_two_people_deal_from_both_seeds_in_seat_order(game):
    events, state = _table(game, _seats(game, "human", "open"))
    events, state, new = _do(game, events, state, JoinSeat(1, "Bo", "d" * 64, True))
    assert [type(e).__name__ for e in new] == ["SeatJoined"]
    assert state.seating.kinds[:2] == ("human", "human") and state.seating.parties == 2
    # the joined seat starts first: its seed waits, and the creator's StartDeal deals
    events, state, new = _do(game, events, state, StartDeal(seat=1, client_seed="bo"))
    assert new == [SeatReady(1, "bo")]
    assert game.legal_actions(state, 1) == [] and game.legal_actions(state, 0) == [StartDeal(seat=0)]
    _refused("DS-2", game.execute, state, StartDeal(seat=1, client_seed="again"))
    events, state, new = _do(game, events, state, StartDeal(seat=0, client_seed="ana"))
    started = next(e for e in new if type(e).__name__ == "DealStarted")
    assert started.client_seeds == ["ana", "bo"] and started.client_seed == ""
    # folding the log gives the state deciding gave
    assert msgspec.json.encode(game.fold(events).seating) == msgspec.json.encode(state.seating)


@pytest.mark.parametrize("game", GAMES)
def test_the_seed_of_several_people_is_the_hash_of_each_seed_hashed(game):
    want = hashlib.sha256(SERVER_SEED + hashlib.sha256(b"a").digest() + hashlib.sha256(b"b").digest())
    assert combine_people_seeds(SERVER_SEED, ["a", "b"]) == want.digest()
    # one seed: exactly the old derivation, so old logs derive unchanged
    assert combine_people_seeds(SERVER_SEED, ["a"]) == hashlib.sha256(SERVER_SEED + b"a").digest()


@pytest.mark.parametrize("game", GAMES)
def test_nobody_starts_while_a_seat_is_open_and_a_filled_seat_is_a_bot(game):
    events, state = _table(game, _seats(game, "human", "open"))
    assert game.legal_actions(state, 0) == []
    _refused("TB-1.4", game.execute, state, StartDeal(seat=0, client_seed="a"))
    events, state, new = _do(game, events, state, FillSeat(1, "bot:random"))
    assert state.seating.kinds[1] == "bot:random" and state.seating.parties == 1
    _refused("DS-18", game.execute, state, FillSeat(1, "bot:greedy"))
    _refused("DS-18", game.execute, state, JoinSeat(1, "Bo", "d" * 64, True))
    _refused("DS-3", game.execute, state, JoinSeat(9, "Bo", "d" * 64, True))
    # one person left: its StartDeal deals with its one seed, as before the table rules
    events, state, new = _do(game, events, state, StartDeal(seat=0, client_seed="solo"))
    started = next(e for e in new if type(e).__name__ == "DealStarted")
    assert started.client_seed == "solo" and started.client_seeds is None
    assert b"client_seeds" not in msgspec.json.encode(started)


@pytest.mark.parametrize("game", GAMES)
def test_the_creators_seats_are_one_person_with_one_seed(game):
    """The creator may hold several seats' tokens (one person at several seats): one StartDeal
    from any of them deals for all of them, and the deal is dealt as before."""
    events, state = _table(game, _seats(game, "human", "human"))
    assert state.seating.parties == 1
    events, state, new = _do(game, events, state, StartDeal(seat=1, client_seed="x"))
    assert any(type(e).__name__ == "DealStarted" for e in new)


@pytest.mark.parametrize("game", GAMES)
def test_a_log_from_before_the_table_rules_starts_at_its_first_start_deal(game):
    events, state = _table(game, _seats(game, "human", "human"), table=None)
    assert not state.seating.every_person_starts
    assert start_plan(state.seating, StartDeal(seat=0, client_seed="x")) is None
    created = msgspec.json.encode(events[0])
    assert b'"table"' not in created  # the old record's shape: no field at its default


def test_a_person_names_its_own_seat_once_and_only_before_the_deal():
    events, state = _table(PAOHUZI, ["human", "open", "bot:greedy"])
    events, state, new = _do(PAOHUZI, events, state, JoinSeat(0, "Ana", "", False))
    assert state.seating.names[0] == "Ana" and state.seating.kinds[0] == "human"
    _refused("DS-18", PAOHUZI.execute, state, JoinSeat(0, "Ann", "", False))


def test_seating_is_immutable_so_a_state_copy_shares_it():
    seating = Seating.of(["human", "open", "open"], TABLE_RULES)
    assert seating.open_seats == [1, 2] and seating.waiting == []
    with pytest.raises(AttributeError):
        seating.kinds = ()  # type: ignore[misc]
