"""Through HTTP: a deal's pace, "Play again" (rematch), seats that did not answer a claim window
before it closed, hidden replay steps named after the end, and the lobby's bot levels."""

from __future__ import annotations

import asyncio
import json
import random

from domain.paohuzi.scenario import deck_for
from tests.e2e.conftest import auth, expect_problem


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
    retried = await http.post(f"/deals/{old}/rematch", headers=auth(tokens["0"]))
    assert retried.status == 200, await retried.text()  # a retry reaches the same deal, makes none
    assert (await retried.json())["deal_id"] == again["deal_id"]
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


# --- "Play again" at a table of people -------------------------------------------------------
# the bot in seat 2 holds three ti: it wins as soon as the deal is dealt (PH-2.6), so a table of
# people reaches its end with two StartDeal commands and no move
QUICK_END = deck_for(0, {2: ["s1"] * 4 + ["s2"] * 4 + ["b3"] * 4})


async def _start(http, deal_id: str, token: str, seed: str):
    body = {"command_id": f"start-{seed}", "command": {"type": "StartDeal", "client_seed": seed}}
    resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
    assert resp.status == 200, await resp.text()


async def _ended_table(http, *, lobby: bool) -> tuple[str, str, str]:
    """A finished Paohuzi deal of Bo (seat 0, its creator) and Ana (seat 1: invited, or a
    stranger from the lobby) beside a bot: its id and both tokens."""
    body = {
        "game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "name": "Bo", "lobby": lobby,
        "deck": QUICK_END, "dealer": 0,
    }  # fmt: skip
    resp = await http.post("/deals", json=body)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    deal_id = created["deal_id"]
    join = {"seat": 1, "name": "Ana"} if lobby else {"invite": created["invites"]["1"], "name": "Ana"}
    resp = await http.post(f"/deals/{deal_id}/join", json=join)
    assert resp.status == 201, await resp.text()
    bo, ana = created["tokens"]["0"], (await resp.json())["token"]
    await _start(http, deal_id, bo, "bo")
    await _start(http, deal_id, ana, "ana")
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["over"], summary
    return deal_id, bo, ana


async def _again(http, deal_id: str, token: str, status: int) -> dict:
    resp = await http.post(f"/deals/{deal_id}/rematch", headers=auth(token))
    assert resp.status == status, await resp.text()
    return await resp.json()


async def _seat_of(http, deal_id: str, token: str) -> int:
    resp = await http.get(f"/deals/{deal_id}/view", headers=auth(token))
    assert resp.status == 200, await resp.text()
    return (await resp.json())["seat"]


async def test_play_again_at_a_table_of_people_seats_everyone_again_with_their_names(http):
    """The creator asks first: the new deal has both people in their seats with their names,
    no seat open and no invite; the friend's request (and a retry of either) reaches the same
    deal with the friend's own seat and a token for it; both deal it with their seeds."""
    old, bo, ana = await _ended_table(http, lobby=False)
    first = await _again(http, old, bo, 201)
    new = first["deal_id"]
    assert first["seat"] == 0 and set(first["tokens"]) == {"0"} and first["token"] == first["tokens"]["0"]
    assert first["invites"] == {} and first["join_links"] == {} and first["rematch_of"] == old
    summary = await (await http.get(f"/deals/{new}")).json()
    assert summary["seats"] == ["human", "human", "bot:greedy"] and summary["open_seats"] == []
    assert summary["names"] == ["Bo", "Ana", None]
    assert summary["waiting_to_start"] == [0, 1]
    second = await _again(http, old, ana, 200)
    assert second["deal_id"] == new and second["seat"] == 1 and set(second["tokens"]) == {"1"}
    assert second["invites"] == {}
    for token, seat, answer in ((bo, 0, first), (ana, 1, second)):
        assert await _seat_of(http, new, answer["tokens"][str(seat)]) == seat
        retry = await _again(http, old, token, 200)  # idempotent: the same deal and seat
        assert retry["deal_id"] == new and retry["seat"] == seat
    assert (await (await http.get(f"/deals/{old}")).json())["rematched_by"] == new
    await _start(http, new, second["tokens"]["1"], "ana-2")
    await _start(http, new, first["tokens"]["0"], "bo-2")  # both seeds deal it (TB-3.1)
    summary = await (await http.get(f"/deals/{new}")).json()
    assert summary["waiting_to_start"] == [] and summary["version"] > 4
    frame = await (await http.get(f"/deals/{new}/replay", params={"step": 2}, headers=auth(bo))).json()
    assert frame["event"]["type"] == "SeatJoined" and "token_digest" not in frame["event"]


async def test_at_a_lobby_table_the_stranger_who_asks_first_locks_nobody_out(http):
    """The person who joined from the lobby asks first: the host still has its seat, its name
    and a token for it in the new deal; nobody else may ask, each with a problem+json."""
    old, bo, ana = await _ended_table(http, lobby=True)
    first = await _again(http, old, ana, 201)
    new = first["deal_id"]
    assert first["seat"] == 1 and first["invites"] == {}
    host = await _again(http, old, bo, 200)
    assert host["deal_id"] == new and host["seat"] == 0
    assert await _seat_of(http, new, host["tokens"]["0"]) == 0
    assert await _seat_of(http, new, first["tokens"]["1"]) == 1
    summary = await (await http.get(f"/deals/{new}")).json()
    assert summary["names"] == ["Bo", "Ana", None] and summary["open_seats"] == []
    assert summary["lobby"] is False  # no seat left to find
    # only a seated person asks: no token, a token of another deal, a malformed one
    await expect_problem(await http.post(f"/deals/{old}/rematch"), 401, "DS-8")
    other = await (await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})).json()
    await expect_problem(
        await http.post(f"/deals/{old}/rematch", headers=auth(other["tokens"]["0"])), 401, "DS-8"
    )
    await expect_problem(await http.post(f"/deals/{old}/rematch", headers=auth("x" * 300)), 401, "DS-8")


async def test_both_people_asking_at_once_reach_one_new_deal(http):
    """Two requests at the same moment: one creates the deal, the other reaches it; each gets
    its own seat."""
    old, bo, ana = await _ended_table(http, lobby=False)
    answers = await asyncio.gather(
        *(http.post(f"/deals/{old}/rematch", headers=auth(t)) for t in (bo, ana, bo, ana))
    )
    assert sorted(a.status for a in answers) == [200, 200, 200, 201]
    made = [await a.json() for a in answers]
    assert len({m["deal_id"] for m in made}) == 1
    assert [m["seat"] for m in made] == [0, 1, 0, 1]
    new = made[0]["deal_id"]
    assert await _seat_of(http, new, made[0]["tokens"]["0"]) == 0
    assert await _seat_of(http, new, made[1]["tokens"]["1"]) == 1
    summary = await (await http.get(f"/deals/{new}")).json()
    assert summary["names"] == ["Bo", "Ana", None] and summary["open_seats"] == []


async def test_a_rematch_claimed_but_never_created_is_made_by_the_next_request(http, store):
    """The request that claimed the new deal's id died before creating it: the next seat's
    request creates it under that id, with both people in their seats."""
    old, bo, ana = await _ended_table(http, lobby=False)
    claimed = "ab" * 8
    assert await store.reader.claim_meta(old, "rematched_by", claimed) == claimed
    made = await _again(http, old, ana, 200)
    assert made["deal_id"] == claimed and made["seat"] == 1
    host = await _again(http, old, bo, 200)
    assert host["deal_id"] == claimed and await _seat_of(http, claimed, host["tokens"]["0"]) == 0
    summary = await (await http.get(f"/deals/{claimed}")).json()
    assert summary["names"] == ["Bo", "Ana", None] and summary["rematch_of"] == old


async def test_a_rematch_that_does_not_hold_the_seat_answers_ds15(http, store):
    """A deal played again before people were carried over (here: the claim names a deal of
    other people): a seat it does not hold is told so, with the deal's id."""
    old, _bo, ana = await _ended_table(http, lobby=False)
    other = await (await http.post("/deals", json={"game": "mcr", "seats": ["human"] * 4})).json()
    assert await store.reader.claim_meta(old, "rematched_by", other["deal_id"]) == other["deal_id"]
    problem = await expect_problem(await http.post(f"/deals/{old}/rematch", headers=auth(ana)), 409, "DS-15")
    assert problem["rematched_by"] == other["deal_id"]
