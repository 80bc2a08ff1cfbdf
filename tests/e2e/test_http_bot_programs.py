"""Bot programs at a table through HTTP (issue 25, docs/bots.md): the operator registers a program,
a deal seats it as ``bot:NAME``, the server plays it to the end and the audit is green; a program
that hangs costs its seat the default move (TB-2.5) and the log says why; the API seats no name
the operator did not register."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from dataclasses import replace

import aiohttp
import pytest

from service import bootstrap
from service.app.bots import programs
from tests.e2e.conftest import ROOT, _free_port, close_within, wait_for

PY = sys.executable
EXAMPLE = (PY, str(ROOT / "examples" / "bots" / "first_legal.py"))
SLEEPS = "import sys, time\nsys.stdin.readline()\ntime.sleep(3600)\n"

pytestmark = pytest.mark.timeout(900)


@pytest.fixture
async def http_programs(request, aiohttp_client, store):
    """A --dev app with two programs registered: ``ex`` (the Python example) and ``sleepy``
    (answers nothing). The limits are every program's: 30 s a decision by default (a loaded
    machine may take seconds to start the example's process); a test that wants a timeout
    passes its own (``indirect`` parametrisation)."""
    decision_s = getattr(request, "param", 30.0)
    programs.register(
        [programs.ProgramSpec("ex", EXAMPLE), programs.ProgramSpec("sleepy", (PY, "-c", SLEEPS))],
        programs.Limits(decision_s=decision_s),
    )
    app = bootstrap.application(store.redis, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True))
    client = await aiohttp_client(app)
    yield client
    await close_within(client, 90)
    programs.register([])


async def finished(http, deal_id: str, timeout: float = 120) -> list[dict]:
    async def over():
        return (await (await http.get(f"/deals/{deal_id}")).json())["over"]

    await wait_for(over, timeout=timeout, interval=0.1)
    audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
    assert audit["ok"], audit["problems"]
    text = await (await http.get(f"/deals/{deal_id}/log")).text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(
    "game,seats",
    [("paohuzi", ["bot:ex", "bot:ex", "bot:greedy"]), ("mcr", ["bot:ex", "bot:greedy", "bot:ex", "bot:ex"])],
)
async def test_a_program_plays_a_whole_deal_at_a_table(http_programs, game, seats):
    resp = await http_programs.post("/deals", json={"game": game, "seats": seats, "client_seed": "p"})
    assert resp.status == 201 or resp.status == 200, await resp.text()
    deal_id = (await resp.json())["deal_id"]
    records = await finished(http_programs, deal_id)
    ids = [r.get("command_id") or "" for r in records]
    assert not [i for i in ids if i.startswith("prog:")], ids  # the example never failed
    program_seats = {i for i, s in enumerate(seats) if s == "bot:ex"}
    moved = {int(i.split(":")[1]) for i in ids if i.startswith("bot:")}
    assert program_seats <= moved


@pytest.mark.parametrize("http_programs", [1.0], indirect=True)  # one second a decision
async def test_a_hanging_program_costs_its_seat_the_default_move_and_the_log_says_why(http_programs):
    seats = ["bot:sleepy", "bot:greedy", "bot:greedy"]
    created = await (
        await http_programs.post("/deals", json={"game": "paohuzi", "seats": seats, "client_seed": "h"})
    ).json()
    records = await finished(http_programs, created["deal_id"])
    ids = list(dict.fromkeys(r.get("command_id") or "" for r in records))  # a batch's records share one
    reasons = [i.split(":")[-1] for i in ids if i.startswith("prog:sleepy:0:")]
    assert reasons[:3] == ["timeout"] * 3 and set(reasons[3:]) <= {"given_up"}, reasons
    host = http_programs.app[bootstrap.DEALS].bots.programs
    await wait_for(lambda: _empty(host), timeout=30)  # the deal's processes end with it


async def _empty(host) -> bool:
    return not host.seats


async def test_the_api_seats_only_registered_programs(http_programs):
    for seat in ("bot:nobody", "bot:prog:ex", "prog:ex", "bot:EX"):
        resp = await http_programs.post(
            "/deals", json={"game": "mcr", "seats": [seat, "human", "human", "human"], "client_seed": "x"}
        )
        assert resp.status == 400, seat
        problem = await resp.json()
        assert problem["rule"] == "DS-5" and "bot:ex" in problem["detail"], problem
    games = await (await http_programs.get("/games")).json()
    for game in games["games"]:
        assert "ex" in game["bots"] and "sleepy" in game["bots"]
    assert "first_legal" not in json.dumps(games) and PY not in json.dumps(games)  # names, never commands


async def test_dealstream_serve_with_a_bot_program(real_redis_url, key_prefix, tmp_path):
    """The real command line: ``serve --bot-program`` seats the example; the deal ends, audit green."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            PY, "-m", "service.cli", "serve", "--port", str(port), "--redis", real_redis_url,
            "--prefix", key_prefix, "--bot-delay", "0", "--metrics-port", "0", "--processes", "1",
            "--data-dir", str(tmp_path / "data"),
            "--bot-program", "ex=python3 examples/bots/first_legal.py",
        ],
        cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        async with aiohttp.ClientSession() as session:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while True:
                try:
                    async with session.get(f"{base}/health") as resp:
                        if resp.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                assert proc.poll() is None and loop.time() < deadline, proc.stdout.read().decode()
                await asyncio.sleep(0.1)
            body = {"game": "mcr", "seats": ["bot:ex"] * 4, "client_seed": "s"}
            async with session.post(f"{base}/deals", json=body) as resp:
                assert resp.status in (200, 201), await resp.text()
                deal_id = (await resp.json())["deal_id"]

            async def over():
                async with session.get(f"{base}/deals/{deal_id}") as resp:
                    return (await resp.json())["over"]

            await wait_for(over, timeout=120, interval=0.1)
            async with session.get(f"{base}/deals/{deal_id}/audit") as resp:
                audit = await resp.json()
            assert audit["ok"], audit["problems"]
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(30)
        from service.store.connection import connect
        from tests.conftest import drop_prefix

        client = connect(real_redis_url)
        await drop_prefix(client, key_prefix)
        await client.aclose()
