"""Abuse limits under a burst: a budget decides before the work it guards, atomically, so a
burst of concurrent requests from one address gets exactly the budget and no more."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from service import bootstrap
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.reliability.harness import PROBLEM

pytestmark = pytest.mark.redis

BODY = {"game": "paohuzi", "seats": ["human"] * 3}  # nobody plays: the burst only creates


@pytest.fixture
async def budgeted(aiohttp_client, real_redis_url, key_prefix):
    """An app (loopback test client) whose creation budget is 40 a minute."""
    client = connect(real_redis_url)
    settings = replace(bootstrap.TEST_SETTINGS, prefix=key_prefix, create_limit=40)
    http = await aiohttp_client(bootstrap.application(client, settings))
    yield http, EventStore(client, key_prefix)
    await http.close()
    await drop_prefix(client, key_prefix)
    await client.aclose()


async def _burst(http, path: str, body: dict, n: int) -> list[tuple[int, dict, str | None]]:
    async def one() -> tuple[int, dict, str | None]:
        async with http.post(path, json=body) as resp:
            return resp.status, await resp.json(content_type=None), resp.headers.get("Retry-After")

    return list(await asyncio.gather(*(one() for _ in range(n))))


async def _refused_right(answers: list[tuple[int, dict, str | None]]) -> None:
    for status, body, retry in answers:
        if status != 201:
            assert status == 429 and body["rule"] == "DS-11", (status, body)
            assert retry is not None and 1 <= int(retry) <= 120


async def test_a_burst_of_creations_gets_exactly_the_budget(budgeted):
    http, store = budgeted
    answers = await _burst(http, "/deals", BODY, 200)
    assert sorted(s for s, _b, _r in answers).count(201) == 40
    await _refused_right(answers)
    assert len(await store.list_deals(0, 500)) == 40


async def test_a_burst_of_matches_gets_exactly_the_budget(budgeted):
    http, store = budgeted
    answers = await _burst(http, "/matches", {**BODY, "length": 2}, 60)
    assert [s for s, _b, _r in answers].count(201) == 40
    await _refused_right(answers)
    assert len(await store.list_deals(0, 500)) == 40


async def test_a_creation_refused_after_its_reservation_gives_it_back(budgeted):
    """Seats that are no seats are refused inside the creation, after the budget was reserved:
    the reservation is given back, so 40 failures and then 40 creations all pass."""
    http, store = budgeted
    bad = await _burst(http, "/deals", {**BODY, "seats": ["human", "nobody", "human"]}, 40)
    assert {s for s, _b, _r in bad} == {400}
    answers = await _burst(http, "/deals", BODY, 41)
    assert [s for s, _b, _r in answers].count(201) == 40
    assert [s for s, _b, _r in answers].count(429) == 1
    assert len(await store.list_deals(0, 500)) == 40


async def test_a_budget_refusal_is_problem_json(budgeted):
    http, _store = budgeted
    await _burst(http, "/deals", BODY, 40)
    async with http.post("/deals", json=BODY) as resp:
        assert resp.status == 429 and resp.content_type == PROBLEM
