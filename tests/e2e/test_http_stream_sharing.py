"""Live streams share their work and read back nothing the process wrote (issue 46).

Two service "processes" (two apps, each with its own Redis client, fold cache and stream hub)
on one store. Process A takes every command of a whole deal of people and serves three
spectator streams of it; process B serves one. A's hub gets each batch from A's own appends (it
reads none of them back from Redis); B's hub reads them after the doorbell. Each command waits
until every stream has shown its batch, so both hubs deliver the same batches: A's three
spectators share one part per batch, B's lone spectator has a part of its own, and all four get
the same bytes.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace

import aiohttp
import pytest

from service import bootstrap
from service.http.routes import HUB
from service.store.connection import connect
from tests.e2e.conftest import close_within

pytestmark = pytest.mark.redis
SEATS = {"paohuzi": 3, "mcr": 4}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Frames:
    """One stream's bytes as they arrive: its frames without keep-alive comments."""

    def __init__(self, resp) -> None:
        self.resp = resp
        self.raw = bytearray()
        self.frames: list[bytes] = []
        self.views: set[str] = set()  # ids of the view messages (``<version>.<tag>``)
        self.changed = asyncio.Event()
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            await self._frames()
        except aiohttp.ClientConnectionError:  # the test ended first (it failed)
            pass

    async def _frames(self) -> None:
        while chunk := await self.resp.content.readany():
            self.raw += chunk
            while b"\r\n\r\n" in self.raw:
                frame, _, rest = bytes(self.raw).partition(b"\r\n\r\n")
                self.raw = bytearray(rest)
                if frame.startswith(b":"):
                    continue  # a keep-alive comment: when it comes is no part of the content
                self.frames.append(frame + b"\r\n\r\n")
                lines = frame.split(b"\r\n")
                if b"event: view" in lines and lines[0].startswith(b"id: "):
                    self.views.add(lines[0][4:].decode())
            self.changed.set()

    async def shown(self, version: int) -> None:
        try:
            async with asyncio.timeout(10):
                while not any(v.split(".")[0] == str(version) for v in self.views):
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(
                f"no view of version {version} in {sorted(self.views)[-5:]} {self.frames[-2:]}"
            ) from None

    async def ended(self) -> bytes:
        async with asyncio.timeout(10):
            await self.task
        return b"".join(self.frames)


@pytest.fixture
async def process_b(aiohttp_client, real_redis_url, store):
    client = connect(real_redis_url)
    app = bootstrap.application(client, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True))
    http = await aiohttp_client(app)
    yield http
    await close_within(http, 90)
    await client.aclose()


@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
async def test_spectators_share_one_part_each_as_alone_and_the_writer_reads_none_back(http, process_b, game):
    body = {"game": game, "seats": ["human"] * SEATS[game], "spectators": True}
    created = await (await http.post("/deals", json=body)).json()
    deal_id = created["deal_id"]
    tokens = [created["tokens"][str(s)] for s in range(SEATS[game])]
    path = f"/deals/{deal_id}/events/stream"
    shared = [Frames(await http.get(path)) for _ in range(3)]
    alone = Frames(await process_b.get(path))
    streams = [*shared, alone]
    hub_a, hub_b = http.app[HUB], process_b.app[HUB]
    version = (await (await http.get(f"/deals/{deal_id}/view", headers=auth(tokens[0]))).json())["version"]
    for stream in streams:
        await stream.shown(version)
    version_before = version
    async with asyncio.timeout(10):  # the hubs' first reads done, their doorbells in force
        while not (hub_a.settled(deal_id) and hub_b.settled(deal_id)):
            await asyncio.sleep(0.01)
    read_before, fetched_before = hub_a.reads, hub_a.fetched
    own_before, b_before = hub_a.own, hub_b.fetched

    rng = random.Random(f"share-{game}")
    commands = 0
    command = {"type": "StartDeal", "client_seed": f"share-{game}"}
    seat = 0
    while True:
        answer = await http.post(
            f"/deals/{deal_id}/commands",
            json={"command_id": f"c{commands}", "command": command},
            headers=auth(tokens[seat]),
        )
        assert answer.status == 200, await answer.text()
        commands += 1
        version = (await answer.json())["version"]
        for stream in streams:  # lockstep: each batch is delivered alone, in every process
            await stream.shown(version)
        views = [await (await http.get(f"/deals/{deal_id}/view", headers=auth(t))).json() for t in tokens]
        if views[0]["result"] is not None:
            break
        seat, view = rng.choice([(s, v) for s, v in enumerate(views) if v["legal_actions"]])
        command = rng.choice(view["legal_actions"])
        assert commands < 5_000

    texts = [await stream.ended() for stream in streams]
    assert b"event: deal-over" in texts[0] and texts[0].count(b"event: view") > commands // 2
    assert texts[0] == texts[1] == texts[2] == texts[3]  # shared (A) and alone (B), byte for byte
    # A delivered every batch of its own from the append: no read of them, no record read back
    assert hub_a.reads == read_before
    assert hub_a.fetched == fetched_before
    assert hub_a.own - own_before == commands
    # B, which wrote nothing, read every record from Redis after the doorbells
    last = int(texts[3].rsplit(b"id: ", 1)[1].split(b".", 1)[0])
    assert hub_b.fetched - b_before == last - version_before


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
async def test_a_seats_answer_carries_the_view_its_stream_shows(http, game):
    """The seat's stream is open in the process that takes its command: the answer's view is
    the one the stream's part for that batch shows (made once for both), at the answer's version."""
    body = {"game": game, "seats": ["human"] * SEATS[game]}
    created = await (await http.post("/deals", json=body)).json()
    deal_id = created["deal_id"]
    tokens = [created["tokens"][str(s)] for s in range(SEATS[game])]
    streams = [Frames(await http.get(f"/deals/{deal_id}/events/stream", headers=auth(t))) for t in tokens]
    command, seat = {"type": "StartDeal", "client_seed": f"answer-{game}"}, 0
    rng = random.Random(f"answer-{game}")
    for n in range(30):
        answer = await http.post(
            f"/deals/{deal_id}/commands",
            json={"command_id": f"c{n}", "command": command, "return_view": True},
            headers=auth(tokens[seat]),
        )
        assert answer.status == 200, await answer.text()
        answered = await answer.json()
        assert answered["view"]["version"] == answered["version"]
        await streams[seat].shown(answered["version"])
        frame = next(
            f
            for f in streams[seat].frames
            if f.startswith(f"id: {answered['version']}.".encode()) and b"event: view" in f
        )
        data = frame.split(b"data: ", 1)[1].rstrip(b"\r\n")
        assert json.loads(data) == answered["view"]
        views = [await (await http.get(f"/deals/{deal_id}/view", headers=auth(t))).json() for t in tokens]
        if views[0]["result"] is not None:
            break
        seat, view = rng.choice([(s, v) for s, v in enumerate(views) if v["legal_actions"]])
        command = rng.choice(view["legal_actions"])
    for stream in streams:
        stream.resp.close()
        stream.task.cancel()
