"""Through HTTP: a word at the table. A seat posts, the other seats read it; nobody else does
(no token, a spectator, another deal's seat); bad text and bursts are refused and store nothing;
the chat is never in the deal's log nor its hash chain, and stays once the deal is over; a
second service process on the same store sees the same chat. The spectators' room: signed-in
accounts write it, anyone reads it, only at a table open to spectators (DS-44 otherwise), and it
never mixes with the seats' chat, in reads or in streams."""

from __future__ import annotations

import asyncio
import json

import pytest

from service.http.routes import CHAT_RELAY
from tests.e2e.conftest import auth, create_deal, expect_problem, play_as_human, wait_for
from tests.e2e.test_http_accounts import call, sign_up

pytestmark = pytest.mark.redis


async def _table(http, **extra) -> dict:
    body = {"game": "paohuzi", "seats": ["human", "human", "bot:greedy"], "name": "Ana", **extra}
    return await create_deal(http, body)


async def _chat(http, deal_id: str, token: str | None = None) -> list[dict]:
    resp = await http.get(f"/deals/{deal_id}/chat", headers=auth(token) if token else {})
    assert resp.status == 200, await resp.text()
    return (await resp.json())["messages"]


async def test_a_seat_posts_and_the_other_seats_read_it_as_sent(http):
    created = await _table(http)
    deal_id, tokens = created["deal_id"], created["tokens"]
    resp = await http.post(
        f"/deals/{deal_id}/chat", json={"text": "  <b>hi</b> & good luck  "}, headers=auth(tokens["0"])
    )
    assert resp.status == 201, await resp.text()
    posted = await resp.json()
    assert posted["seat"] == 0 and posted["name"] == "Ana" and posted["text"] == "<b>hi</b> & good luck"
    assert isinstance(posted["at"], int) and posted["at"] > 0
    resp = await http.post(f"/deals/{deal_id}/chat", json={"phrase": "thanks"}, headers=auth(tokens["1"]))
    assert resp.status == 201, await resp.text()
    for token in (tokens["0"], tokens["1"]):
        messages = await _chat(http, deal_id, token)
        assert [(m["seat"], m["text"], m.get("phrase", False)) for m in messages] == [
            (0, "<b>hi</b> & good luck", False),
            (1, "thanks", True),
        ]
        assert set(messages[0]) == {"seat", "name", "text", "at"}


async def test_nobody_but_the_seats_reads_or_writes(http):
    created = await _table(http, spectators=True)
    deal_id, tokens = created["deal_id"], created["tokens"]
    other = await _table(http)
    assert (
        await http.post(f"/deals/{deal_id}/chat", json={"text": "secret"}, headers=auth(tokens["0"]))
    ).status == 201
    # no token (a stranger, or a spectator of a table open to them): 401, nothing of the chat
    for resp in (
        await http.get(f"/deals/{deal_id}/chat"),
        await http.post(f"/deals/{deal_id}/chat", json={"text": "hello"}),
        await http.get(f"/deals/{deal_id}/chat", headers=auth(other["tokens"]["0"])),  # another deal's seat
        await http.post(f"/deals/{deal_id}/chat", json={"text": "x"}, headers=auth(other["tokens"]["0"])),
        await http.get(f"/deals/{deal_id}/chat", headers=auth("not-a-token")),
    ):
        body = await expect_problem(resp, 401, "DS-8")
        assert "secret" not in str(body)
    await expect_problem(await http.get("/deals/nosuchdeal/chat", headers=auth(tokens["0"])), 404, "DS-7")
    assert [m["text"] for m in await _chat(http, deal_id, tokens["1"])] == ["secret"]
    assert await _chat(http, other["deal_id"], other["tokens"]["0"]) == []


@pytest.mark.parametrize(
    "body",
    [
        {"text": ""},
        {"text": "   \n\t "},
        {"text": "x" * 201},
        {"text": "a\u0007b"},
        {"text": "bell\u202eevil"},
        {"phrase": "no-such-phrase"},
        {"text": "hi", "phrase": "gg"},
        {},
    ],
)
async def test_bad_text_is_422_and_stores_nothing(http, body):
    created = await _table(http)
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    await expect_problem(
        await http.post(f"/deals/{deal_id}/chat", json=body, headers=auth(token)), 422, "DS-45"
    )
    assert await _chat(http, deal_id, token) == []


async def test_length_counts_characters_and_text_is_stored_in_nfc(http):
    created = await _table(http)
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    long_ok = "牌" * 199 + "e\u0301"  # 201 code points sent, 200 once composed
    resp = await http.post(f"/deals/{deal_id}/chat", json={"text": long_ok}, headers=auth(token))
    assert resp.status == 201, await resp.text()
    assert (await resp.json())["text"] == "牌" * 199 + "\u00e9"
    await expect_problem(
        await http.post(f"/deals/{deal_id}/chat", json={"text": "牌" * 201}, headers=auth(token)),
        422,
        "DS-45",
    )
    await expect_problem(
        await http.post(f"/deals/{deal_id}/chat", data=b"{not json", headers=auth(token)), 400, "DS-5"
    )


async def test_a_burst_from_one_seat_is_429_and_the_other_seat_still_speaks(http):
    created = await _table(http)
    deal_id, tokens = created["deal_id"], created["tokens"]
    answers = [
        await http.post(f"/deals/{deal_id}/chat", json={"text": f"m{i}"}, headers=auth(tokens["0"]))
        for i in range(8)
    ]
    statuses = [a.status for a in answers]
    assert statuses[:5] == [201] * 5 and set(statuses[5:]) == {429}
    body = await expect_problem(answers[-1], 429, "DS-46")
    assert int(answers[-1].headers["Retry-After"]) >= 1 and body["status"] == 429
    assert (
        await http.post(f"/deals/{deal_id}/chat", json={"text": "mine"}, headers=auth(tokens["1"]))
    ).status == 201
    assert [m["text"] for m in await _chat(http, deal_id, tokens["1"])] == [
        "m0",
        "m1",
        "m2",
        "m3",
        "m4",
        "mine",
    ]


def _first(view: dict) -> dict:
    actions = view["legal_actions"]
    return next((a for a in actions if a["type"] in ("Pass", "Discard")), actions[0])


async def test_chat_is_no_part_of_the_log_and_stays_after_the_deal(http, store):
    created = await create_deal(http, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"]})
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "chat"}}
    assert (await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(token))).status == 200
    assert (
        await http.post(f"/deals/{deal_id}/chat", json={"text": "zebra-words-42"}, headers=auth(token))
    ).status == 201
    await play_as_human(http, deal_id, token, _first)
    log = await http.get(f"/deals/{deal_id}/log")
    assert log.status == 200
    assert b"zebra-words-42" not in await log.read()
    audit = await http.get(f"/deals/{deal_id}/audit")
    assert b"zebra-words-42" not in await audit.read()
    assert [m["text"] for m in await _chat(http, deal_id, token)] == ["zebra-words-42"]
    resp = await http.post(f"/deals/{deal_id}/chat", json={"phrase": "gg"}, headers=auth(token))
    assert resp.status == 201  # a word after the deal is over, too
    await expect_problem(await http.get(f"/deals/{deal_id}/chat"), 401, "DS-8")  # over: still the seats' only


async def test_two_processes_share_one_chat(http, second_server):
    created = await _table(http)
    deal_id, tokens = created["deal_id"], created["tokens"]
    assert (
        await http.post(f"/deals/{deal_id}/chat", json={"text": "from one"}, headers=auth(tokens["0"]))
    ).status == 201
    async with second_server.post(
        f"/deals/{deal_id}/chat", json={"text": "from two"}, headers=auth(tokens["1"])
    ) as resp:
        assert resp.status == 201, await resp.text()
    async with second_server.get(f"/deals/{deal_id}/chat", headers=auth(tokens["0"])) as resp:
        assert [m["text"] for m in (await resp.json())["messages"]] == ["from one", "from two"]
    assert [m["text"] for m in await _chat(http, deal_id, tokens["1"])] == ["from one", "from two"]


async def test_a_word_appends_nothing_to_the_log(http, store):
    created = await _table(http)  # people only, not started: nothing else moves its head
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    head = await store.redis.hgetall(store.keys.commands(deal_id))
    events = await store.redis.xlen(store.keys.events(deal_id))
    for i in range(3):
        assert (
            await http.post(f"/deals/{deal_id}/chat", json={"text": f"w{i}"}, headers=auth(token))
        ).status == 201
    assert await store.redis.hgetall(store.keys.commands(deal_id)) == head  # same version, same hash
    assert await store.redis.xlen(store.keys.events(deal_id)) == events


async def _next_event(resp, name: str, timeout: float) -> dict | None:
    """The data of the stream's next ``name`` message within ``timeout`` s (None: none came)."""
    event = None
    try:
        async with asyncio.timeout(timeout):
            while True:
                line = (await resp.content.readline()).decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event = line[len("event: ") :]
                elif line.startswith("data: ") and event == name:
                    return json.loads(line[len("data: ") :])
    except TimeoutError:
        return None


async def test_the_seats_streams_carry_the_chat_and_a_spectators_does_not(http):
    created = await _table(http, spectators=True)
    deal_id, tokens = created["deal_id"], created["tokens"]
    seat_stream = await http.get(f"/deals/{deal_id}/events/stream", headers=auth(tokens["1"]))
    watcher = await http.get(f"/deals/{deal_id}/events/stream")
    assert seat_stream.status == 200 and watcher.status == 200
    relay = http.app[CHAT_RELAY]

    async def listening():
        return relay.listening(deal_id)

    await wait_for(listening)
    said = "<img src=x onerror=alert(1)> hi"
    assert (
        await http.post(f"/deals/{deal_id}/chat", json={"text": said}, headers=auth(tokens["0"]))
    ).status == 201
    heard = await _next_event(seat_stream, "chat", 10.0)
    assert heard is not None and heard["seat"] == 0 and heard["text"] == said and heard["name"] == "Ana"
    assert await _next_event(watcher, "chat", 0.5) is None  # handed out at once to the seats, never here
    seat_stream.close()
    watcher.close()


async def test_a_seats_stream_on_another_process_carries_a_word_said_here(http, second_server):
    created = await _table(http)
    deal_id, tokens = created["deal_id"], created["tokens"]
    async with second_server.get(f"/deals/{deal_id}/events/stream", headers=auth(tokens["1"])) as stream:
        assert stream.status == 200
        assert await _next_event(stream, "view", 10.0) is not None  # the stream is in place there
        # said at once: heard by the other process's doorbell, or handed out as a recent word
        # when it starts hearing this deal
        said = {"text": "across processes"}
        assert (await http.post(f"/deals/{deal_id}/chat", json=said, headers=auth(tokens["0"]))).status == 201
        heard = await _next_event(stream, "chat", 10.0)
        assert heard is not None and heard["text"] == "across processes" and heard["seat"] == 0


# the spectators' room ---------------------------------------------------------------------


async def _watch(http, deal_id: str) -> list[dict]:
    resp = await http.get(f"/deals/{deal_id}/watchers/chat")
    assert resp.status == 200, await resp.text()
    return (await resp.json())["messages"]


async def _watch_post(http, deal_id: str, session: str | None, body: dict):
    resp = await call(http, "POST", f"/deals/{deal_id}/watchers/chat", session, json=body)
    return resp


async def test_a_watcher_posts_and_anyone_reads_the_room_apart_from_the_seats(http):
    created = await _table(http, spectators=True)
    deal_id, tokens = created["deal_id"], created["tokens"]
    kim = await sign_up(http, "Kim Watch")
    lee = await sign_up(http, "Lee Watch")
    resp = await _watch_post(http, deal_id, kim, {"text": "  what a <i>hand</i>  "})
    assert resp.status == 201, await resp.text()
    posted = await resp.json()
    assert posted["name"] == "Kim Watch" and posted["text"] == "what a <i>hand</i>" and "seat" not in posted
    assert (await _watch_post(http, deal_id, lee, {"phrase": "nice"})).status == 201
    said = {"text": "seats-only-words"}
    assert (await http.post(f"/deals/{deal_id}/chat", json=said, headers=auth(tokens["0"]))).status == 201
    # anyone reads the room (no session, no token): the watchers' words, never the seats'
    room = await _watch(http, deal_id)
    assert [(m["name"], m["text"], m.get("phrase", False)) for m in room] == [
        ("Kim Watch", "what a <i>hand</i>", False),
        ("Lee Watch", "nice", True),
    ]
    assert "seats-only-words" not in json.dumps(room)
    # and the seats' chat never shows the room
    seats = await _chat(http, deal_id, tokens["1"])
    assert [m["text"] for m in seats] == ["seats-only-words"]
    # a seat token is not used here: a seat's token alone (no session) cannot write the room
    resp = await http.post(f"/deals/{deal_id}/watchers/chat", json={"text": "x"}, headers=auth(tokens["0"]))
    await expect_problem(resp, 401, "DS-34")
    # the same checks as the seats' chat; bursts per account
    await expect_problem(await _watch_post(http, deal_id, kim, {"text": ""}), 422, "DS-45")
    answers = [(await _watch_post(http, deal_id, lee, {"text": f"w{i}"})).status for i in range(6)]
    assert answers[:4] == [201] * 4 and answers[4:] == [429, 429]  # 5 per 10 s: one said before
    assert (await _watch_post(http, deal_id, kim, {"text": "still me"})).status == 201
    assert [m["text"] for m in await _watch(http, deal_id)][-1] == "still me"


async def test_no_spectators_no_room_and_no_session_no_word(http, store):
    created = await _table(http)  # people only: spectators off by default
    deal_id = created["deal_id"]
    kim = await sign_up(http, "Kim Nowatch")
    await expect_problem(await _watch_post(http, deal_id, kim, {"text": "anyone?"}), 404, "DS-44")
    await expect_problem(await http.get(f"/deals/{deal_id}/watchers/chat"), 404, "DS-44")
    assert not await store.redis.exists(store.keys.watch_chat(deal_id), store.keys.watch_chat_said(deal_id))
    await expect_problem(await http.get("/deals/nosuchdeal/watchers/chat"), 404, "DS-7")
    open_table = await _table(http, spectators=True)
    await expect_problem(await _watch_post(http, open_table["deal_id"], None, {"text": "hi"}), 401, "DS-34")
    await expect_problem(
        await _watch_post(http, open_table["deal_id"], "not-a-session", {"text": "hi"}), 401, "DS-34"
    )
    assert await _watch(http, open_table["deal_id"]) == []
    resp = await call(
        http, "POST", f"/deals/{open_table['deal_id']}/watchers/chat", kim,
        json={"text": "cross"}, headers={"Origin": "https://elsewhere.example"},
    )  # fmt: skip
    await expect_problem(resp, 403, "DS-39")
    assert await _watch(http, open_table["deal_id"]) == []


async def test_a_spectators_stream_carries_the_room_and_a_seats_does_not(http):
    created = await _table(http, spectators=True)
    deal_id, tokens = created["deal_id"], created["tokens"]
    kim = await sign_up(http, "Kim Stream")
    seat_stream = await http.get(f"/deals/{deal_id}/events/stream", headers=auth(tokens["1"]))
    watcher = await http.get(f"/deals/{deal_id}/events/stream")
    assert seat_stream.status == 200 and watcher.status == 200
    relay = http.app[CHAT_RELAY]

    async def listening():
        return relay.listening(deal_id) and relay.listening_watchers(deal_id)

    await wait_for(listening)
    assert (await _watch_post(http, deal_id, kim, {"text": "from the rail"})).status == 201
    heard = await _next_event(watcher, "chat", 10.0)
    assert heard == {"name": "Kim Stream", "text": "from the rail", "at": heard["at"]}
    assert await _next_event(seat_stream, "chat", 0.5) is None  # the seats never hear the room
    # and a seat's word reaches the seat's stream, not the spectator's
    assert (
        await http.post(f"/deals/{deal_id}/chat", json={"text": "at the table"}, headers=auth(tokens["0"]))
    ).status == 201
    heard = await _next_event(seat_stream, "chat", 10.0)
    assert heard is not None and heard["text"] == "at the table"
    assert await _next_event(watcher, "chat", 0.5) is None
    seat_stream.close()
    watcher.close()
