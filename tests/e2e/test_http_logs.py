"""``--log-format json`` (issue 26): a real ``dealstream serve`` process logs one JSON object a
line; a request's access line carries its request id (``X-Request-Id`` taken when sane, made
otherwise, echoed either way), route template, deal, seat, status and duration; and no line of
the whole log holds a seat token, an invite code, a player key or a ``token=`` query."""

from __future__ import annotations

import asyncio
import json
import sys

import aiohttp
import pytest

from tests.e2e.conftest import wait_for
from tests.reliability.harness import ServiceProcess

pytestmark = pytest.mark.redis


def json_lines(output: str) -> list[dict]:
    """Every log line as an object; the one line serve prints on stdout (its URL) is not a log."""
    lines = []
    for line in output.splitlines():
        if not line.strip() or line.startswith("dealstream on http://"):
            continue
        lines.append(json.loads(line))  # fails the test on a line that is not one JSON object
    return lines


@pytest.mark.timeout(900)
async def test_json_logs_carry_the_request_and_no_secret(real_redis_url, key_prefix):
    service = ServiceProcess(
        real_redis_url, key_prefix, "--log-format", "json", "--metrics-port", "0"
    ).start()
    secrets: list[str] = []
    try:
        await service.ready(60)
        async with aiohttp.ClientSession(service.base) as http:
            async with http.post("/players/keys") as resp:  # a key as the service mints it
                key = (await resp.json())["player_key"]
            body = {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"], "name": "Zed"}
            async with http.post("/deals", json=body) as resp:
                assert resp.status == 201, await resp.text()
                created = await resp.json()
            deal_id, token, invite = created["deal_id"], created["tokens"]["0"], created["invites"]["1"]
            async with http.get(
                f"/deals/{deal_id}/view",
                headers={"Authorization": f"Bearer {token}", "X-Request-Id": "abc-123"},
            ) as resp:
                assert resp.status == 200
                assert resp.headers["X-Request-Id"] == "abc-123"
            async with http.post(f"/deals/{deal_id}/join", json={"invite": invite, "name": "Ann"}) as resp:
                assert resp.status == 201, await resp.text()
                joined = (await resp.json())["token"]
            # a token in the query string (EventSource), an unsafe request id, a refused token
            async with http.get(
                f"/deals/{deal_id}/events/stream", params={"token": joined}, timeout=None
            ) as resp:
                assert resp.status == 200
                await asyncio.wait_for(resp.content.readline(), 30)
            odd = "x" * 65
            async with http.get(f"/deals/{deal_id}", headers={"X-Request-Id": odd}) as resp:
                assert resp.status == 200
                made = resp.headers["X-Request-Id"]
                assert made and made != odd and len(made) <= 64
            async with http.get(f"/deals/{deal_id}/view", params={"token": token + "x"}) as resp:
                assert resp.status == 401
            async with http.get("/players/me/deals", headers={"X-Player-Key": key}) as resp:
                assert resp.status < 500
            secrets += [token, joined, invite, key]

            async def logged() -> bool:  # the stream's access line comes once the server saw it close
                return any(
                    '"dealstream.access"' in line and "/events/stream" in line
                    for line in service.output().splitlines()
                )

            await wait_for(logged, timeout=30)
    finally:
        service.kill()  # SIGKILL: nothing more is written; the output is unbuffered
        output = service.output()
        service.cleanup()

    lines = json_lines(output)
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(line), line
    mine = [line for line in lines if line.get("request_id") == "abc-123"]
    assert mine, "no line of the request abc-123"
    access = next(line for line in mine if line["logger"] == "dealstream.access")
    assert access["level"] == "info"
    assert access["route"] == "/deals/{deal_id}/view"
    assert access["method"] == "GET"
    assert access["deal_id"] == deal_id
    assert access["seat"] == 0
    assert access["status"] == 200
    assert isinstance(access["duration_ms"], (int, float)) and access["duration_ms"] >= 0
    assert any(line.get("request_id") == made for line in lines)
    stream = [
        line for line in lines if line["logger"] == "dealstream.access" and line["route"].endswith("/stream")
    ]
    assert stream and stream[0]["seat"] == 1  # the joined seat, from its token, never the token

    assert "token=" not in output
    for secret in secrets:
        assert secret not in output, "a secret is in the service's log"


# A program that puts its own hidden hand into every answer: a garbage line, then an answer that
# names a tile of its hand where no discard is legal. Each costs the seat its default move.
LEAKY_PROGRAM = """
import json, sys
for n, line in enumerate(sys.stdin):
    view = json.loads(line)["view"]
    hand = " ".join(str(t) for t in view["hand"])
    if n % 2 == 0:
        print("HIDDEN-HAND " + hand, flush=True)
    else:
        said = {"type": "Discard", "tile": view["hand"][0], "why": "HIDDEN-HAND " + hand}
        print(json.dumps(said), flush=True)
"""


@pytest.mark.timeout(900)
async def test_a_failing_program_s_words_do_not_reach_the_log(real_redis_url, key_prefix, tmp_path):
    """A bot program's failures are logged with their reason, but without what it said: its
    answers quote its hidden hand while the deal is live (issue 26: no hidden card in a log)."""
    program = tmp_path / "leaky.py"
    program.write_text(LEAKY_PROGRAM)
    service = ServiceProcess(
        real_redis_url, key_prefix, "--log-format", "json", "--metrics-port", "0",
        "--bot-program", f"leaky={sys.executable} {program}",
    ).start()  # fmt: skip
    try:
        await service.ready(60)
        async with aiohttp.ClientSession(service.base) as http:
            body = {"game": "mcr", "seats": ["bot:leaky", "bot:greedy", "bot:greedy", "bot:greedy"]}
            async with http.post("/deals", json=body) as resp:
                assert resp.status == 201, await resp.text()
                deal_id = (await resp.json())["deal_id"]

            async def over() -> bool:
                async with http.get(f"/deals/{deal_id}") as resp:
                    return (await resp.json())["over"]

            await wait_for(over, timeout=300, interval=0.5)
    finally:
        service.kill()
        output = service.output()
        service.cleanup()
    lines = json_lines(output)
    failures = [line for line in lines if "bot program leaky" in line["message"]]
    assert any("(garbage)" in line["message"] for line in failures), output[-3000:]
    assert "HIDDEN-HAND" not in output
