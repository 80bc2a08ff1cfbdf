"""Matches through HTTP (TB-5, MC-6, PH-9): a match of bots played to its end, a match of a
person who keeps one token for every deal, the next deal created once however many look, and
bad bodies refused with nothing stored."""

from __future__ import annotations

import asyncio
import time

from service.app.commands.matches import MatchService
from service.app.state.match_log import MatchLog
from tests.e2e.conftest import auth

WAIT_S = 240.0  # generous: the machine is shared


async def _until(check, what: str, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def _match(http, match_id: str) -> dict:
    resp = await http.get(f"/matches/{match_id}")
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def _first_raw(store, deal_id: str) -> bytes:
    return (await store.read_raw(deal_id, 1, 1))[0]


async def test_an_mcr_round_of_bots_plays_four_hands_with_the_deal_passing_on(http):
    body = {"game": "mcr", "seats": ["bot:random"] * 4, "pace": "fast", "length": "round"}
    resp = await http.post("/matches", json=body)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    match_id, first = created["match_id"], created["deal_id"]
    assert created["length"] == 4 and created["tokens"] == {}

    async def over():
        m = await _match(http, match_id)
        return m if m["over"] else None

    match = await _until(over, "the round to end")
    deals = match["deals"]
    assert [d["index"] for d in deals] == [0, 1, 2, 3] and deals[0]["deal_id"] == first
    assert [d["round"] for d in deals] == [0, 0, 0, 0]  # MC-6.2: East
    first_dealer = deals[0]["dealer"]
    assert [d["dealer"] for d in deals] == [(first_dealer + k) % 4 for k in range(4)]  # MC-6.3
    sums = [sum(d["result"]["payments"][s] for d in deals) for s in range(4)]
    assert match["scores"] == sums  # MC-6.4
    ranks = {row["seat"]: row["rank"] for row in match["standings"]}
    assert all(ranks[a] < ranks[b] for a in range(4) for b in range(4) if sums[a] > sums[b])
    for d in deals:  # each deal knows its match and the deal after it
        summary = await (await http.get(f"/deals/{d['deal_id']}")).json()
        nxt = deals[d["index"] + 1]["deal_id"] if d["index"] < 3 else None
        assert summary["match"] == {"match_id": match_id, "index": d["index"], "next_deal_id": nxt}
        started = [e for e in await _log(http, d["deal_id"]) if e["type"] == "DealStarted"][0]
        assert started["data"]["prevailing_wind"] == 0 and started["data"]["dealer"] == d["dealer"]
    audit = await (await http.get(f"/matches/{match_id}/audit")).json()
    assert audit["ok"] and not audit["problems"] and len(audit["deals"]) == 4, audit
    assert all(d["deal_audit_ok"] for d in audit["deals"])


async def _log(http, deal_id: str) -> list[dict]:
    import json

    resp = await http.get(f"/deals/{deal_id}/log")
    assert resp.status == 200
    records = [json.loads(line) for line in (await resp.read()).splitlines() if line.strip()]
    return [{"type": r["type"], "data": r["data"]} for r in records]


async def _play_person(http, deal_id: str, token: str) -> None:
    """The person's moves through the API: always the first legal action (a win first), until
    the deal ends or ``WAIT_S`` passes (a bound in time, not in polls: a loaded machine polls
    slower and its bots think longer)."""
    deadline = time.monotonic() + WAIT_S
    n = 0
    while time.monotonic() < deadline:
        n += 1
        view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
        if view.get("result") is not None:
            return
        actions = view["legal_actions"]
        if not actions:
            await asyncio.sleep(0.02)
            continue
        command = actions[0]
        if command["type"] == "StartDeal":
            command = {"type": "StartDeal", "client_seed": f"mine-{deal_id}"}
        wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
        command = wins[0] if wins else command
        body = {"command_id": f"p{n}", "command": command}
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
        if resp.status in (403, 409):  # a bot's claim closed the window, or ended the deal
            continue
        assert resp.status == 200, await resp.text()
    raise AssertionError("the deal did not end")


async def test_a_paohuzi_match_keeps_the_persons_seat_and_token(http):
    body = {
        "game": "paohuzi", "seats": ["human", "bot:greedy", "bot:random"], "pace": "fast", "length": 2,
        "name": "Ana",
    }  # fmt: skip
    created = await (await http.post("/matches", json=body)).json()
    match_id, token = created["match_id"], created["tokens"]["0"]
    assert (await _match(http, match_id))["names"][0] == "Ana"
    await _play_person(http, created["deal_id"], token)

    async def second():
        m = await _match(http, match_id)
        return m["deals"][1]["deal_id"] if len(m["deals"]) == 2 else None

    second_id = await _until(second, "the second deal")
    # the match's own seat learns the next deal from the finished one (a stranger does not: the
    # match is private, test_http_privacy)
    summary = await (await http.get(f"/deals/{created['deal_id']}", headers=auth(token))).json()
    assert summary["match"]["next_deal_id"] == second_id
    m = await _match(http, match_id)
    first = m["deals"][0]
    # PH-9.2: the winner deals the next deal; after a drawn deal the seat after the dealer
    winner = first["result"]["winner"]
    assert m["deals"][1]["dealer"] == (winner if winner is not None else (first["dealer"] + 1) % 3)
    view = await http.get(f"/deals/{second_id}/view", headers=auth(token))  # the same token (TB-5.2)
    assert view.status == 200
    await _play_person(http, second_id, token)
    m = await _until(lambda: _over(http, match_id), "the match to end")
    assert m["names"][0] == "Ana" and m["seats"][0] == "human"  # as the last deal shows them
    assert len(m["deals"]) == 2 and m["scores"] == [
        sum(d["result"]["payments"][s] for d in m["deals"]) for s in range(3)
    ]
    text = str(m)
    assert token not in text and "invite" not in text
    audit = await (await http.get(f"/matches/{match_id}/audit")).json()
    assert audit["ok"], audit


async def _over(http, match_id):
    m = await _match(http, match_id)
    return m if m["over"] else None


async def test_the_next_deal_is_created_once_when_the_sweep_and_the_command_side_race(http, store):
    from service import bootstrap

    deals = http.server.app[bootstrap.DEALS]
    body = {"game": "paohuzi", "seats": ["human", "bot:random", "bot:random"], "pace": "fast", "length": 3}
    created = await (await http.post("/matches", json=body)).json()
    match_id, token = created["match_id"], created["tokens"]["0"]
    # three more processes' sweeps, looking all the time while the person plays
    others = [MatchService(deals, MatchLog(store)) for _ in range(3)]
    deals.on_match_deal_over = others[0].deal_over  # the last one made wins the hook: keep one
    stop = asyncio.Event()

    async def sweeping(service):
        while not stop.is_set():
            await asyncio.gather(service.advance(match_id), service.sweep())
            await asyncio.sleep(0)

    sweeps = [asyncio.create_task(sweeping(s)) for s in others]
    try:
        await _play_person(http, created["deal_id"], token)
        second = await _until(lambda: _nth(http, match_id, 1), "the second deal")
        await _play_person(http, second, token)
        third = await _until(lambda: _nth(http, match_id, 2), "the third deal")
    finally:
        stop.set()
        await asyncio.gather(*sweeps)
    m = await _match(http, match_id)
    assert [d["deal_id"] for d in m["deals"]] == [created["deal_id"], second, third]
    raw = await MatchLog(store).events(match_id)
    assert [type(e).__name__ for e in raw] == [
        "MatchCreated", "MatchDealStarted", "MatchDealEnded", "MatchDealStarted", "MatchDealEnded",
        "MatchDealStarted",
    ]  # fmt: skip
    # no deal of the match but these three was created
    listed = {d async for d in _all_deals(store)}
    assert {created["deal_id"], second, third} <= listed
    made = [
        d for d in listed if (await store.read(d, 1, 1)) and b'"match_id"' in (await _first_raw(store, d))
    ]
    assert sorted(made) == sorted([created["deal_id"], second, third])


async def _nth(http, match_id, n):
    m = await _match(http, match_id)
    return m["deals"][n]["deal_id"] if len(m["deals"]) > n else None


async def _all_deals(store):
    for deal_id in await store.indexes.list_deals(0, 1000):
        yield deal_id


async def test_bad_match_bodies_are_refused_and_store_nothing(http, store):
    cases = [
        ({"game": "mcr", "seats": ["bot:random"] * 4, "length": "forever"}, 422, "MC-6.1"),
        ({"game": "mcr", "seats": ["bot:random"] * 4, "length": 0}, 422, "MC-6.1"),
        ({"game": "mcr", "seats": ["bot:random"] * 4, "length": -2}, 422, "MC-6.1"),
        ({"game": "mcr", "seats": ["bot:random"] * 4, "length": 65}, 422, "MC-6.1"),
        ({"game": "mcr", "seats": ["bot:random"] * 4, "length": 4, "target": 20}, 422, "MC-6.1"),
        ({"game": "paohuzi", "seats": ["bot:random"] * 3, "length": "round"}, 422, "PH-9.1"),
        ({"game": "paohuzi", "seats": ["bot:random"] * 3, "length": "game"}, 422, "PH-9.1"),
        ({"game": "paohuzi", "seats": ["bot:random"] * 3, "length": 2, "target": 0}, 422, "PH-9.1"),
        ({"game": "paohuzi", "seats": ["bot:random"] * 2, "length": 2}, 400, "DS-5"),
        ({"game": "paohuzi", "seats": ["bot:random"] * 3}, 400, "DS-5"),
        ({"game": "chess", "seats": [], "length": 2}, 400, "DS-1"),
    ]
    for body, status, rule in cases:
        resp = await http.post("/matches", json=body)
        assert resp.status == status, (body, await resp.text())
        assert resp.content_type == "application/problem+json"
        assert (await resp.json())["rule"] == rule, body
    resp = await http.post("/matches", data=b"{not json", headers={"Content-Type": "application/json"})
    assert resp.status == 400
    assert [k async for k in store.redis.scan_iter(match=f"{store.prefix}:*")] == []
    resp = await http.get("/matches/nope")
    assert resp.status == 404 and (await resp.json())["rule"] == "DS-23"
    assert (await http.get("/matches/nope/audit")).status == 404


async def test_a_match_lists_a_deal_only_once_it_exists(http, store):
    """Between the match log naming its next deal and that deal being created, the match lists
    the deals that exist: a reader who follows the list never meets a deal that is not there."""
    from domain.match import MatchCreated, MatchDealEnded, MatchDealStarted

    match_id, first, second = "0123456789abcdef", "1111111111111111", "2222222222222222"
    events = [
        MatchCreated(match_id, "paohuzi", "paohuzi/1", ["bot:random"] * 3, 3),
        MatchDealStarted(0, first),
        MatchDealEnded(0, first, dealer=0, winner=None, payments=[0, 0, 0]),
        MatchDealStarted(1, second, dealer=1),
    ]  # the process that appended the last event has not created the deal yet
    await MatchLog(store).append(match_id, 0, events, command_id="test")
    m = await _match(http, match_id)
    assert [d["deal_id"] for d in m["deals"]] == [first]
    assert m["seats"] == ["bot:random"] * 3  # no deal of it exists here: the seats as requested
    assert (await http.get(f"/deals/{second}")).status == 404


async def test_a_finished_deal_names_the_next_deal_of_its_match_from_the_match_log(http, store):
    """The next deal's id is kept beside the finished deal once the match links them; until then
    (or when the link was never kept) the match log answers: whenever the match lists deal n,
    deal n-1's summary names it."""
    body = {"game": "paohuzi", "seats": ["bot:random"] * 3, "pace": "fast", "length": 2}
    created = await (await http.post("/matches", json=body)).json()
    m = await _until(lambda: _over(http, created["match_id"]), "the match to end")
    first, second = (d["deal_id"] for d in m["deals"])
    await store.indexes.drop_meta_field(first, "next_deal_id")  # as in the moment before the link is kept
    summary = await (await http.get(f"/deals/{first}")).json()
    assert summary["match"] == {"match_id": created["match_id"], "index": 0, "next_deal_id": second}
    last = await (await http.get(f"/deals/{second}")).json()
    assert last["match"]["next_deal_id"] is None
