"""``dealstream export --all`` / ``import --all`` from one Redis server to another (issue 26, the
runbook's "Moving deals between stores"): besides the deals, a match and its small log, a live
deal's place in the clock keeper's index, its command ids and the players' lists move, so the
service on the new server shows the same match, the same "My games", keeps the same clock and
answers a retried command with its first result."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from service import bootstrap
from service.store.connection import connect
from tests.e2e.conftest import auth, close_within, wait_for
from tests.integration.test_cli_move import cli
from tests.reliability.harness import RedisServer

pytestmark = pytest.mark.redis
SLOW_CLOCK = {"move_s": 600, "claim_s": 300, "bank_s": 600}  # never runs out during the test


async def _json(resp) -> dict:
    assert resp.status in (200, 201), await resp.text()
    return await resp.json()


@pytest.mark.timeout(900)
async def test_a_move_to_another_redis_server_keeps_matches_clocks_and_players(
    http, store, aiohttp_client, real_redis_url, tmp_path
):
    key = (await _json(await http.post("/players/keys")))["player_key"]  # minted by the service
    mine = {"X-Player-Key": key}
    # a match of bots, played to its end, and a live deal of a person with a clock
    match = await _json(
        await http.post(
            "/matches",
            json={"game": "paohuzi", "seats": ["bot:greedy"] * 3, "pace": "fast", "length": 2},
        )
    )
    seats = ["human", "bot:greedy", "bot:greedy", "bot:greedy"]
    body = {"game": "mcr", "seats": seats, "clock": SLOW_CLOCK, "dealer": 0, "player_key": key}
    live = await _json(await http.post("/deals", json=body))
    token = live["tokens"]["0"]
    start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": "move"}}
    started = await _json(
        await http.post(f"/deals/{live['deal_id']}/commands", json=start, headers=auth(token))
    )

    async def match_over() -> dict | None:
        state = await _json(await http.get(f"/matches/{match['match_id']}"))
        return state if state["over"] else None

    before = await wait_for(match_over, timeout=300, interval=0.2)
    clock_at = await store.redis.zscore(store.keys.clocks, live["deal_id"])
    assert clock_at is not None  # the person's clock is in the keeper's index
    my_games = await _json(await http.get("/players/me/deals", headers=mine))
    assert [row["deal_id"] for row in my_games["deals"]] == [live["deal_id"]]
    view = await _json(await http.get(f"/deals/{live['deal_id']}/view", headers=auth(token)))

    target = RedisServer().start(30)
    moved = connect(target.url)
    try:
        archive = ["--archive", f"sqlite:///{tmp_path / 'source.db'}"]
        out = tmp_path / "all.jsonl"
        cli(
            "export",
            "--all",
            "--out",
            str(out),
            "--redis",
            real_redis_url,
            "--prefix",
            store.prefix,
            *archive,
        )
        headers = [json.loads(line) for line in out.read_bytes().splitlines() if line.startswith(b'{"')]
        assert any(h.get("match_id") == match["match_id"] for h in headers)
        into = [
            "--redis",
            target.url,
            "--prefix",
            store.prefix,
            "--archive",
            f"sqlite:///{tmp_path / 'to.db'}",
        ]
        done = cli("import", "--all", str(out), *into)
        assert b"0 refused" in done.stderr and b" 1 match (" in done.stderr, done.stderr
        # the ended match is listed for the target's archiver (its log leaves Redis in time)
        assert await moved.zscore(f"{store.prefix}:match:deals:finished", match["match_id"]) is not None

        settings = replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True)
        there = await aiohttp_client(bootstrap.application(moved, settings))
        try:
            after = await _json(await there.get(f"/matches/{match['match_id']}"))
            assert after == before
            audit = await _json(await there.get(f"/matches/{match['match_id']}/audit"))
            assert audit["ok"], audit
            assert await _json(await there.get("/players/me/deals", headers=mine)) == my_games
            assert await moved.zscore(f"{store.prefix}:deals:clocks", live["deal_id"]) == clock_at
            again = await _json(await there.get(f"/deals/{live['deal_id']}/view", headers=auth(token)))
            assert again == view  # the seat's token plays on at the new server
            # a client that retries its command after the move gets the first result, not a
            # second start (the command ids moved with the log)
            retried = await _json(
                await there.post(f"/deals/{live['deal_id']}/commands", json=start, headers=auth(token))
            )
            assert retried["duplicate"] is True
            assert (retried["first_version"], retried["version"]) == (
                started["first_version"],
                started["version"],
            )
            later = await _json(await there.get(f"/deals/{live['deal_id']}/view", headers=auth(token)))
            assert later["version"] == view["version"]
        finally:
            await close_within(there, 90)
        # a second import finds everything there
        twice = cli("import", "--all", str(out), *into)
        assert b"imported 0 deals" in twice.stderr and b"0 matches (1 already there)" in twice.stderr
    finally:
        await moved.aclose()
        target.stop()
        target.cleanup()
