"""Through HTTP: after "Play again" at a table of people, each seat's stream of the finished deal
tells that seat, and only it, where it sits now (``rematch``: the new deal, the seat, a token of
its own); a spectator's stream ends at ``deal-over`` and hears nothing; every account that sat at
the table reaches its seat of the new deal with ``my-seat``, not only the account that asked."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.e2e.conftest import auth, expect_problem
from tests.e2e.test_http_accounts import call, sign_in, sign_up
from tests.e2e.test_http_play_again import QUICK_END, _ended_table, _seat_of, _start

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


async def _read(resp, until: str | None, timeout: float = 30.0) -> list[tuple[str, str]]:
    """The stream's (event, data) messages up to and with ``until``, or to its end (None)."""
    got: list[tuple[str, str]] = []
    event = ""
    async with asyncio.timeout(timeout):
        while True:
            raw = await resp.content.readline()
            if not raw:
                return got  # the stream ended
            line = raw.decode().rstrip("\r\n")
            if line.startswith("event: "):
                event = line[len("event: ") :]
            elif line.startswith("data: "):
                got.append((event, line[len("data: ") :]))
                if event == until:
                    return got


async def _ticket(http, deal_id: str, token: str) -> str:
    resp = await http.post(f"/deals/{deal_id}/stream-ticket", headers=auth(token))
    assert resp.status == 200, await resp.text()
    return (await resp.json())["ticket"]


async def test_each_seat_stream_gets_its_own_new_seat_and_a_spectator_none(http):
    old, bo, ana = await _ended_table(http, lobby=False)
    ticket = await _ticket(http, old, bo)
    bo_stream = await http.get(f"/deals/{old}/events/stream", params={"ticket": ticket})
    ana_stream = await http.get(f"/deals/{old}/events/stream", headers=auth(ana))
    watcher = await http.get(f"/deals/{old}/events/stream")
    assert {bo_stream.status, ana_stream.status, watcher.status} == {200}
    for stream in (bo_stream, ana_stream):
        assert (await _read(stream, "deal-over"))[-1][0] == "deal-over"
    seen = await _read(watcher, None)  # a spectator's stream ends at the deal's end, as before
    assert seen[-1][0] == "deal-over" and all(name != "rematch" for name, _ in seen)

    made = await http.post(f"/deals/{old}/rematch", headers=auth(bo))
    assert made.status == 201, await made.text()
    new = (await made.json())["deal_id"]
    told = {}
    for seat, stream in ((0, bo_stream), (1, ana_stream)):
        rest = await _read(stream, None)
        assert [name for name, _ in rest] == ["rematch"], rest  # one message, then the end
        message = json.loads(rest[0][1])
        assert set(message) == {"deal_id", "seat", "token"}
        assert message["deal_id"] == new and message["seat"] == seat
        told[seat] = message["token"]
    assert told[0] != told[1] and told[0] not in (bo, ana) and told[1] not in (bo, ana)
    for seat, token in told.items():  # each token is the seat's own, in the new deal
        assert await _seat_of(http, new, token) == seat
    await _start(http, new, told[1], "ana-stream")
    await _start(http, new, told[0], "bo-stream")
    summary = await (await http.get(f"/deals/{new}")).json()
    assert summary["waiting_to_start"] == [] and summary["names"] == ["Bo", "Ana", None]
    # a stream opened after the new deal was made is told at once; a spectator's still is not
    late = await http.get(f"/deals/{old}/events/stream", headers=auth(ana))
    rest = await _read(late, None)
    assert [name for name, _ in rest][-2:] == ["deal-over", "rematch"]
    assert json.loads(rest[-1][1])["seat"] == 1
    late_watcher = await http.get(f"/deals/{old}/events/stream")
    assert all(name != "rematch" for name, _ in await _read(late_watcher, None))


async def test_every_account_at_the_table_holds_its_seat_of_the_new_deal(http):
    bo_session = await sign_up(http, "Bo")
    ana_session = await sign_up(http, "Ana")
    body = {
        "game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "name": "Bo",
        "deck": QUICK_END, "dealer": 0,
    }  # fmt: skip
    resp = await call(http, "POST", "/deals", bo_session, json=body)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    old, bo = created["deal_id"], created["tokens"]["0"]
    join = {"invite": created["invites"]["1"], "name": "Ana"}
    resp = await call(http, "POST", f"/deals/{old}/join", ana_session, json=join)
    assert resp.status == 201, await resp.text()
    ana = (await resp.json())["token"]
    await _start(http, old, bo, "bo")
    await _start(http, old, ana, "ana")
    # Ana's phone, signed in by a device code, holds her seat by a token handed to it alone (not
    # carried into a rematch): it asks to play again and gets a token of her new seat
    code = (await (await call(http, "POST", "/accounts/me/device-codes", ana_session)).json())["device_code"]
    phone = await sign_in(http, device_code=code)
    resp = await call(http, "POST", f"/deals/{old}/my-seat", phone)
    assert resp.status == 200, await resp.text()
    phone_token = (await resp.json())["token"]
    resp = await call(http, "POST", f"/deals/{old}/rematch", phone, headers=auth(phone_token))
    assert resp.status == 201, await resp.text()
    made = await resp.json()
    new = made["deal_id"]
    assert (
        made["seat"] == 1 and made["token"] != phone_token and await _seat_of(http, new, made["token"]) == 1
    )
    # Bo never asked: his account holds seat 0 of the new deal all the same
    for session, seat in ((bo_session, 0), (phone, 1)):
        resp = await call(http, "POST", f"/deals/{new}/my-seat", session)
        assert resp.status == 200, await resp.text()
        handed = await resp.json()
        assert handed["seat"] == seat and await _seat_of(http, new, handed["token"]) == seat
    assert await _seat_of(http, new, bo) == 0  # and his own token of the old deal was carried
    listed = await (await call(http, "GET", "/players/me/deals", bo_session)).json()
    assert new in json.dumps(listed)
    # an account that did not sit there holds no seat of it
    stranger = await sign_up(http, "Stranger")
    await expect_problem(await call(http, "POST", f"/deals/{new}/my-seat", stranger), 404, "DS-40")


async def test_a_matchs_next_deal_reaches_each_seat_by_its_stream_and_each_account_by_my_seat(http):
    bo_session, ana_session = await sign_up(http, "Bo"), await sign_up(http, "Ana")
    body = {
        "game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "name": "Bo", "length": 2,
        "deck": QUICK_END, "dealer": 0,
    }  # fmt: skip
    resp = await call(http, "POST", "/matches", bo_session, json=body)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    first, bo = created["deal_id"], created["tokens"]["0"]
    join = {"invite": created["invites"]["1"], "name": "Ana"}
    resp = await call(http, "POST", f"/deals/{first}/join", ana_session, json=join)
    assert resp.status == 201, await resp.text()
    ana = (await resp.json())["token"]
    streams = {0: await http.get(f"/deals/{first}/events/stream", headers=auth(bo))}
    streams[1] = await http.get(f"/deals/{first}/events/stream", headers=auth(ana))
    watcher = await http.get(f"/deals/{first}/events/stream")  # the match is private: refused, or nothing
    await _start(http, first, bo, "bo")
    await _start(http, first, ana, "ana")
    told = {}
    for seat, stream in streams.items():
        rest = await _read(stream, None, timeout=90)
        assert [name for name, _ in rest][-2:] == ["deal-over", "rematch"], [name for name, _ in rest]
        told[seat] = json.loads(rest[-1][1])
    second = told[0]["deal_id"]
    assert second != first and told[1]["deal_id"] == second
    for seat, message in told.items():
        assert message["seat"] == seat and await _seat_of(http, second, message["token"]) == seat
    if watcher.status == 200:
        assert all(name != "rematch" for name, _ in await _read(watcher, None, timeout=90))
    for session, seat in ((bo_session, 0), (ana_session, 1)):  # the match's seats, on any device
        resp = await call(http, "POST", f"/deals/{second}/my-seat", session)
        assert resp.status == 200, await resp.text()
        assert (await resp.json())["seat"] == seat
