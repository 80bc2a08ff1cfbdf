"""Through HTTP: a Redis rollback that makes the same versions again with other events (issue 26).

A deal's keys are DUMPed at a version, a move is made, the keys are RESTOREd over it (what Redis
restored from an older append-only file looks like) and another move makes the same number of
versions again. Whatever a process cached by version alone would then answer for events that no
longer exist; a client that saw versions the store no longer holds must be told at once."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from service.app.games import kit
from tests.e2e.conftest import auth

pytestmark = pytest.mark.redis


async def _deal(http) -> tuple[str, dict[str, str]]:
    body = {"game": "mcr", "seats": ["human"] * 4, "deck": list(range(144)), "dealer": 0, "coach": True}
    created = await (await http.post("/deals", json=body)).json()
    deal_id, tokens = created["deal_id"], created["tokens"]
    start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": "rollback"}}
    resp = await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(tokens["0"]))
    assert resp.status == 200, await resp.text()
    return deal_id, tokens


async def _snapshot(store, deal_id: str) -> dict[bytes, bytes]:
    keys = [k async for k in store.redis.scan_iter(match=f"{store.prefix}:{{{deal_id}}}:*")]
    return {k: await store.redis.dump(k) for k in keys}


async def _restore(store, deal_id: str, dumped: dict[bytes, bytes]) -> None:
    now = [k async for k in store.redis.scan_iter(match=f"{store.prefix}:{{{deal_id}}}:*")]
    for k in now:
        if k not in dumped:
            await store.redis.delete(k)
    for k, value in dumped.items():
        await store.redis.restore(k, 0, value, replace=True)


async def _view(http, deal_id: str, token: str) -> dict:
    return await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()


async def _discard(http, deal_id: str, token: str, action: dict, command_id: str) -> int:
    resp = await http.post(
        f"/deals/{deal_id}/commands", json={"command_id": command_id, "command": action}, headers=auth(token)
    )
    assert resp.status == 200, await resp.text()
    return (await _view(http, deal_id, token))["version"]


def _advice_from(view: dict) -> bytes:
    """What the coach must answer for this seat view (a pure function of it)."""
    k = kit("mcr")
    return msgspec.json.encode(k.coach.coach(msgspec.convert(view, type=k.view_type)))


async def test_the_coach_answers_for_the_events_a_rollback_made_again_at_the_same_version(http, store):
    deal_id, tokens = await _deal(http)
    token = tokens["0"]
    actions = (await _view(http, deal_id, token))["legal_actions"]
    dumped = await _snapshot(store, deal_id)
    first = await _discard(http, deal_id, token, actions[0], "first")
    advice = await (await http.get(f"/deals/{deal_id}/coach", headers=auth(token))).read()
    assert msgspec.json.decode(advice) == msgspec.json.decode(_advice_from(await _view(http, deal_id, token)))
    for i, other in enumerate(actions[1:]):  # another move that makes as many versions
        await _restore(store, deal_id, dumped)
        if await _discard(http, deal_id, token, other, f"other-{i}") != first:
            continue
        expected = _advice_from(await _view(http, deal_id, token))
        if msgspec.json.decode(expected) == msgspec.json.decode(advice):
            continue  # this move leaves the same advice: it tells nothing
        again = await (await http.get(f"/deals/{deal_id}/coach", headers=auth(token))).read()
        assert msgspec.json.decode(again) == msgspec.json.decode(expected)
        return
    raise AssertionError("no other discard made the same versions with other advice")


async def _first_message(
    http, deal_id: str, token: str, last_seen: int, timeout: float = 30.0
) -> tuple[str, str]:
    """The first named message of a stream opened with ``Last-Event-ID: last_seen``."""
    headers = {**auth(token), "Last-Event-ID": str(last_seen)}
    async with http.get(f"/deals/{deal_id}/events/stream", headers=headers, timeout=None) as resp:
        assert resp.status == 200
        name = ""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    line = (await resp.content.readline()).decode().rstrip("\r\n")
                    if line.startswith("event:"):
                        name = line.split(":", 1)[1].strip()
                    elif line.startswith("data:") and name:
                        return name, line.split(":", 1)[1].strip()
        except TimeoutError:
            return "nothing", ""


async def test_a_stream_resumed_beyond_the_stores_head_is_reset_at_once_with_the_head(http, store):
    deal_id, tokens = await _deal(http)
    token = tokens["1"]
    head = (await _view(http, deal_id, token))["version"]
    dumped = await _snapshot(store, deal_id)
    seen = await _discard(
        http, deal_id, tokens["0"], (await _view(http, deal_id, tokens["0"]))["legal_actions"][0], "d"
    )
    assert seen > head
    await _restore(store, deal_id, dumped)  # the store is back at `head`; the client saw `seen`
    name, data = await _first_message(http, deal_id, token, seen)
    assert name == "reset" and msgspec.json.decode(data) == {"version": head}


async def _ids(http, deal_id: str, token: str, version: int, timeout: float = 30.0) -> dict[int, str]:
    """The stream's message ids (``version.tag``) by version, from a fresh stream of the seat read
    up to its ``view`` message at ``version``."""
    ids: dict[int, str] = {}
    async with http.get(f"/deals/{deal_id}/events/stream", headers=auth(token), timeout=None) as resp:
        assert resp.status == 200
        name = ""
        async with asyncio.timeout(timeout):
            while True:
                line = (await resp.content.readline()).decode().rstrip("\r\n")
                if line.startswith("id:"):
                    ident = line.split(":", 1)[1].strip()
                    ids[int(ident.split(".")[0])] = ident
                elif line.startswith("event:"):
                    name = line.split(":", 1)[1].strip()
                elif line.startswith("data:") and name == "view":
                    if msgspec.json.decode(line.split(":", 1)[1])["version"] == version:
                        return ids


async def test_a_stream_resumed_at_a_version_a_rollback_made_again_is_reset(http, store):
    """A client that saw version v of one history and resumes (``Last-Event-ID: v.hash``) after
    a rollback made v again with other events is told ``reset``, not given what follows v in a
    history it never saw; an id of a version both histories share resumes as usual."""
    deal_id, tokens = await _deal(http)
    token = tokens["0"]
    view = await _view(http, deal_id, token)
    before, actions = view["version"], view["legal_actions"]
    dumped = await _snapshot(store, deal_id)
    seen = await _discard(http, deal_id, token, actions[0], "first")
    ids = await _ids(http, deal_id, token, seen)
    version, tag = ids[seen].split(".")
    assert int(version) == seen and len(tag) == 8
    # not the record's plain hash, which covers cards hidden from this seat: a guess could be
    # tested against it (the tag is keyed with the deal's secret server seed)
    from domain.envelope import record_hash

    raw = (await store.read_raw(deal_id, seen, seen))[0]
    assert tag != record_hash(raw)[:8] and tag not in record_hash(raw)
    shared = max(v for v in ids if v <= before)
    for i, other in enumerate(actions[1:]):
        await _restore(store, deal_id, dumped)
        if await _discard(http, deal_id, token, other, f"other-{i}") >= seen:
            break
    else:
        raise AssertionError(f"no other discard made version {seen} again")
    head = (await _view(http, deal_id, token))["version"]
    name, data = await _first_message(http, deal_id, token, ids[seen])
    assert name == "reset" and msgspec.json.decode(data) == {"version": head}
    name, data = await _first_message(http, deal_id, token, ids[shared])  # before the fork: on
    assert name in ("view", "deal-event") and msgspec.json.decode(data)["version"] > shared
    # a bare version (an older client's) still resumes from it, as before
    name, _ = await _first_message(http, deal_id, token, seen - 1)
    assert name in ("view", "deal-event")
