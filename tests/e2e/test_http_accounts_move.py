"""Accounts are in the store: they survive a restart of the service (a killed process, a new one
on the same Redis), and ``export --all`` / ``import --all`` carry them to another store with
their lists of games, never a session, a device code or a password (only its Argon2id hash)."""

from __future__ import annotations

import uuid
from dataclasses import replace

import aiohttp
import pytest

from service import bootstrap
from tests.conftest import drop_prefix
from tests.e2e.conftest import ServiceProcess, auth, close_within, expect_problem
from tests.e2e.test_http_accounts import PASSWORD, call, sign_in, sign_up
from tests.integration.test_cli_move import cli

pytestmark = pytest.mark.redis
BOTS = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"]}


@pytest.mark.timeout(900)
async def test_accounts_and_sessions_survive_a_restart(real_redis_url, redis_client, key_prefix):
    first = ServiceProcess(real_redis_url, key_prefix)
    try:
        async with aiohttp.ClientSession(first.base, cookie_jar=aiohttp.DummyCookieJar()) as web:
            await first.started(web)
            async with web.post("/accounts", json={"name": "Survivor", "password": PASSWORD}) as resp:
                assert resp.status == 201
                session = resp.cookies["ds_session"].value
            headers = {"Cookie": f"ds_session={session}"}
            async with web.post(
                "/deals", json=BOTS | {"seats": ["human", "open", "bot:greedy"]}, headers=headers
            ) as resp:
                assert resp.status == 201, await resp.text()
                deal_id = (await resp.json())["deal_id"]
        first.kill()  # SIGKILL: nothing is saved on the way out
        second = ServiceProcess(real_redis_url, key_prefix)
        try:
            async with aiohttp.ClientSession(second.base, cookie_jar=aiohttp.DummyCookieJar()) as web:
                await second.started(web)
                async with web.get("/accounts/me", headers=headers) as resp:
                    assert resp.status == 200 and (await resp.json())["name"] == "Survivor"
                async with web.post(f"/deals/{deal_id}/my-seat", headers=headers) as resp:
                    assert resp.status == 200, await resp.text()
                    token = (await resp.json())["token"]
                async with web.get(f"/deals/{deal_id}/view", headers=auth(token)) as resp:
                    assert resp.status == 200 and (await resp.json())["seat"] == 0
                body = {"name": "survivor", "password": PASSWORD}
                async with web.post("/sessions", json=body) as resp:
                    assert resp.status == 200
        finally:
            second.stop()
    finally:
        first.stop()
        await drop_prefix(redis_client, key_prefix)


@pytest.mark.timeout(900)
async def test_export_and_import_all_carry_accounts_and_their_games(
    http, store, aiohttp_client, real_redis_url, redis_client, tmp_path
):
    session = await sign_up(http, "Mover")
    code = (await (await call(http, "POST", "/accounts/me/device-codes", session)).json())["device_code"]
    resp = await call(http, "POST", "/deals", session, json=BOTS)
    deal_id = (await resp.json())["deal_id"]
    handed = (await (await call(http, "POST", f"/deals/{deal_id}/my-seat", session)).json())["token"]
    out = tmp_path / "all.jsonl"
    cli("export", "--all", "--out", str(out), "--redis", real_redis_url, "--prefix", store.prefix)
    exported = out.read_bytes()
    assert b'"accounts"' in exported and b"$argon2id$" in exported
    for secret in (PASSWORD, session, code, code.replace("-", ""), handed):
        assert secret.encode() not in exported

    target = f"dstest-{uuid.uuid4().hex[:12]}"
    try:
        cli("import", "--all", str(out), "--redis", real_redis_url, "--prefix", target)
        again = cli("import", "--all", str(out), "--redis", real_redis_url, "--prefix", target)
        assert b"0 accounts (1 already there)" in again.stderr
        settings = replace(bootstrap.TEST_SETTINGS, prefix=target, dev=True)
        moved = await aiohttp_client(bootstrap.application(redis_client, settings))
        try:
            stale = await call(moved, "GET", "/accounts/me", session)
            await expect_problem(stale, 401, "DS-34")  # sessions stay behind: sign in again
            new_session = await sign_in(moved, name="Mover", password=PASSWORD)
            listed = await call(moved, "GET", "/players/me/deals", new_session)
            assert [row["deal_id"] for row in (await listed.json())["deals"]] == [deal_id]
            taken = await call(moved, "POST", "/accounts", json={"name": "MOVER", "password": PASSWORD})
            await expect_problem(taken, 409, "DS-36")  # the name came along
        finally:
            await close_within(moved, 60)
    finally:
        await drop_prefix(redis_client, target)
