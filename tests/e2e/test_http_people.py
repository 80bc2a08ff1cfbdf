"""People at one table over HTTP (TB-1, TB-3): invites, the lobby, bots for open seats, a
shuffle seeded by every person, and the refusals, each with its rule id and nothing appended."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest

from tests.e2e.conftest import auth, create_deal, expect_problem, play_as_human, wait_for

pytestmark = pytest.mark.redis


async def _summary(http, deal_id: str) -> dict:
    return await (await http.get(f"/deals/{deal_id}")).json()


async def _start(http, deal_id: str, token: str, seed: str):
    body = {"command_id": f"start-{seed}", "command": {"type": "StartDeal", "client_seed": seed}}
    return await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))


def _first_legal(view: dict) -> dict:
    return view["legal_actions"][0]


async def test_an_invited_person_joins_and_both_seeds_deal_the_cards(http):
    created = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "name": "Ana"}
    )
    deal_id = created["deal_id"]
    assert set(created["tokens"]) == {"0"} and set(created["invites"]) == {"1"}  # TB-1.1
    code = created["invites"]["1"]
    assert created["join_links"]["1"] == f"/#/join/{deal_id}/{code}"
    summary = await _summary(http, deal_id)
    assert summary["names"] == ["Ana", None, None] and summary["open_seats"] == [1]
    assert summary["seats"] == ["human", "open", "bot:greedy"]
    version = summary["version"]

    # nobody starts while a seat is open (TB-1.4), and that appends nothing
    await expect_problem(await _start(http, deal_id, created["tokens"]["0"], "ana-seed"), 409, "TB-1.4")
    assert (await _summary(http, deal_id))["version"] == version

    # a wrong code, another deal's code: refused; the right one gives the seat and a token once
    other = await create_deal(http, {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"]})
    await expect_problem(
        await http.post(f"/deals/{deal_id}/join", json={"invite": "nope", "name": "Bo"}), 403, "DS-19"
    )
    wrong_deal = {"invite": other["invites"]["1"], "name": "Bo"}
    await expect_problem(await http.post(f"/deals/{deal_id}/join", json=wrong_deal), 403, "DS-19")
    resp = await http.post(f"/deals/{deal_id}/join", json={"invite": code, "name": "Bo"})
    assert resp.status == 201, await resp.text()
    joined = await resp.json()
    assert joined["seat"] == 1 and joined["name"] == "Bo" and len(joined["token"]) > 30
    again = await http.post(f"/deals/{deal_id}/join", json={"invite": code, "name": "Cy"})
    await expect_problem(again, 409, "DS-18")  # a used invite (TB-1.2)
    summary = await _summary(http, deal_id)
    assert summary["names"] == ["Ana", "Bo", None] and summary["open_seats"] == []
    assert summary["seats"] == ["human", "human", "bot:greedy"]
    assert summary["waiting_to_start"] == [0, 1]

    bo = joined["token"]
    ana = created["tokens"]["0"]
    seat_view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(bo))).json()
    assert seat_view["seat"] == 1 and any(a["type"] == "StartDeal" for a in seat_view["legal_actions"])

    # Ana starts first: her seed is kept back from everyone until the deal is dealt (TB-3.2)
    resp = await _start(http, deal_id, ana, "ana-seed")
    assert resp.status == 200, await resp.text()
    answer = await resp.json()
    assert [e["type"] for e in answer["events"]] == ["SeatReady"]
    assert "ana-seed" not in json.dumps(answer)
    assert (await _summary(http, deal_id))["waiting_to_start"] == [1]
    ana_view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(ana))).json()
    assert not any(a["type"] == "StartDeal" for a in ana_view["legal_actions"])
    for path in ("/replay", "/audit", ""):
        for token in (bo, ana, None):
            headers = auth(token) if token else {}
            text = await (await http.get(f"/deals/{deal_id}{path}", headers=headers)).text()
            assert "ana-seed" not in text, (path, token)
    await expect_problem(await _start(http, deal_id, ana, "second-try"), 409, "DS-2")

    resp = await _start(http, deal_id, bo, "bo-seed")
    assert resp.status == 200, await resp.text()
    assert "DealStarted" in [e["type"] for e in (await resp.json())["events"]]

    await asyncio.gather(
        play_as_human(http, deal_id, ana, _first_legal), play_as_human(http, deal_id, bo, _first_legal)
    )
    log = [json.loads(line) for line in (await (await http.get(f"/deals/{deal_id}/log")).text()).splitlines()]
    events = [record["data"] for record in log]
    started = next(e for e in events if e["type"] == "DealStarted")
    revealed = events[-1]
    assert started["client_seeds"] == ["ana-seed", "bo-seed"] and started["client_seed"] == ""
    assert revealed["type"] == "SeedRevealed" and revealed["client_seeds"] == ["ana-seed", "bo-seed"]
    digests = hashlib.sha256(b"ana-seed").digest() + hashlib.sha256(b"bo-seed").digest()
    want = hashlib.sha256(bytes.fromhex(revealed["server_seed"]) + digests).hexdigest()
    assert revealed["seed"] == want  # TB-3.1, re-derived here with nothing but SHA-256
    text = json.dumps(log)
    assert bo not in text and ana not in text and code not in text  # tokens and invites: digests only
    joined_event = next(e for e in events if e["type"] == "SeatJoined" and e["seat"] == 1)
    assert joined_event["invited"] is True and joined_event["name"] == "Bo"
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"] and audit["shuffle_ok"] and audit["redecided_ok"], audit["problems"]
    # the seat events are shown without the token digest to every viewer, even after the end
    frame = await (await http.get(f"/deals/{deal_id}/replay?step=3&perspective=0")).json()
    assert frame["event"]["type"] == "SeatJoined" and "token_digest" not in frame["event"]


async def test_a_lobby_table_lists_its_open_seats_and_anyone_may_take_one(http):
    created = await create_deal(
        http, {"game": "mcr", "seats": ["human", "open", "open", "bot:random"], "lobby": True}
    )
    deal_id, ana = created["deal_id"], created["tokens"]["0"]
    lobby = await (await http.get("/lobby")).json()
    row = next(t for t in lobby["tables"] if t["deal_id"] == deal_id)
    assert row["open_seats"] == [1, 2] and row["game"] == "mcr"

    # a seated token may not take a second seat; a bot seat is not open; out of range is no seat
    seated = await http.post(f"/deals/{deal_id}/join", json={"seat": 1, "name": "Ana"}, headers=auth(ana))
    await expect_problem(seated, 409, "DS-21")
    await expect_problem(
        await http.post(f"/deals/{deal_id}/join", json={"seat": 3, "name": "Cy"}), 409, "DS-18"
    )
    await expect_problem(
        await http.post(f"/deals/{deal_id}/join", json={"seat": 0, "name": "Cy"}), 409, "DS-18"
    )
    resp = await http.post(f"/deals/{deal_id}/join", json={"seat": 1, "name": "Bo"})
    assert resp.status == 201, await resp.text()
    bo = (await resp.json())["token"]

    # only the creator fills an open seat with a bot (TB-1.4)
    fill = {"level": "greedy"}
    await expect_problem(
        await http.post(f"/deals/{deal_id}/seats/2/bot", json=fill, headers=auth(bo)), 403, "DS-20"
    )
    await expect_problem(await http.post(f"/deals/{deal_id}/seats/2/bot", json=fill), 401, "DS-8")
    bad_level = {"level": "godlike"}
    await expect_problem(
        await http.post(f"/deals/{deal_id}/seats/2/bot", json=bad_level, headers=auth(ana)), 400, "DS-5"
    )
    resp = await http.post(f"/deals/{deal_id}/seats/2/bot", json=fill, headers=auth(ana))
    assert resp.status == 200, await resp.text()
    assert (await resp.json())["kind"] == "bot:greedy"
    again = await http.post(f"/deals/{deal_id}/seats/2/bot", json=fill, headers=auth(ana))
    assert (
        again.status == 200 and (await again.json())["version"] == (await resp.json())["version"]
    )  # a retry
    other = await http.post(f"/deals/{deal_id}/seats/2/bot", json={"level": "random"}, headers=auth(ana))
    await expect_problem(other, 409, "DS-18")
    assert not [t for t in (await (await http.get("/lobby")).json())["tables"] if t["deal_id"] == deal_id]
    summary = await _summary(http, deal_id)
    assert summary["seats"] == ["human", "human", "bot:greedy", "bot:random"]

    assert (await _start(http, deal_id, bo, "b")).status == 200
    assert (await _start(http, deal_id, ana, "a")).status == 200
    await asyncio.gather(
        play_as_human(http, deal_id, ana, _first_legal), play_as_human(http, deal_id, bo, _first_legal)
    )
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"], audit["problems"]


async def test_joining_by_seat_number_needs_a_lobby_table_and_the_join_needs_a_name(http):
    created = await create_deal(http, {"game": "paohuzi", "seats": ["human", "open", "open"]})
    deal_id = created["deal_id"]
    version = (await _summary(http, deal_id))["version"]
    await expect_problem(
        await http.post(f"/deals/{deal_id}/join", json={"seat": 1, "name": "Bo"}), 403, "DS-19"
    )
    code = created["invites"]["1"]
    for name in ["<b>Bo</b>", "evil\u202eman", "a\x00b", "x" * 10_000, "", 42, None]:
        resp = await http.post(f"/deals/{deal_id}/join", json={"invite": code, "name": name})
        await expect_problem(resp, 400, "TB-1.3")
    both = {"invite": code, "seat": 1, "name": "Bo"}
    await expect_problem(await http.post(f"/deals/{deal_id}/join", json=both), 400, "DS-5")
    await expect_problem(
        await http.post("/deals/0000000000000000/join", json={"invite": code, "name": "Bo"}), 404, "DS-7"
    )
    assert (await _summary(http, deal_id))["version"] == version  # nothing appended
    # the invite still works after all of that
    resp = await http.post(f"/deals/{deal_id}/join", json={"invite": code, "name": "Bo"})
    assert resp.status == 201, await resp.text()


async def test_a_started_deal_has_no_seat_to_join_and_a_lobby_needs_an_open_seat(http):
    lonely = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "lobby": True}
    await expect_problem(await http.post("/deals", json=lonely), 400, "TB-1.2")
    bad_name = {"game": "paohuzi", "seats": ["bot:greedy"] * 3, "name": "Ana"}
    await expect_problem(await http.post("/deals", json=bad_name), 400, "TB-1.3")
    # people only (no bot moves on its own) and a long clock: the log holds still while the
    # refused requests come in
    slow = {"move_s": 600, "claim_s": 600, "bank_s": 0}
    created = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "open", "open"], "lobby": True, "clock": slow}
    )
    deal_id = created["deal_id"]
    bo = (await (await http.post(f"/deals/{deal_id}/join", json={"seat": 1, "name": "Bo"})).json())["token"]
    cy = (await (await http.post(f"/deals/{deal_id}/join", json={"seat": 2, "name": "Cy"})).json())["token"]
    for token, seed in ((created["tokens"]["0"], "a"), (bo, "b"), (cy, "c")):
        assert (await _start(http, deal_id, token, seed)).status == 200
    version = (await _summary(http, deal_id))["version"]
    late = await http.post(f"/deals/{deal_id}/join", json={"invite": created["invites"]["1"], "name": "Di"})
    await expect_problem(late, 409, "DS-18")
    fill = await http.post(
        f"/deals/{deal_id}/seats/1/bot", json={"level": "greedy"}, headers=auth(created["tokens"]["0"])
    )
    await expect_problem(fill, 409, "DS-18")
    assert (await _summary(http, deal_id))["version"] == version


async def test_one_person_with_bots_starts_exactly_as_before(http):
    """One person: the seed is sha256(server_seed || client_seed), and the log has no seed list."""
    created = await create_deal(
        http, {"game": "mcr", "seats": ["human", "bot:greedy", "bot:greedy", "bot:greedy"]}
    )
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    assert (await _start(http, deal_id, token, "solo")).status == 200
    await play_as_human(http, deal_id, token, _first_legal)
    log = [
        json.loads(line)["data"]
        for line in (await (await http.get(f"/deals/{deal_id}/log")).text()).splitlines()
    ]
    revealed = log[-1]
    assert "client_seeds" not in revealed and revealed["client_seed"] == "solo"
    assert revealed["seed"] == hashlib.sha256(bytes.fromhex(revealed["server_seed"]) + b"solo").hexdigest()


async def test_fifty_joins_for_one_seat_over_two_processes_give_one_token(http, second_server):
    """TB-1.2: the conditional append decides between concurrent joins: one seat, one token."""
    created = await create_deal(
        http, {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"], "lobby": True}
    )
    deal_id = created["deal_id"]
    code = created["invites"]["1"]

    async def join(i: int):
        client = http if i % 2 else second_server
        body = {"invite": code, "name": f"P{i}"} if i % 4 < 2 else {"seat": 1, "name": f"P{i}"}
        resp = await client.post(f"/deals/{deal_id}/join", json=body)
        return resp.status, await resp.json()

    answers = await asyncio.gather(*(join(i) for i in range(50)))
    won = [body for status, body in answers if status == 201]
    lost = [body for status, body in answers if status != 201]
    assert len(won) == 1, answers
    assert len(lost) == 49 and all(body["rule"] == "DS-18" and body["status"] == 409 for body in lost), lost
    token = won[0]["token"]
    for client in (http, second_server):
        view = await (await client.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
        assert view["seat"] == 1
    summary = await _summary(http, deal_id)
    assert summary["names"][1] == won[0]["name"] and summary["open_seats"] == []
    assert summary["version"] == 2  # DealCreated and one SeatJoined: nothing else was appended


async def test_one_seat_cannot_flood_a_table_with_commands(http):
    """Commands are limited per seat token (429 DS-22 with Retry-After); nothing is appended and
    the other seats of the table are not slowed by it."""
    created = await create_deal(http, {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"]})
    deal_id, ana = created["deal_id"], created["tokens"]["0"]
    bo = (
        await (
            await http.post(f"/deals/{deal_id}/join", json={"invite": created["invites"]["1"], "name": "Bo"})
        ).json()
    )["token"]
    version = (await _summary(http, deal_id))["version"]
    junk = {"command_id": "x", "command": {"type": "Pass", "window": 99}}
    statuses = []
    for _ in range(210):
        resp = await http.post(f"/deals/{deal_id}/commands", json=junk, headers=auth(ana))
        statuses.append(resp.status)
        if resp.status == 429:
            body = await resp.json()
            assert body["rule"] == "DS-22" and int(resp.headers["Retry-After"]) >= 1
            break
    assert statuses[-1] == 429 and 429 not in statuses[:-1] and len(statuses) > 100
    assert (await _summary(http, deal_id))["version"] == version
    resp = await _start(http, deal_id, bo, "bo")  # another seat's command still goes through
    assert resp.status == 200, await resp.text()


async def test_views_say_which_people_are_connected_in_any_process(http, second_server):
    """A seat is connected while a stream of its own is open, in whichever process serves it;
    a spectator's stream and a bot seat never count, and a closed stream stops counting."""
    created = await create_deal(
        http,
        {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"], "spectators": True},
    )
    deal_id, bo = created["deal_id"], created["tokens"]["0"]
    joined = await http.post(
        f"/deals/{deal_id}/join", json={"invite": created["invites"]["1"], "name": "Ana"}
    )
    ana = (await joined.json())["token"]

    async def connected(client=http) -> list[int]:
        return (await _summary(client, deal_id))["table"]["connected"]

    assert await connected() == []
    watcher = await http.get(f"/deals/{deal_id}/events/stream")  # a spectator
    bo_stream = await http.get(f"/deals/{deal_id}/events/stream", headers=auth(bo))
    ana_stream = await second_server.get(f"/deals/{deal_id}/events/stream", headers=auth(ana))
    assert {watcher.status, bo_stream.status, ana_stream.status} == {200}
    # both processes see both people, in the summary and in each seat's own view
    await wait_for(lambda: _connected_is(connected, [0, 1]), timeout=30)
    await wait_for(lambda: _connected_is(lambda: connected(second_server), [0, 1]), timeout=30)
    view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(ana))).json()
    assert view["seating"]["connected"] == [0, 1]
    ana_stream.close()
    await wait_for(lambda: _connected_is(connected, [0]), timeout=30)
    bo_stream.close()
    watcher.close()
    await wait_for(lambda: _connected_is(connected, []), timeout=30)


async def _connected_is(read, expected: list[int]) -> bool:
    return await read() == expected
