"""Bots never stall the service: searching bots think in worker processes; a worker that dies or
overruns its budget costs the seat nothing but the search (it plays the greedy move) and the
deal goes on, its audit green."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from dataclasses import replace

import pytest

from service import bootstrap
from service.store.connection import connect
from tests.conftest import drop_prefix

pytestmark = pytest.mark.redis


async def _finish(http, deal_id: str, timeout: float = 120.0) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        summary = await (await http.get(f"/deals/{deal_id}")).json()
        if summary["over"]:
            return summary
        await asyncio.sleep(0.05)
    raise AssertionError("the deal did not finish")


@pytest.fixture
async def served(aiohttp_client, real_redis_url, key_prefix):
    client = connect(real_redis_url)
    made = []

    async def make(**settings):
        app = bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=key_prefix, **settings))
        http = await aiohttp_client(app)
        http.deals = app[bootstrap.DEALS]
        made.append(http)
        return http

    yield make
    for http in made:
        await http.close()
    await drop_prefix(client, key_prefix)
    await client.aclose()


@pytest.mark.timeout(240)
async def test_a_worker_killed_mid_deal_costs_a_greedy_move_and_the_deal_goes_on(served):
    http = await served(bot_workers=1, bot_budget=30.0)
    pool = http.deals.bots.pool
    created = await (await http.post("/deals", json={"game": "paohuzi", "seats": ["bot:strong"] * 3})).json()
    deal_id = created["deal_id"]
    for _ in range(600):  # the pool starts its worker with the first search
        if pool.worker_pids():
            break
        await asyncio.sleep(0.05)
    killed = pool.worker_pids()
    assert killed, "no worker process was started for the strong bots"
    os.kill(killed[0], signal.SIGKILL)
    await _finish(http, deal_id)
    assert pool.fallbacks >= 1
    assert killed[0] not in pool.worker_pids()  # a fresh pool took over
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"], audit["problems"]


@pytest.mark.timeout(240)
async def test_a_bot_over_its_budget_plays_the_greedy_move(served):
    http = await served(bot_workers=1, bot_budget=0.0001)
    created = await (await http.post("/deals", json={"game": "mcr", "seats": ["bot:strong"] * 4})).json()
    await _finish(http, created["deal_id"])
    pool = http.deals.bots.pool
    # nearly every search overran (however short the deal: a quick win leaves only a few)
    assert pool.decisions >= 4 and pool.fallbacks >= 0.9 * pool.decisions, (pool.decisions, pool.fallbacks)
    audit = await (await http.get(f"/deals/{created['deal_id']}/audit")).json()
    assert audit["ok"], audit["problems"]


@pytest.mark.timeout(120)
async def test_the_event_loop_answers_while_strong_bots_think(served):
    """A request made while a table of strong bots plays is answered at once: the searches run
    in the worker, not on the loop (health answers many times while one deal is played)."""
    http = await served(bot_workers=1, bot_budget=30.0)
    created = await (await http.post("/deals", json={"game": "mcr", "seats": ["bot:strong"] * 4})).json()
    answered = 0
    while not (await (await http.get(f"/deals/{created['deal_id']}")).json())["over"]:
        assert (await http.get("/health")).status == 200
        answered += 1
        await asyncio.sleep(0.01)
    assert answered >= 5  # even a deal won in a few moves takes many 10 ms rounds


@pytest.mark.timeout(120)
async def test_a_search_over_its_budget_costs_no_worker_and_no_other_search(served):
    """An overrun is the machine being busy, not a stuck worker: the seat plays greedy, but the
    workers stay (respawning them under load would make every next search overrun too), and a
    search asked meanwhile still gets its answer."""
    http = await served(bot_workers=1, bot_budget=30.0)
    pool = http.deals.bots.pool
    created = await (await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})).json()
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "overrun"}}
    headers = {"Authorization": f"Bearer {created['tokens']['0']}"}
    assert (
        await http.post(f"/deals/{created['deal_id']}/commands", json=start, headers=headers)
    ).status == 200
    folded = await http.deals.folds.load(created["deal_id"])
    seat = folded.kit.game.seats_to_act(folded.state)[0]
    view = folded.kit.projections.view_from_state(folded.state, seat)
    first = await pool.choose("mcr", "strong", 1, view)
    workers = pool.worker_pids()
    assert workers
    pool.budget = 0.000001
    with pytest.raises(TimeoutError):
        await pool.choose("mcr", "strong", 2, view)
    pool.budget = 30.0
    again, other = await asyncio.gather(
        pool.choose("mcr", "strong", 1, view), pool.choose("mcr", "strong", 3, view)
    )
    assert again == first  # the same view and seed, the same move
    assert other
    assert pool.worker_pids() == workers  # the overrunning search kept its worker


def _children(pid: int) -> set[int]:
    found = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found |= {int(p) for p in f.read().split()}
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.timeout(120)
async def test_bot_workers_die_with_a_service_killed_by_sigkill(real_redis_url, key_prefix):
    """A service that dies however it dies leaves no searching worker behind (they would hold
    memory and a core for good)."""
    import aiohttp

    from tests.reliability.harness import ServiceProcess

    service = ServiceProcess(real_redis_url, key_prefix).start()
    try:
        await service.ready()
        async with aiohttp.ClientSession() as session:
            body = {"game": "mcr", "seats": ["bot:strong"] * 4}
            async with session.post(service.base + "/deals", json=body) as resp:
                assert resp.status == 201
        workers: set[int] = set()
        for _ in range(600):
            workers = {
                p for p in _children(service.process.pid) if "spawn_main" in open(f"/proc/{p}/cmdline").read()
            }
            if workers:
                break
            await asyncio.sleep(0.05)
        assert workers, "no bot worker was started"
        service.kill(signal.SIGKILL)
        # a worker still importing arms its signal late and then finds its parent gone: on a
        # loaded machine that takes seconds, so the bound is generous (a leak never ends)
        deadline = time.monotonic() + 60
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not any(_alive(p) for p in workers), "a bot worker outlived its service"
    finally:
        service.cleanup()
        client = connect(real_redis_url)
        await drop_prefix(client, key_prefix)
        await client.aclose()
