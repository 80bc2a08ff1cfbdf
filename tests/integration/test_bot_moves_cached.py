"""A bot's move is decided on the fold this process holds and lands only at the version it was
decided on (issue 46): no read of the store per move, and a fold another process's append left
behind costs a refused append and one read, never a move made on a state the bot did not see.

``DealService`` objects over one key prefix of the real Redis are service processes' worth of
fold caches and bot runners (as in ``test_bot_supervisor.py``)."""

from __future__ import annotations

import pytest

from service.app.bots.runner import BotRunner, bot_seed
from service.app.commands.deals import DealService
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import wait_for

pytestmark = pytest.mark.redis
SEATS = {"mcr": 4, "paohuzi": 3}


async def _service(url: str, prefix: str, delay: float = 0.0) -> DealService:
    return DealService(EventStore(connect(url), prefix), bots=BotRunner(delay))


def _moves_at_their_versions(records) -> list[tuple[str, int]]:
    """Each bot move's command id and the version its batch starts at (a move decided at
    version v is ``bot:<seat>:v`` and must start at v + 1; every record of a batch names it)."""
    starts, before = [], None
    for r in records:
        if r.command_id != before and (r.command_id or "").startswith("bot:"):
            starts.append((r.command_id, r.version))
        before = r.command_id
    return starts


@pytest.mark.parametrize("game", sorted(SEATS))
async def test_a_whole_deal_of_bots_reads_nothing_back_per_move(real_redis_url, key_prefix, game):
    service = await _service(real_redis_url, key_prefix)
    try:
        deal_id = (await service.create(game, ["bot:greedy"] * SEATS[game], f"cached-{game}")).deal_id

        async def over() -> bool:
            folded = service.folds.cached(deal_id)
            return folded is not None and folded.over

        await wait_for(over, timeout=300)
        moves = _moves_at_their_versions(await service.store.read(deal_id))
        assert len(moves) >= 10
        assert service.bots.loads == 0  # every move on the fold the process holds
        for command_id, version in moves:
            assert int(command_id.rsplit(":", 1)[1]) == version - 1, (command_id, version)
    finally:
        await service.bots.close()
        await drop_prefix(service.store.redis, key_prefix)


async def test_a_fold_left_behind_costs_one_read_and_no_move_on_a_stale_state(real_redis_url, key_prefix):
    driving = await _service(real_redis_url, key_prefix, 600.0)  # bots wait: the test steps them
    behind = await _service(real_redis_url, key_prefix, 600.0)
    try:
        deal_id = (await driving.create("mcr", ["bot:greedy"] * 4, "cached-behind")).deal_id
        for task in (*driving.bots._tasks.values(), *behind.bots._tasks.values()):
            task.cancel()
        held = (await behind.folds.load(deal_id)).version  # cached there, as a stream would leave it
        # the other process moves the deal on, first with another move than the bot's at ``held``
        folded = await driving.folds.load(deal_id)
        seat = folded.kit.game.seats_to_act(folded.state)[0]
        view = folded.kit.projections.view_from_state(folded.state, seat)
        greedy = folded.kit.make_bot("greedy", bot_seed(deal_id, seat, held)).choose(view)
        other = next(c for c in folded.kit.game.legal_actions(folded.state, seat) if c != greedy)
        await driving.execute(deal_id, seat, other, command_id="another-move", kick=False)
        for _ in range(2):
            assert await driving.bots._step(deal_id)
        moved = (await driving.folds.load(deal_id)).version
        assert moved > held and behind.folds.cached(deal_id).version == held

        assert await behind.bots._step(deal_id)  # decided on its old fold: refused, then read
        assert behind.bots.loads == 1
        assert behind.folds.cached(deal_id).version == moved  # the read brought it up to date
        assert (await driving.folds.load(deal_id)).version == moved  # nothing was appended

        assert await behind.bots._step(deal_id)  # now it moves, at the store's version
        assert behind.bots.loads == 1
        records = await behind.store.read(deal_id)
        assert records[-1].version > moved
        for command_id, version in _moves_at_their_versions(records):
            assert int(command_id.rsplit(":", 1)[1]) == version - 1, (command_id, version)
    finally:
        for service in (driving, behind):
            await service.bots.close()
        await drop_prefix(driving.store.redis, key_prefix)


async def test_a_fold_left_behind_where_the_same_move_was_made_appends_it_once(real_redis_url, key_prefix):
    """Two processes' bots decide the same move at the same version (same seed, same command
    id): the second is the first's duplicate, and its fold comes up to date with it."""
    driving = await _service(real_redis_url, key_prefix, 600.0)
    behind = await _service(real_redis_url, key_prefix, 600.0)
    try:
        deal_id = (await driving.create("paohuzi", ["bot:greedy"] * 3, "cached-same")).deal_id
        for task in (*driving.bots._tasks.values(), *behind.bots._tasks.values()):
            task.cancel()
        held = (await behind.folds.load(deal_id)).version
        for _ in range(3):
            assert await driving.bots._step(deal_id)
        moved = (await driving.folds.load(deal_id)).version
        assert await behind.bots._step(deal_id)
        assert behind.folds.cached(deal_id).version == moved > held
        assert (await driving.folds.load(deal_id)).version == moved  # appended once, by the first
    finally:
        for service in (driving, behind):
            await service.bots.close()
        await drop_prefix(driving.store.redis, key_prefix)
