"""Table rules 2 (TB-1.4, TB-2.7, TB-2.8) on logs built here with chosen record times: a clocked
table not dealt within its start limit is abandoned and the audit proves it; a bot takes a joined
seat that never started, only once the start clock ran, and deals when nobody else is waited
for; a table/1 log keeps its old meaning; a stale command is told from the clock fold alone."""

from __future__ import annotations

import pytest

from domain import mcr, paohuzi
from domain.errors import RuleViolation
from domain.game import SeedRevealed, StartDeal
from domain.table.absence import away_seat
from domain.table.clock import Abandon, ClockSettings, ClockTrack, DealAbandoned
from domain.table.seating import (
    START_LIMIT_S,
    TABLE_RULES,
    FillSeat,
    JoinSeat,
    SeatFilled,
    SeatReady,
    start_limit_ms,
)
from service.app.reads.audit import audit_log
from tests.unit.test_clock_audit import T0, _records

CLOCK = ClockSettings(move_s=20, claim_s=10, bank_s=60)
GAMES = {
    "paohuzi": (paohuzi.GAME, ["human", "open", "bot:greedy"]),
    "mcr": (mcr.GAME, ["human", "open", "bot:greedy", "bot:greedy"]),
}
LIMIT_MS = START_LIMIT_S * 1000


def _seated(game: str, table: str = TABLE_RULES, start: bool = True):
    """The creator at seat 0 with a clock; a person joins seat 1 at T0 + 1 s (the last open
    seat), and (``start``) the creator sends StartDeal at T0 + 2 s; the joiner never does."""
    engine, seats = GAMES[game]
    created = engine.create(
        deal_id="ghost", seats=seats, server_seed=bytes(range(32)), fixed_dealer=0, table=table, clock=CLOCK
    )
    state = engine.fold(created)
    join = JoinSeat(1, "Bo", "d" * 64, True)
    joined, state = engine.execute(state, join)
    batches = [(created, None, "create", T0), (joined, join, "join:1:x", T0 + 1000)]
    if start:
        begin = StartDeal(seat=0, client_seed="ana")
        ready, state = engine.execute(state, begin)
        assert [type(e) for e in ready] == [SeatReady]
        batches.append((ready, begin, "seat0:start", T0 + 2000))
    return batches, state


def _problems(batches) -> list[tuple[str, int]]:
    return [(p.check, p.version) for p in audit_log(_records(batches)).problems if p.check != "finished"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_clocked_table_not_dealt_in_time_is_abandoned_and_proved(game):
    batches, state = _seated(game)
    engine = GAMES[game][0]
    command = Abandon(T0 + 1000, LIMIT_MS)
    events, after = engine.execute(state, command)
    assert [type(e) for e in events] == [DealAbandoned, SeedRevealed] and engine.is_over(after)
    honest = (events, command, "abandon:3", T0 + 1000 + LIMIT_MS)
    report = audit_log(_records([*batches, honest]))
    assert report.ok and report.clocks_ok is True, report.problems
    # too early, from another record's time, with another limit: each found at its version
    for since, limit, at in (
        (T0 + 1000, LIMIT_MS, T0 + LIMIT_MS),
        (T0 + 2000, LIMIT_MS, T0 + 3000 + LIMIT_MS),
        (T0 + 1000, 60_000, T0 + 1000 + LIMIT_MS),
    ):
        command = Abandon(since, limit)
        events, _ = engine.execute(state, command)
        assert ("clock", 4) in _problems([*batches, (events, command, "abandon:3", at)])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_table_1_log_keeps_its_meaning(game):
    """Before table/2 a clocked deal was never abandoned and a taken seat never given a bot."""
    batches, state = _seated(game, table="table/1")
    engine = GAMES[game][0]
    assert start_limit_ms(batches[0][0][0]) is None
    command = Abandon(T0 + 1000, LIMIT_MS)
    events, _ = engine.execute(state, command)
    assert ("clock", 4) in _problems([*batches, (events, command, "abandon:3", T0 + 2 * LIMIT_MS)])
    with pytest.raises(RuleViolation) as refused:
        engine.execute(state, FillSeat(1, "bot:greedy"))
    assert refused.value.rule_id == "DS-18"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_takes_a_joined_seat_that_never_started_and_the_deal_is_dealt(game):
    batches, state = _seated(game)
    engine = GAMES[game][0]
    fill = FillSeat(1, "bot:greedy")
    events, after = engine.execute(state, fill)
    assert type(events[0]) is SeatFilled and type(events[1]).__name__ == "DealStarted"
    assert events[1].client_seed == "ana" and not events[1].client_seeds  # one person left (TB-3.1)
    seating = after.seating
    assert seating.kinds[1] == "bot:greedy" and seating.names[1] is None and seating.token_digests[1] == ""
    move_ms = round(CLOCK.move_s * 1000)
    on_time = (events, fill, "seat0:fill:1:bot:greedy", T0 + 1000 + move_ms)
    assert _problems([*batches, on_time]) == []
    early = (events, fill, "seat0:fill:1:bot:greedy", T0 + 1000 + move_ms - 1)
    assert ("clock", 4) in _problems([*batches, early])
    # a seat whose person started is never replaced, nor the creator's own
    batches, state = _seated(game, start=False)
    begin = StartDeal(seat=1, client_seed="bo")
    ready, state = engine.execute(state, begin)
    for seat in (0, 1):
        with pytest.raises(RuleViolation) as refused:
            engine.execute(state, FillSeat(seat, "bot:greedy"))
        assert refused.value.rule_id == "DS-18"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_replaced_seat_waits_for_the_others_who_have_not_started(game):
    batches, state = _seated(game, start=False)
    engine = GAMES[game][0]
    events, after = engine.execute(state, FillSeat(1, "bot:greedy"))
    assert [type(e) for e in events] == [SeatFilled] and after.phase == "new"


def test_the_clock_fold_tells_a_stale_command():
    """TB-2.8: a seat asked anew, or acted for, after the version a command was decided on."""
    track = ClockTrack(CLOCK, 4)
    track.step(T0, {0: "move"}, version=5)
    assert not track.answered_since(0, 5) and track.answered_since(0, 4)
    track.step(T0 + 100, {0: "move", 1: "claim"}, version=6)  # another seat asked: not stale
    assert not track.answered_since(0, 5)
    track.step(T0 + 200, {}, expired=0, version=7)  # the table moved for seat 0
    track.step(T0 + 300, {0: "claim"}, version=9)
    assert track.answered_since(0, 6) and track.answered_since(0, 8) and not track.answered_since(0, 9)
    track.acted_for(2, 12)  # the away bot moved for seat 2 (TB-2.6)
    assert track.answered_since(2, 11) and not track.answered_since(2, 12)
    assert away_seat("away:2:12") == 2 and away_seat("seat2:m1") is None and away_seat(None) is None
