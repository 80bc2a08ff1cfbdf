"""Through HTTP: stream tickets instead of seat tokens in URLs (issue 26). A ticket opens one
stream of its deal and seat, once, within its time; never twice, after it, or for another deal."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import auth, wait_for

pytestmark = pytest.mark.redis


async def _deal(http) -> tuple[str, str]:
    created = await (await http.post("/deals", json={"game": "paohuzi", "seats": ["human"] * 3})).json()
    return created["deal_id"], created["tokens"]["1"]


async def _ticket(http, deal_id: str, token: str) -> str:
    resp = await http.post(f"/deals/{deal_id}/stream-ticket", headers=auth(token))
    assert resp.status == 200, await resp.text()
    body = await resp.json()
    assert body["expires_in"] == 30
    return body["ticket"]


async def _first_view(resp) -> str:
    async with asyncio.timeout(30):
        while True:
            line = (await resp.content.readline()).decode()
            if line.startswith("data:") and '"seat"' in line:
                return line


async def _refused(http, deal_id: str, ticket: str) -> None:
    resp = await http.get(f"/deals/{deal_id}/events/stream", params={"ticket": ticket})
    assert resp.status == 401 and (await resp.json())["rule"] == "DS-8"


async def test_a_ticket_opens_one_stream_of_its_seat_once(http):
    deal_id, token = await _deal(http)
    other_id, _ = await _deal(http)
    no_token = await http.post(f"/deals/{deal_id}/stream-ticket")
    assert no_token.status == 401 and (await no_token.json())["rule"] == "DS-8"
    ticket = await _ticket(http, deal_id, token)
    await _refused(http, other_id, ticket)  # another deal's ticket
    async with http.get(f"/deals/{deal_id}/events/stream", params={"ticket": ticket}, timeout=None) as resp:
        assert resp.status == 200
        view = await _first_view(resp)
        assert '"seat":1' in view.replace(" ", "")
    await _refused(http, deal_id, ticket)  # used already
    await _refused(http, deal_id, "no-such-ticket")


async def test_an_expired_ticket_is_refused(http, store):
    deal_id, token = await _deal(http)
    ticket = await _ticket(http, deal_id, token)
    keys = [k async for k in store.redis.scan_iter(match=f"{store.prefix}:{{{deal_id}}}:ticket:*")]
    assert len(keys) == 1 and ticket.encode() not in keys[0]  # only its digest is kept
    assert 0 < await store.redis.ttl(keys[0]) <= 30
    await store.redis.pexpire(keys[0], 1)

    async def gone() -> bool:
        return not await store.redis.exists(keys[0])

    await wait_for(gone)
    await _refused(http, deal_id, ticket)
