"""Through HTTP: review starts are bounded (issue 26) and a review orphaned by a stopped process is
started again.

The review workers are replaced by a gate the test opens and an evaluator that values every
option 0 at once: what is running or queued is then the test's choice, not the machine's speed
(``test_http_reviews`` runs real reviews)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import msgspec
import pytest

from projections.review import Point
from service import bootstrap
from service.http.routes import REVIEWS
from tests.e2e.conftest import close_within, wait_for


def _flat(ruleset: str, points_json: bytes, review_seed: int) -> bytes:
    """Every legal option of each point valued 0 with no noise (``reviews._evaluate``'s shape)."""
    points = msgspec.json.decode(points_json, type=list[Point])
    views = [msgspec.json.decode(p.view) for p in points]
    return msgspec.json.encode([[(0.0, 0.0)] * len(v["legal_actions"]) for v in views])


class GatedPool:
    """Review chunks wait for ``gate``, then are valued flat (``_flat``)."""

    workers = 1

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.chunks = 0

    async def run(self, fn, ruleset, points_json, seed):
        await self.gate.wait()
        self.chunks += 1
        return _flat(ruleset, points_json, seed)

    def close(self) -> None:
        self.gate.set()


@pytest.fixture
async def served(aiohttp_client, store):
    settings = replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, review_limit=3)
    app = bootstrap.application(store.redis, settings)
    reviews = app[REVIEWS]
    reviews.pool = GatedPool()
    reviews.per_deal = 2
    client = await aiohttp_client(app)
    client.reviews = reviews
    yield client
    await close_within(client, 90)


async def _finished(http) -> str:
    created = await (await http.post("/deals", json={"game": "mcr", "seats": ["bot:greedy"] * 4})).json()

    async def over() -> bool:
        return (await (await http.get(f"/deals/{created['deal_id']}")).json())["over"]

    await wait_for(over, timeout=120)
    return created["deal_id"]


async def _refused(resp, status: int, rule: str) -> None:
    assert resp.status == status, await resp.text()
    body = await resp.json()
    assert body["rule"] == rule and resp.content_type == "application/problem+json"
    assert int(resp.headers["Retry-After"]) >= 1


async def _done(http, deal_id: str, seat: int, seed: int) -> dict:
    async def done() -> dict | None:
        state = await (await http.get(f"/deals/{deal_id}/reviews/{seat}", params={"seed": seed})).json()
        assert state["status"] in ("running", "done"), state
        return state if state["status"] == "done" else None

    return await wait_for(done, timeout=120)


async def test_review_starts_beyond_the_bounds_are_refused_with_retry_after_and_the_rest_finish(served):
    http, reviews = served, served.reviews
    first, second = await _finished(http), await _finished(http)
    post = lambda deal, seat, seed: http.post(f"/deals/{deal}/reviews", json={"seat": seat, "seed": seed})  # noqa: E731
    assert (await post(first, 0, 0)).status == 202
    assert (await post(first, 0, 0)).status == 202  # running already: answered, counted against nothing
    assert (await post(first, 1, 0)).status == 202
    await _refused(await post(first, 2, 0), 429, "DS-29")  # two reviews of this deal run already
    assert (await post(second, 0, 0)).status == 202  # the address's third new review
    await _refused(await post(second, 1, 0), 429, "DS-29")  # the address's fourth
    reviews.queue_cap = 1  # the queue is full: refused before anything is counted
    await _refused(await post(second, 2, 0), 503, "DS-30")
    reviews.pool.gate.set()
    for deal, seat in ((first, 0), (first, 1), (second, 0)):
        review = await _done(http, deal, seat, 0)
        assert review["seat"] == seat and review["summary"]["decisions"] == len(review["decisions"])
    refused = await http.get(f"/deals/{first}/reviews/2")
    assert refused.status == 404  # a refused start leaves nothing behind


async def test_a_review_orphaned_by_a_stopped_process_is_started_again_once_its_lease_is_gone(served):
    http, reviews = served, served.reviews
    deal_id = await _finished(http)
    reviews.pool.gate.set()
    key, lease = reviews.key(deal_id, 1, 5), reviews.lease_key(deal_id, 1, 5)
    # what a process that stopped mid-review leaves: its progress at "running", and its lease
    orphan = b'{"status":"running","done":4,"total":17,"started_ms":1796322929831,"error":null}'
    await http.app[bootstrap.DEALS].store.redis.set(key, orphan, ex=600)
    await http.app[bootstrap.DEALS].store.redis.set(lease, b"4242:elsewhere", px=60_000)
    # the lease still holds: the owner may be alive, so nobody else runs it
    for _ in range(3):
        state = await (await http.get(f"/deals/{deal_id}/reviews/1", params={"seed": 5})).json()
        assert state["status"] == "running" and state["done"] == 4
        started = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 1, "seed": 5})
        assert started.status == 202
    assert reviews.restarted == 0 and not reviews._running  # noqa: SLF001
    await http.app[bootstrap.DEALS].store.redis.delete(lease)  # the lease ran out
    review = await _done(http, deal_id, 1, 5)
    assert reviews.restarted == 1 and review["seed"] == 5 and review["seat"] == 1
    assert not await http.app[bootstrap.DEALS].store.redis.exists(lease)  # released once done
