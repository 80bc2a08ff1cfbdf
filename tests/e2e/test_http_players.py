"""My games (issue 24): a player key sent when creating or joining a deal lists that seat under
the key's digest, and ``GET /players/me/deals`` (``X-Player-Key``) answers the holder's deals,
newest first, with the public result of the finished ones, over Redis and the archive. A real
Redis and the real app: two players with different keys, one deal both sit at, a deal played to
its end, a deal archived; bad keys refused with nothing stored; the deal's log is the same with
or without a key (neither the key nor its digest is anywhere in a deal's keys)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from service import bootstrap
from service.app.games import kit
from tests.e2e.conftest import auth, close_within, create_deal, expect_problem, wait_for

pytestmark = pytest.mark.redis
SEATS = {"paohuzi": 3, "mcr": 4}


async def new_key(http) -> str:
    """A player key as a browser gets one: minted by the service."""
    resp = await http.post("/players/keys")
    assert resp.status == 201, await resp.text()
    return (await resp.json())["player_key"]


def key_header(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


async def my_deals(http, key: str, **query) -> dict:
    resp = await http.get("/players/me/deals", headers=key_header(key), params=query)
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def play_seats(http, deal_id: str, tokens: list[str], seed: str) -> None:
    """The people of ``tokens`` send their first legal action (a win when offered; StartDeal
    with a seed of their own) until the deal is over; bots move in the server."""
    for n in range(6000):
        progressed = False
        for i, token in enumerate(tokens):
            view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
            if view["result"] is not None:
                return
            actions = view["legal_actions"]
            if not actions:
                continue
            wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
            command = dict((wins or actions)[0])
            if command["type"] == "StartDeal":
                command["client_seed"] = f"{seed}-{i}"
            body = {"command_id": f"m{n}-{i}", "command": command, "expected_version": view["version"]}
            resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
            assert resp.status in (200, 409), await resp.text()
            progressed = True
        if not progressed:
            await asyncio.sleep(0.02)
    raise AssertionError("the deal did not end")


async def outcome_of(http, deal_id: str, game: str):
    """The finished deal's outcome, folded here from its public log."""
    resp = await http.get(f"/deals/{deal_id}/log")
    assert resp.status == 200, await resp.text()
    k = kit(game)
    records = [json.loads(line) for line in (await resp.read()).splitlines() if line.strip()]
    events = [k.decode_event(json.dumps(r["data"]).encode()) for r in records]
    return k.deal_summary(k.game.fold(events)), records


def no_secret_in(text: str, *secrets_: str) -> None:
    for secret in secrets_:
        assert secret not in text


@pytest.mark.timeout(900)
async def test_two_players_each_see_exactly_their_own_deals_newest_first(http, store):
    ana, bo = await new_key(http), await new_key(http)

    # Ana alone with bots, played to its end
    solo = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "player_key": ana}
    )
    await play_seats(http, solo["deal_id"], [solo["tokens"]["0"]], "solo")
    # a lobby table of Ana's that Bo joins with his key, and a third person without one
    shared = await create_deal(
        http,
        {"game": "paohuzi", "seats": ["human", "open", "open"], "lobby": True, "player_key": ana},
    )
    joined = await http.post(
        f"/deals/{shared['deal_id']}/join", json={"seat": 1, "name": "Bo", "player_key": bo}
    )
    assert joined.status == 201, await joined.text()
    bo_token = (await joined.json())["token"]
    third = await http.post(f"/deals/{shared['deal_id']}/join", json={"seat": 2, "name": "Cy"})
    assert third.status == 201, await third.text()
    cy_token = (await third.json())["token"]
    # Bo's own deal, left live
    live = await create_deal(http, {"game": "mcr", "seats": ["human"] + ["bot:greedy"] * 3, "player_key": bo})

    ana_list = await my_deals(http, ana)
    bo_list = await my_deals(http, bo)
    assert [(d["deal_id"], d["seat"]) for d in ana_list["deals"]] == [
        (shared["deal_id"], 0),
        (solo["deal_id"], 0),
    ]
    assert [(d["deal_id"], d["seat"]) for d in bo_list["deals"]] == [
        (live["deal_id"], 0),
        (shared["deal_id"], 1),
    ]
    assert ana_list["next_before"] is None and bo_list["next_before"] is None
    for listing in (ana_list, bo_list):
        times = [d["created_at"] for d in listing["deals"]]
        assert times == sorted(times, reverse=True)
    shared_row = ana_list["deals"][0]
    assert shared_row == {
        "deal_id": shared["deal_id"],
        "game": "paohuzi",
        "ruleset": shared["ruleset"],
        "created_at": shared_row["created_at"],
        "seat": 0,
        "status": "playing",
        "result": None,
        "links": {"table": f"/#/play/{shared['deal_id']}/0", "replay": None, "review": None},
        "match_id": None,
    }
    assert bo_list["deals"][0]["game"] == "mcr" and bo_list["deals"][0]["status"] == "playing"

    # the finished deal: its result for Ana's seat, as its public log gives it
    outcome, records = await outcome_of(http, solo["deal_id"], "paohuzi")
    solo_row = ana_list["deals"][1]
    assert solo_row["created_at"] == records[0]["recorded_at"]
    assert solo_row["status"] == "over"
    assert solo_row["result"] == {"winner": outcome.winner, "score": outcome.payments[0], "unit": "tun"}
    assert solo_row["links"] == {
        "table": f"/#/play/{solo['deal_id']}/0",
        "replay": f"/#/replay/{solo['deal_id']}",
        "review": f"/deals/{solo['deal_id']}/reviews/0",
    }

    # the table both sit at, played to its end: each sees its own seat's net payment
    await play_seats(http, shared["deal_id"], [shared["tokens"]["0"], bo_token, cy_token], "shared")
    outcome, _records = await outcome_of(http, shared["deal_id"], "paohuzi")
    ana_row = (await my_deals(http, ana))["deals"][0]
    bo_row = (await my_deals(http, bo))["deals"][1]
    assert ana_row["result"] == {"winner": outcome.winner, "score": outcome.payments[0], "unit": "tun"}
    assert bo_row["result"] == {"winner": outcome.winner, "score": outcome.payments[1], "unit": "tun"}
    assert ana_row["status"] == bo_row["status"] == "over"

    # pages: one row each, then the rest
    first = await my_deals(http, ana, limit=1)
    assert [d["deal_id"] for d in first["deals"]] == [shared["deal_id"]]
    rest = await my_deals(http, ana, limit=1, before=first["next_before"])
    assert [d["deal_id"] for d in rest["deals"]] == [solo["deal_id"]] and rest["next_before"] is None
    assert (await my_deals(http, ana, limit=2)) == await my_deals(http, ana)

    # a key nobody used: an empty list, like any other; no answer holds a secret
    assert await my_deals(http, await new_key(http)) == {"deals": [], "next_before": None, "matches": []}
    digests = [await http.app[bootstrap.DEALS].players.digest(k) for k in (ana, bo)]
    tokens = [solo["tokens"]["0"], shared["tokens"]["0"], bo_token, cy_token, live["tokens"]["0"]]
    for key in (ana, bo):
        text = json.dumps(await my_deals(http, key))
        no_secret_in(text, ana, bo, *digests, *tokens, *shared["invites"].values())
        assert "token" not in text and "invite" not in text


async def test_bad_keys_are_refused_and_nothing_is_stored(http, store):
    bad = [
        "short",
        "x" * 129,
        "has space in it, long",
        "ünïcödé-key-0123456789",
        12345678901234567,
        ["k"] * 20,
    ]
    body = {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "lobby": True}
    for key in bad:
        await expect_problem(await http.post("/deals", json={**body, "player_key": key}), 400, "DS-26")
    assert [k async for k in store.redis.scan_iter(match=f"{store.prefix}:*")] == []

    created = await create_deal(http, body)
    deal_id = created["deal_id"]
    version = (await (await http.get(f"/deals/{deal_id}")).json())["version"]
    for key in bad:
        resp = await http.post(f"/deals/{deal_id}/join", json={"seat": 1, "name": "Bo", "player_key": key})
        await expect_problem(resp, 400, "DS-26")
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["version"] == version and summary["open_seats"] == [1]  # the seat is still open
    assert [k async for k in store.redis.scan_iter(match=f"{store.prefix}:*player*")] == []

    # the list: no key 401, a malformed one 400, bad paging 400
    await expect_problem(await http.get("/players/me/deals"), 401, "DS-27")
    for key in ("short", "x" * 129, "has space in it, long", "dots.are.not.base64url", ""):
        await expect_problem(await http.get("/players/me/deals", headers={"X-Player-Key": key}), 400, "DS-26")
    for query in ("limit=0", "limit=201", "limit=x", "before=-1"):
        resp = await http.get(f"/players/me/deals?{query}", headers=key_header(await new_key(http)))
        await expect_problem(resp, 400, "DS-5")


async def test_the_log_and_meta_are_the_same_with_or_without_a_player_key(http, store):
    """Two tables made and joined alike, one with keys and one without: the same records (type,
    fields, command ids' form) and the same meta fields; no key and no digest anywhere in a deal's
    keys, and each key's digest is only in the name of its own list."""
    ana, bo = await new_key(http), await new_key(http)
    made = []
    for keys in ((ana, bo), (None, None)):
        body = {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"], "lobby": True}
        if keys[0]:
            body["player_key"] = keys[0]
        created = await create_deal(http, {**body, "name": "Ana"})
        join = {"seat": 1, "name": "Bo", **({"player_key": keys[1]} if keys[1] else {})}
        resp = await http.post(f"/deals/{created['deal_id']}/join", json=join)
        assert resp.status == 201, await resp.text()
        made.append(created["deal_id"])
    with_keys, without = made

    def shape(raw: bytes) -> tuple:
        record = json.loads(raw)
        return record["type"], sorted(record), sorted(record["data"]), (record["command_id"] or "")[:7]

    raws_with = await store.read_raw(with_keys)
    raws_without = await store.read_raw(without)
    assert [shape(r) for r in raws_with] == [shape(r) for r in raws_without]
    meta_with, meta_without = await store.reader.get_meta(with_keys), await store.reader.get_meta(without)
    assert sorted(meta_with) == sorted(meta_without)
    # the seating events are the same but for the deal's own random values
    for a, b in zip(raws_with, raws_without, strict=True):
        da, db = json.loads(a)["data"], json.loads(b)["data"]
        same = {k for k in da if k not in ("deal_id", "commitment", "server_seed", "token_digest")}
        assert {k: da[k] for k in same} == {k: db[k] for k in same}, da["type"]

    digests = [await http.app[bootstrap.DEALS].players.digest(k) for k in (ana, bo)]
    everything = []
    async for key in store.redis.scan_iter(match=f"{store.prefix}:*"):
        name = key.decode()
        kind = await store.redis.type(key)
        if kind == b"stream":
            value = json.dumps([[i.decode(), {f.decode(): v.decode() for f, v in e.items()}]
                                for i, e in await store.redis.xrange(key)])  # fmt: skip
        elif kind == b"hash":
            value = json.dumps({k.decode(): v.decode() for k, v in (await store.redis.hgetall(key)).items()})
        elif kind == b"zset":
            value = json.dumps([m.decode() for m in await store.redis.zrange(key, 0, -1)])
        else:
            value = (await store.redis.get(key) or b"").decode()
        everything.append((name, value))
    for name, value in everything:
        no_secret_in(value, ana, bo, *digests)
        no_secret_in(name, ana, bo)
        if any(d in name for d in digests):
            assert name in {store.keys.player(d) for d in digests}, name
        if name.startswith(f"{store.prefix}:{{{with_keys}}}") or name.startswith(
            f"{store.prefix}:{{{without}}}"
        ):
            assert not any(d in name for d in digests)
    lists = {d: [m.decode() for m in await store.redis.zrange(store.keys.player(d), 0, -1)] for d in digests}
    assert lists == {digests[0]: [f"deal:{with_keys}:0"], digests[1]: [f"deal:{with_keys}:1"]}


async def test_an_abandoned_deal_lists_as_abandoned(http):
    ana = await new_key(http)
    created = await create_deal(
        http,
        {"game": "mcr", "seats": ["human"] + ["bot:greedy"] * 3, "idle_s": 1, "player_key": ana},
    )

    async def abandoned() -> dict | None:
        (row,) = (await my_deals(http, ana))["deals"]
        return row if row["status"] != "playing" else None

    row = await wait_for(abandoned, timeout=60, interval=0.1)
    assert row["deal_id"] == created["deal_id"]
    assert row["status"] == "abandoned" and row["result"] == {"winner": None, "score": 0, "unit": "points"}


async def test_a_match_lists_under_both_players_with_its_first_deal(http):
    """A match created and joined with player keys: each player's list has the match (its seat,
    running score and deals so far) and its first deal, which names the match."""
    ana, bo = await new_key(http), await new_key(http)
    body = {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "lobby": True, "length": 2}
    resp = await http.post("/matches", json={**body, "player_key": ana})
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    match_id, first = created["match_id"], created["deal_id"]
    joined = await http.post(f"/deals/{first}/join", json={"seat": 1, "name": "Bo", "player_key": bo})
    assert joined.status == 201, await joined.text()
    for key, seat in ((ana, 0), (bo, 1)):
        listing = await my_deals(http, key)
        assert [(d["deal_id"], d["seat"], d["match_id"]) for d in listing["deals"]] == [
            (first, seat, match_id)
        ]
        (row,) = listing["matches"]
        assert row == {
            "match_id": match_id,
            "game": "paohuzi",
            "ruleset": created["ruleset"],
            "created_at": row["created_at"],
            "seat": seat,
            "status": "playing",
            "score": 0,
            "unit": "tun",
            "deal_ids": [first],
            "links": {"match": f"/matches/{match_id}"},
        }
    await expect_problem(await http.post("/matches", json={**body, "player_key": "short"}), 400, "DS-26")


@pytest.fixture
async def archived_app(aiohttp_client, store, tmp_path):
    """The app with its SQLite archive and archiver on; a deal leaves Redis once the test dates
    its end back (the age is an hour)."""
    settings = replace(
        bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True, archive=True,
        archive_url=f"sqlite://{tmp_path / 'archive.sqlite3'}", archive_after_s=3600.0,
        archive_interval_s=0.1,
    )  # fmt: skip
    app = bootstrap.application(store.redis, settings)
    client = await aiohttp_client(app)
    client.archive = app[bootstrap.ARCHIVE]
    yield client
    await close_within(client, 90)


@pytest.mark.timeout(900)
async def test_an_archived_deal_still_lists_with_its_result_from_the_archive(archived_app, store):
    http = archived_app
    ana = await new_key(http)
    created = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "player_key": ana}
    )
    deal_id = created["deal_id"]
    await play_seats(http, deal_id, [created["tokens"]["0"]], "archived")
    outcome, records = await outcome_of(http, deal_id, "paohuzi")

    async def finished() -> bool:
        return await store.redis.zscore(store.keys.finished_index, deal_id) is not None

    await wait_for(finished, timeout=60)
    before = await my_deals(http, ana)
    assert before["deals"][0]["result"] == {
        "winner": outcome.winner,
        "score": outcome.payments[0],
        "unit": "tun",
    }
    await store.redis.zadd(store.keys.finished_index, {deal_id: 1})  # its end dated back: archive it

    async def archived() -> bool:
        in_redis = await store.redis.exists(store.keys.events(deal_id))
        return not in_redis and await http.archive.get(deal_id) is not None

    await wait_for(archived, timeout=60)
    digest = await http.app[bootstrap.DEALS].players.digest(ana)
    assert await store.redis.exists(store.keys.player(digest))  # the archiver left the list alone
    # a process that never folded it reads it from the archive alone
    http.app[bootstrap.DEALS].folds._cache.pop(deal_id)  # noqa: SLF001
    http.app[bootstrap.DEALS].folds._finished.pop(deal_id)  # noqa: SLF001
    after = await my_deals(http, ana)
    assert after == before
    assert after["deals"][0]["created_at"] == records[0]["recorded_at"]


@pytest.mark.timeout(900)
async def test_play_again_with_a_player_key_lists_the_new_deal_under_it(http, store):
    """ "Play again" (``POST /deals/{id}/rematch``) takes the caller's ``player_key`` in an
    optional body, as creating a deal does: the new deal is in the caller's "My games"; a bad key
    is refused (DS-26) with nothing created, and no body still plays again, unlisted."""
    ana = await new_key(http)
    first = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "player_key": ana}
    )
    token = first["tokens"]["0"]
    await play_seats(http, first["deal_id"], [token], "again")
    url = f"/deals/{first['deal_id']}/rematch"
    await expect_problem(
        await http.post(url, json={"player_key": "short"}, headers=auth(token)), 400, "DS-26"
    )
    await expect_problem(await http.post(url, json={"player": ana}, headers=auth(token)), 400, "DS-5")
    assert (await http.get(f"/deals/{first['deal_id']}")).status == 200
    assert (await (await http.get(f"/deals/{first['deal_id']}")).json()).get("rematched_by") is None
    resp = await http.post(url, json={"player_key": ana}, headers=auth(token))
    assert resp.status == 201, await resp.text()
    again = await resp.json()
    listed = [row["deal_id"] for row in (await my_deals(http, ana))["deals"]]
    assert listed == [again["deal_id"], first["deal_id"]]  # newest first
    # without a body, as before: played again, and listed under nobody
    bo = await new_key(http)
    other = await create_deal(
        http, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "player_key": bo}
    )
    await play_seats(http, other["deal_id"], [other["tokens"]["0"]], "plain")
    plain = await http.post(f"/deals/{other['deal_id']}/rematch", headers=auth(other["tokens"]["0"]))
    assert plain.status == 201, await plain.text()
    assert [row["deal_id"] for row in (await my_deals(http, bo))["deals"]] == [other["deal_id"]]
