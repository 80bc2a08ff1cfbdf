"""Whole deals of both games through HTTP, over a real Redis server."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import auth, play_as_human, wait_for

pytestmark = pytest.mark.redis


def first_action(view: dict) -> dict:
    """A scripted player: wins when it can, else takes the first legal action."""
    for action in view["legal_actions"]:
        if action["type"] in ("Win", "DeclareWin"):
            return action
    return view["legal_actions"][0]


@pytest.mark.parametrize(
    "game,seats",
    [
        ("paohuzi", ["human", "bot:greedy", "bot:random"]),
        ("mcr", ["human", "bot:greedy", "bot:greedy", "bot:random"]),
    ],
)
async def test_whole_deal_played_by_a_scripted_client(http, game, seats):
    resp = await http.post("/deals", json={"game": game, "seats": seats})
    assert resp.status == 201
    created = await resp.json()
    assert set(created["tokens"]) == {"0"} and len(created["commitment"]) == 64
    token = created["tokens"]["0"]
    deal_id = created["deal_id"]

    view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
    assert view["prompt"] == "start"
    start = await http.post(
        f"/deals/{deal_id}/commands",
        json={"command_id": "start", "command": {"type": "StartDeal", "client_seed": "my lucky seed"}},
        headers=auth(token),
    )
    assert start.status == 200, await start.text()

    final = await play_as_human(http, deal_id, token, first_action)
    assert final["result"] is not None

    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["over"] is True
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"], audit["problems"]
    assert audit["chain_ok"] and audit["commitment_ok"] and audit["shuffle_ok"] and audit["redecided_ok"]

    log = await http.get(f"/deals/{deal_id}/log")
    assert log.status == 200 and log.content_type == "application/x-ndjson"
    lines = (await log.read()).splitlines()
    assert len(lines) == summary["version"]

    frame = await (
        await http.get(f"/deals/{deal_id}/replay", params={"step": 5, "perspective": "all"})
    ).json()
    assert frame["step"] == 5 and frame["total"] == summary["version"]


@pytest.mark.parametrize("game,seats", [("paohuzi", ["bot:greedy"] * 3), ("mcr", ["bot:greedy"] * 4)])
async def test_all_bot_deal_starts_at_once_and_finishes(http, game, seats):
    created = await (
        await http.post("/deals", json={"game": game, "seats": seats, "client_seed": "x"})
    ).json()
    assert created["tokens"] == {}
    deal_id = created["deal_id"]

    async def over():
        return (await (await http.get(f"/deals/{deal_id}")).json())["over"]

    await wait_for(over, timeout=60)
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"], audit["problems"]


async def test_repeated_command_id_returns_the_first_answer_and_appends_nothing(http):
    created = await (
        await http.post("/deals", json={"game": "mcr", "seats": ["human", "human", "human", "human"]})
    ).json()
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    body = {"command_id": "s1", "command": {"type": "StartDeal", "client_seed": "a"}}
    first = await (await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))).json()
    again = await (await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))).json()
    assert again["duplicate"] is True and first["duplicate"] is False
    assert (again["first_version"], again["version"]) == (first["first_version"], first["version"])
    assert again["events"] == first["events"]
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["version"] == first["version"]


async def test_command_answer_carries_the_view_only_when_asked(http):
    created = await (
        await http.post("/deals", json={"game": "paohuzi", "seats": ["human", "human", "human"]})
    ).json()
    deal_id, tokens = created["deal_id"], created["tokens"]
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "a"}}
    plain = await (
        await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(tokens["0"]))
    ).json()
    assert plain["view"] is None and plain["events"]
    # the seat that must act next asks for its view with the command
    actor = str((await (await http.get(f"/deals/{deal_id}")).json())["seats_to_act"][0])
    view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens[actor]))).json()
    body = {"command_id": "c", "command": view["legal_actions"][0], "return_view": True}
    answer = await (
        await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(tokens[actor]))
    ).json()
    after = await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens[actor]))).json()
    assert answer["view"] == after and answer["view"]["seat"] == int(actor)
    assert answer["view"]["version"] == answer["version"]
    # the same command again: the first versions and events, and the view as it is now
    again = await (
        await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(tokens[actor]))
    ).json()
    assert again["duplicate"] and again["events"] == answer["events"] and again["view"] == after
    bad = {**body, "command_id": "d", "return_view": "yes"}
    refused = await http.post(f"/deals/{deal_id}/commands", json=bad, headers=auth(tokens[actor]))
    assert refused.status == 400 and (await refused.json())["rule"] == "DS-5"


async def test_games_deal_list_and_page_headers(http):
    games = (await (await http.get("/games")).json())["games"]
    assert {(g["game"], g["seats"]) for g in games} == {("paohuzi", 3), ("mcr", 4)}
    assert all(set(g["bots"]) >= {"greedy", "random"} for g in games)
    assert [g["rules_page"] for g in games] == [f"/#/rules/{g['game']}" for g in games]

    # a live deal with people is listed only when it was opened to spectators
    private = await (await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})).json()
    assert private["spectators"] is False
    body = {"game": "mcr", "seats": ["human"] * 4, "spectators": True}
    created = await (await http.post("/deals", json=body)).json()
    listed = (await (await http.get("/deals")).json())["deals"]
    assert listed[0]["deal_id"] == created["deal_id"]
    assert private["deal_id"] not in [d["deal_id"] for d in listed]
    assert listed[0]["game"] == "mcr" and listed[0]["over"] is False and listed[0]["created_ms"] > 0
    assert listed[0]["spectators"] is True

    page = await http.get("/")
    assert page.status == 200
    assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    api = await http.get("/health")
    assert "Content-Security-Policy" not in api.headers
