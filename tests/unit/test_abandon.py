"""TB-2.7 in both games, on logs built here with chosen record times: an untimed deal left alone
for its idle limit ends as abandoned (nobody pays, the seed revealed), before or after the deal,
and the audit proves it from the log, finding at its version one recorded too early, one naming
another time or limit, and one in a deal that has a clock."""

from __future__ import annotations

import pytest

from domain import mcr, paohuzi
from domain.errors import RuleViolation
from domain.game import SeedRevealed, StartDeal
from domain.table.clock import IDLE_LIMIT_S, Abandon, ClockSettings, DealAbandoned
from domain.table.seating import TABLE_RULES
from projections import mcr as mcr_views
from projections import paohuzi as paohuzi_views
from projections.mcr.summary import deal_summary as mcr_summary
from projections.paohuzi.summary import deal_summary as paohuzi_summary
from service.app.reads.audit import audit_log
from tests.unit.test_clock_audit import T0, _records

HOUR_MS = IDLE_LIMIT_S * 1000
GAMES = {
    "paohuzi": (paohuzi.GAME, paohuzi_views, ["human", "bot:greedy", "bot:greedy"], paohuzi_summary),
    "mcr": (mcr.GAME, mcr_views, ["human", "bot:greedy", "bot:greedy", "bot:greedy"], mcr_summary),
}


def _deal(game: str, started: bool, clock: ClockSettings | None = None, idle_limit_s: int | None = None):
    engine, _views, seats, _summary = GAMES[game]
    created = engine.create(
        deal_id="idle",
        seats=seats,
        server_seed=bytes(range(32)),
        fixed_dealer=0,
        table=TABLE_RULES,
        clock=clock,
        idle_limit_s=idle_limit_s,
    )
    batches = [(created, None, "create", T0)]
    state = engine.fold(created)
    if started:
        start = StartDeal(seat=0, client_seed="c")
        dealt, state = engine.execute(state, start)
        batches.append((dealt, start, "seat0:start", T0 + 1000))
    return batches, state


def _abandon(game: str, state, since: int, at: int, idle_ms: int = HOUR_MS):
    command = Abandon(since, idle_ms)
    events, after = GAMES[game][0].execute(state, command)
    return (events, command, "abandon:x", at), after


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("started", [False, True])
def test_an_idle_deal_ends_as_abandoned_and_the_audit_proves_it(game, started):
    batches, state = _deal(game, started)
    since = batches[-1][3]
    batch, after = _abandon(game, state, since, since + HOUR_MS + 5)
    events = batch[0]
    assert [type(e) for e in events] == [DealAbandoned, SeedRevealed]
    assert GAMES[game][0].is_over(after)
    # the result says so, and nobody pays
    view = GAMES[game][1].view_from_state(after, 0)
    result = view.result
    if game == "paohuzi":
        assert result.outcome == "abandoned" and result.rule_id == "TB-2.7" and result.payments == [0, 0, 0]
    else:
        assert result.abandoned is True and result.win is None
    outcome = GAMES[game][3](after)
    assert outcome.payments == [0] * len(GAMES[game][2]) and outcome.winner is None
    report = audit_log(_records([*batches, batch]))
    assert report.ok and report.clocks_ok is True and report.finished, report.problems
    # nothing more can happen to an abandoned deal
    with pytest.raises(RuleViolation) as refused:
        GAMES[game][0].execute(after, Abandon(since, HOUR_MS))
    assert refused.value.rule_id == "DS-6"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_abandonment_the_log_does_not_bear_out_is_found_at_its_version(game):
    batches, state = _deal(game, True)
    since = batches[-1][3]
    version = len(_records(batches)) + 1
    early, _ = _abandon(game, state, since, since + HOUR_MS - 1)
    other_time, _ = _abandon(game, state, since - 500, since + HOUR_MS + 5)
    other_limit, _ = _abandon(game, state, since, since + HOUR_MS + 5, idle_ms=60_000)
    for batch in (early, other_time, other_limit):
        report = audit_log(_records([*batches, batch]))
        assert ("clock", version) in [(p.check, p.version) for p in report.problems], report.problems
        assert report.clocks_ok is False and not report.ok


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_deal_with_a_clock_is_never_abandoned_and_a_recorded_limit_holds(game):
    clock = ClockSettings(move_s=20, claim_s=10, bank_s=0)
    batches, state = _deal(game, True, clock=clock)
    since = batches[-1][3]
    batch, _ = _abandon(game, state, since, since + HOUR_MS + 5)
    report = audit_log(_records([*batches, batch]))
    assert report.clocks_ok is False and any("clock" in p.detail for p in report.problems)
    # a --dev deal's shorter limit is in its first event, and the audit reads it from there
    batches, state = _deal(game, True, idle_limit_s=3)
    since = batches[-1][3]
    batch, _ = _abandon(game, state, since, since + 3005, idle_ms=3000)
    assert audit_log(_records([*batches, batch])).ok
