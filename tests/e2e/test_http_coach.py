"""Through HTTP: the coach answers a seat of a deal that allows it, from that seat's own view."""

from __future__ import annotations

from tests.e2e.conftest import auth


async def _started(http, game: str, seats: list[str], **extra) -> tuple[str, dict]:
    created = await (await http.post("/deals", json={"game": game, "seats": seats, **extra})).json()
    token = created["tokens"]["0"]
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "coach"}}
    assert (
        await http.post(f"/deals/{created['deal_id']}/commands", json=start, headers=auth(token))
    ).status == 200
    return created["deal_id"], created


async def test_one_person_against_bots_gets_advice_from_its_own_view(http):
    for game, bots in (("mcr", ["bot:greedy"] * 3), ("paohuzi", ["bot:greedy"] * 2)):
        deal_id, created = await _started(http, game, ["human", *bots])
        assert created["coach"] is True
        resp = await http.get(f"/deals/{deal_id}/coach", headers=auth(created["tokens"]["0"]))
        assert resp.status == 200, await resp.text()
        advice = await resp.json()
        assert advice["game"] == game and advice["seat"] == 0
        view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(created["tokens"]["0"]))).json()
        assert 1 <= advice["version"] <= view["version"]  # the bots may have moved since
        assert (await http.get(f"/deals/{deal_id}/coach")).status == 401  # a seat asks, nobody else


async def test_a_table_of_several_people_has_no_coach_unless_created_with_one(http):
    deal_id, created = await _started(http, "mcr", ["human", "human", "bot:greedy", "bot:greedy"])
    assert created["coach"] is False
    resp = await http.get(f"/deals/{deal_id}/coach", headers=auth(created["tokens"]["0"]))
    assert resp.status == 403 and (await resp.json())["rule"] == "DS-16"
    deal_id, created = await _started(http, "mcr", ["human", "human", "bot:greedy", "bot:greedy"], coach=True)
    assert (await http.get(f"/deals/{deal_id}/coach", headers=auth(created["tokens"]["1"]))).status == 200
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["coach"] is True
