"""Through HTTP: reviews of a finished deal's seats (POST to start, GET the progress or result)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import msgspec
import pytest

from service import bootstrap
from tests.e2e.conftest import auth, close_within, wait_for


@pytest.fixture
async def http(aiohttp_client, store):
    """The app with a strong bot that never runs out of time: on a loaded machine a search past
    the 1 s budget plays the greedy move instead, and then the review's agreement with the
    strong seat would measure greedy's moves (a failure by load, seen in a loaded CI run)."""
    settings = replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True, bot_budget=120.0)
    client = await aiohttp_client(bootstrap.application(store.redis, settings))
    yield client
    await close_within(client, 90)


async def _finished(http, game: str, seats: list[str]) -> dict:
    created = await (await http.post("/deals", json={"game": game, "seats": seats})).json()

    async def over() -> bool:
        return (await (await http.get(f"/deals/{created['deal_id']}")).json())["over"]

    await wait_for(over, timeout=300)  # strong bots think for real: a loaded machine takes minutes
    return created


async def _done(http, deal_id: str, seat: int, seed: int = 0, started_ms: int | None = None) -> dict:
    deadline = asyncio.get_running_loop().time() + 300  # a review on a loaded machine takes minutes
    while asyncio.get_running_loop().time() < deadline:
        state = await (await http.get(f"/deals/{deal_id}/reviews/{seat}", params={"seed": seed})).json()
        if state["status"] != "running":
            return state
        assert 0 <= state["done"] <= state["total"]
        assert started_ms is None or state["started_ms"] == started_ms  # one start, told the same
        await asyncio.sleep(0.05)
    raise AssertionError("the review did not finish")


async def test_a_finished_deals_seats_are_reviewed_and_the_same_seed_gives_the_same_review(http):
    created = await _finished(http, "mcr", ["bot:random", "bot:greedy", "bot:strong", "bot:greedy"])
    deal_id = created["deal_id"]
    started = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 0})
    progress = await started.json()
    assert started.status == 202 and progress["status"] == "running"
    review = await _done(http, deal_id, 0, started_ms=progress["started_ms"])
    assert review["status"] == "done" and review["seat"] == 0 and review["unit"] == "points"
    summary = review["summary"]
    assert summary["decisions"] == len(review["decisions"]) > 0
    for d in review["decisions"]:
        assert d["verdict"] in ("even", "agrees", "unclear", "inaccuracy", "mistake")
        assert 1 <= d["rank"] <= len(d["options"])
        gap = d["options"][d["best"]]["value"] - d["options"][d["chosen"]]["value"]
        assert abs(d["loss"] - max(0.0, gap)) < 1e-3
    # done: asking again answers the review at once, the same bytes
    again = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 0})
    assert again.status == 200 and msgspec.json.decode(await again.read()) == review
    # another seed is another review, computed again the same way
    await http.post(f"/deals/{deal_id}/reviews", json={"seat": 2, "seed": 7})
    strong = await _done(http, deal_id, 2, seed=7)
    assert strong["seed"] == 7 and strong["summary"]["agreement"] >= 0.9


async def test_reviews_open_at_the_end_and_unknown_ones_are_404(http):
    created = await (await http.post("/deals", json={"game": "paohuzi", "seats": ["human"] * 3})).json()
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "r"}}
    assert (await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(token))).status == 200
    early = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 0})
    assert early.status == 409 and (await early.json())["rule"] == "DS-2"
    missing = await http.get(f"/deals/{deal_id}/reviews/1")
    assert missing.status == 404 and (await missing.json())["rule"] == "DS-7"
    for bad in ({"seat": -1}, {"seat": "one"}, {}):
        resp = await http.post(f"/deals/{deal_id}/reviews", json=bad)
        assert resp.status == 400 and (await resp.json())["rule"] == "DS-5"
    resp = await http.get(f"/deals/{deal_id}/reviews/x")
    assert resp.status == 400
