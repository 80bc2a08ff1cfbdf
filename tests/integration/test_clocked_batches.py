"""A clocked deal's batch is evolved once: by the command's execution, which shows the clock each
state on the way; the clock that steps through it so equals the clock a fresh fold of the stored
log arrives at (whole deals of both games, with the table's expiries and away seats in them)."""

from __future__ import annotations

import asyncio

import pytest

from domain.table.clock import Expire
from service.app.commands.deals import DealService
from service.app.games import kit
from service.app.state.folds import Folds
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix

pytestmark = pytest.mark.redis
SEATS = {"paohuzi": 3, "mcr": 4}
CLOCK = {"move_s": 600, "claim_s": 600, "bank_s": 60}  # nothing runs out while the test plays


@pytest.fixture
async def deals(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    service = DealService(EventStore(client, key_prefix), dev=True)
    yield service
    await service.close()
    await drop_prefix(client, key_prefix)
    await client.aclose()


class Counting:
    """Counts the game's own ``evolve`` and ``copy_state`` calls (what a second evolution of a
    batch goes through; an execution applies its events inside the engine)."""

    def __init__(self, game, monkeypatch) -> None:
        self.evolves = self.copies = 0
        evolve, copy_state = game.evolve, game.copy_state

        def counted_evolve(state, event):
            self.evolves += 1
            return evolve(state, event)

        def counted_copy(state):
            self.copies += 1
            return copy_state(state)

        monkeypatch.setattr(game, "evolve", counted_evolve)
        monkeypatch.setattr(game, "copy_state", counted_copy)


def _track(clock) -> tuple:
    return (
        dict(clock.waits),
        clock.bank_ms,
        clock.last_expired,
        clock.last_ms,
        set(clock._expiring),
        clock.seated_ms,
        clock.acted_at,
    )


async def _play_one(deals, game: str, rules, counting) -> tuple[list[int], int]:
    """One clocked deal of people to its end: each seat's first legal action, and every seventh
    move the table's expiry for the seat it waits on (twice in a row: the seat goes away, and the
    table plays for it). Checks the stepped clock against a fresh fold. (batch sizes, expiries)"""
    seats = SEATS[game]
    created = await deals.create(game, ["human"] * seats, clock=CLOCK, dealer=0)
    deal_id = created.deal_id
    folded = await deals.load(deal_id)
    assert folded.clock is not None
    batches: list[int] = []
    expiries = 0
    for seat in range(seats):
        if deals.cached(deal_id).started:
            break
        outcome = await deals.execute(deal_id, seat, {"type": "StartDeal", "client_seed": f"s{seat}"},
                                      command_id=f"start{seat}")  # fmt: skip
        batches.append(outcome.last_version - outcome.first_version + 1)
    idle = move = 0
    while move < 2000:
        folded = deals.cached(deal_id)
        assert folded is not None
        if folded.over:
            break
        waiting = sorted(folded.clock.waits)
        if not waiting:  # only away seats to act: the table is playing for them in the background
            idle += 1
            assert idle < 6000, "nobody acted for an away seat within a minute"
            await asyncio.sleep(0.01)
            continue
        seat = waiting[0]
        if move % 7 == 3:  # the table plays for the seat (twice in a row: then it is away)
            due = folded.clock.deadline(seat)
            command = Expire(seat, due.final_ms, folded.clock.waits[seat].wait,
                             away=folded.clock.last_expired[seat])  # fmt: skip
            outcome = await deals.execute(deal_id, None, command, command_id=f"clock:{folded.version}:{seat}",
                                          expected_version=folded.version)  # fmt: skip
            expiries += 1
        else:
            action = rules.legal_actions(folded.state, seat)[0]
            outcome = await deals.execute(deal_id, seat, action, command_id=f"m{move}")
        move += 1
        batches.append(outcome.last_version - outcome.first_version + 1)
    folded = deals.cached(deal_id)
    assert folded is not None and folded.over
    counted = (counting.evolves, counting.copies)
    counting.evolves = counting.copies = 0
    fresh = await Folds(deals.store).load(deal_id)
    assert counting.evolves > 0  # the fresh fold evolves: the count sees the game's calls
    counting.evolves = counting.copies = 0
    assert counted == (0, 0)  # nothing evolved a second time
    assert fresh.version == folded.version
    assert _track(fresh.clock) == _track(folded.clock)
    return batches, expiries


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
async def test_a_clocked_batch_is_evolved_once_and_its_clock_equals_the_fold(deals, game, monkeypatch):
    rules = kit(game).game
    counting = Counting(rules, monkeypatch)
    batches: list[int] = []
    expiries = 0
    # deals are dealt from random seeds: play until the deals seen hold batches of several events
    # and the table's expiries (a short deal alone may have neither)
    for _deal in range(12):
        more, expired = await _play_one(deals, game, rules, counting)
        batches += more
        expiries += expired
        if max(batches) > 2 and expiries > 3:
            break
    assert max(batches) > 2 and expiries > 3  # batches of several events, the table's among them
