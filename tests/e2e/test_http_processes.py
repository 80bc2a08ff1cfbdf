"""Real service processes on one Redis; a claim dispute in the audit; a tampered log; SSE."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.e2e.conftest import auth, play_as_human, wait_for

pytestmark = pytest.mark.redis


def dispute_deck() -> list[int]:
    """MCR, dealer 0 holds a W5 to discard; seat 1 can chow it (W4 W6), seat 2 can pung it (W5 W5)."""
    from domain.mcr.fixtures import build_deck

    return build_deck(
        {
            0: "W5 T1 T3 T5 T7 T9 B1 B3 B5 B7 B9 F1 F2 F3".split(),
            1: "W4 W6 T2 T4 T6 T8 B2 B4 B6 B8 F4 J1 J2".split(),
            2: "W5 W5 W1 W9 T2 T4 T6 T8 B2 B4 B6 B8 J3".split(),
            3: "W2 W8 T3 T7 B3 B7 F1 F2 F4 J1 J2 J3 W1".split(),
        },
        dealer=0,
    )


def take_first(view):
    for action in view["legal_actions"]:
        if action["type"] in ("Win", "DeclareWin"):
            return action
    return view["legal_actions"][0]


async def test_a_second_process_continues_a_deal_the_first_started(http, second_server):
    created = await (
        await http.post("/deals", json={"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"]})
    ).json()
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": "p1"}}
    assert (await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(token))).status == 200
    # the rest of the deal goes through the other process only
    final = await play_as_human(second_server, deal_id, token, take_first)
    assert final["result"] is not None
    for client in (http, second_server):
        audit = await (await client.get(f"/deals/{deal_id}/audit")).json()
        assert audit["ok"], audit["problems"]


async def test_the_claim_audit_settles_a_dispute(http):
    """Seat 1 calls chow first, seat 2 calls pung on the same discard: pung wins by MC-3.2."""
    deck = dispute_deck()
    created = await (
        await http.post(
            "/deals",
            json={"game": "mcr", "seats": ["human"] * 4, "deck": deck, "dealer": 0, "spectators": True},
        )
    ).json()
    deal_id, tokens = created["deal_id"], created["tokens"]
    url = f"/deals/{deal_id}/commands"

    async def post(seat, command_id, command):
        resp = await http.post(
            url, json={"command_id": command_id, "command": command}, headers=auth(tokens[seat])
        )
        assert resp.status == 200, await resp.text()

    async def view(seat):
        return await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens[seat]))).json()

    await post("0", "start", {"type": "StartDeal", "client_seed": "dispute"})
    w5 = next(t for t in (await view("0"))["hand"] if t // 4 == 4)
    await post("0", "d1", {"type": "Discard", "tile": w5})

    chow = next(a for a in (await view("1"))["legal_actions"] if a.get("claim") == "chow")
    pung = next(a for a in (await view("2"))["legal_actions"] if a.get("claim") == "pung")
    await post("1", "c1", chow)  # first to answer
    assert (await view("1"))["window"] is not None  # seat 2 could still beat a chow: no resolution yet
    await post("2", "c2", pung)

    # during the deal the resolution is public; the answers only to the seat that gave them
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["chain_ok"] and audit["redecided_ok"], audit["problems"]
    window = next(w for w in audit["claim_windows"] if w["card"] == w5)
    assert window["answers"] == [] and window["options"] == {}
    assert (window["resolution"]["seat"], window["resolution"]["claim"]) == (2, "pung")
    own = await (await http.get(f"/deals/{deal_id}/audit", headers=auth(tokens["1"]))).json()
    window = next(w for w in own["claim_windows"] if w["card"] == w5)
    assert [(a["seat"], a["answer"]) for a in window["answers"]] == [(1, "chow")]
    assert set(window["options"]) == {"1"}

    # once the deal is over anyone can settle the dispute from the audit
    moves = 0
    while True:
        views = [await view(str(s)) for s in range(4)]
        if views[0]["result"] is not None:
            break
        seat, acting = next((s, v) for s, v in enumerate(views) if v["legal_actions"])
        await post(str(seat), f"m{moves}", acting["legal_actions"][-1])
        moves += 1
        assert moves < 1000
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"], audit["problems"]
    window = next(w for w in audit["claim_windows"] if w["card"] == w5)
    assert [(a["seat"], a["answer"]) for a in window["answers"]] == [(1, "chow"), (2, "pung")]
    assert window["resolution"]["seat"] == 2
    assert window["resolution"]["claim"] == "pung"
    assert window["resolution"]["rule_id"] == "MC-3.2"
    assert window["consistent"] is True
    assert audit["fixed_deck"] is True


async def test_a_changed_byte_fails_the_audit_at_that_version(http, store, redis_client):
    created = await (
        await http.post("/deals", json={"game": "paohuzi", "seats": ["bot:random"] * 3, "client_seed": "t"})
    ).json()
    deal_id = created["deal_id"]

    async def over():
        return (await (await http.get(f"/deals/{deal_id}")).json())["over"]

    await wait_for(over, timeout=60)
    assert (await (await http.get(f"/deals/{deal_id}/audit")).json())["ok"]
    key = store.keys.events(deal_id)
    entries = await redis_client.xrange(key)
    target = 7
    record = json.loads(entries[target - 1][1][b"e"])
    record["recorded_at"] = record["recorded_at"].replace("Z", "1Z")  # one harmless-looking change
    forged = json.dumps(record, separators=(",", ":")).encode()
    await redis_client.delete(key)
    for i, (_entry_id, fields) in enumerate(entries, start=1):
        await redis_client.xadd(key, {"e": forged if i == target else fields[b"e"]}, id=f"0-{i}")
    report = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert report["ok"] is False and report["chain_ok"] is False
    assert report["problems"][0]["check"] == "chain"
    assert report["problems"][0]["version"] == target + 1


async def test_the_live_stream_shows_a_seat_its_own_events(http):
    created = await (
        await http.post(
            "/deals", json={"game": "mcr", "seats": ["human", "bot:greedy", "bot:greedy", "bot:greedy"]}
        )
    ).json()
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    resp = await http.get(f"/deals/{deal_id}/events/stream", headers=auth(token))
    assert resp.status == 200 and resp.content_type == "text/event-stream"
    start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": "sse"}}
    assert (await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(token))).status == 200
    events, views, kind = [], [], None
    while not views or not views[-1]["legal_actions"] or views[-1]["prompt"] == "start":
        line = (await asyncio.wait_for(resp.content.readline(), 10)).decode().strip()
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            (events if kind == "deal-event" else views).append(json.loads(line[5:]))
    resp.close()
    versions = [m["version"] for m in events]
    assert versions[0] == 1 and versions == sorted(set(versions))
    assert views[0]["prompt"] == "start"  # before the start, the seat is asked to start
    # the pushed view is the seat's own, with its legal actions, as GET /view says
    view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
    assert views[-1]["seat"] == 0 and views[-1]["version"] <= view["version"]
    # its own stream was open, so the pushed view says the seat was connected; who is connected
    # is "now" (not in the log), so beside it the two views are the same at one version
    assert views[-1]["seating"]["connected"] == [0]
    if views[-1]["version"] == view["version"]:
        for shown in (views[-1], view):
            shown["seating"].pop("connected")
        assert views[-1] == view
    # nothing in the stream names a tile another seat was dealt
    full = await http.get(f"/deals/{deal_id}/replay", params={"perspective": "0"}, headers=auth(token))
    assert full.status == 200
    dealt = [m["event"] for m in events if m["event"]["type"] == "TilesDealt"]
    assert {d["seat"] for d in dealt if d.get("tiles")} <= {0}
    assert (
        "server_seed" not in json.dumps(events[0]["event"]) or events[0]["event"].get("server_seed") is None
    )


async def test_concurrent_answers_through_two_services_both_land(store, redis_client):
    """Two processes' caches, two answers to one window at once: a conflict is retried, not refused."""
    from service.app.commands.deals import DealService
    from service.store.event_store import EventStore, VersionConflict

    deck = dispute_deck()
    first = DealService(store, dev=True)
    second = DealService(EventStore(redis_client, store.prefix), dev=True)
    created = await first.create("mcr", ["human"] * 4, deck=deck, dealer=0)
    deal_id = created.deal_id
    await first.execute(deal_id, 0, {"type": "StartDeal", "client_seed": "race"}, command_id="s")
    folded = await first.load(deal_id)
    w5 = next(t for t in folded.kit.projections.view_from_state(folded.state, 0).hand if t // 4 == 4)
    await first.execute(deal_id, 0, {"type": "Discard", "tile": w5}, command_id="d")
    await second.load(deal_id)  # both processes now hold a fold at the same version

    def option(service_folded, seat, claim):
        view = service_folded.kit.projections.view_from_state(service_folded.state, seat)
        return next(a for a in view.legal_actions if getattr(a, "claim", None) == claim)

    chow = option(await first.load(deal_id), 1, "chow")
    pung = option(await second.load(deal_id), 2, "pung")
    conflicts = []
    first_landed = asyncio.Event()  # the chow lands first, whatever order the loop runs them in
    for service in (first, second):
        append = service.store.append

        async def spy(*args, _append=append, _service=service, **kwargs):
            if _service is second:
                await first_landed.wait()
            try:
                return await _append(*args, **kwargs)
            except VersionConflict:
                conflicts.append(args[0])
                raise
            finally:
                if _service is first:
                    first_landed.set()

        service.store.append = spy
    results = await asyncio.gather(
        first.execute(deal_id, 1, chow, command_id="c1"),
        second.execute(deal_id, 2, pung, command_id="c2"),
    )
    assert all(not r.duplicate for r in results)
    assert conflicts == [deal_id]  # the second writer met a conflict, folded again and landed
    final = await first.load(deal_id)
    window = next(w for w in final.kit.projections.claim_audit(final.events) if w["card"] == w5)
    assert {a["seat"] for a in window["answers"]} == {1, 2}
    assert window["resolution"]["seat"] == 2 and window["resolution"]["rule_id"] == "MC-3.2"
    assert window["consistent"]


async def test_a_match_moves_on_once_when_two_processes_see_its_deal_end(http, second_server, store):
    """A person's match played through two service processes in turn (each with its own fold
    cache and match sweep over one Redis): every next deal is created exactly once, whichever
    process saw the last deal end, and both processes tell the same match (TB-5)."""
    from service.app.state.match_log import MatchLog
    from tests.e2e.test_http_matches import _nth, _play_person, _until

    body = {"game": "paohuzi", "seats": ["human", "bot:random", "bot:random"], "pace": "fast", "length": 3}
    created = await (await http.post("/matches", json=body)).json()
    match_id, token = created["match_id"], created["tokens"]["0"]
    deal_ids = [created["deal_id"]]
    for index, client in enumerate((http, second_server, http)):
        await _play_person(client, deal_ids[-1], token)
        if index < 2:
            deal_ids.append(
                await _until(lambda i=index: _nth(second_server, match_id, i + 1), "the next deal")
            )
    ends = [await _until(lambda c=c: _over(c, match_id), "the match's end") for c in (http, second_server)]
    assert ends[0] == ends[1] and [d["deal_id"] for d in ends[0]["deals"]] == deal_ids
    names = [type(e).__name__ for e in await MatchLog(store).events(match_id)]
    assert names == ["MatchCreated"] + ["MatchDealStarted", "MatchDealEnded"] * 3 + ["MatchEnded"], names
    ours = [
        d
        for d in await store.indexes.list_deals(0, 1000)
        if b'"match_id"' in (await store.read_raw(d, 1, 1))[0]
    ]
    assert sorted(ours) == sorted(deal_ids)  # no deal of the match made twice by the race


async def _over(client, match_id: str):
    from tests.e2e.test_http_matches import _match

    m = await _match(client, match_id)
    return m if m["over"] else None
