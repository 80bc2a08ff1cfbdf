"""Names and player keys over HTTP: a name that shows nothing or reads as the client's own label
for a seat is refused (TB-1.3), and only a player key the service minted is accepted (DS-26), in
any process on the store."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import expect_problem

pytestmark = pytest.mark.redis


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u2800", "\u115f\u1160", "\uffa0", "\u0301", "Computer 1", "You", "ｙｏｕ", "Tietokone 2"],
)
async def test_a_blank_looking_or_label_copying_name_is_refused_and_nothing_is_appended(http, name):
    body = {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"]}
    await expect_problem(await http.post("/deals", json={**body, "name": name}), 400, "TB-1.3")
    created = await (await http.post("/deals", json=body)).json()
    deal_id, code = created["deal_id"], created["invites"]["1"]
    version = (await (await http.get(f"/deals/{deal_id}")).json())["version"]
    resp = await http.post(f"/deals/{deal_id}/join", json={"invite": code, "name": name})
    await expect_problem(resp, 400, "TB-1.3")
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["version"] == version and summary["open_seats"] == [1]
    joined = await http.post(f"/deals/{deal_id}/join", json={"invite": code, "name": "Youssef"})
    assert joined.status == 201, await joined.text()


async def _mint(http) -> str:
    resp = await http.post("/players/keys")
    assert resp.status == 201, await resp.text()
    return (await resp.json())["player_key"]


async def test_only_a_minted_player_key_is_accepted_in_every_process(http, second_server):
    mine = await _mint(http)
    assert len(mine) == 44 and mine != await _mint(http)
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"]}
    # a guessed key, or one a browser made itself: refused with a clear problem, nothing listed
    for guess in ("aaaaaaaaaaaaaaaa", "A" * 43, mine[:-1] + ("A" if mine[-1] != "A" else "B")):
        resp = await http.get("/players/me/deals", headers={"X-Player-Key": guess})
        problem = await expect_problem(resp, 400, "DS-26")
        assert "POST /players/keys" in problem["detail"]
        await expect_problem(await http.post("/deals", json={**body, "player_key": guess}), 400, "DS-26")
    created = await (await http.post("/deals", json={**body, "player_key": mine})).json()
    resp = await http.get("/players/me/deals", headers={"X-Player-Key": mine})
    assert resp.status == 200, await resp.text()
    listed = await resp.json()
    assert [d["deal_id"] for d in listed["deals"]] == [created["deal_id"]]
    # another process on the same store checks and mints alike
    async with second_server.get("/players/me/deals", headers={"X-Player-Key": mine}) as resp:
        assert resp.status == 200
        assert [d["deal_id"] for d in (await resp.json())["deals"]] == [created["deal_id"]]
    async with second_server.post("/players/keys") as resp:
        assert resp.status == 201
        theirs = (await resp.json())["player_key"]
    assert (await http.get("/players/me/deals", headers={"X-Player-Key": theirs})).status == 200


async def test_a_match_goes_on_with_a_name_recorded_before_the_rule_refused_it(http, monkeypatch):
    """A name the names rule refuses today but a match's first deal recorded before (an upgrade
    refined TB-1.3 between two deals) is kept for the match's next deal, which is created."""
    import re

    from domain.table import names
    from tests.e2e.test_http_matches import _play_person, _until

    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:random"], "pace": "fast", "length": 2}
    created = await (await http.post("/matches", json={**body, "name": "Zed"})).json()
    match_id, token = created["match_id"], created["tokens"]["0"]
    monkeypatch.setattr(names, "_RESERVED", (*names._RESERVED, re.compile("zed")))  # the refined rule
    await expect_problem(await http.post("/matches", json={**body, "name": "Zed"}), 400, "TB-1.3")
    await _play_person(http, created["deal_id"], token)

    async def second():
        m = await (await http.get(f"/matches/{match_id}")).json()
        return m if len(m["deals"]) == 2 else None

    m = await _until(second, "the second deal", timeout=120)
    assert m["names"][0] == "Zed"
