"""Secrets: seat tokens never reach a log line, a Redis key or value, or the append-only file; tokens
are compared in constant time; deal creation is rate-limited per client address."""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
import redis as redis_sync

from service import bootstrap
from service.app.commands.deals import DealService
from service.app.state import seats as seats_module
from service.http.routes import RateLimiter
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.reliability.harness import PROBLEM, Players, ServiceProcess

pytestmark = pytest.mark.redis


def _everything_in_redis(port: int) -> bytes:
    """Every key and every value of a private Redis server, as one blob to search."""
    r = redis_sync.Redis(port=port)
    try:
        blob = bytearray()
        for key in r.scan_iter(count=1000):
            blob += key + b"\n"
            kind = r.type(key)
            if kind == b"stream":
                for entry_id, fields in r.xrange(key):
                    blob += entry_id + b"".join(k + v for k, v in fields.items())
            elif kind == b"hash":
                blob += b"".join(k + b"=" + v for k, v in r.hgetall(key).items())
            elif kind == b"zset":
                blob += b"".join(r.zrange(key, 0, -1))
            elif kind == b"string":
                blob += r.get(key) or b""
            elif kind in (b"list", b"set"):
                blob += b"".join(r.lrange(key, 0, -1) if kind == b"list" else r.smembers(key))
        return bytes(blob)
    finally:
        r.close()


@pytest.mark.timeout(120)
async def test_tokens_never_appear_in_logs_redis_or_the_aof(own_redis, prefix):
    service = ServiceProcess(own_redis.url, prefix).start()
    try:
        await service.ready()
        async with Players([service.base], seed=21) as players:
            await players.run(tables=4)  # human seats with tokens in the Authorization header
            deal = players.deals[0]
            token = deal.tokens[min(deal.tokens)]
            async with aiohttp.ClientSession(service.base) as session:
                # the token in a query string (EventSource), in a replay, in failing requests
                async with session.get(f"/deals/{deal.deal_id}/view", params={"token": token}) as resp:
                    assert resp.status == 200
                async with session.get(
                    f"/deals/{deal.deal_id}/events/stream", params={"token": token}
                ) as resp:
                    assert resp.status == 200
                    await asyncio.wait_for(resp.content.readline(), 10)
                for other in players.deals[1:]:  # a real token at the wrong deal
                    async with session.get(f"/deals/{other.deal_id}/view", params={"token": token}) as resp:
                        assert resp.status == 401
                bad = {"command_id": "x", "command": {"type": "Nope"}}
                async with session.post(
                    f"/deals/{deal.deal_id}/commands", json=bad, headers={"Authorization": f"Bearer {token}"}
                ) as resp:
                    assert resp.status in (400, 409)
                nested = b'{"command_id":"x","command":{"a":' + b"[" * 3000 + b"]" * 3000 + b"}}"
                async with session.post(
                    f"/deals/{deal.deal_id}/commands",
                    data=nested,
                    headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                ) as resp:
                    assert resp.status == 400
        tokens = [t for d in players.deals for t in d.tokens.values()]
        assert len(tokens) >= 4
        service.kill()  # flush its output
        output = service.output()
        stored = _everything_in_redis(own_redis.port)
        aof = b"".join(p.read_bytes() for p in Path(own_redis.data_dir).rglob("*") if p.is_file())
        assert stored and aof
        for t in tokens:
            assert t not in output, "a seat token is in the service's log"
            assert t.encode() not in stored, "a seat token is stored in Redis"
            assert t.encode() not in aof, "a seat token is in the append-only file"
            # only its digest is kept
            assert hashlib.sha256(t.encode()).hexdigest().encode() in stored
    finally:
        service.cleanup()


@pytest.fixture
async def deal_service(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    yield DealService(EventStore(client, key_prefix))
    await drop_prefix(client, key_prefix)
    await client.aclose()


async def test_token_check_compares_every_seat_digest_in_constant_time(deal_service, monkeypatch):
    created = await deal_service.create("mcr", ["human"] * 4)
    deal_id, tokens = created.deal_id, created.tokens
    calls: list[tuple[str, str]] = []
    real = seats_module.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(seats_module.hmac, "compare_digest", spy)
    wrong = tokens["0"][:-1] + ("A" if tokens["0"][-1] != "A" else "B")
    for token, seat in [(tokens["0"], 0), (tokens["3"], 3), (wrong, None), ("x", None)]:
        calls.clear()
        if seat is None:
            with pytest.raises(seats_module.RuleViolation) as refused:
                await deal_service.seats.authenticate(deal_id, token)
            assert refused.value.rule_id == "DS-8"
        else:
            assert await deal_service.seats.authenticate(deal_id, token) == seat
        # one comparison per seat whatever the token: no early exit that timing could reveal
        assert len(calls) == 4, calls
        digest = hashlib.sha256(token.encode()).hexdigest()
        for a, b in calls:
            # fixed-length digests are compared, never the token itself
            assert digest in (a, b) and len(a) == len(b) == 64
            assert token not in (a, b)


async def test_deal_creation_is_bounded_per_client_address(aiohttp_client, real_redis_url, key_prefix):
    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    http = await aiohttp_client(
        bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=key_prefix, create_limit=5))
    )
    try:
        body = {"game": "paohuzi", "seats": ["human"] * 3}
        for _ in range(5):
            assert (await http.post("/deals", json=body)).status == 201
        for spoof in (
            {},
            {"X-Forwarded-For": "10.9.8.7"},
            {"X-Real-IP": "10.1.1.1", "Forwarded": "for=1.2.3.4"},
        ):
            resp = await http.post("/deals", json=body, headers=spoof)
            assert resp.status == 429 and resp.content_type == PROBLEM
            assert (await resp.json())["rule"] == "DS-11"
            assert 1 <= int(resp.headers["Retry-After"]) <= 120  # when the minute's budget has room
        assert len(await store.indexes.list_deals(0, 100)) == 5  # a refused creation creates nothing
        # reading and playing are not limited
        assert (await http.get("/deals")).status == 200
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()


def test_the_rate_limiter_forgets_old_clients_and_keeps_them_apart():
    # a window of seconds: a pause of the test process on a busy machine must not slide it early
    limiter = RateLimiter(limit=2, window=2.0)
    assert limiter.allow("a") and limiter.allow("a") and not limiter.allow("a")
    assert limiter.allow("b")  # another address has its own budget
    time.sleep(2.1)
    assert limiter.allow("a")  # the window slid
    # many one-off addresses (IPv6 makes them cheap) must not grow the limiter without bound
    for i in range(20_000):
        limiter.allow(f"2001:db8::{i:x}")
    time.sleep(2.1)
    limiter.allow("c")
    assert len(limiter._hits) < 10_000


async def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits(
    aiohttp_client, real_redis_url, key_prefix
):
    """``--trusted-proxy``: the test client stands for the proxy (it connects from 127.0.0.1).
    The address the proxy appended is the client's; one the client wrote itself is not, so a
    client cannot buy a new budget by sending the header, nor spend another's."""
    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    settings = replace(
        bootstrap.TEST_SETTINGS, prefix=key_prefix, create_limit=2,
        trusted_proxies=("127.0.0.0/8", "::1/128"),
    )  # fmt: skip
    http = await aiohttp_client(bootstrap.application(client, settings))
    try:
        body = {"game": "paohuzi", "seats": ["human"] * 3}

        async def create(chain: str) -> aiohttp.ClientResponse:
            return await http.post("/deals", json=body, headers={"X-Forwarded-For": chain})

        assert (await create("203.0.113.5")).status == 201
        assert (await create("198.51.100.1, 203.0.113.5")).status == 201  # what it wrote: not read
        for chain in ("203.0.113.5", "192.0.2.44, 203.0.113.5", "203.0.113.5, 127.0.0.9"):
            resp = await create(chain)
            assert resp.status == 429 and resp.content_type == PROBLEM, chain
            assert (await resp.json())["rule"] == "DS-11"
        assert (await create("203.0.113.6")).status == 201  # another person behind the proxy
        assert (await create("192.0.2.44")).status == 201  # the address forged above was not spent
        assert (await create("not an address")).status == 201  # counted against the proxy itself
        assert (await create("not an address")).status == 201
        resp = await create("also garbage")
        assert resp.status == 429 and (await resp.json())["rule"] == "DS-11"
        assert len(await store.indexes.list_deals(0, 100)) == 6
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()


async def test_every_process_on_a_store_spends_one_budget_per_address(
    aiohttp_client, real_redis_url, key_prefix
):
    """Two service processes (two apps on one Redis and prefix, as ``serve --processes 2``): an
    address that spent its budget on one is refused by the other. A request refused for another
    reason spends nothing."""
    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    settings = replace(bootstrap.TEST_SETTINGS, prefix=key_prefix, create_limit=3)
    first = await aiohttp_client(bootstrap.application(client, settings))
    second = await aiohttp_client(bootstrap.application(client, settings))
    try:
        body = {"game": "paohuzi", "seats": ["human"] * 3}
        bad = await first.post("/deals", json={**body, "seats": ["human", "nobody", "human"]})
        assert bad.status == 400
        assert (await first.post("/deals", json=body)).status == 201
        assert (await second.post("/deals", json=body)).status == 201
        assert (await first.post("/deals", json=body)).status == 201
        for app in (second, first):
            resp = await app.post("/deals", json=body)
            assert resp.status == 429 and (await resp.json())["rule"] == "DS-11"
        assert len(await store.indexes.list_deals(0, 100)) == 3
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()
