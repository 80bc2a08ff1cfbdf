"""The running app with the archive on (SQLite and PostgreSQL): a finished deal older than the
archive age leaves Redis through the app's own archiver, and every read of it then answers what
it answered from Redis, byte for byte, through the same visibility gate; a stream subscriber of
a deal being archived is not reset; the deal list pages through Redis and the archive as one."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import replace

import pytest

from projections.review import METHOD
from service import bootstrap
from service.app.live.streams import LiveStreams
from service.app.viewer import SPECTATOR
from service.store.archive.postgres import PostgresArchive
from service.store.event_store import EventStore
from tests.e2e.conftest import auth, close_within, wait_for
from tests.integration.postgres_url import POSTGRES_URL, with_schema

pytestmark = pytest.mark.redis
SEATS = {"paohuzi": 3, "mcr": 4}


@pytest.fixture(params=["sqlite", "postgres"])
async def archive_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'archive.sqlite3'}"
        return
    url = with_schema(POSTGRES_URL, f"dstest_{uuid.uuid4().hex[:12]}")
    yield url
    cleaner = PostgresArchive(url)
    await cleaner.drop_schema()
    await cleaner.close()


@pytest.fixture
async def served(aiohttp_client, store, archive_url):
    """The app with its archive and archiver on; the age is an hour, so a deal leaves Redis only
    when a test dates its end back (``_age``), and the archiver looks every 0.1 s."""
    settings = replace(
        bootstrap.TEST_SETTINGS, prefix=store.prefix, archive=True, archive_url=archive_url,
        archive_after_s=3600.0, archive_interval_s=0.1,
    )  # fmt: skip
    app = bootstrap.application(store.redis, settings)
    client = await aiohttp_client(app)
    client.app_store = app[bootstrap.DEALS].store
    client.archive = app[bootstrap.ARCHIVE]
    client.hub = app[bootstrap.HUB]
    client.deals = app[bootstrap.DEALS]
    yield client
    # bounded: a shutdown that hangs (seen under heavy load, not yet explained) fails this
    # test's teardown instead of stopping the whole run, and says what it waited for
    await close_within(client, 90)


async def _age_and_wait(http, store: EventStore, *deal_ids: str) -> None:
    """Wait until the deals are listed as finished, date their end back beyond the age, then wait
    for the running archiver. The command side lists a deal as finished after the append of its
    last event (``DealIndexes.mark_finished``), so a reader that saw the result may be there first."""

    async def listed() -> bool:
        for deal_id in deal_ids:
            if await store.redis.zscore(store.keys.finished_index, deal_id) is None:
                return False
        return True

    await wait_for(listed, timeout=60)
    for deal_id in deal_ids:
        await store.redis.zadd(store.keys.finished_index, {deal_id: 1})

    async def gone() -> bool:
        for deal_id in deal_ids:
            if (
                await store.redis.exists(store.keys.events(deal_id))
                or await http.archive.get(deal_id) is None
            ):
                return False
        return True

    await wait_for(gone, timeout=60)


async def _person_and_bots(http, game: str, seed: str, **extra) -> tuple[str, str]:
    body = {"game": game, "seats": ["human"] + ["bot:greedy"] * (SEATS[game] - 1), **extra}
    created = await (await http.post("/deals", json=body)).json()
    token = created["tokens"]["0"]
    start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": seed}}
    resp = await http.post(f"/deals/{created['deal_id']}/commands", json=start, headers=auth(token))
    assert resp.status == 200, await resp.text()
    return created["deal_id"], token


async def _play_to_end(http, deal_id: str, token: str) -> int:
    """The person takes a win when offered, else the first legal action; bots play in the app."""
    for n in range(3000):
        view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
        if view["result"] is not None:
            return view["version"]
        actions = [a for a in view["legal_actions"] if a["type"] != "StartDeal"]
        if not actions:
            await asyncio.sleep(0.01)
            continue
        wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
        body = {"command_id": f"m{n}", "command": (wins or actions)[0], "expected_version": view["version"]}
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
        assert resp.status in (200, 409), await resp.text()
    raise AssertionError("the deal did not end")


async def _bot_deal(http, game: str = "paohuzi") -> str:
    created = await (
        await http.post("/deals", json={"game": game, "seats": ["bot:greedy"] * SEATS[game]})
    ).json()

    async def over() -> bool:
        return (await (await http.get(f"/deals/{created['deal_id']}")).json())["over"]

    await wait_for(over)
    return created["deal_id"]


async def _answers(http, deal_id: str, token: str, version: int) -> dict[str, tuple[int, bytes]]:
    """Every read of a finished deal, as nobody and as its seat: (status, body)."""
    gets = [
        (f"/deals/{deal_id}", None),
        (f"/deals/{deal_id}", token),
        (f"/deals/{deal_id}/view", token),
        (f"/deals/{deal_id}/view", None),
        (f"/deals/{deal_id}/coach", token),
        (f"/deals/{deal_id}/replay", None),
        (f"/deals/{deal_id}/replay?step={version // 2}&perspective=all", None),
        (f"/deals/{deal_id}/replay?step={version // 3}&perspective=1", token),
        (f"/deals/{deal_id}/replay?step=0&perspective=0", None),
        (f"/deals/{deal_id}/log", None),
        (f"/deals/{deal_id}/log", token),
        (f"/deals/{deal_id}/audit", None),
        (f"/deals/{deal_id}/audit", token),
        (f"/deals/{deal_id}/reviews/0", None),
        (f"/deals/{deal_id}/reviews/1", None),  # never started: 404
        (f"/deals/{deal_id}/events/stream?after=0", None),
        (f"/deals/{deal_id}/events/stream", token),
        (f"/deals/{deal_id}/events/stream?after={version}", token),
    ]
    out = {}
    for path, with_token in gets:
        resp = await http.get(path, headers=auth(with_token) if with_token else {})
        out[f"{path} {'seat' if with_token else 'nobody'}"] = (resp.status, await resp.read())
    late = {"command_id": "late", "command": {"type": "Pass", "seat": 0}}
    resp = await http.post(f"/deals/{deal_id}/commands", json=late, headers=auth(token))
    out["late command"] = (resp.status, await resp.read())
    resp = await http.get(f"/deals/{deal_id}", headers=auth("not-a-token-of-this-deal"))
    out["foreign token"] = (resp.status, await resp.read())
    return out


async def _listed(http, deal_id: str) -> dict | None:
    listed = (await (await http.get("/deals?count=200")).json())["deals"]
    return next((d for d in listed if d["deal_id"] == deal_id), None)


async def _review_done(http, deal_id: str, seat: int) -> dict:
    async def done() -> dict | None:
        state = await (await http.get(f"/deals/{deal_id}/reviews/{seat}")).json()
        return state if state.get("status") == "done" else None

    return await wait_for(done, timeout=300, interval=0.05)


@pytest.mark.timeout(900)
async def test_an_archived_deal_answers_every_read_as_it_did_from_redis(served, store):
    http = served
    deal_id, token = await _person_and_bots(http, "paohuzi", "archive-reads")
    version = await _play_to_end(http, deal_id, token)
    started = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 0})
    assert started.status in (200, 202)
    review = await _review_done(http, deal_id, 0)
    before = await _answers(http, deal_id, token, version)
    listed_before = await _listed(http, deal_id)
    assert listed_before is not None and listed_before["over"] and not listed_before["spectators"]
    refused = {name for name, (status, _body) in before.items() if status != 200}
    assert refused == {
        f"/deals/{deal_id}/view nobody",  # DS-8: a view needs a seat token
        f"/deals/{deal_id}/reviews/1 nobody",  # never started
        "late command",  # the deal is over
        "foreign token",
    }, refused
    assert json.loads(before[f"/deals/{deal_id}/audit nobody"][1])["ok"] is True

    await _age_and_wait(http, store, deal_id)
    keys = sorted([k.decode() async for k in store.redis.scan_iter(match=f"{store.prefix}:*")])
    # only the review (derived data, with its own expiry) stays beside the archived deal, and the
    # address's budgets (the creation, the review's start), which expire on their own too
    budgets = [k for k in keys if k.startswith(f"{store.prefix}:{{limit:")]
    assert budgets and all([await store.redis.pttl(k) > 0 for k in budgets]), budgets
    rest = [k for k in keys if k not in budgets]
    assert rest == [f"{store.prefix}:{{{deal_id}}}:review:{METHOD}:0:0"], keys
    assert await http.archive.count() == 1

    after = await _answers(http, deal_id, token, version)
    for name in before:
        assert after[name] == before[name], name
    assert await _listed(http, deal_id) == listed_before

    # a review computed again, from the archived log alone, is the same review
    await store.redis.delete(*[k async for k in store.redis.scan_iter(match=f"{store.prefix}:*:review:*")])
    again = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 0})
    assert again.status == 202
    assert await _review_done(http, deal_id, 0) == review

    # play again: claimed in the archive once, the new deal names the old one
    rematch = await http.post(f"/deals/{deal_id}/rematch", headers=auth(token))
    assert rematch.status == 201, await rematch.text()
    new_id = (await rematch.json())["deal_id"]
    summary = await (await http.get(f"/deals/{deal_id}")).json()
    assert summary["rematched_by"] == new_id
    assert (await (await http.get(f"/deals/{new_id}")).json())["rematch_of"] == deal_id
    twice = await http.post(f"/deals/{deal_id}/rematch", headers=auth(token))
    assert twice.status == 200 and (await twice.json())["deal_id"] == new_id  # the same deal again
    assert not await store.redis.exists(store.keys.meta(deal_id))  # no stray meta hash for the old deal
    assert (await http.archive.meta(deal_id))["rematched_by"] == new_id
    assert (await http.get("/deals/0123456789abcdef")).status == 404


async def test_a_stream_subscriber_of_a_deal_being_archived_is_not_reset(served, store):
    """A subscriber that joined while the deal was live and has not read its end yet: the
    deal is archived under it, the hub's head checks run, and it still receives every event once,
    then deal-over, never a reset."""
    http = served
    deal_id, token = await _person_and_bots(http, "paohuzi", "archive-stream", spectators=True)
    joined_at = (await http.deals.load(deal_id)).version  # the fold moves on with the bots
    live = await LiveStreams(http.deals.folds, http.deals.presence, http.hub).open(
        deal_id, SPECTATOR, joined_at, alive=lambda: True, abort=lambda: None
    )
    version = await _play_to_end(http, deal_id, token)
    await wait_for(lambda: _queued_to(live, version))
    await _age_and_wait(http, store, deal_id)
    checks = http.hub.head_checks  # the hub checks every subscribed head twice meanwhile
    await wait_for(_checked_since(http.hub, checks + 2), timeout=4 * http.hub.heads_interval + 30)
    assert live.sub.reason is None  # not closed: no reset
    seen, names = await asyncio.wait_for(_read_to_end(live), 60)  # bounded: a lost end fails, never hangs
    live.close()
    assert "reset" not in names and names[-1] == "deal-over"
    assert seen == sorted(set(seen)) and seen[-1] == version and seen[0] > joined_at

    # a subscriber that joins after the archiving reads the whole log from the archive
    late = await LiveStreams(http.deals.folds, http.deals.presence, http.hub).open(
        deal_id, SPECTATOR, 0, lambda: True, lambda: None
    )
    late_seen, late_names = await asyncio.wait_for(_read_to_end(late), 60)
    late.close()
    assert late_names[-1] == "deal-over" and "reset" not in late_names
    assert late_seen[-1] == version and set(seen) <= set(late_seen)


async def _read_to_end(live) -> tuple[list[int], list[str]]:
    """The versions and closing messages a live stream delivers until it ends."""
    seen: list[int] = []
    names: list[str] = []
    async for part, _position in live.parts():
        seen += [v for v, _name, _data in part.events]
        names += [name for _v, name, _data in part.closing]
    return seen, names


def _checked_since(hub, checks: int):
    async def check() -> bool:
        return hub.head_checks >= checks

    return check


async def _queued_to(live, version: int) -> bool:
    queue = live.sub.queue
    return any(getattr(item, "last", 0) >= version for item in list(queue._queue))  # noqa: SLF001


async def test_the_deal_list_pages_through_redis_and_the_archive_and_keeps_the_gate(served, store):
    """Archived deals are listed as finished deals were in Redis; a live deal closed to
    spectators stays out of the list, its log and its seats' secrets closed, while archived
    ones are listed around it; paging gives every listed deal once, newest first."""
    http = served
    old = await _bot_deal(http)
    public_live, _ = await _person_and_bots(http, "paohuzi", "list-open", spectators=True)
    middle = await _bot_deal(http)
    private_live, private_token = await _person_and_bots(http, "paohuzi", "list-closed")
    new = await _bot_deal(http)
    before = {d: await _listed(http, d) for d in (old, middle, new, public_live)}
    await _age_and_wait(http, store, old, middle, new)
    listed = (await (await http.get("/deals?count=200")).json())["deals"]
    ids = [d["deal_id"] for d in listed]
    assert ids == [new, middle, public_live, old]  # newest first, the closed live deal left out
    assert {d["deal_id"]: d for d in listed} == before
    paged: list[str] = []
    for offset in range(0, 6):
        paged += [
            d["deal_id"] for d in (await (await http.get(f"/deals?offset={offset}&count=1")).json())["deals"]
        ]
    assert paged == ids
    # the gate on the live deal is as before: no log, no other seat's view, no full replay
    assert (await http.get(f"/deals/{private_live}/log")).status == 409
    assert (await http.get(f"/deals/{private_live}/replay?perspective=all")).status in (401, 403, 409)
    assert (await http.get(f"/deals/{private_live}/audit")).status == 401  # not open to watch (DS-8)
    audit = await (await http.get(f"/deals/{private_live}/audit", headers=auth(private_token))).json()
    assert audit["ok"] is False and all(w.get("expected") is None for w in audit["claim_windows"])
    view = await (await http.get(f"/deals/{private_live}/view", headers=auth(private_token))).json()
    assert view["version"] >= 1


async def test_a_finished_match_leaves_redis_and_reads_as_it_did(served, store):
    """TB-5.1: a match's own log is archived as its deals are (the archive's matches shelf, never
    the deals' list): its keys leave Redis, and the match, its audit and its deals' links read
    as they did from Redis."""
    from service.app.state.match_log import MatchLog

    http = served
    body = {"game": "paohuzi", "seats": ["bot:greedy"] * 3, "pace": "fast", "length": 2}
    created = await (await http.post("/matches", json=body)).json()
    match_id = created["match_id"]

    async def over() -> bool:
        return (await (await http.get(f"/matches/{match_id}")).json())["over"]

    await wait_for(over, timeout=120)
    before = await (await http.get(f"/matches/{match_id}")).read()
    audit_before = await (await http.get(f"/matches/{match_id}/audit")).json()
    assert audit_before["ok"], audit_before
    first, second = (d["deal_id"] for d in json.loads(before)["deals"])
    link_before = (await (await http.get(f"/deals/{first}")).json())["match"]
    assert link_before["next_deal_id"] == second

    matches = MatchLog(store).store  # the match logs' own keys and finished index
    try:

        async def listed() -> bool:
            return await store.redis.zscore(matches.keys.finished_index, match_id) is not None

        await wait_for(listed, timeout=60)
        await store.redis.zadd(matches.keys.finished_index, {match_id: 1})  # ended long ago
        shelf = http.archive.matches()

        async def moved() -> bool:
            return not await store.redis.exists(matches.keys.events(match_id)) and bool(
                await shelf.get(match_id)
            )

        await wait_for(moved, timeout=60)
        assert not [k async for k in store.redis.scan_iter(match=f"{matches.prefix}:{{{match_id}}}:*")]
        assert await store.redis.zscore(matches.keys.finished_index, match_id) is None
        assert await http.archive.get(match_id) is None  # never among the deals
        assert match_id not in {d.deal_id for d in await http.archive.list(0, 1000)}

        assert await (await http.get(f"/matches/{match_id}")).read() == before
        assert await (await http.get(f"/matches/{match_id}/audit")).json() == audit_before
        # its deals leave Redis too, and still name the match and each other
        await _age_and_wait(http, store, first, second)
        assert (await (await http.get(f"/deals/{first}")).json())["match"] == link_before
    finally:
        matches.close()


async def test_the_chat_of_an_archived_deal_reads_as_before_and_takes_no_more(served, store):
    """The chat leaves Redis with its deal (never part of its log): the seat reads the same chat
    from the archive, a stranger still reads nothing, and a new word is refused (409, DS-43)."""
    deal_id, token = await _person_and_bots(served, "paohuzi", "chat-seed")
    for text in ("good luck", "好"):
        resp = await served.post(f"/deals/{deal_id}/chat", json={"text": text}, headers=auth(token))
        assert resp.status == 201, await resp.text()
    await _play_to_end(served, deal_id, token)
    before = await (await served.get(f"/deals/{deal_id}/chat", headers=auth(token))).read()
    await _age_and_wait(served, store, deal_id)
    chat_keys = [f"{store.prefix}:{{{deal_id}}}:chat", f"{store.prefix}:{{{deal_id}}}:chat:n"]
    assert not await store.redis.exists(*chat_keys)
    resp = await served.get(f"/deals/{deal_id}/chat", headers=auth(token))
    assert resp.status == 200 and await resp.read() == before
    assert [m["text"] for m in json.loads(before)["messages"]] == ["good luck", "好"]
    assert (await served.get(f"/deals/{deal_id}/chat")).status == 401
    resp = await served.post(f"/deals/{deal_id}/chat", json={"text": "anyone?"}, headers=auth(token))
    assert resp.status == 409 and resp.content_type == "application/problem+json"
    assert (await resp.json())["rule"] == "DS-43"
    assert not await store.redis.exists(*chat_keys)
