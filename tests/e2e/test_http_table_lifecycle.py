"""Tables that end and commands that answer what their sender saw (TB-1.2, TB-1.4, TB-2.7, TB-2.8),
over HTTP on a --dev server: a clocked table whose joiner never starts ends as abandoned; a joined
seat that never started gets a bot from the creator once the start clock ran; a retried join
answers the same seat and token; a command decided on a version from before the table moved for
the seat is refused, nothing appended."""

from __future__ import annotations

import json
import random

import pytest

from domain.table.clock import recorded_ms
from tests.e2e.conftest import auth, create_deal, expect_problem, play_as_human, wait_for

pytestmark = pytest.mark.redis
FAST = {"move_s": 2, "claim_s": 2, "bank_s": 0}
SLOW = {"move_s": 600, "claim_s": 600, "bank_s": 0}


def _deck() -> list[int]:
    """A fixed MCR deck (--dev) where nobody wins in the first rounds: after the table's default
    discard for seat 0 the bots play on and seat 0 is asked again."""
    deck = list(range(144))
    random.Random(20261203).shuffle(deck)
    return deck


async def _start(http, deal_id: str, token: str, seed: str):
    body = {"command_id": f"start-{seed}", "command": {"type": "StartDeal", "client_seed": seed}}
    return await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))


async def _log(http, deal_id: str) -> list[dict]:
    text = await (await http.get(f"/deals/{deal_id}/log")).text()
    return [json.loads(line) for line in text.splitlines()]


async def _records(store, deal_id: str) -> list[dict]:
    """The log as the store holds it (a live deal's log is not read over HTTP)."""
    return [
        {"type": r.type, "data": json.loads(bytes(r.data)), "recorded_at": r.recorded_at,
         "command_id": r.command_id}
        for r in await store.read(deal_id)
    ]  # fmt: skip


async def _summary(http, deal_id: str) -> dict:
    return await (await http.get(f"/deals/{deal_id}")).json()


async def _view(http, deal_id: str, token: str) -> dict:
    return await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()


def _never_win(view: dict) -> dict:
    actions = view["legal_actions"]
    return next((a for a in actions if a["type"] in ("Pass", "Discard")), actions[0])


async def test_a_clocked_table_whose_joiner_never_starts_ends_as_abandoned(http):
    """TB-2.7 (table/2): a deal with a clock not dealt within its start limit after its last seat
    was taken (10 minutes; a --dev deal records a shorter one) ends as abandoned, and the audit
    proves the time from the log."""
    created = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "clock": FAST, "idle_s": 3}
    )
    deal_id = created["deal_id"]
    join = {"invite": created["invites"]["1"], "name": "Bo"}
    assert (await http.post(f"/deals/{deal_id}/join", json=join)).status == 201
    assert (await _start(http, deal_id, created["tokens"]["0"], "ana")).status == 200
    # Bo never starts

    async def over() -> bool:
        return (await _summary(http, deal_id))["over"]

    await wait_for(over, timeout=60)
    log = await _log(http, deal_id)
    assert [r["type"] for r in log] == [
        "DealCreated", "SeatJoined", "SeatReady", "DealAbandoned", "SeedRevealed"
    ]  # fmt: skip
    assert log[0]["data"]["table"] == "table/2" and log[0]["data"]["idle_limit_s"] == 3
    abandoned = log[3]
    # the limit runs from the record that took the last open seat (Bo's join)
    assert abandoned["data"]["idle_since_ms"] == recorded_ms(log[1]["recorded_at"])
    assert abandoned["data"]["idle_ms"] == 3000
    assert recorded_ms(abandoned["recorded_at"]) >= abandoned["data"]["idle_since_ms"] + 3000
    assert abandoned["command_id"].startswith("abandon:")
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"] and audit["clocks_ok"] is True, audit["problems"]


async def test_the_creator_puts_a_bot_in_a_joined_seat_that_never_started(http, store):
    """TB-1.4 (table/2): a joined seat whose person never sent StartDeal may be given a bot by the
    creator once the clock's move_s has passed since the last seat was taken; when every person
    left has started, that deals at once. The seat's old token acts for nothing any more."""
    created = await create_deal(
        http, {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"], "clock": FAST}
    )
    deal_id, ana = created["deal_id"], created["tokens"]["0"]
    join = {"invite": created["invites"]["1"], "name": "Ghost"}
    ghost = (await (await http.post(f"/deals/{deal_id}/join", json=join)).json())["token"]
    assert (await _start(http, deal_id, ana, "ana")).status == 200
    version = (await _summary(http, deal_id))["version"]
    fill_url = f"/deals/{deal_id}/seats/1/bot"
    # too early (the start clock has not run yet): refused, nothing appended
    first = await http.post(fill_url, json={"level": "greedy"}, headers=auth(ana))
    if first.status != 200:  # a loaded machine may already be past move_s
        await expect_problem(first, 409, "TB-1.4")
        assert (await _summary(http, deal_id))["version"] == version
    # only the creator may
    await expect_problem(
        await http.post(fill_url, json={"level": "greedy"}, headers=auth(ghost)), 403, "DS-20"
    )

    async def filled() -> bool:
        resp = await http.post(fill_url, json={"level": "greedy"}, headers=auth(ana))
        if resp.status == 200:
            return True
        await expect_problem(resp, 409, "TB-1.4")
        return False

    await wait_for(filled, timeout=30, interval=0.2)
    summary = await _summary(http, deal_id)
    assert summary["seats"][1] == "bot:greedy" and summary["names"][1] is None
    log = await _records(store, deal_id)
    types = [r["type"] for r in log]
    assert types[:5] == ["DealCreated", "SeatJoined", "SeatReady", "SeatFilled", "DealStarted"], types
    assert recorded_ms(log[3]["recorded_at"]) >= recorded_ms(log[1]["recorded_at"]) + 2000
    assert log[4]["data"]["client_seed"] == "ana"  # one person left: dealt with her seed (TB-3.1)
    # the ghost's token is no seat any more
    await expect_problem(await http.get(f"/deals/{deal_id}/view", headers=auth(ghost)), 401, "DS-8")
    await play_as_human(http, deal_id, ana, _never_win)
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"] and audit["clocks_ok"] is True and audit["redecided_ok"], audit["problems"]


async def test_a_retried_join_answers_the_same_seat_and_token(http, store):
    """TB-1.2: a join whose answer was lost, sent again with the same invite and name, is
    answered with the same seat and token (not DS-18) while that seat has not started; another
    name is refused, and no read shows the token or its digest."""
    created = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "clock": SLOW}
    )
    deal_id = created["deal_id"]
    join = {"invite": created["invites"]["1"], "name": "Bo"}
    first = await http.post(f"/deals/{deal_id}/join", json=join)
    assert first.status == 201, await first.text()
    first_answer = await first.json()
    again = await http.post(f"/deals/{deal_id}/join", json=join)
    assert again.status == 201, await again.text()
    assert await again.json() == first_answer
    await expect_problem(await http.post(f"/deals/{deal_id}/join", json={**join, "name": "Cy"}), 409, "DS-18")
    log = await _records(store, deal_id)
    assert [r["type"] for r in log] == ["DealCreated", "SeatJoined"]
    token = first_answer["token"]
    digest = log[1]["data"]["token_digest"] if "token_digest" in log[1]["data"] else None
    for path in ("", "/log", "/replay?step=2", "/audit"):
        text = await (await http.get(f"/deals/{deal_id}{path}")).text()
        assert token not in text and (digest is None or digest not in text), path
    # once the seat has started, its person holds the token: a retry is a used invite again
    assert (await _start(http, deal_id, token, "bo")).status == 200
    await expect_problem(await http.post(f"/deals/{deal_id}/join", json=join), 409, "DS-18")


async def test_a_command_decided_before_the_table_moved_for_the_seat_is_refused(http, store):
    """TB-2.8: a person's command names the version it was decided on (``seen_version``); sent
    after the table's own default move for that seat, with that old version, it is refused even
    when it happens to be legal in the new situation, and nothing is appended."""
    seats = ["human", "bot:greedy", "bot:greedy", "bot:greedy"]
    created = await create_deal(
        http, {"game": "mcr", "seats": seats, "clock": FAST, "deck": _deck(), "dealer": 0}
    )
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    assert (await _start(http, deal_id, token, "late")).status == 200
    seen = await _view(http, deal_id, token)
    assert seen["legal_actions"], seen  # the dealer must discard
    # the person does not answer: the table discards for her, and asks her again later

    async def asked_again() -> dict | None:
        view = await _view(http, deal_id, token)
        expired = any(r["type"] == "ClockExpired" for r in await _records(store, deal_id))
        return view if expired and view["legal_actions"] and view["version"] > seen["version"] else None

    now = await wait_for(asked_again, timeout=60)
    command = now["legal_actions"][0]  # legal now: exactly what a late answer could hit
    body = {"command_id": "stale", "command": command, "seen_version": seen["version"]}
    resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
    problem = await expect_problem(resp, 409, "TB-2.8")
    assert str(seen["version"]) in problem["detail"]
    after = await _records(store, deal_id)
    assert not any(r.get("command_id") == "seat0:stale" for r in after)
    assert not any(r["type"] == "SeatBack" for r in after)  # not even the way back from away


async def test_a_command_that_names_the_version_it_saw_is_decided(http):
    """The same field on a command decided on the current situation changes nothing: accepted."""
    seats = ["human", "bot:greedy", "bot:greedy", "bot:greedy"]
    created = await create_deal(
        http, {"game": "mcr", "seats": seats, "clock": SLOW, "deck": _deck(), "dealer": 0}
    )
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    assert (await _start(http, deal_id, token, "on-time")).status == 200
    view = await _view(http, deal_id, token)
    body = {"command_id": "d", "command": view["legal_actions"][0], "seen_version": view["version"]}
    resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
    assert resp.status == 200, await resp.text()
    # a version the deal has not reached is a bad request
    later = await _view(http, deal_id, token)
    if later["legal_actions"]:
        body = {"command_id": "e", "command": later["legal_actions"][0], "seen_version": 10**6}
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
        await expect_problem(resp, 400, "DS-5")
