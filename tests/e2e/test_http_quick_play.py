"""Quick play over HTTP: signed-in people ask for a game and are seated together by rating;
house bots fill the empty seats after ``bots_after_s``; a seek is its own account's alone (404 to
any other, 401 to nobody), ends when its person leaves, and two service processes on one store
seat every seeker exactly once. A real Redis, the real app (and a second real process)."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import auth, expect_problem
from tests.e2e.test_http_accounts import call, sign_up

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


async def _seek(http, session: str, body: dict) -> str:
    resp = await call(http, "POST", "/seeks", session, json=body)
    assert resp.status == 201, await resp.text()
    made = await resp.json()
    assert set(made) == {"seek_id"}
    return made["seek_id"]


async def _read(client, session: str, seek_id: str) -> dict:
    resp = await client.get(f"/seeks/{seek_id}", headers={"Cookie": f"ds_session={session}"})
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def _seated(client, session: str, seek_id: str, timeout: float = 60.0) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            state = await _read(client, session, seek_id)
            if state["status"] == "seated":
                return state
            assert state["deal_id"] is None and state["token"] is None
            await asyncio.sleep(0.1)


async def test_two_accounts_who_never_met_sit_at_one_table_with_a_bot(http):
    ana, bo = await sign_up(http, "Ana"), await sign_up(http, "Bo")
    seeks = {"Ana": (ana, await _seek(http, ana, {"game": "paohuzi", "bots_after_s": 1})),
             "Bo": (bo, await _seek(http, bo, {"game": "paohuzi", "bots_after_s": 1}))}  # fmt: skip
    seated = {name: await _seated(http, session, seek) for name, (session, seek) in seeks.items()}
    assert seated["Ana"]["deal_id"] == seated["Bo"]["deal_id"]
    deal_id = seated["Ana"]["deal_id"]
    assert {seated["Ana"]["seat"], seated["Bo"]["seat"]} == {0, 1}
    # the bots came only once the first seeker had waited bots_after_s (the other sat down beside it)
    assert max(state["waited_s"] for state in seated.values()) >= 1.0
    for state in seated.values():
        view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(state["token"]))).json()
        assert view["seat"] == state["seat"]
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    names = {seated["Ana"]["seat"]: "Ana", seated["Bo"]["seat"]: "Bo"}
    assert summary["names"][:2] == [names[0], names[1]] and summary["seats"][2] == "bot:greedy"
    assert summary["open_seats"] == []
    # each account holds its seat on any device (my-seat), and sees the table in its games
    for name, (session, _seek_id) in seeks.items():
        resp = await call(http, "POST", f"/deals/{deal_id}/my-seat", session)
        assert resp.status == 200 and (await resp.json())["seat"] == seated[name]["seat"]
    # a seek is its account's alone
    stranger = await sign_up(http, "Stranger")
    ana_seek = seeks["Ana"][1]
    await expect_problem(await call(http, "GET", f"/seeks/{ana_seek}", stranger), 404, "DS-51")
    await expect_problem(await call(http, "DELETE", f"/seeks/{ana_seek}", stranger), 404, "DS-51")
    await expect_problem(await call(http, "GET", f"/seeks/{ana_seek}"), 401, "DS-34")
    await expect_problem(await call(http, "POST", "/seeks", json={"game": "paohuzi"}), 401, "DS-34")


async def test_people_of_one_rating_are_seated_without_bots_and_a_seek_ends_when_its_person_leaves(http):
    sessions = [await sign_up(http, f"Wan{'abcd'[n]}") for n in range(4)]
    for bad in ({"game": "chess"}, {"game": "paohuzi", "bots_after_s": -1}, {"bots_after_s": 1},
                {"game": "paohuzi", "bots_after_s": "soon"}, {"game": "paohuzi", "x": 1}):  # fmt: skip
        resp = await call(http, "POST", "/seeks", sessions[0], json=bad)
        assert resp.status in (400, 422) and resp.content_type == "application/problem+json"
    leaver = await _seek(http, sessions[3], {"game": "mcr"})
    resp = await call(http, "DELETE", f"/seeks/{leaver}", sessions[3])
    assert resp.status == 204
    await expect_problem(await call(http, "GET", f"/seeks/{leaver}", sessions[3]), 404, "DS-51")
    seeks = [await _seek(http, s, {"game": "paohuzi"}) for s in sessions[:3]]
    states = [await _seated(http, s, k) for s, k in zip(sessions, seeks, strict=False)]
    assert len({s["deal_id"] for s in states}) == 1 and sorted(s["seat"] for s in states) == [0, 1, 2]
    summary = await (await http.get(f"/deals/{states[0]['deal_id']}")).json()
    assert "bot:greedy" not in summary["seats"] and sorted(summary["names"]) == ["Wana", "Wanb", "Wanc"]
    # asking again while waiting answers the same seek
    again = await _seek(http, sessions[3], {"game": "mcr"})
    assert await _seek(http, sessions[3], {"game": "mcr"}) == again


async def test_two_processes_seat_every_seeker_exactly_once(http, second_server):
    names = ["Abe", "Bea", "Cyd", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivo", "Jon", "Kat", "Uma"]
    sessions = [await sign_up(http, name) for name in names]
    clients = [http if n % 2 else second_server for n in range(12)]
    cookie = lambda s: {"Cookie": f"ds_session={s}"}  # noqa: E731

    async def seek(n: int) -> str:
        resp = await clients[n].post("/seeks", json={"game": "paohuzi"}, headers=cookie(sessions[n]))
        assert resp.status == 201, await resp.text()
        return (await resp.json())["seek_id"]

    seeks = await asyncio.gather(*(seek(n) for n in range(12)))
    states = await asyncio.gather(*(_seated(clients[n], sessions[n], seeks[n]) for n in range(12)))
    places = [(s["deal_id"], s["seat"]) for s in states]
    assert len(set(places)) == 12  # no seat given twice
    tables: dict[str, list[int]] = {}
    for deal_id, seat in places:
        tables.setdefault(deal_id, []).append(seat)
    assert sorted(len(seats) for seats in tables.values()) == [3, 3, 3, 3]
    for n, state in enumerate(states):  # each seeker's token is its own seat's, read on either process
        view = await (await http.get(f"/deals/{state['deal_id']}/view", headers=auth(state["token"]))).json()
        assert view["seat"] == state["seat"]
        summary = await (await http.get(f"/deals/{state['deal_id']}")).json()
        assert summary["names"][state["seat"]] == names[n]


async def test_a_table_matched_by_a_process_that_died_is_made_by_the_next_read(store):
    """The matching script seated two seekers, and the process that ran it died before making
    the deal: once the grace is over, a read of either seek makes the deal under that id."""
    from service.app.accounts import Account, Accounts
    from service.app.bots.runner import BotRunner
    from service.app.commands.deals import DealService
    from service.app.seeks import MAKE_GRACE_S, QuickPlay

    now = [1_000_000.0]
    deals = DealService(store, bots=BotRunner(0.0))
    quick = QuickPlay(deals, Accounts(store), clock=lambda: now[0])
    try:
        ana, bo = Account("acct-ana", "Ana"), Account("acct-bo", "Bo")
        # the seeks go straight into the queue: no process looks for tables on its way
        ids = {}
        for account in (ana, bo):
            ids[account.name] = f"mcr-{account.id.replace('-', '')}"
            await quick.store.add(
                "mcr", ids[account.name], account.id, account.name, 0.0, 0, 1_000_000_000, 30_000
            )
        table = await quick.store.match("mcr", "ab" * 8, 4, 2.0, 1.0, 30_000, 1_000_000_000)  # then it died
        assert table is not None and table.bots == 2 and len(table.seek_ids) == 2
        state = await quick.read(ana, ids["Ana"])
        assert state.status == "waiting"  # the deal may still be on its way: not made twice at once
        now[0] += MAKE_GRACE_S + 1
        states = {a.name: await quick.read(a, ids[a.name]) for a in (ana, bo)}
        assert {s.status for s in states.values()} == {"seated"}
        assert {s.deal_id for s in states.values()} == {"ab" * 8}
        folded = await deals.load("ab" * 8)
        assert sorted(n for n in folded.state.seating.names if n) == ["Ana", "Bo"]
        assert folded.seats.count("bot:greedy") == 2
    finally:
        await deals.close()
