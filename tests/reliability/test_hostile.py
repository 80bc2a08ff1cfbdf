"""Hostile input: schemathesis over every endpoint of /openapi.json, and a corpus of hostile requests.

Schemathesis (bounded: a fixed seed, a few dozen examples per operation) runs three times against a
real service process: with random deal ids and no token; on a live MCR deal with a seat token; on a
finished deal. It must find no 5xx and no response outside the documented schema. Its
``positive_data_acceptance`` check is left out: the schema cannot say that MCR needs four seats and
Paohuzi three, so some schema-valid bodies are rightly refused with 400.

The corpus (huge and deeply nested bodies, odd unicode, out-of-range ids, replayed and forged
tokens, commands for finished deals, …) must get a 4xx problem, and append nothing anywhere.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

from service import bootstrap
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.reliability.harness import PROBLEM, ROOT, ServiceProcess

pytestmark = pytest.mark.redis

ST_EXAMPLES = 25
ST_CHECKS_EXCLUDED = "positive_data_acceptance"


# --- schemathesis ----------------------------------------------------------------------------
def _schemathesis(base: str, config: str, *extra: str) -> subprocess.CompletedProcess[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(config)
    try:
        args = [
            sys.executable, "-m", "schemathesis.cli", "--no-color", "--config-file", f.name,
            "run", f"{base}/openapi.json",
            "--max-examples", str(ST_EXAMPLES),
            "--seed", "20261129",
            "--checks", "all",
            "--exclude-checks", ST_CHECKS_EXCLUDED,
            "--request-timeout", "5",
            "--workers", "1",
            "--no-shrink",
            "--phases", "examples,coverage,fuzzing,stateful",
            *extra,
        ]  # fmt: skip
        return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    finally:
        Path(f.name).unlink(missing_ok=True)


async def _json(session, method: str, url: str, **kw):
    async with session.request(method, url, **kw) as resp:
        return resp.status, await resp.json(content_type=None)


@pytest.mark.timeout(400)
async def test_schemathesis_finds_no_server_error_and_no_schema_break(real_redis_url, key_prefix):
    service = ServiceProcess(real_redis_url, key_prefix).start()
    client = connect(real_redis_url)
    try:
        await service.ready()
        async with aiohttp.ClientSession() as session:
            status, live = await _json(
                session, "POST", service.base + "/deals",
                json={"game": "mcr", "seats": ["human", "human", "bot:greedy", "bot:random"]},
            )  # fmt: skip
            assert status == 201
            token = live["tokens"]["0"]
            status, _ = await _json(
                session, "POST", f"{service.base}/deals/{live['deal_id']}/commands",
                json={"command_id": "go", "command": {"type": "StartDeal", "client_seed": "st"}},
                headers={"Authorization": f"Bearer {token}"},
            )  # fmt: skip
            assert status == 200
            status, done = await _json(
                session,
                "POST",
                service.base + "/deals",
                json={"game": "paohuzi", "seats": ["bot:greedy"] * 3},
            )
            assert status == 201
            for _ in range(300):
                status, summary = await _json(session, "GET", f"{service.base}/deals/{done['deal_id']}")
                if summary["over"]:
                    break
                await asyncio.sleep(0.05)
            assert summary["over"]
        stream_events = "max-stream-events = 8\n"
        runs = {
            "random ids, no token": _schemathesis(service.base, stream_events),
            "live deal, seat token": _schemathesis(
                service.base,
                stream_events
                + f'[headers]\nAuthorization = "Bearer {token}"\n'
                + f'[parameters]\n"path.deal_id" = "{live["deal_id"]}"\n',
                # a live deal's stream waits for moves nobody makes here: read on the finished deal
                "--exclude-path-regex",
                "events/stream",
            ),
            "finished deal": _schemathesis(
                service.base, stream_events + f'[parameters]\n"path.deal_id" = "{done["deal_id"]}"\n'
            ),
        }
        failed = {
            name: run.stdout[-6000:] + run.stderr[-2000:] for name, run in runs.items() if run.returncode
        }
        assert not failed, "\n\n".join(f"== {name}\n{out}" for name, out in failed.items())
        for run in runs.values():
            assert " passed" in run.stdout and "generated" in run.stdout, run.stdout[-2000:]
        output = service.output()
        assert "unexpected error" not in output  # no 500 was logged
        # Redis answered all along: a client closing its event stream is not an unreachable store
        assert "event store unreachable" not in output, output[-3000:]
    finally:
        service.cleanup()
        await drop_prefix(client, key_prefix)
        await client.aclose()


# --- the corpus -------------------------------------------------------------------------------
@pytest.fixture
async def prod(aiohttp_client, real_redis_url, key_prefix):
    """The app as production runs it (no --dev), in this process, under the test's prefix."""
    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    app = bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=key_prefix))
    http = await aiohttp_client(app)
    http.store = store
    yield http
    await drop_prefix(client, key_prefix)
    await client.aclose()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _create(http, game: str, seats: list[str]) -> dict:
    resp = await http.post("/deals", json={"game": game, "seats": seats})
    assert resp.status == 201, await resp.text()
    return await resp.json()


async def _finish_all_bot(http, game: str) -> dict:
    seats = ["bot:greedy"] * (4 if game == "mcr" else 3)
    created = await _create(http, game, seats)
    deadline = time.monotonic() + 120  # a state, within a bound a loaded machine meets
    while time.monotonic() < deadline:
        if (await (await http.get(f"/deals/{created['deal_id']}")).json())["over"]:
            return created
        await asyncio.sleep(0.05)
    raise AssertionError("the all-bot deal did not finish")


async def _snapshot(http) -> dict[str, int]:
    """Every deal of this test's store with its log length: nothing may change."""
    deals = await http.store.indexes.list_deals(0, 10_000)
    return {d: len(await http.store.read_raw(d)) for d in deals}


async def _settled_snapshot(http, deal_id: str, tokens: list[str], timeout: float = 60.0) -> dict[str, int]:
    """The snapshot once the bots have nothing left to do: the deal waits on one of its people
    and no log grew for a second. (Bots move in the app after the person's command answered,
    so a snapshot taken at once can still be overtaken by a bot's move on a busy machine.)"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last = await _snapshot(http)
    while True:
        await asyncio.sleep(1.0)
        waits_on_person = False
        for token in tokens:
            view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
            waits_on_person = waits_on_person or bool(view["legal_actions"])
        now = await _snapshot(http)
        if waits_on_person and now == last:
            return now
        assert loop.time() < deadline, "the bots never settled"
        last = now


def _nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


def _deep_object(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.timeout(200)
async def test_hostile_requests_get_4xx_problems_and_append_nothing(prod):
    http = prod
    mcr = await _create(http, "mcr", ["human", "human", "bot:greedy", "bot:random"])
    mid, tok0, tok1 = mcr["deal_id"], mcr["tokens"]["0"], mcr["tokens"]["1"]
    start = {"command_id": "go", "command": {"type": "StartDeal", "client_seed": "hostile"}}
    resp = await http.post(f"/deals/{mid}/commands", json=start, headers=auth(tok0))
    assert resp.status == 200
    finished = await _finish_all_bot(http, "paohuzi")
    fid = finished["deal_id"]
    # a finished deal with a human seat, for commands and replays after the end
    ph = await _create(http, "paohuzi", ["human", "bot:greedy", "bot:greedy"])
    pid, ptok = ph["deal_id"], ph["tokens"]["0"]
    moves = 0
    while True:
        view = await (await http.get(f"/deals/{pid}/view", headers=auth(ptok))).json()
        if view["result"] is not None:
            break
        if not view["legal_actions"]:
            await asyncio.sleep(0.01)
            continue
        action = next((a for a in view["legal_actions"] if a["type"] == "Win"), view["legal_actions"][0])
        if action["type"] == "StartDeal":
            action = {**action, "client_seed": "h"}
        body = {"command_id": f"m{moves}", "command": action, "expected_version": view["version"]}
        assert (await http.post(f"/deals/{pid}/commands", json=body, headers=auth(ptok))).status in (200, 409)
        moves += 1
        assert moves < 500
    before = await _settled_snapshot(http, mid, [tok0, tok1])  # from here on nothing may move

    view = await (await http.get(f"/deals/{mid}/view", headers=auth(tok0))).json()
    legal = view["legal_actions"][0] if view["legal_actions"] else {"type": "Pass", "window": 1}
    cmd = f"/deals/{mid}/commands"
    big = 70 * 1024
    J = {"Content-Type": "application/json"}

    def j(obj) -> bytes:
        return json.dumps(obj).encode()

    def c(command, token=tok0, path=cmd, command_id="x", **extra):
        """A command POST as a corpus entry."""
        headers = {**J, **auth(token)} if token else J
        return ("POST", path, headers, j({"command_id": command_id, "command": command, **extra}))

    def deal(**body):
        return ("POST", "/deals", J, j({"game": "mcr", "seats": ["human"] * 4, **body}))

    def raw(body: bytes | str, token=tok0, path=cmd):
        body = body.encode() if isinstance(body, str) else body
        return ("POST", path, {**J, **auth(token)} if token else J, body)

    def get(path, headers=None):
        return ("GET", path, headers or {}, None)

    flipped = tok0[:-1] + ("A" if tok0[-1] != "A" else "B")
    pass1 = {"type": "Pass", "window": 1}
    # (method, path, headers, raw body or None): every one must get a 4xx
    corpus: list[tuple[str, str, dict[str, str], bytes | None]] = [
        # huge bodies
        ("POST", "/deals", J, b'{"game":"' + b"m" * big + b'","seats":[]}'),
        raw(b'{"command_id":"x","command":{"pad":"' + b"x" * big + b'"}}'),
        raw(b"[" * big),
        deal(seats=["human"] * 10_000),
        deal(client_seed="s" * 5000),
        # deeply nested bodies
        raw('{"command_id":"x","command":{"type":' + _nested(5000) + "}}"),
        raw('{"command_id":"x","command":' + _deep_object(3000) + "}"),
        raw('{"game":"mcr","seats":' + _nested(10_000, '"human"') + "}", token=None, path="/deals"),
        raw(_deep_object(8000), token=None, path="/deals"),
        raw(_nested(20_000)),
        # not JSON, not an object, not UTF-8
        raw(b"\xff\xfe\x00garbage"),
        raw(b"null"),
        raw(b'"StartDeal"'),
        raw(b"[1,2,3]"),
        raw(b"", token=None, path="/deals"),
        raw(b'{"game":"mcr","seats":["human","human","human","human"]', token=None, path="/deals"),
        ("POST", cmd, {"Content-Type": "text/plain", **auth(tok0)}, b"command=Discard&tile=3"),
        # odd unicode
        c(legal, command_id="\u202eevil"),
        c(legal, command_id="a\u0000b"),
        raw(b'{"command_id":"\\ud800","command":{"type":"Pass","window":1}}'),
        c({"type": "\uff24iscard", "tile": 1}),  # fullwidth D
        c({"type": "Discard\u200b", "tile": 1}),  # zero-width space
        ("POST", "/deals", J, j({"game": "\uff4d\uff43\uff52", "seats": ["human"] * 4})),
        deal(seats=["human\u0301"] * 4),
        deal(seats=["bot:greedy\u0000"] * 4),
        get("/deals/%F0%9F%92%A9/view", auth(tok0)),
        get("/deals/%00/audit"),
        get("/deals/..%2F..%2Fetc%2Fpasswd/log"),
        get("/deals/" + "x" * 4000 + "/audit"),
        get(f"/deals/{mid}%00/view", auth(tok0)),
        get(f"/deals/{mid}/replay?step=%F0%9F%98%80", auth(tok0)),
        get(f"/deals/{mid}/replay?perspective=%D9%A0", auth(tok0)),  # Arabic-Indic zero
        # out-of-range ids and versions
        c({"type": "Discard", "tile": 10**30}),
        c({"type": "Discard", "tile": -1}),
        c({"type": "Discard", "tile": 144}),
        c({"type": "Discard", "tile": 2**63}),
        c({"type": "Pass", "window": -7}),
        c({"type": "Claim", "window": 2**40, "claim": "win", "tiles": [1, 2]}),
        c(legal, expected_version=-1),
        c(legal, expected_version=10**20),
        c({**legal, "seat": 7}),
        c({**legal, "seat": -1}),
        c(legal, command_id="x" * 129),
        raw(b'{"command_id":"x","command":{"type":"Discard","tile":1e999}}'),
        raw(b'{"command_id":"x","command":{"type":"Discard","tile":NaN}}'),
        deal(deck=list(range(144)), dealer=0),
        deal(dealer=99),
        get(f"/deals/{mid}/replay?step=-1", auth(tok0)),
        get(f"/deals/{mid}/replay?step=99999999999999999999999", auth(tok0)),
        get(f"/deals/{mid}/replay?step=1e3", auth(tok0)),
        get(f"/deals/{fid}/replay?perspective=7"),
        get(f"/deals/{fid}/replay?perspective=-1"),
        get(f"/deals/{fid}/replay?perspective=1.0"),
        get(f"/deals/{fid}/replay?perspective=99999999999999999999999"),
        get(f"/deals/{fid}/events/stream?after=-5"),
        get(f"/deals/{fid}/events/stream?after=abc"),
        get(f"/deals/{fid}/events/stream?after=1e309"),
        get(f"/deals/{fid}/events/stream", {"Last-Event-ID": "-1"}),
        get(f"/deals/{fid}/events/stream", {"Last-Event-ID": "0-1"}),
        get("/deals?offset=-1&count=abc"),
        get("/deals?count=1e9"),
        get("/deals/ffffffffffffffff/audit"),
        # forged and replayed tokens
        get(f"/deals/{mid}/view"),
        get(f"/deals/{mid}/view", {"Authorization": "Bearer "}),
        get(f"/deals/{mid}/view", {"Authorization": "Basic " + tok0}),
        get(f"/deals/{mid}/view", {"Authorization": "Bearer " + flipped}),
        get(f"/deals/{mid}/view", {"Authorization": "Bearer " + "A" * 6000}),
        get(f"/deals/{mid}/view", {"Authorization": "Bearer " + tok0.upper()}),
        get(f"/deals/{mid}/view?token=" + "%00" * 10),
        get(f"/deals/{mid}/view", auth(ptok)),  # the token of another deal
        c(legal, token=ptok),
        c(legal, token="\u00e9t\u00e9".encode().decode("latin-1")),
        get(f"/deals/{mid}/replay?perspective=1&step=3", auth(tok0)),  # another seat's eyes
        get(f"/deals/{mid}/replay?perspective=all&step=3", auth(tok1)),
        get(f"/deals/{mid}/log", auth(tok0)),
        # commands for finished deals
        c(pass1, token=ptok, path=f"/deals/{pid}/commands", command_id="late"),
        c({"type": "StartDeal", "client_seed": "again"}, token=ptok, path=f"/deals/{pid}/commands"),
        c(pass1, token=ptok, path=f"/deals/{fid}/commands", command_id="late"),
        c(pass1, token=None, path=f"/deals/{fid}/commands", command_id="late"),
        # a second start; a start for another seat
        c({"type": "StartDeal", "client_seed": "again"}, token=tok1, command_id="go2"),
        c({"type": "StartDeal", "client_seed": "x", "seat": 0}, token=tok1, command_id="go"),
        # methods and routes that do not exist
        ("DELETE", f"/deals/{mid}", {}, None),
        ("PUT", cmd, {**J, **auth(tok0)}, b"{}"),
        ("PATCH", "/deals", J, b"{}"),
        get("/deals/x/y/z"),
        get("/web/../../etc/passwd"),
        get("/web/%2e%2e/%2e%2e/pyproject.toml"),
    ]
    outcomes = []
    for method, path, headers, body in corpus:
        try:
            resp = await asyncio.wait_for(http.request(method, path, headers=headers, data=body), 10)
            text = await asyncio.wait_for(resp.read(), 10)
            status = resp.status
        except (aiohttp.ClientPayloadError, TimeoutError) as exc:  # broken off, or hanging
            outcomes.append((method, path[:80], 0, "", repr(exc).encode()))
            continue
        outcomes.append((method, path[:80], status, resp.content_type, text[:160]))
        resp.release()
    bad = [o for o in outcomes if not 400 <= o[2] < 500]
    assert not bad, "\n".join(map(str, bad))
    # every answer that came from the app (not aiohttp's own request parser) is a problem document
    not_problems = [o for o in outcomes if o[3] != PROBLEM and not o[4].startswith(b"400")]
    assert not not_problems, "\n".join(map(str, not_problems))
    await asyncio.sleep(0.1)
    assert await _snapshot(http) == before, "a hostile request appended or created something"
    # and the live deal still works for its real seat
    view = await (await http.get(f"/deals/{mid}/view", headers=auth(tok0))).json()
    assert view["seat"] == 0 and view["version"] == before[mid]


@pytest.mark.timeout(60)
async def test_a_finished_deals_stream_resumed_at_or_past_its_end_closes_at_once(prod):
    http = prod
    finished = await _finish_all_bot(http, "mcr")
    deal_id = finished["deal_id"]
    total = (await (await http.get(f"/deals/{deal_id}")).json())["version"]
    resumes = [({"after": total}, {}), ({"after": 10**9}, {}), ({}, {"Last-Event-ID": str(total)})]
    for params, headers in resumes:
        resp = await http.get(f"/deals/{deal_id}/events/stream", params=params, headers=headers)
        assert resp.status == 200
        body = (await asyncio.wait_for(resp.read(), 30)).decode()
        assert "event: deal-over" in body and "deal-event" not in body


@pytest.mark.timeout(120)
async def test_hostile_headers_get_4xx_problems_and_append_nothing(prod):
    """Header names, values, encodings and lengths no client library would send (over a plain
    socket): every answer is a 4xx problem document, never a 500, and nothing is appended."""
    from tests.reliability.harness import raw_request

    http = prod
    mcr = await _create(http, "mcr", ["human", "human", "bot:greedy", "bot:random"])
    mid, tok0 = mcr["deal_id"], mcr["tokens"]["0"]
    start = {"command_id": "go", "command": {"type": "StartDeal", "client_seed": "headers"}}
    assert (await http.post(f"/deals/{mid}/commands", json=start, headers=auth(tok0))).status == 200
    before = await _settled_snapshot(http, mid, [tok0, mcr["tokens"]["1"]])
    token = tok0.encode()
    port = http.server.port
    routes = [
        b"/deals/" + mid.encode() + p
        for p in (b"/view", b"/events/stream", b"/replay?step=1", b"", b"/audit")
    ]
    headers: list[bytes] = [
        b"Authorization: Bearer \xe9t\xe9",  # Latin-1
        b"Authorization: Bearer " + token + b"\xc3\xa9",  # UTF-8 after a real token
        b"Authorization: \xff\xfe\xfd",
        b"Authorization: Bearer " + token + b"\x00",  # NUL
        b"Authorization: Bearer " + token + b"\x1b[31m",  # an escape sequence
        b"Authorization: Bearer " + b"A" * 7000,  # long, under aiohttp's line limit
        b"Authorization: Bearer " + b"A" * 20000,  # over aiohttp's line limit
        b"Authorization: Bearer " + token + b"\r\nAuthorization: Bearer " + token[::-1],  # two of them
        b"Authorization: Bearer\t" + token[::-1],
        b"Authorization: bearer " + token[::-1],
        b"Authorization: Bearer " + token[::-1] + b"\r\n " + token,  # obsolete line folding
        b"Auth\xe9rization: Bearer " + token,  # a header name outside ASCII
        b"X-\xe9\xe9: 1",
        b"Authorization : Bearer " + token,  # a space before the colon
        b": no name",
        b"Last-Event-ID: \xd9\xa1\xd9\xa2",  # Arabic-Indic digits
        b"Last-Event-ID: 99999999999999999999999",
        b"Last-Event-ID: 1\xff",
        b"Last-Event-ID: 0x10",
        b"Content-Type: application/json; charset=\xe9",
        b"Host: \xe9\xe9",
        b"\r\n".join(b"X-Many-%d: %d" % (i, i) for i in range(150)),  # more headers than allowed
        b"Transfer-Encoding: chunked\r\nContent-Length: 5",  # a smuggling shape
        b"Connection: \xff",
    ]
    outcomes = []
    for route in routes:
        for header in headers:
            head = b"GET " + route + b" HTTP/1.1\r\nHost: x\r\n" + header
            try:
                answer = await raw_request(port, head, timeout=10, head_only=route.endswith(b"/stream"))
            except (OSError, TimeoutError, ValueError, IndexError, asyncio.IncompleteReadError) as exc:
                outcomes.append((route, header[:60], 0, repr(exc)))
                continue
            outcomes.append((route, header[:60], answer.status, answer.headers.get("content-type", "")))
    for header in headers:
        body = json.dumps({"command_id": "h", "command": {"type": "Pass", "window": 1}}).encode()
        head = (
            b"POST /deals/"
            + mid.encode()
            + b"/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        )
        try:
            answer = await raw_request(port, head + header, body, timeout=10)
        except (OSError, TimeoutError, ValueError, IndexError) as exc:
            outcomes.append((b"commands", header[:60], 0, repr(exc)))
            continue
        outcomes.append((b"commands", header[:60], answer.status, answer.headers.get("content-type", "")))
    server_errors = [o for o in outcomes if o[2] >= 500 or o[2] == 0]
    assert not server_errors, "\n".join(map(str, server_errors))
    # a good header among bad ones may still be answered 200 (a stream, a view): every refusal is a problem
    refusals = [o for o in outcomes if o[2] >= 400]
    assert len(refusals) > len(outcomes) // 2
    not_problems = [o for o in refusals if not o[3].startswith(PROBLEM)]
    assert not not_problems, "\n".join(map(str, not_problems))
    await asyncio.sleep(0.1)
    assert await _snapshot(http) == before, "a hostile header appended or created something"
