"""Every bad request gets problem+json with a rule id and appends nothing; seats stay apart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service import bootstrap
from service.http.routes import MAX_BODY
from tests.e2e.conftest import auth

pytestmark = pytest.mark.redis

PROBLEM = "application/problem+json"


async def _started_mcr(http):
    created = await (
        await http.post("/deals", json={"game": "mcr", "seats": ["human", "human", "human", "human"]})
    ).json()
    deal_id, tokens = created["deal_id"], created["tokens"]
    start = {"command_id": "go", "command": {"type": "StartDeal", "client_seed": "s"}}
    resp = await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(tokens["0"]))
    assert resp.status == 200
    return deal_id, tokens


async def _version(http, deal_id):
    return (await (await http.get(f"/deals/{deal_id}")).json())["version"]


async def _problem(resp, status, rule):
    assert resp.status == status, await resp.text()
    assert resp.content_type == PROBLEM
    body = await resp.json()
    assert body["status"] == status and body["detail"]
    if rule is not None:
        assert body["rule"] == rule
    return body


async def test_each_bad_request_is_a_problem_and_appends_nothing(http):
    deal_id, tokens = await _started_mcr(http)
    before = await _version(http, deal_id)
    view0 = await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens["0"]))).json()
    turn = view0["turn"]
    mover, idle = tokens[str(turn)], tokens[str((turn + 1) % 4)]
    url = f"/deals/{deal_id}/commands"

    # malformed JSON
    resp = await http.post(
        url, data=b"{not json", headers={**auth(mover), "Content-Type": "application/json"}
    )
    await _problem(resp, 400, "DS-5")
    # unknown command type
    resp = await http.post(
        url, json={"command_id": "a", "command": {"type": "Teleport"}}, headers=auth(mover)
    )
    await _problem(resp, 400, "DS-5")
    # a field of the wrong type
    resp = await http.post(
        url, json={"command_id": "a", "command": {"type": "Discard", "tile": "x"}}, headers=auth(mover)
    )
    await _problem(resp, 400, "DS-5")
    # acting for another seat with one's own token
    other_seat = (turn + 1) % 4
    resp = await http.post(
        url,
        json={"command_id": "a", "command": {"type": "Discard", "seat": other_seat, "tile": 0}},
        headers=auth(mover),
    )
    await _problem(resp, 403, "DS-3")
    # the wrong seat's move (not on turn)
    my_view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(idle))).json()
    resp = await http.post(
        url,
        json={"command_id": "a", "command": {"type": "Discard", "tile": my_view["hand"][0]}},
        headers=auth(idle),
    )
    await _problem(resp, 403, "DS-3")
    # an illegal move: discarding a tile the seat does not hold
    view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(mover))).json()
    foreign = next(t for t in range(136) if t not in view["hand"] and t != view["drawn"])
    resp = await http.post(
        url, json={"command_id": "a", "command": {"type": "Discard", "tile": foreign}}, headers=auth(mover)
    )
    body = await _problem(resp, 422, None)
    assert body["rule"].startswith("MC-")
    # a stale expected version
    legal = view["legal_actions"][0]
    resp = await http.post(
        url, json={"command_id": "a", "command": legal, "expected_version": before - 1}, headers=auth(mover)
    )
    body = await _problem(resp, 409, "DS-4")
    assert body["actual_version"] == before
    # no token, a forged token
    resp = await http.post(url, json={"command_id": "a", "command": legal})
    await _problem(resp, 401, "DS-8")
    resp = await http.post(url, json={"command_id": "a", "command": legal}, headers=auth("forged" * 8))
    await _problem(resp, 401, "DS-8")
    # unknown deal
    resp = await http.post(
        "/deals/nope/commands", json={"command_id": "a", "command": legal}, headers=auth(mover)
    )
    await _problem(resp, 404, "DS-7")
    resp = await http.get("/deals/nope/view", headers=auth(mover))
    await _problem(resp, 404, "DS-7")
    # the 'all' replay and the log before the end
    resp = await http.get(
        f"/deals/{deal_id}/replay", params={"perspective": "all", "step": 3}, headers=auth(mover)
    )
    await _problem(resp, 409, "DS-2")
    resp = await http.get(f"/deals/{deal_id}/replay", params={"perspective": "all", "step": 3})
    await _problem(resp, 401, "DS-8")
    resp = await http.get(f"/deals/{deal_id}/log")
    await _problem(resp, 409, "DS-2")
    # an oversized body
    resp = await http.post(url, data=b'{"command_id":"' + b"x" * 200_000 + b'"}', headers=auth(mover))
    await _problem(resp, 413, "DS-10")
    # one byte over the limit (such a body often sits whole in the buffer: the other read path),
    # and a body of exactly the limit, which is read and then refused as a bad command
    for size, status, rule in ((MAX_BODY + 1, 413, "DS-10"), (MAX_BODY, 400, "DS-5")):
        body = b'{"command_id":"' + b"x" * (size - 17) + b'"}'
        assert len(body) == size
        await _problem(await http.post(url, data=body, headers=auth(mover)), status, rule)
    # an empty client seed would make the deck follow from the public commitment
    resp = await http.post(
        url,
        json={"command_id": "b", "command": {"type": "StartDeal", "client_seed": ""}},
        headers=auth(mover),
    )
    await _problem(resp, 400, "DS-5")
    # a bad command id, an unknown field
    resp = await http.post(url, json={"command_id": "white space", "command": legal}, headers=auth(mover))
    await _problem(resp, 400, "DS-5")
    resp = await http.post(url, json={"command_id": "a", "command": legal, "extra": 1}, headers=auth(mover))
    await _problem(resp, 400, "DS-5")
    # unknown route, wrong method
    await _problem(await http.get("/nowhere"), 404, None)
    await _problem(await http.delete(f"/deals/{deal_id}"), 405, None)

    assert await _version(http, deal_id) == before
    # and the legal move still goes through afterwards
    ok = await http.post(
        url, json={"command_id": "a", "command": legal, "expected_version": before}, headers=auth(mover)
    )
    assert ok.status == 200


async def test_bad_deal_creation_is_refused(http):
    cases = [
        ({"game": "chess", "seats": ["human"] * 2}, "DS-1"),
        ({"game": "mcr", "seats": ["human"] * 3}, "DS-5"),
        ({"game": "paohuzi", "seats": ["human", "bot:genius", "human"]}, "DS-5"),
        ({"game": "paohuzi"}, "DS-5"),
    ]
    for body, rule in cases:
        resp = await http.post("/deals", json=body)
        assert resp.content_type == PROBLEM
        assert (await resp.json())["rule"] == rule, body
    assert (await (await http.get("/deals")).json())["deals"] == []


async def test_fixed_decks_need_dev_mode(aiohttp_client, store):
    client = await aiohttp_client(
        bootstrap.application(store.redis, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix))
    )
    resp = await client.post(
        "/deals", json={"game": "paohuzi", "seats": ["human"] * 3, "deck": list(range(80)), "dealer": 0}
    )
    await _problem(resp, 403, "DS-9")
    # nor does an idle limit other than TB-2.7's hour
    resp = await client.post("/deals", json={"game": "paohuzi", "seats": ["human"] * 3, "idle_s": 5})
    await _problem(resp, 403, "DS-9")


async def test_a_token_neither_acts_for_nor_sees_another_seat(http):
    deal_id, tokens = await _started_mcr(http)
    v0 = await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens["0"]))).json()
    v1 = await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens["1"]))).json()
    assert v0["seat"] == 0 and v1["seat"] == 1
    assert not set(v0["hand"]) & set(v1["hand"])
    seen_by_0 = set(v0["hand"]) | {v0["drawn"]}
    assert not seen_by_0 & set(v1["hand"])
    # own replay perspective works during the deal, another seat's does not
    own = await http.get(
        f"/deals/{deal_id}/replay", params={"perspective": "0", "step": 2}, headers=auth(tokens["0"])
    )
    assert own.status == 200
    other = await http.get(
        f"/deals/{deal_id}/replay", params={"perspective": "1", "step": 2}, headers=auth(tokens["0"])
    )
    await _problem(other, 409, "DS-2")
    # a command naming seat 1 with seat 0's token
    resp = await http.post(
        f"/deals/{deal_id}/commands",
        json={"command_id": "x", "command": {"type": "Discard", "seat": 1, "tile": v1["hand"][0]}},
        headers=auth(tokens["0"]),
    )
    await _problem(resp, 403, "DS-3")
    # the token of another deal is no token here
    other_deal, other_tokens = await _started_mcr(http)
    resp = await http.get(f"/deals/{deal_id}/view", headers=auth(other_tokens["0"]))
    await _problem(resp, 401, "DS-8")


async def test_a_stream_position_that_does_not_read_is_refused_wherever_it_is(http):
    """``Last-Event-ID`` and ``?after=`` each must read as a version or a message id
    (``version.tag``), the one not used included; a ticket is not used up by such a request."""
    deal_id, tokens = await _started_mcr(http)
    url = f"/deals/{deal_id}/events/stream"
    ticket = (await (await http.post(f"/deals/{deal_id}/stream-ticket", headers=auth(tokens["0"]))).json())[
        "ticket"
    ]
    cases = [
        ({"Last-Event-ID": "0"}, {"after": ""}),
        ({"Last-Event-ID": "3.xyz"}, {}),
        ({}, {"after": "3.0123456"}),  # seven hex digits: no id of ours
        ({"Last-Event-ID": "3.0123456789"}, {"after": "3"}),
        ({}, {"after": "3.ABCDEF01", "ticket": ticket}),  # ids are lowercase hex
    ]
    for headers, query in cases:
        await _problem(await http.get(url, headers=headers, params=query), 400, "DS-5")
    async with http.get(url, params={"after": "0", "ticket": ticket}) as resp:  # the ticket still works
        assert resp.status == 200
