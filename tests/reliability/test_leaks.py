"""No leak: over generated deals of both games, nothing anyone receives holds what is hidden from it.

Every seat of each deal is a human seat driven through HTTP by a seeded random player, so every
seat has a token. For each seat (and a spectator) the live SSE stream is read from version 0 to
``deal-over``; every command answer (its events, and its view: every other command asks for one
with ``return_view``), a sample of own-perspective replay frames during the deal, and, once the
deal is over, the replay frame of every seat at every step are kept.

Besides, at many versions of the live deal (every claim window that still waits on a seat after
another answered, and every few versions else) every GET operation of ``/openapi.json`` is asked
as each seat, as a spectator and with no token: the route list comes from the document, not from
this file, so a new route is covered without editing the test. Parameters are filled from their
schema (integers with versions and seats, ``perspective`` with each seat and ``all``).

The full log (read after the end) says who held what at each version; every integer in a message
under a key that can hold a card id must not be a card hidden from that seat at that version, the
server seed must not appear before the deal's last event, and while a claim window is open no
answer may hold another seat's claim options (its legal actions), its secret answer, or name it
among the seats to act.

Integers under keys listed in ``NOT_CARDS`` (versions, seats, counts, scores) are skipped; any other
integer counts as a card id, so a new field that carries ids is checked without being listed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import re
from dataclasses import replace

import msgspec
import pytest

from service import bootstrap
from service.app.games import kit
from service.store.connection import connect
from tests.conftest import drop_prefix

pytestmark = pytest.mark.redis

FULL = os.environ.get("DEALSTREAM_FULL_LOAD") == "1"
DEALS_PER_GAME = 12 if FULL else 3
SEATS = {"paohuzi": 3, "mcr": 4}
PLAYER_LIST = "/players/me/deals"  # asked with a player key (issue 24) or an account's session
ACCOUNT_PASSWORD = "leak-test password"


def cookie(session: str | None) -> dict[str, str]:
    return {"Cookie": f"ds_session={session}"} if session else {}


async def sign_up(http, name: str) -> str:
    """A new account's session (the test client's cookie jar is emptied: each request names its own)."""
    resp = await http.post("/accounts", json={"name": name, "password": ACCOUNT_PASSWORD})
    assert resp.status == 201, await resp.text()
    http.session.cookie_jar.clear()
    return resp.cookies["ds_session"].value


SECRET_FIELD = re.compile(r'"[a-z_]*digest"\s*:')  # token_digest, invite_digest: never in an answer

NOT_CARDS = {
    "version", "first_version", "step", "total", "seat", "dealer", "turn", "window", "windows",
    "source_seat", "from_seat", "winner", "eligible", "waiting", "count", "concealed", "hand_count",
    "concealed_kongs", "stock_left", "wall_count", "front", "back", "wind", "seat_winds",
    "prevailing_wind", "points", "fan_points", "flower_points", "payments", "huxi", "tun",
    "upgrades", "actual_version", "expected_version", "status", "seats_to_act", "created_ms", "streams",
    "versions", "opened_at_version", "seats", "kind", "unanswered", "walls", "deals",
    "open_seats", "waiting_to_start", "away", "connected",  # seat numbers of the table (TB-1, TB-2.6)
    "idle_since_ms", "idle_ms",  # an abandoned deal's times (TB-2.7)
    "move_s", "claim_s", "bank_s", "own_deadline_ms", "deadline_ms", "bank_ms",  # clocks (TB-2)
    # the coach's numbers (its cards are names, never ids)
    "unseen", "shanten", "useful_unseen", "meld_huxi", "huxi_after", "huxi_added", "index",
    "score", "next_before",  # a player's list: a seat's net payment, a creation time (issue 24)
    "seed",  # the review seed a list of reviews names (the query's own parameter)
    "at",  # when a chat message was said (ms)
}  # fmt: skip


def card_ids(obj, key: str | None = None) -> set[int]:
    found: set[int] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "hands" and isinstance(v, list):
                # a redacted Paohuzi DealStarted shows other hands as their sizes
                for item in v:
                    if not isinstance(item, int):
                        found |= card_ids(item, k)
                continue
            if k == "stock" and isinstance(v, int):  # the stock's size
                continue
            found |= card_ids(v, k)
    elif isinstance(obj, list):
        for v in obj:
            found |= card_ids(v, key)
    elif isinstance(obj, int) and not isinstance(obj, bool) and key not in NOT_CARDS:
        found.add(obj)
    return found


# --- who may know what, at each version --------------------------------------------------------
def hidden_paohuzi(s, seat: int | None) -> set[int]:
    if s.phase == "over" or s.dealer < 0:
        return set()
    hidden = set(s.stock[s.stock_pos :])
    for other in range(3):
        if other != seat:
            hidden |= set(s.hands[other])
            for k in s.kans[other]:
                hidden |= set(k)
    hidden.discard(s.face_up)
    return hidden


def hidden_mcr(s, seat: int | None) -> set[int]:
    if s.phase == "over":
        return set()
    if not s.hands:
        return set(range(144))
    seen: set[int] = set(s.hands[seat]) if seat is not None else set()
    for p in range(4):
        seen.update(s.discards[p])
        seen.update(s.flowers[p])
        for m in s.melds[p]:
            if m.kind != "concealed_kong" or p == seat:
                seen.update(m.tiles)
    return set(range(144)) - seen


HIDDEN = {"paohuzi": hidden_paohuzi, "mcr": hidden_mcr}


def hidden_by_version(game: str, events: list) -> tuple[dict[int | None, list[set[int]]], list[bool]]:
    """hidden[seat][v]: the cards hidden from ``seat`` (None: a spectator) after ``v`` events;
    over[v]: whether the deal is over after ``v`` events (from then on nobody can move)."""
    k = kit(game)
    seats = [*range(SEATS[game]), None]
    state = k.game.initial_state()
    hidden: dict[int | None, list[set[int]]] = {s: [HIDDEN[game](state, s)] for s in seats}
    over = [False]
    for event in events:
        state = k.game.evolve(state, event)
        for s in seats:
            hidden[s].append(HIDDEN[game](state, s))
        over.append(k.game.is_over(state))
    return hidden, over


def _open_window(game: str, state) -> tuple[int | None, set[int], dict[int, str]]:
    """(window id, eligible seats, answers given so far) of the open claim window, if any."""
    if state.phase != "claim":
        return None, set(), {}
    if game == "mcr":
        w = state.window
        return w.window, set(w.eligible), {s: a[0] for s, a in w.answers.items()}
    return state.window, set(state.eligible), {s: a[0] for s, a in state.answers.items()}


def secrets_by_version(game: str, events: list) -> list[dict]:
    """Per version: the open window, and per seat its legal actions and its answer in that window
    (secret to every other seat until the window is resolved)."""
    k = kit(game)
    state = k.game.initial_state()
    out = []
    for i in range(len(events) + 1):
        if i:
            state = k.game.evolve(state, events[i - 1])
        window, eligible, answers = _open_window(game, state)
        legal = {}
        if window is not None:
            for s in eligible:
                legal[s] = {_canon(msgspec.to_builtins(a)) for a in k.game.legal_actions(state, s)}
        out.append({"window": window, "eligible": eligible, "answers": answers, "legal": legal})
    return out


def _canon(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


SEAT_LISTS = {"seats_to_act", "eligible", "waiting_on", "asked"}


def secret_leaks(obj, viewer: int | None, secret: dict) -> list:
    """What ``obj`` shows of the open window that ``viewer`` may not know: another eligible seat's
    legal action, another seat's answer there, another eligible seat named among seats to act."""
    if secret["window"] is None:
        return []
    others = {s for s in secret["eligible"] if s != viewer}
    forbidden = {a for s in others for a in secret["legal"].get(s, ())}
    found = []

    def walk(node, window):
        if isinstance(node, dict):
            window = node.get("window", window)
            if forbidden and _canon(node) in forbidden:
                found.append(("legal action", node))
            seat = node.get("seat")
            for key in ("answer", "claim"):
                if seat in others and seat in secret["answers"] and node.get(key) == secret["answers"][seat]:
                    if window in (secret["window"], None) and "rule_id" not in node:
                        found.append(("answer", node))
            for k2, v in node.items():
                if k2 in SEAT_LISTS and isinstance(v, list) and set(v) & others:
                    found.append((k2, v))
                walk(v, window)
        elif isinstance(node, list):
            for v in node:
                walk(v, window)

    walk(obj, None)
    return found


# --- the app and the players -------------------------------------------------------------------
@pytest.fixture
async def app_client(aiohttp_client, real_redis_url, key_prefix):
    client = connect(real_redis_url)
    app = bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=key_prefix))
    http = await aiohttp_client(app)
    yield http
    await drop_prefix(client, key_prefix)
    await client.aclose()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def read_sse(http, deal_id: str, token: str | None) -> list[tuple[str, dict]]:
    """Every SSE message of one listener, from version 0 until ``deal-over``."""
    resp = await http.get(f"/deals/{deal_id}/events/stream", headers=auth(token) if token else {})
    assert resp.status == 200, await resp.text()
    messages: list[tuple[str, dict]] = []
    name, data = "message", []
    try:
        while True:
            line = (await asyncio.wait_for(resp.content.readline(), 60)).decode()
            if not line:
                raise AssertionError("the stream ended before deal-over")
            line = line.rstrip("\r\n")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
            elif line == "" and data:
                messages.append((name, json.loads("\n".join(data))))
                if name == "deal-over":
                    return messages
                name, data = "message", []
    finally:
        resp.close()


async def play_deal(http, game: str, seed: int) -> dict:
    rng = random.Random(seed)
    n = SEATS[game]
    # the creator's player key lists every seat of the deal under it (GET /players/me/deals); a
    # second player's key lists a deal of its own, so the probes ask with both (issue 24)
    keys = {
        name: (await (await http.post("/players/keys")).json())["player_key"] for name in ("mine", "other")
    }
    # two accounts, each signed in when it creates its deal (its seats follow the account): the
    # probes ask the account routes with the creator's session, the other's and none
    sessions = {name: await sign_up(http, f"{name}-{seed}") for name in ("mine", "other")}
    other = {"game": game, "seats": ["human"] * n, "player_key": keys["other"]}
    resp = await http.post("/deals", json=other, headers=cookie(sessions["other"]))
    assert resp.status == 201
    # coach too; open to spectators, whose stream is read as well
    body = {"game": game, "seats": ["human"] * n, "coach": True, "spectators": True}
    body["player_key"] = keys["mine"]
    created = await (await http.post("/deals", json=body, headers=cookie(sessions["mine"]))).json()
    deal_id = created["deal_id"]
    # the account's seat on another device: a device code, a second session, a new token
    code = await (await http.post("/accounts/me/device-codes", headers=cookie(sessions["mine"]))).json()
    phone = await http.post("/sessions", json={"device_code": code["device_code"]})
    assert phone.status == 200, await phone.text()
    sessions["phone"] = phone.cookies["ds_session"].value
    http.session.cookie_jar.clear()
    handed = await http.post(f"/deals/{deal_id}/my-seat", headers=cookie(sessions["phone"]))
    assert handed.status == 200, await handed.text()
    handed_token = (await handed.json())["token"]
    tokens = [created["tokens"][str(s)] for s in range(n)]
    # a quick play seek of the creator's account: read by the account (either device), another
    # account and nobody, like every GET route
    resp = await http.post("/seeks", json={"game": game}, headers=cookie(sessions["mine"]))
    assert resp.status == 201, await resp.text()
    http.session.cookie_jar.clear()
    sessions["seek_id"] = (await resp.json())["seek_id"]
    # a word among the seats: the chat route is probed like every other; no spectator and nobody
    # without a seat's token may ever receive it
    chat_word = f"seats-only-word-{seed}"
    said = await http.post(f"/deals/{deal_id}/chat", json={"text": chat_word}, headers=auth(tokens[0]))
    assert said.status == 201, await said.text()
    listeners = {s: asyncio.create_task(read_sse(http, deal_id, tokens[s])) for s in range(n)}
    listeners[None] = asyncio.create_task(read_sse(http, deal_id, None))
    received: list[tuple[int | None, str, dict]] = []  # (seat, where, message)
    probes = 0
    start = {"type": "StartDeal", "client_seed": f"leak-{seed}"}
    resp = await http.post(
        f"/deals/{deal_id}/commands", json={"command_id": "start", "command": start}, headers=auth(tokens[0])
    )
    assert resp.status == 200, await resp.text()
    received.append((0, "answer", await resp.json()))
    moves = 0
    while True:
        views = [await (await http.get(f"/deals/{deal_id}/view", headers=auth(t))).json() for t in tokens]
        for s, v in enumerate(views):
            received.append((s, "view", v))
        if views[0]["result"] is not None:
            break
        acting = [(s, v) for s, v in enumerate(views) if v["legal_actions"]]
        assert acting, "a deal of human seats always has a seat to act"
        seat, view = rng.choice(acting)
        actions = view["legal_actions"]
        wins = [a for a in actions if a.get("type") in ("Win", "DeclareWin") or a.get("claim") == "win"]
        command = rng.choice(wins) if wins and rng.random() < 0.7 else rng.choice(actions)
        body = {"command_id": f"m{moves}", "command": command, "expected_version": view["version"]}
        body["return_view"] = moves % 2 == 0  # both shapes of answer are checked
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(tokens[seat]))
        assert resp.status == 200, await resp.text()
        received.append((seat, "answer", await resp.json()))
        if rng.random() < 0.15:  # own-perspective replay frames during the deal
            step = rng.randint(0, view["version"])
            frame = await http.get(
                f"/deals/{deal_id}/replay",
                params={"step": step, "perspective": seat},
                headers=auth(tokens[seat]),
            )
            assert frame.status == 200, await frame.text()
            received.append((seat, "frame", await frame.json()))
        moves += 1
        assert moves < 3000
        probe_now = window_open_after_answer(http, views, seat) or moves % 4 == 0
        if probe_now:
            received.extend(await probe_every_route(http, deal_id, tokens, probes, keys, sessions))
            probes += 1
    for seat, task in listeners.items():
        for name, message in await asyncio.wait_for(task, 60):
            received.append((seat, f"sse:{name}", message))
    log = await http.get(f"/deals/{deal_id}/log")
    assert log.status == 200
    records = [json.loads(line) for line in (await log.read()).splitlines() if line.strip()]
    k = kit(game)
    events = [k.decode_event(json.dumps(r["data"]).encode()) for r in records]
    # once the deal is over: every seat's replay frame at every step
    for step in range(len(events) + 1):
        for seat in range(n):
            frame = await http.get(f"/deals/{deal_id}/replay", params={"step": step, "perspective": seat})
            assert frame.status == 200, (step, seat, await frame.text())
            received.append((seat, "frame", await frame.json()))
    players = http.app[bootstrap.DEALS].players
    # neither a player key nor its digest may be in any answer
    hidden_keys = [*keys.values(), *[await players.digest(k) for k in keys.values()]]
    # nor a seat token's digest, which the server keeps to recognise the token
    hidden_keys += [hashlib.sha256(t.encode()).hexdigest() for t in tokens]
    # nor an account's password, session, device code or a token handed to another device
    account_secrets = [sessions["mine"], sessions["other"], sessions["phone"], ACCOUNT_PASSWORD]
    account_secrets += [code["device_code"], handed_token]
    hidden_keys += account_secrets + [hashlib.sha256(t.encode()).hexdigest() for t in account_secrets]
    return {
        "deal_id": deal_id, "events": events, "received": received, "tokens": tokens, "probes": probes,
        "player_secrets": hidden_keys, "chat_word": chat_word,
    }  # fmt: skip


def window_open_after_answer(http, views: list[dict], seat: int) -> bool:
    """The seat that just moved answered a claim window that still waits on another seat."""
    before = views[seat]
    return before["prompt"] == "claim" and sum(1 for v in views if v["prompt"] == "claim") >= 2


# --- every GET route of the OpenAPI document -------------------------------------------------
async def get_operations(http) -> list[tuple[str, list[dict]]]:
    document = await (await http.get("/openapi.json")).json()
    return [
        (path, ops["get"].get("parameters", [])) for path, ops in document["paths"].items() if "get" in ops
    ]


def fill(
    parameters: list[dict],
    deal_id: str,
    seats: int,
    version: int,
    n: int,
    token: str | None,
    player_key: str | None = None,
    seek_id: str | None = None,
    ids: dict[str, str] | None = None,
):
    """Path, query and header values for one request (the n-th probe picks other candidates).
    ``ids``: real values of path parameters by name (a tournament's, a match's)."""
    path, query, headers = {}, {}, {}
    for p in parameters:
        name, where = p["name"], p["in"]
        kind = p.get("schema", {}).get("type")
        if where == "path" and ids and name in ids:
            value = ids[name]
        elif name == "deal_id":
            value = deal_id
        elif name == "perspective":
            value = [*map(str, range(seats)), "all"][n % (seats + 1)]
        elif name == "token":
            if token is None:
                continue
            value = token
        elif name == "before":  # a creation time in ms (a player's list pages on it): all of them
            value = str(2**53)
        elif kind == "integer" and name in ("seat",):
            value = str(n % seats)
        elif kind == "integer":
            low = p["schema"].get("minimum", 0)
            value = str(max(low, [version, 0, max(0, version - 1), version // 2, 1][n % 5]))
        elif where == "header" and name.lower() == "last-event-id":
            value = str(max(0, version - 1 - n % 3))
        elif where == "header" and name.lower() == "x-player-key":
            if player_key is None:
                continue
            value = player_key
        elif where == "path" and name == "game":  # a leaderboard: a game's, or one of no game
            value = ["paohuzi", "mcr", "no-such-game"][n % 3]
        elif where == "path" and name == "name":  # a rated player's profile, or nobody's
            value = ["bot:greedy", "nobody-rated"][n % 2]
        elif where == "path" and name == "seek_id":  # the creator's account's seek
            if seek_id is None:
                continue
            value = seek_id
        elif where == "path":
            value = str(n % seats)
        else:
            continue  # an optional string parameter the test cannot guess: left out
        {"path": path, "query": query, "header": headers}[where][name] = value
    return path, query, headers


async def read_stream(resp, version: int) -> list[tuple[str, dict]]:
    """The messages of a live stream up to its first view at ``version`` (or the deal's end, or
    a second of silence)."""
    messages, name, data = [], "message", []
    try:
        while True:
            try:
                line = (await asyncio.wait_for(resp.content.readline(), 1.0)).decode()
            except TimeoutError:
                return messages
            if not line:
                return messages
            line = line.rstrip("\r\n")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
            elif line == "" and data:
                message = json.loads("\n".join(data))
                messages.append((name, message))
                if name in ("deal-over", "reset") or (name == "view" and message["version"] >= version):
                    return messages
                name, data = "message", []
    finally:
        resp.close()


async def probe_every_route(
    http,
    deal_id: str,
    tokens: list[str],
    n: int,
    keys: dict[str, str] | None = None,
    sessions: dict[str, str] | None = None,
) -> list[tuple]:
    """Every GET operation as each seat, a spectator and nobody, at the deal's current version.
    A route that reads a player key (``X-Player-Key``) is asked by a seat with the key that
    created the deal or another player's, and by a spectator or nobody with none or a key
    nobody used. A seat also sends the session cookie of the account that created the deal, or
    another account's (every third probe without its key, so the account's own list is read);
    a spectator or nobody a signed-out session or none."""
    version = (await (await http.get(f"/deals/{deal_id}")).json())["version"]
    out = []
    keys = keys or {}
    sessions = sessions or {}
    for path, parameters in await get_operations(http):
        for viewer in [*range(len(tokens)), None]:
            token = tokens[viewer] if viewer is not None else None
            if viewer is not None:
                player_key = keys.get("mine" if (n + viewer) % 2 == 0 else "other")
            else:
                player_key = None if n % 2 == 0 else f"nobody-used-this-key-{n:04d}"
            values, query, headers = fill(
                parameters, deal_id, len(tokens), version, n + (viewer or 0), token, player_key,
                sessions.get("seek_id"),
            )  # fmt: skip
            if token is not None and "token" not in query:
                headers["Authorization"] = f"Bearer {token}"
            if viewer is not None:
                session = sessions.get(["mine", "other", "phone"][(n + viewer) % 3])
                if (n + viewer) % 3 != 1:
                    headers.pop("X-Player-Key", None)  # the account's list, by its cookie
            else:
                session = None if n % 2 == 0 else "signed-out-session"
            headers.update(cookie(session))
            url = path.format(**values)
            resp = await http.get(url, params=query, headers=headers)
            if resp.content_type == "text/event-stream":
                assert resp.status == 200, url
                for name, message in await read_stream(resp, version):
                    out.append((viewer, f"route:{path}:sse:{name}", {"_at": version, "body": message}))
                continue
            body = await resp.read()
            if resp.content_type == "application/x-ndjson":
                shown = [json.loads(line) for line in body.splitlines() if line.strip()]
            else:
                shown = json.loads(body) if body else None
            assert resp.status < 500, (url, resp.status, body[:300])
            out.append((viewer, f"route:{path}", {"_at": version, "body": shown, "status": resp.status}))
            http.session.cookie_jar.clear()
    return out


def message_version(where: str, message: dict) -> int | None:
    """The version a message shows the deal at."""
    if where.startswith("route:"):
        return message["_at"]
    if where == "frame":
        return message["step"]
    if where in ("view", "sse:view"):
        return message["version"]
    if where == "sse:deal-event":
        return message["version"]
    if where == "answer":
        return message["version"]
    return None  # deal-over carries no cards


def align(shown: list[dict], events: list, first: int, last: int) -> list[int]:
    """The version of each shown event: the log's events first..last, in order, by type and seat."""
    logged = [msgspec.to_builtins(e) for e in events[first - 1 : last]]
    versions, j = [], 0
    for event in shown:
        seat = event.get("seat")
        while j < len(logged) and (logged[j]["type"] != event["type"] or logged[j].get("seat", seat) != seat):
            j += 1
        assert j < len(logged), (event, logged)
        versions.append(first + j)
        j += 1
    return versions


def check_deal(game: str, played: dict) -> dict[str, int]:
    events = played["events"]
    hidden, over = hidden_by_version(game, events)
    secrets = secrets_by_version(game, events)
    seed = events[0].server_seed
    counted: dict[str, int] = {}
    for seat, where, message in played["received"]:
        counted[where] = counted.get(where, 0) + 1
        heard = played["chat_word"] in json.dumps(message)
        assert seat is not None or not heard, (where, "the seats' chat reached someone without a seat")
        if heard:
            counted["chat:heard"] = counted.get("chat:heard", 0) + 1
        version = message_version(where, message)
        if version is None:
            continue
        if where.startswith("route:"):
            body = message["body"]
            if where == f"route:{PLAYER_LIST}":  # the probe saw lists, not only refusals
                listed = isinstance(body, dict) and played["deal_id"] in json.dumps(body.get("deals"))
                kind = "listed" if listed else "refused" if message["status"] >= 400 else "other"
                counted[f"players:{kind}"] = counted.get(f"players:{kind}", 0) + 1
            if where == "route:/seeks/{seek_id}":  # the seek's account (200), another's (404), nobody (401)
                kind = f"seek:{message['status']}"
                counted[kind] = counted.get(kind, 0) + 1
            if where == "route:/accounts/me":  # asked signed in (as either account) and not
                kind = "me:" + ("signed-in" if message["status"] == 200 else str(message["status"]))
                counted[kind] = counted.get(kind, 0) + 1
            leaked = card_ids(body) & hidden[seat][version]
            assert not leaked, (played["deal_id"], seat, where, version, sorted(leaked), body)
            told = secret_leaks(body, seat, secrets[version])
            assert not told, (played["deal_id"], seat, where, version, told[:3])
            text = json.dumps(body)
            if not over[version]:
                assert seed not in text, (played["deal_id"], seat, where, version)
            assert not any(token in text for token in played["tokens"]), (where, "a seat token in an answer")
            assert not any(s in text for s in played["player_secrets"]), (where, "a player key or digest")
            assert not SECRET_FIELD.search(text), (where, "a token or invite digest field")
            continue
        if where == "answer":
            # an answer's events are versions first_version..version minus those hidden from the
            # seat; its view is at version
            at_versions = align(message["events"], events, message["first_version"], message["version"])
            for event, at in zip(message["events"], at_versions, strict=True):
                leaked = card_ids(event) & hidden[seat][at]
                assert not leaked, (played["deal_id"], seat, where, at, event, sorted(leaked))
            shown = message["view"]
            if shown is not None:
                counted["answer:view"] = counted.get("answer:view", 0) + 1
        else:
            shown = message
        leaked = card_ids(shown) & hidden[seat][version]
        assert not leaked, (played["deal_id"], seat, where, version, sorted(leaked), shown)
        text = json.dumps(message)
        if not over[version]:  # the seed stays secret while anyone can still move
            assert seed not in text, (played["deal_id"], seat, where, version)
        assert not any(token in text for token in played["tokens"]), "a seat token in a message"
        assert not any(s in text for s in played["player_secrets"]), "a player key or its digest in a message"
        assert not SECRET_FIELD.search(text), (where, "a token or invite digest field")
    return counted


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
async def test_no_message_or_frame_shows_a_seat_a_hidden_card(app_client, game):
    totals: dict[str, int] = {}
    probes = 0
    for i in range(DEALS_PER_GAME):
        played = await play_deal(app_client, game, seed=1000 * SEATS[game] + i)
        for where, n in check_deal(game, played).items():
            totals[where] = totals.get(where, 0) + n
        probes += played["probes"]
    assert probes >= 5 * DEALS_PER_GAME // 2  # a deal may end early; the deals together probe often
    # every GET operation of the document was asked, by every kind of viewer
    operations = [path for path, _ in await get_operations(app_client)]
    for path in operations:
        assert any(w == f"route:{path}" or w.startswith(f"route:{path}:sse:") for w in totals), path
    # the check ran over every kind of message, for every seat
    assert totals.get("sse:deal-event", 0) > 50 * DEALS_PER_GAME
    assert totals.get("frame", 0) > 100 * DEALS_PER_GAME
    assert totals.get("answer", 0) > 10 * DEALS_PER_GAME
    assert totals.get("answer:view", 0) > 5 * DEALS_PER_GAME
    assert totals.get("sse:deal-over", 0) == DEALS_PER_GAME * (SEATS[game] + 1)
    if PLAYER_LIST in operations:  # asked with the deal's own key, another's, none and an unused one
        players = {k: v for k, v in totals.items() if "players" in k}
        assert totals.get("players:listed", 0) and totals.get("players:refused", 0), players
        assert totals.get("players:other", 0)  # another player's list, or an unused key's empty one
    if "/deals/{deal_id}/chat" in operations:  # the seats read their chat; nobody else did (above)
        assert totals.get("chat:heard", 0) >= SEATS[game], totals
    if "/seeks/{seek_id}" in operations:  # as the seek's account, another account, and nobody
        assert totals.get("seek:200", 0) and totals.get("seek:404", 0) and totals.get("seek:401", 0), totals
    if "/accounts/me" in operations:  # as the creator's account, another account, and nobody
        assert totals.get("me:signed-in", 0) and totals.get("me:401", 0), totals


def test_the_card_id_walk_finds_ids_and_skips_counts():
    """The checker itself: ids under card keys are found, counts and versions are not."""
    message = {
        "version": 7,
        "event": {"type": "DealStarted", "hands": [[3, 4], 20, 21], "stock": 19, "face_up": 5},
        "view": {"hand": [1, 2], "seats": [{"seat": 1, "hand_count": 13, "discards": [9]}], "drawn": 11},
        "new_field": [77],
    }
    assert card_ids(message) == {3, 4, 5, 1, 2, 9, 11, 77}
    state_hidden = {77}
    assert card_ids(message) & state_hidden


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
def test_every_step_of_simulated_deals_has_a_seat_view(game):
    """Replay frames exist at every version, mid-batch ones included (e.g. MCR's dealer holding
    a flower between its deal and its replacement once answered 500)."""
    import hashlib

    from service.cli import play_one

    k = kit(game)
    levels = ["greedy", "random", "greedy", "random"][: SEATS[game]]
    for i in range(40 if FULL else 12):
        _, events = play_one(game, levels, hashlib.sha256(f"steps-{i}".encode()).digest(), f"c{i}")
        state = k.game.initial_state()
        for event in events:
            state = k.game.evolve(state, event)
            for seat in range(SEATS[game]):
                view = msgspec.to_builtins(k.projections.view_from_state(state, seat))
                assert card_ids(view) & HIDDEN[game](state, seat) == set()


async def _until(check, timeout: float = 240.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError("the state waited for never came")


@pytest.mark.timeout(300)
async def test_no_route_shows_a_sealed_duplicate_board(app_client):
    """A real duplicate tournament with a person (TN-3.6): while the person's table waits for
    them, the other tables have finished board 1. Every GET operation of the document, asked
    about a finished board (with the tournament's and the match's real ids), by nobody and by the
    person (signed in, with the token of their own table), shows none of its hidden content: not
    its seed, its wall's order or any hand."""
    http = app_client
    session = await sign_up(http, "dup-person")
    body = {
        "game": "mcr", "format": "duplicate", "rounds": 1, "deals_per_round": 1, "pace": "fast",
        "players": ["dup-person"] + ["bot:greedy"] * 7, "clock": {"move_s": 60, "claim_s": 60, "bank_s": 0},
    }  # fmt: skip
    resp = await http.post("/tournaments", json=body)
    assert resp.status == 201, await resp.text()
    tid = (await resp.json())["tournament_id"]

    async def seated():
        found = await (await http.get(f"/tournaments/{tid}/my-table", headers=cookie(session))).json()
        return found if found["deal_id"] is not None else None

    table = await _until(seated)
    handed = await http.post(f"/deals/{table['deal_id']}/my-seat", headers=cookie(session))
    assert handed.status == 200, await handed.text()
    own_token = (await handed.json())["token"]

    async def finished():
        shown = await (await http.get(f"/tournaments/{tid}")).json()
        rows = [t for t in shown["rounds"][0]["tables"] + shown["benchmark"] if t["table"] != table["table"]]
        if any(not t["deals"] for t in rows):
            return None
        for t in rows:
            if not (await (await http.get(f"/deals/{t['deals'][0]}")).json())["over"]:
                return None
        return rows

    rows = await _until(finished)
    store = http.app[bootstrap.DEALS].store
    operations = await get_operations(http)
    asked = 0
    for row in rows:
        deal_id, match_id = row["deals"][0], row["match_id"]
        records = [json.loads(raw) for raw in await store.read_raw(deal_id)]
        k = kit("mcr")
        state = k.game.fold(k.decode_event(json.dumps(r["data"]).encode()) for r in records)
        wall = records[0]["data"]["fixed_deck"]
        secrets = [records[0]["data"]["server_seed"], ",".join(map(str, wall[:12]))]
        secrets += [",".join(map(str, sorted(hand))) for hand in state.hands if len(hand) > 4]
        ids = {"tournament_id": tid, "match_id": match_id, "seek_id": "no-such-seek"}
        for n, (path, parameters) in enumerate(operations):
            for who, token, session_of in (("nobody", None, None), ("person", own_token, session)):
                values, query, headers = fill(parameters, deal_id, 4, 1, n, token, ids=ids)
                if token is not None and "token" not in query:
                    headers["Authorization"] = f"Bearer {token}"
                headers.update(cookie(session_of))
                url = path.format(**values)
                resp = await http.get(url, params=query, headers=headers)
                if resp.content_type == "text/event-stream":
                    assert resp.status == 200, url
                    text = json.dumps(await read_stream(resp, 10**6))
                else:
                    text = (await resp.read()).decode()
                    assert resp.status < 500, (url, resp.status, text[:300])
                asked += 1
                compact = text.replace(" ", "")
                for secret in secrets:
                    assert secret not in compact, (who, url, secret, text[:400])
                assert '"fixed_deck":[' not in compact, (who, url, text[:400])
                http.session.cookie_jar.clear()
    assert asked >= 2 * len(operations)
    # every answer above came while the round was still played (its table waits a minute for
    # the person, TN-1.4)
    shown = await (await http.get(f"/tournaments/{tid}")).json()
    assert shown["rounds"][0]["seed"] is None
