"""Accounts on a real Redis Cluster (3 masters, 3 replicas): sign-up, sign-in by password and by
device code, the account's list of games, a seat handed to another device and its token used,
sign-out everywhere and deletion, through the real app. Every key of an account has its own hash
tag, so no command crosses slots (a cross-slot command would fail here, not on a single Redis)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service import bootstrap
from service.store.connection import connect
from tests.conftest import drop_prefix
from tests.e2e.conftest import auth, expect_problem
from tests.e2e.test_http_accounts import PASSWORD, call, sign_in, sign_up

pytestmark = pytest.mark.redis


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
async def test_accounts_work_on_a_cluster(cluster_app):
    http = cluster_app
    key = (await (await call(http, "POST", "/players/keys")).json())["player_key"]
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "player_key": key}
    first = await (await call(http, "POST", "/deals", json=body)).json()
    laptop = await sign_up(http, "Clustered", headers={"X-Player-Key": key})
    body = {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"]}
    second = await (await call(http, "POST", "/deals", laptop, json=body)).json()
    code = (await (await call(http, "POST", "/accounts/me/device-codes", laptop)).json())["device_code"]
    phone = await sign_in(http, device_code=code)
    rows = (await (await call(http, "GET", "/players/me/deals", phone)).json())["deals"]
    assert {r["deal_id"] for r in rows} == {first["deal_id"], second["deal_id"]}
    handed = await call(http, "POST", f"/deals/{second['deal_id']}/my-seat", phone)
    assert handed.status == 200, await handed.text()
    token = (await handed.json())["token"]
    view = await call(http, "GET", f"/deals/{second['deal_id']}/view", headers=auth(token))
    assert view.status == 200 and (await view.json())["seat"] == 0
    await sign_in(http, name="clustered", password=PASSWORD)
    assert (await call(http, "DELETE", "/sessions", phone)).status == 204
    await expect_problem(await call(http, "GET", "/accounts/me", laptop), 401, "DS-34")
    again = await sign_in(http, name="Clustered", password=PASSWORD)
    assert (await call(http, "DELETE", "/accounts/me", again)).status == 204
    await expect_problem(await call(http, "GET", "/accounts/me", again), 401, "DS-34")
    await sign_up(http, "Clustered")  # the name is free again
