"""Through HTTP: a deal's pace, "Play again" (rematch), seats that did not answer a claim window
before it closed, hidden replay steps named after the end, and the lobby's bot levels."""

from __future__ import annotations

import asyncio
import json
import random

from tests.e2e.conftest import auth


async def _play_out(http, deal_id: str, tokens: dict[str, str], seed: int = 3) -> None:
    rng = random.Random(seed)
    for n in range(3000):
        views = {
            s: await (await http.get(f"/deals/{deal_id}/view", headers=auth(t))).json()
            for s, t in tokens.items()
        }
        if next(iter(views.values()))["result"] is not None:
            return
        acting = [(s, v) for s, v in views.items() if v["legal_actions"]]
        if not acting:  # the bots are moving in the server
            await asyncio.sleep(0.01)
            continue
        seat, view = rng.choice(acting)
        actions = view["legal_actions"]
        if actions[0]["type"] == "StartDeal":
            command = {"type": "StartDeal", "client_seed": "again"}
        else:
            wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
            command = wins[0] if wins else rng.choice(actions)
        body = {"command_id": f"p{n}", "command": command}
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(tokens[seat]))
        if resp.status in (403, 409) and command.get("window") is not None:
            # a bot's stronger claim closed the window between the view and the answer (PH-6.4),
            # or won the deal with it: the refusal is right; look again
            assert (await resp.json())["rule"] == ("DS-3" if resp.status == 403 else "DS-6")
            continue
        assert resp.status == 200, await resp.text()
    raise AssertionError("the deal did not end")


async def _log(http, deal_id: str) -> list[dict]:
    resp = await http.get(f"/deals/{deal_id}/log")
    assert resp.status == 200
    return [json.loads(line) for line in (await resp.read()).splitlines() if line.strip()]


async def test_a_deal_keeps_its_pace_and_refuses_an_unknown_one(http):
    for pace in ("slow", "normal", "fast"):
        created = await (
            await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4, "pace": pace})
        ).json()
        assert created["pace"] == pace
        assert (await (await http.get(f"/deals/{created['deal_id']}")).json())["pace"] == pace
    default = await (await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})).json()
    assert default["pace"] == "normal"
    resp = await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4, "pace": "warp"})
    assert resp.status == 400 and (await resp.json())["rule"] == "DS-5"


async def test_play_again_makes_one_linked_deal_with_the_dealer_moved_on(http):
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:random"], "pace": "fast"}
    created = await (await http.post("/deals", json=body)).json()
    old, tokens = created["deal_id"], created["tokens"]
    resp = await http.post(f"/deals/{old}/rematch", headers=auth(tokens["0"]))
    assert resp.status == 409 and (await resp.json())["rule"] == "DS-2"  # not over yet
    await _play_out(http, old, tokens)
    assert (await http.post(f"/deals/{old}/rematch")).status == 401  # a seat of the deal asks
    resp = await http.post(f"/deals/{old}/rematch", headers=auth(tokens["0"]))
    assert resp.status == 201, await resp.text()
    again = await resp.json()
    assert again["rematch_of"] == old and again["seats"] == created["seats"] and again["pace"] == "fast"
    assert set(again["tokens"]) == {"0"} and again["deal_id"] != old
    refused = await http.post(f"/deals/{old}/rematch", headers=auth(tokens["0"]))
    problem = await refused.json()
    assert (
        refused.status == 409 and problem["rule"] == "DS-15" and problem["rematched_by"] == again["deal_id"]
    )
    old_summary = await (await http.get(f"/deals/{old}")).json()
    new_summary = await (await http.get(f"/deals/{again['deal_id']}")).json()
    assert old_summary["rematched_by"] == again["deal_id"] and new_summary["rematch_of"] == old
    # the new deal's first event names the deal it plays again; its dealer is the next seat
    await _play_out(http, again["deal_id"], again["tokens"], seed=4)
    old_log, new_log = await _log(http, old), await _log(http, again["deal_id"])
    assert new_log[0]["data"]["rematch_of"] == old
    old_dealer = next(r["data"]["dealer"] for r in old_log if r["type"] == "DealStarted")
    new_dealer = next(r["data"]["dealer"] for r in new_log if r["type"] == "DealStarted")
    assert new_dealer == (old_dealer + 1) % 3
    audit = await (await http.get(f"/deals/{again['deal_id']}/audit")).json()
    assert audit["ok"] and audit["fixed_deck"] is False, audit["problems"]


async def test_seats_asked_but_not_answering_before_a_window_closed_are_named(http):
    """After the end every window lists its eligible seats that had not answered when it resolved
    (a higher claim closed it); during the deal a seat sees only itself there."""
    body = {"game": "paohuzi", "seats": ["human"] * 3}
    created = await (await http.post("/deals", json=body)).json()
    deal_id, tokens = created["deal_id"], created["tokens"]
    await _play_out(http, deal_id, tokens, seed=11)
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    windows = audit["claim_windows"]
    assert windows and all("unanswered" in w for w in windows)
    for w in windows:
        answered = {a["seat"] for a in w["answers"]}
        assert not answered & set(w["unanswered"])
        assert set(w["unanswered"]) | answered == {int(s) for s in w["options"]}


async def test_after_the_end_a_replay_step_hidden_from_the_seat_says_what_kind_of_step_it_was(http):
    created = await (await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})).json()
    deal_id, tokens = created["deal_id"], created["tokens"]
    await _play_out(http, deal_id, tokens, seed=5)
    log = await _log(http, deal_id)
    hidden = [i + 1 for i, r in enumerate(log) if r["type"] == "ClaimAnswered" and r["data"]["seat"] != 0]
    assert hidden, "no answer by another seat in this deal"
    frame = await (
        await http.get(f"/deals/{deal_id}/replay", params={"step": hidden[0], "perspective": 0})
    ).json()
    event = frame["event"]
    assert event["hidden"] is True and event["type"] == "ClaimAnswered" and event["seat"] != 0
    assert set(event) == {"type", "seat", "hidden"}  # what kind of step, by whom: not the answer


async def test_the_games_list_the_bot_levels_with_a_default(http):
    games = (await (await http.get("/games")).json())["games"]
    for g in games:
        levels = {lv["level"]: lv for lv in g["levels"]}
        assert set(levels) == set(g["bots"]) >= {"random", "greedy"}
        assert sum(lv["default"] for lv in g["levels"]) == 1
        default = next(lv["level"] for lv in g["levels"] if lv["default"])
        assert default == ("strong" if "strong" in levels else "greedy")
        for lv in g["levels"]:
            if lv["strength"] is not None:
                low, high = lv["strength"]["ci95"]
                assert low <= lv["strength"]["mean_net_per_deal"] <= high
