"""On a real Redis Cluster (3 masters, 3 replicas on loopback): the leak test, the load test with
two service processes, live streams, and a master killed with ``kill -9`` mid-load.

Commands are acknowledged only once a replica confirmed them (``WAIT 1``), so the failover of a
master loses none; while the killed master's slots have no replica (until it is back, as a
replica of its successor) their writes are answered 503 and the clients retry with the same
command id.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import replace

import pytest
import redis

import tests.reliability.test_leaks as leaks
from service import bootstrap
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.cluster import Cluster
from tests.conftest import drop_prefix
from tests.reliability.harness import Players, ServiceProcess, SseClient, check_log

pytestmark = pytest.mark.redis
FULL = os.environ.get("DEALSTREAM_FULL_LOAD") == "1"


@pytest.fixture
async def cluster_app(aiohttp_client, cluster, key_prefix):
    client = connect(cluster.url)
    await client.ping()
    app = bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=key_prefix))
    http = await aiohttp_client(app)
    yield http
    await http.close()
    await drop_prefix(client, key_prefix)
    await client.aclose()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
async def test_no_route_shows_anyone_a_hidden_card_on_a_cluster(cluster_app, game):
    # the server half of the seed is random, so a deal may end in a few moves: play deals until
    # the routes were probed mid-deal at least five times in all (a short deal probes less)
    probes = 0
    for i in range(4):
        played = await leaks.play_deal(cluster_app, game, seed=7000 + 10 * i + len(game))
        counted = leaks.check_deal(game, played)
        assert counted.get("sse:deal-over") == leaks.SEATS[game] + 1
        probes += played["probes"]
        if probes >= 5:
            break
    assert probes >= 5


@pytest.mark.timeout(240)
async def test_two_service_processes_play_on_a_cluster_and_lose_nothing(cluster, key_prefix):
    services = [ServiceProcess(cluster.url, key_prefix).start() for _ in range(2)]
    client = connect(cluster.url)
    try:
        for s in services:
            await s.ready()
        async with Players([s.base for s in services], seed=21, retry_s=60) as players:
            await asyncio.wait_for(players.run(tables=12 if FULL else 6), 180)
            assert not players.stats.bad_5xx, players.stats.bad_5xx[:5]
            checked = await check_log(EventStore(client, key_prefix), players)
            assert checked["deals"] == (12 if FULL else 6)
    finally:
        for s in services:
            s.cleanup()
        await drop_prefix(client, key_prefix)
        await client.aclose()


@pytest.mark.timeout(300)
async def test_kill_9_of_the_master_of_a_live_deal_loses_no_acknowledged_command(tmp_path, key_prefix):
    cluster = Cluster(tmp_path / "cluster").start()
    services = [ServiceProcess(cluster.url, key_prefix, "--redis-timeout", "5").start() for _ in range(2)]
    client = connect(cluster.url)
    try:
        for s in services:
            await s.ready()
        async with Players([s.base for s in services], seed=31, retry_s=90) as players:
            run = asyncio.create_task(players.run(tables=8))
            await players.wait_acked(40)
            victim = players.deals[0]
            stream = await SseClient(
                services[0].port,
                f"/deals/{victim.deal_id}/events/stream",
                {"Authorization": f"Bearer {victim.tokens[min(victim.tokens)]}"},
            ).open()
            key = f"{key_prefix}:{{{victim.deal_id}}}:events"
            master = cluster.master_of(key)
            acked_before = players.acked
            cluster.kill(master)
            killed_at = time.monotonic()
            # the replica takes over within the node timeout; the killed node then comes back
            # as a replica of its successor, so the slot's writes are replicated again
            deadline = time.monotonic() + 60  # a state, not a time: a loaded machine elects late
            while await asyncio.to_thread(cluster.master_of, key) == master:
                assert time.monotonic() < deadline, "no replica took over"
                await asyncio.sleep(0.2)
            cluster.restart(master)
            await asyncio.to_thread(cluster.wait_ok, 60)
            await asyncio.wait_for(run, 200)
            assert players.acked > acked_before + 20, "play went on after the failover"
            assert time.monotonic() - killed_at < 200
            assert not players.stats.bad_5xx, (players.stats.bad_5xx[:5], tracebacks(services))
            for problem in players.stats.problems_503:
                assert problem["body"]["rule"] == "DS-12", problem
            checked = await check_log(EventStore(client, key_prefix), players)
            assert checked["deals"] == 8
            # the stream opened before the kill delivered every event its seat may see, once, in order
            assert await stream.wait_for(lambda c: bool(c.events("deal-over")), 30)
            seat = min(victim.tokens)
            records = await EventStore(client, key_prefix).read(victim.deal_id)
            from service.app.games import kit

            k = kit(victim.game)
            wanted = [
                r.version
                for r in records
                if k.projections.redact_event(k.decode_event(r.data), seat) is not None
            ]
            assert stream.versions() == wanted
            stream.close()
    finally:
        for s in services:
            s.cleanup()
        await client.aclose()
        cluster.cleanup()


def replicas_of(master: int) -> list[int]:
    """The ports of the replicas replicating ``master`` now (INFO replication: the link itself,
    which a failover needs; the cluster table may not list a fresh replica yet)."""
    node = redis.Redis(port=master, socket_timeout=2)
    try:
        info = node.info("replication")
    finally:
        node.close()
    return [int(v["port"]) for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]


def cluster_nodes(port: int) -> str:
    node = redis.Redis(port=port, socket_timeout=2)
    try:
        return node.execute_command("CLUSTER", "NODES").decode()
    finally:
        node.close()


def state_fail(port: int) -> bool:
    node = redis.Redis(port=port, socket_timeout=2)
    try:
        return "cluster_state:fail" in node.execute_command("CLUSTER", "INFO").decode()
    finally:
        node.close()


@pytest.mark.timeout(180)
async def test_a_cluster_that_is_down_answers_503_not_500(tmp_path, aiohttp_client, key_prefix):
    """A master and its replica die: the cluster marks itself down (CLUSTERDOWN on every slot,
    cluster-require-full-coverage), also for the deals whose own master lives. Reads, commands
    and the listing answer 503 (DS-12, retry), never 500."""
    cluster = Cluster(tmp_path / "cluster").start()
    client = connect(cluster.url, socket_timeout=5)
    try:
        app = bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=key_prefix))
        http = await aiohttp_client(app)
        resp = await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})
        created = await resp.json()
        assert resp.status == 201, created
        deal, token = created["deal_id"], created["tokens"]["0"]
        headers = {"Authorization": f"Bearer {token}"}
        home = cluster.master_of(f"{key_prefix}:{{{deal}}}:events")
        victim = next(m for m in (cluster.master_of(f"{{probe{i}}}") for i in range(100)) if m != home)
        killed = [victim, *replicas_of(victim)]
        assert len(killed) == 2, killed  # 3 masters, one replica each: no failover can cover these slots
        for port in killed:
            cluster.kill(port)
        deadline = time.monotonic() + 30
        while not state_fail(home):
            assert time.monotonic() < deadline, "the cluster never marked itself down"
            await asyncio.sleep(0.1)
        start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "down"}}
        answers = [  # each waits out the failover for the client's timeout (5 s), then 503
            await http.get(f"/deals/{deal}/view", headers=headers),
            await http.get(f"/deals/{deal}"),
            await http.get("/deals"),
            await http.post(f"/deals/{deal}/commands", json=start, headers=headers),
        ]
        nodes = cluster_nodes(home)
        assert state_fail(home), ("the cluster came back, so the answers prove nothing", killed, nodes)
        for resp in answers:
            body = await resp.json(content_type=None)
            assert resp.status == 503, (resp.method, resp.url.path, resp.status, body, killed, nodes)
            assert body["rule"] == "DS-12" and resp.content_type == "application/problem+json", body
        await http.close()
    finally:
        await client.aclose()
        cluster.cleanup()


def tracebacks(services: list[ServiceProcess]) -> list[str]:
    """The services' logged tracebacks (a 500 says only "logged on the server")."""
    out = []
    for s in services:
        text = s.output()
        at = text.find("Traceback")
        while at >= 0 and len(out) < 3:
            out.append(text[max(0, at - 300) : at + 3000])
            at = text.find("Traceback", at + 3000)
    return out


def test_a_cluster_url_names_its_nodes():
    from service.store.connection import cluster_nodes, is_cluster_url

    url = "redis+cluster://10.0.0.1:7000,10.0.0.2:7001"
    assert is_cluster_url(url) and cluster_nodes(url) == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    with pytest.raises(ValueError):
        cluster_nodes("redis+cluster://nohost")
    assert json.dumps(cluster_nodes("redis+cluster://h:1/0")) == '[["h", 1]]'
