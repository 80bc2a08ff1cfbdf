"""Bot program processes have bounds anyone at the API meets (docs/bots.md, "Limits"): the program
seats of the live deals one address made (429 DS-32) and of all live deals (503 DS-33), counted
atomically, so a burst gets no more; a deal's end gives its seats back."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace

import pytest

from service import bootstrap
from service.app.bots import programs
from tests.e2e.conftest import ROOT, auth, close_within, wait_for

PY = sys.executable
EXAMPLE = (PY, str(ROOT / "examples" / "bots" / "first_legal.py"))
SLEEPS = "import sys, time\nsys.stdin.readline()\ntime.sleep(3600)\n"
PROBLEM = "application/problem+json"

pytestmark = [pytest.mark.timeout(900), pytest.mark.redis]


@pytest.fixture
async def bounded(aiohttp_client, store):
    """Programs ``ex`` (the example) and ``sleepy`` (never answers: its deal stays live); 5
    program seats in all, 3 an address; the test client is the trusted proxy."""
    programs.register(
        [programs.ProgramSpec("ex", EXAMPLE), programs.ProgramSpec("sleepy", (PY, "-c", SLEEPS))],
        programs.Limits(decision_s=60.0),
    )
    settings = replace(
        bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True, program_processes=5,
        program_processes_per_address=3, trusted_proxies=("127.0.0.0/8",),
    )  # fmt: skip
    app = bootstrap.application(store.redis, settings)
    client = await aiohttp_client(app)
    yield client
    await close_within(client, 90)
    programs.register([])


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def _create(http, address: str, seats: list[str]) -> tuple[int, dict, str | None]:
    body = {"game": "paohuzi", "seats": seats, "client_seed": "s"}
    async with http.post("/deals", json=body, headers=_from(address)) as resp:
        return resp.status, await resp.json(content_type=None), resp.headers.get("Retry-After")


def _refused(answer: tuple[int, dict, str | None], status: int, rule: str) -> None:
    got, problem, retry = answer
    assert got == status and problem["rule"] == rule, answer
    assert retry is not None and int(retry) > 0


async def test_program_seats_are_bounded_per_address_and_in_all(bounded):
    http = bounded
    seats = bounded.app[bootstrap.DEALS].program_seats
    # a deal of a fast program ends, and its seat is given back
    status, created, _ = await _create(http, "198.51.100.9", ["bot:ex", "bot:greedy", "bot:greedy"])
    assert status == 201, created

    async def ended() -> bool:
        summary = await (await http.get(f"/deals/{created['deal_id']}")).json()
        return summary["over"] and await seats.in_use() == 0

    await wait_for(ended, timeout=120, interval=0.1)

    # a burst from one address: exactly its share of program seats
    one = ["bot:sleepy", "bot:greedy", "bot:greedy"]
    burst = await asyncio.gather(*(_create(http, "203.0.113.1", one) for _ in range(6)))
    assert [a[0] for a in burst].count(201) == 3, burst
    for answer in burst:
        if answer[0] != 201:
            _refused(answer, 429, "DS-32")
    # another address fills what is left in all; a third meets the bound in all
    status, _, _ = await _create(http, "203.0.113.2", ["bot:sleepy", "bot:sleepy", "bot:greedy"])
    assert status == 201
    _refused(await _create(http, "203.0.113.3", one), 503, "DS-33")
    assert await seats.in_use() == 5
    # a deal without a program is not bounded by them; putting a program in its open seat is
    status, table, _ = await _create(http, "203.0.113.3", ["human", "open", "bot:greedy"])
    assert status == 201
    async with http.post(
        f"/deals/{table['deal_id']}/seats/1/bot", json={"level": "sleepy"},
        headers={**auth(table["tokens"]["0"]), **_from("203.0.113.3")},
    ) as resp:  # fmt: skip
        assert resp.status == 503 and resp.content_type == PROBLEM
        assert (await resp.json())["rule"] == "DS-33"
    host = bounded.app[bootstrap.DEALS].bots.programs
    assert host.running <= 5
