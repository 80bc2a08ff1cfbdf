"""Faults under load: a service process killed with SIGKILL and started again, Redis killed and
restarted (AOF, appendfsync always), Redis unreachable for a while (503 problem+json, then recovery;
``/health`` says 503 while the store is unreachable and 200 again after).

In each case the scripted clients keep playing and retry every failed request with the same
``command_id``; afterwards every acknowledged command is in its deal's log exactly once at the
versions acknowledged, a retry of an acknowledged command answers ``duplicate`` and appends
nothing, no answer was a 5xx other than 503 DS-12, and every deal's audit passes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time

import aiohttp
import pytest

from tests.reliability.harness import PROBLEM, Players, ServiceProcess, TcpProxy, check_log

FULL = os.environ.get("DEALSTREAM_FULL_LOAD") == "1"
TABLES = 50 if FULL else 16  # deals at once, half MCR, half Paohuzi
KILL_AFTER = 120  # acknowledged client commands before the fault


async def _services(url: str, prefix: str, n: int = 2) -> list[ServiceProcess]:
    services = [ServiceProcess(url, prefix).start() for _ in range(n)]
    for s in services:
        await s.ready()
    return services


async def _health_becomes(session: aiohttp.ClientSession, base: str, status: int, within: float) -> None:
    """``/health`` answers ``status`` within ``within`` seconds (503 is a DS-12 problem)."""
    deadline = time.monotonic() + within
    while True:
        async with session.get(base + "/health") as resp:
            body = await resp.json(content_type=None)
            if resp.status == status:
                if status == 503:
                    assert resp.content_type == PROBLEM and body["rule"] == "DS-12", body
                return
        assert time.monotonic() < deadline, (base, resp.status, body)
        await asyncio.sleep(0.1)


def _assert_only_503_problems(players: Players) -> None:
    assert not players.stats.bad_5xx, players.stats.bad_5xx[:5]
    for problem in players.stats.problems_503:
        assert problem["content_type"] == PROBLEM, problem
        assert problem["body"]["rule"] == "DS-12" and problem["body"]["status"] == 503, problem
    assert not players.stats.unexpected_4xx, players.stats.unexpected_4xx[:5]


@pytest.mark.timeout(180)
async def test_kill_9_one_service_process_mid_load_and_start_it_again(own_redis, own_store, prefix):
    services = await _services(own_redis.url, prefix)
    victim = services[0]
    try:
        async with Players([s.base for s in services], seed=11, retry_s=60) as players:
            run = asyncio.create_task(players.run(tables=TABLES))
            await players.wait_acked(KILL_AFTER)
            victim.kill(signal.SIGKILL)
            acked_at_kill = players.acked
            await asyncio.sleep(0.5)  # clients meet a dead port and go on through the other process
            restarted = ServiceProcess(own_redis.url, prefix, port=victim.port).start()
            services.append(restarted)
            await restarted.ready()
            await asyncio.wait_for(run, 150)
            assert players.acked > acked_at_kill + 50, "the load went on after the kill"
            assert any(k.startswith("conn:") for k in players.stats.statuses), players.stats.statuses
            _assert_only_503_problems(players)
            checked = await check_log(own_store, players)
            assert checked["deals"] == TABLES
            # the restarted process serves the deals the killed one was serving
            async with aiohttp.ClientSession() as session:
                for deal in players.deals[:4]:
                    async with session.get(f"{restarted.base}/deals/{deal.deal_id}/audit") as resp:
                        assert resp.status == 200 and (await resp.json())["ok"]
    finally:
        for s in services:
            s.cleanup()


@pytest.mark.timeout(180)
async def test_redis_killed_and_restarted_mid_load_loses_no_acknowledged_command(
    own_redis, own_store, prefix
):
    services = await _services(own_redis.url, prefix)
    try:
        async with Players([s.base for s in services], seed=12, retry_s=60) as players:
            run = asyncio.create_task(players.run(tables=TABLES))
            await players.wait_acked(KILL_AFTER)
            own_redis.kill(signal.SIGKILL)  # no shutdown: only what the AOF fsynced survives
            acked_at_kill = list(players.acks)
            await asyncio.sleep(1.0)
            own_redis.start()  # same port, same directory: replays the append-only file
            await asyncio.wait_for(run, 150)
            assert players.acked > len(acked_at_kill) + 50, "the load went on after the restart"
            outage = players.stats.problems_503 or any(k.startswith("conn:") for k in players.stats.statuses)
            assert outage, "no client saw the outage"
            _assert_only_503_problems(players)
            checked = await check_log(own_store, players)
            assert checked["deals"] == TABLES
    finally:
        for s in services:
            s.cleanup()


@pytest.mark.timeout(180)
async def test_redis_unreachable_for_a_while_answers_503_problem_then_recovers(own_redis, own_store, prefix):
    proxy = await TcpProxy(own_redis.port).start()
    services = await _services(proxy.url, prefix)
    try:
        async with Players([s.base for s in services], seed=13, retry_s=60) as players:
            run = asyncio.create_task(players.run(tables=TABLES))
            await players.wait_acked(KILL_AFTER)
            await proxy.cut()
            cut_at = time.monotonic()
            # while Redis is unreachable every endpoint that needs it answers 503 DS-12, fast
            deal = players.deals[0]
            token = deal.tokens[min(deal.tokens)]
            probes = [
                ("GET", f"/deals/{deal.deal_id}/view", token, None),
                ("GET", f"/deals/{deal.deal_id}", None, None),
                ("POST", f"/deals/{deal.deal_id}/commands", token, {"command_id": "probe", "command": {}}),
                ("POST", "/deals", None, {"game": "mcr", "seats": ["bot:greedy"] * 4}),
                ("GET", f"/deals/{deal.deal_id}/audit", None, None),
            ]
            async with aiohttp.ClientSession() as session:
                for service in services:
                    for method, path, tok, body in probes:
                        headers = {"Authorization": f"Bearer {tok}"} if tok else {}
                        started = time.monotonic()
                        async with session.request(
                            method, service.base + path, json=body, headers=headers
                        ) as resp:
                            problem = await resp.json(content_type=None)
                            if path.endswith("/commands"):  # may be refused before Redis is asked
                                assert resp.status == 503 or 400 <= resp.status < 500, problem
                                continue
                            assert resp.status == 503, (method, path, resp.status, problem)
                            assert resp.content_type == PROBLEM
                            assert problem["rule"] == "DS-12" and problem["status"] == 503
                            assert time.monotonic() - started < 10
                    # the process answers, and says the store is unreachable
                    await _health_becomes(session, service.base, 503, within=8)
            await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - cut_at)))
            acked_in_outage = players.acked
            await proxy.start()
            async with aiohttp.ClientSession() as session:
                for service in services:
                    await _health_becomes(session, service.base, 200, within=8)
            await asyncio.wait_for(run, 150)
            assert players.acked > acked_in_outage + 50, "the service recovered"
            assert players.stats.problems_503, "the clients saw 503s during the outage"
            _assert_only_503_problems(players)
            checked = await check_log(own_store, players)
            assert checked["deals"] == TABLES
            # nothing was created or appended by the probes
            assert len(players.deals) == TABLES
    finally:
        for s in services:
            s.cleanup()
        await proxy.close()


@pytest.mark.timeout(240)
async def test_redis_stalled_by_sigstop_answers_503_after_the_timeout_then_recovers(
    own_redis, own_store, prefix
):
    """A Redis that stops answering (SIGSTOP: connections open, no replies) costs a request the
    ``--redis-timeout``, then 503 DS-12; commands queued in the stalled server run when it resumes,
    and the clients' retries with the same command ids find them there (no duplicate)."""
    timeout_s = 11.0
    services = [
        ServiceProcess(own_redis.url, prefix, "--redis-timeout", str(timeout_s)).start() for _ in range(2)
    ]
    try:
        for s in services:
            await s.ready()
        async with Players([s.base for s in services], seed=14, retry_s=120) as players:
            run = asyncio.create_task(players.run(tables=TABLES))
            await players.wait_acked(KILL_AFTER)
            own_redis.process.send_signal(signal.SIGSTOP)
            stopped = time.monotonic()
            try:
                deal = players.deals[0]
                async with aiohttp.ClientSession() as session:
                    async with session.get(f"{services[1].base}/deals/{deal.deal_id}/audit") as resp:
                        waited = time.monotonic() - stopped
                        problem = await resp.json(content_type=None)
                        assert resp.status == 503 and resp.content_type == PROBLEM, problem
                        assert problem["rule"] == "DS-12"
                        assert timeout_s - 1 <= waited <= timeout_s + 8, waited
                    await _health_becomes(session, services[1].base, 503, within=8)
                acked_in_stall = players.acked
                await asyncio.sleep(max(0.0, timeout_s + 3 - (time.monotonic() - stopped)))
            finally:
                own_redis.process.send_signal(signal.SIGCONT)
            await asyncio.wait_for(run, 180)
            assert players.acked > acked_in_stall + 50, "the service recovered"
            assert players.stats.problems_503, "the clients saw 503s during the stall"
            _assert_only_503_problems(players)
            checked = await check_log(own_store, players)
            assert checked["deals"] == TABLES
    finally:
        for s in services:
            s.cleanup()


def test_a_redis_timeout_under_half_a_second_is_refused():
    import subprocess
    import sys

    from tests.reliability.harness import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", "--redis-timeout", "0.1", "--redis", "redis://127.0.0.1:1/0"],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "--redis-timeout" in done.stderr
