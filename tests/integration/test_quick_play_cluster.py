"""Quick play on a real Redis Cluster (3 masters, 3 replicas), through the real
app: two accounts seek, bots fill after bots_after_s, each reads its seat. The matching script
touches only its game's two keys (one hash tag), so no command crosses slots (a cross-slot
command would fail here, not on a single Redis)."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import auth
from tests.e2e.test_http_accounts import call, sign_up
from tests.integration.test_accounts_cluster import cluster_app  # noqa: F401 (fixture)

pytestmark = pytest.mark.redis


@pytest.mark.timeout(300)
async def test_quick_play_seats_two_accounts_on_a_cluster(cluster_app):  # noqa: F811
    http = cluster_app
    sessions = [await sign_up(http, "Kettu"), await sign_up(http, "Ilves")]
    seeks = []
    for session in sessions:
        resp = await call(http, "POST", "/seeks", session, json={"game": "paohuzi", "bots_after_s": 0.5})
        assert resp.status == 201, await resp.text()
        seeks.append((await resp.json())["seek_id"])
    seated = []
    for session, seek in zip(sessions, seeks, strict=True):
        async with asyncio.timeout(60):
            while True:
                state = await (await call(http, "GET", f"/seeks/{seek}", session)).json()
                if state["status"] == "seated":
                    break
                await asyncio.sleep(0.1)
        seated.append(state)
    assert seated[0]["deal_id"] == seated[1]["deal_id"] and seated[0]["seat"] != seated[1]["seat"]
    for state in seated:
        view = await call(http, "GET", f"/deals/{state['deal_id']}/view", headers=auth(state["token"]))
        assert view.status == 200 and (await view.json())["seat"] == state["seat"]
    resp = await call(http, "DELETE", f"/seeks/{seeks[0]}", sessions[0])
    assert resp.status == 204
