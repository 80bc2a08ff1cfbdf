"""A live stream ends with ``retry`` when its process stops (issue 26): the stream hub's close at
shutdown ends each open stream with that message (the last version it sent, and an SSE
``retry:`` field), and a stream asked for after that gets only the message."""

from __future__ import annotations

import json
import re

import pytest

from service.http.routes import HUB
from service.http.sse import RETRY_MS
from tests.e2e.conftest import auth

pytestmark = pytest.mark.redis


async def read_messages(resp, until: str | None = None) -> list[dict]:
    """SSE messages as dicts (event, id, data, retry) until ``until`` or the stream's end."""
    messages, current = [], {}
    async for raw in resp.content:
        line = raw.decode().rstrip("\r\n")
        if not line:
            if current:
                messages.append(current)
                if current.get("event") == until:
                    return messages
            current = {}
            continue
        name, _, value = line.partition(": ")
        current[name] = value
    return messages


async def test_open_streams_end_with_retry_and_new_ones_get_only_retry(http):
    created = await (
        # nothing moves by itself; open to spectators, whose stream ends alike
        await http.post("/deals", json={"game": "paohuzi", "seats": ["human"] * 3, "spectators": True})
    ).json()
    deal_id, token = created["deal_id"], created["tokens"]["0"]
    start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": "retry"}}
    assert (await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(token))).status == 200
    seat = await http.get(f"/deals/{deal_id}/events/stream", headers=auth(token))
    spectator = await http.get(f"/deals/{deal_id}/events/stream")
    assert seat.status == spectator.status == 200
    seen = {}
    for name, resp in (("seat", seat), ("spectator", spectator)):
        seen[name] = await read_messages(resp, until="view")  # the backlog is in
    await http.app[HUB].close()  # what the app's shutdown does first
    for name, resp in (("seat", seat), ("spectator", spectator)):
        rest = await read_messages(resp)
        ends = [m for m in rest if m.get("event") == "retry"]
        assert len(ends) == 1 and rest[-1] is ends[0], rest
        last_id = max(int(m["id"].split(".")[0]) for m in seen[name] + rest if "id" in m)
        assert json.loads(ends[0]["data"]) == {"version": last_id}
        assert ends[0]["retry"] == str(RETRY_MS)
    # a stream asked for while the process stops: the retry message only, from where it asked
    late = await http.get(f"/deals/{deal_id}/events/stream", headers={"Last-Event-ID": "3"})
    assert late.status == 200
    body = await late.text()
    assert re.findall(r"^event: (\S+)", body, re.M) == ["retry"], body
    assert '"version": 3' in body
